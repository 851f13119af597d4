/* LmAstroSession (astro-session.h): the FITS data's own worker. It keeps one CPU backend and,
 * once asked for, one CUDA backend with the data uploaded once, apart from the render worker:
 * the render worker shows the 8-bit view this thread makes, as it shows a photo. */
#include "astro-session.h"

#include <glib/gi18n.h>

#include "core/backend/stretch-run.h"
#include "core/error.h"

/* What the main thread holds of the session: results in flight find it dead once the
 * session is freed. */
typedef struct {
  gint ref_count;
  gboolean alive;
  LmAstroDone done;
  gpointer user_data;
} Link;

typedef struct {
  gboolean pending;
  guint64 generation;
  LmBackendKind backend;
  LmStretchParams stretch;
  LmDetectParams detect;
} Slot;

struct _LmAstroSession {
  GThread *thread;
  GMutex lock;
  GCond wake;
  gboolean quit;
  Slot stretch, detect;
  GCancellable *detecting; /* the detection under way, to cancel when a newer one comes */
  Link *link;
  GMainContext *context;
  /* the thread's own */
  LmImage *data;
  gboolean flip;
  LmBackend *cpu, *cuda;
  LmImage *on_cuda;     /* DATA in the CUDA backend's memory */
  char *cuda_failed;    /* why the CUDA backend could not be used */
  guint8 *table;
  LmStretchKind table_kind;
};

static Link *
link_ref (Link *link)
{
  g_atomic_int_inc (&link->ref_count);
  return link;
}

static void
link_unref (Link *link)
{
  if (g_atomic_int_dec_and_test (&link->ref_count))
    g_free (link);
}

typedef struct {
  Link *link;
  LmAstroResult *result;
} Delivery;

static void
result_free (LmAstroResult *r)
{
  g_clear_error (&r->error);
  g_free (r->notice);
  g_clear_pointer (&r->view, lm_image_unref);
  g_clear_pointer (&r->detect, lm_detect_result_free);
  g_free (r);
}

static gboolean
deliver (gpointer data)
{
  Delivery *d = data;
  if (d->link->alive)
    d->link->done (d->result, d->link->user_data);
  return G_SOURCE_REMOVE;
}

static void
delivery_free (gpointer data)
{
  Delivery *d = data;
  result_free (d->result);
  link_unref (d->link);
  g_free (d);
}

static void
post (LmAstroSession *self, LmAstroResult *r)
{
  Delivery *d = g_new0 (Delivery, 1);
  d->link = link_ref (self->link);
  d->result = r;
  g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT, deliver, d, delivery_free);
}

/* The backend KIND names and the data in its memory; the CPU, with a notice, where CUDA
 * cannot run. */
static LmBackend *
backend_for (LmAstroSession *self, LmBackendKind kind, LmImage **image, char **notice)
{
  if (kind == LM_BACKEND_CUDA && self->cuda == NULL && self->cuda_failed == NULL)
    {
      GError *e = NULL;
      self->cuda = lm_backend_new (LM_BACKEND_CUDA, &e);
      if (self->cuda)
        self->on_cuda = lm_backend_upload (self->cuda, self->data, &e);
      if (e)
        {
          self->cuda_failed = g_strdup (e->message);
          g_clear_pointer (&self->on_cuda, lm_image_unref);
          g_clear_pointer (&self->cuda, lm_backend_free);
          g_error_free (e);
        }
    }
  if (kind == LM_BACKEND_CUDA && self->cuda)
    {
      *image = self->on_cuda;
      return self->cuda;
    }
  if (kind == LM_BACKEND_CUDA)
    *notice = g_strdup_printf (_("Computed on the CPU: %s"), self->cuda_failed);
  *image = self->data;
  return self->cpu;
}

static void
run_stretch (LmAstroSession *self, const Slot *slot)
{
  LmAstroResult *r = g_new0 (LmAstroResult, 1);
  r->generation = slot->generation;
  gint64 t0 = g_get_monotonic_time ();
  LmImage *image;
  LmBackend *b = backend_for (self, slot->backend, &image, &r->notice);
  r->backend_name = lm_backend_name (b);
  if (self->table_kind != slot->stretch.kind)
    {
      lm_stretch_table (slot->stretch.kind, self->table);
      self->table_kind = slot->stretch.kind;
    }
  g_autoptr (LmImage) out = NULL;
  if (lm_stretch_limits (self->data, &slot->stretch, &r->low, &r->high, &r->error)
      && (out = lm_image_new (LM_FORMAT_RGBA8, image->width, image->height, lm_backend_work_allocator (b),
                              &r->error))
      && lm_stretch_run (b, image, r->low, r->high, self->table, self->flip, out, &r->error))
    {
      r->view = lm_backend_download (b, out, &r->error);
      lm_stretch_histogram (self->data, r->low, r->high, &r->histogram);
    }
  r->ms = (g_get_monotonic_time () - t0) / 1000.0;
  post (self, r);
}

static void
run_detect (LmAstroSession *self, const Slot *slot, GCancellable *cancellable)
{
  LmAstroResult *r = g_new0 (LmAstroResult, 1);
  r->is_detect = TRUE;
  r->generation = slot->generation;
  LmImage *image;
  LmBackend *b = backend_for (self, slot->backend, &image, &r->notice);
  r->backend_name = lm_backend_name (b);
  r->detect = lm_detect (b, image, &slot->detect, cancellable, &r->error);
  if (g_error_matches (r->error, LUMEN_ERROR, LM_ERROR_CANCELLED)
      || g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      result_free (r); /* a newer request is waiting: nobody wants this one */
      return;
    }
  post (self, r);
}

static gpointer
thread_main (gpointer data)
{
  LmAstroSession *self = data;
  self->cpu = lm_backend_cpu_new ();
  g_mutex_lock (&self->lock);
  for (;;)
    {
      while (!self->quit && !self->stretch.pending && !self->detect.pending)
        g_cond_wait (&self->wake, &self->lock);
      if (self->quit)
        break;
      /* The view first: it is what a person waits to see. */
      gboolean stretch = self->stretch.pending;
      Slot slot = stretch ? self->stretch : self->detect;
      (stretch ? &self->stretch : &self->detect)->pending = FALSE;
      GCancellable *cancellable = NULL;
      if (!stretch)
        cancellable = self->detecting = g_cancellable_new ();
      g_mutex_unlock (&self->lock);
      if (stretch)
        run_stretch (self, &slot);
      else
        run_detect (self, &slot, cancellable);
      g_mutex_lock (&self->lock);
      if (cancellable)
        {
          self->detecting = NULL;
          g_object_unref (cancellable);
        }
    }
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&self->on_cuda, lm_image_unref);
  g_clear_pointer (&self->cuda, lm_backend_free);
  g_clear_pointer (&self->cpu, lm_backend_free);
  return NULL;
}

LmAstroSession *
lm_astro_session_new (LmImage *data, gboolean flip, LmAstroDone done, gpointer user_data)
{
  g_return_val_if_fail (data->format == LM_FORMAT_GRAY_F32, NULL);
  LmAstroSession *self = g_new0 (LmAstroSession, 1);
  g_mutex_init (&self->lock);
  g_cond_init (&self->wake);
  self->link = g_new0 (Link, 1);
  *self->link = (Link) { 1, TRUE, done, user_data };
  self->context = g_main_context_ref_thread_default ();
  self->data = lm_image_ref (data);
  self->flip = flip;
  self->table = g_malloc (LM_STRETCH_LEVELS);
  self->table_kind = LM_STRETCH_N_KINDS; /* none made yet */
  self->thread = g_thread_new ("lumen-astro", thread_main, self);
  return self;
}

void
lm_astro_session_free (LmAstroSession *self)
{
  if (self == NULL)
    return;
  self->link->alive = FALSE;
  g_mutex_lock (&self->lock);
  self->quit = TRUE;
  if (self->detecting)
    g_cancellable_cancel (self->detecting);
  g_cond_signal (&self->wake);
  g_mutex_unlock (&self->lock);
  g_thread_join (self->thread);
  link_unref (self->link);
  g_main_context_unref (self->context);
  lm_image_unref (self->data);
  g_free (self->cuda_failed);
  g_free (self->table);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->wake);
  g_free (self);
}

void
lm_astro_session_stretch (LmAstroSession *self, guint64 generation, const LmStretchParams *params,
                          LmBackendKind backend)
{
  g_mutex_lock (&self->lock);
  self->stretch = (Slot) { .pending = TRUE, .generation = generation, .backend = backend, .stretch = *params };
  g_cond_signal (&self->wake);
  g_mutex_unlock (&self->lock);
}

void
lm_astro_session_detect (LmAstroSession *self, guint64 generation, const LmDetectParams *params,
                         LmBackendKind backend)
{
  g_mutex_lock (&self->lock);
  self->detect = (Slot) { .pending = TRUE, .generation = generation, .backend = backend, .detect = *params };
  if (self->detecting)
    g_cancellable_cancel (self->detecting);
  g_cond_signal (&self->wake);
  g_mutex_unlock (&self->lock);
}
