/* The render worker (render.h). */
#include "render.h"

#include <math.h>
#include <glib/gi18n.h>

#include "error.h"
#include "render-cache.h"
#include "view.h"

#define N_SIDES 2 /* 0: CPU, 1: CUDA */
#define VIEW_POOL 3

typedef enum {
  JOB_COMPARE,
  JOB_EXPORT,
  JOB_MERGE,
} JobKind;

typedef struct {
  JobKind kind;
  LmRenderRequest request;
  LmBackendKind sides[2]; /* compare: the two backends */
  float gain;
  char *path;
  LmSaveOptions options;
  GCancellable *cancellable;
  /* merge */
  char **paths;
  double *times;
  guint n;
  LmHdrMethod method;
  gboolean align;
} Job;

/* What results in flight share with the worker, so that they can be delivered (or dropped)
 * after it is gone, and give their view buffer back. */
typedef struct {
  gint ref_count;
  gboolean closed; /* the receiver is gone: deliver nothing */
  LmRenderDone done;
  gpointer user_data;
  GMutex lock;
  GPtrArray *free_views; /* host view buffers to reuse */
} Channel;

typedef struct {
  LmBackend *backend;
  double upload_ms; /* of the last upload, until a render reports it */
  LmImage *source; /* uploaded once per photo */
  LmRenderCache *cache;
  LmImage *view;   /* the view, made where the image lives */
} Side;

struct _LmRenderWorker {
  GThread *thread;
  GMutex lock;
  GCond wake;
  gboolean quit;
  LmImage *next_source;
  gboolean source_pending;
  gboolean has_request;
  LmRenderRequest request;
  GQueue jobs;
  GMainContext *context;
  Channel *channel;
  const LmAllocator *host_allocator; /* under lock: set once CUDA has been probed */

  /* The thread's own. */
  LmImage *source;
  Side sides[N_SIDES];
  char *cuda_unavailable;
  LmImage *shrunk; /* the quick preview's source on the CPU */
  LmRenderCache *shrunk_cache;
};

static Channel *
channel_ref (Channel *c)
{
  g_atomic_int_inc (&c->ref_count);
  return c;
}

static void
channel_unref (Channel *c)
{
  if (!g_atomic_int_dec_and_test (&c->ref_count))
    return;
  g_ptr_array_unref (c->free_views);
  g_mutex_clear (&c->lock);
  g_free (c);
}

typedef struct {
  Channel *channel;
  LmRenderResult *result;
} Delivery;

static void
result_free (Channel *channel, LmRenderResult *r)
{
  g_clear_error (&r->error);
  g_free (r->notice);
  g_free (r->cuda_unavailable);
  g_free (r->cuda_description);
  g_free (r->path);
  g_free (r->response);
  g_clear_pointer (&r->image, lm_image_unref);
  if (r->timings.entries)
    lm_timings_clear (&r->timings);
  if (r->timings_other.entries)
    lm_timings_clear (&r->timings_other);
  /* A view buffer goes back to the pool only when nobody kept it (the window keeps the one
   * on screen until the next arrives). */
  if (r->view && r->kind == LM_RESULT_PREVIEW && g_atomic_int_get (&r->view->ref_count) == 1)
    {
      g_mutex_lock (&channel->lock);
      if (channel->free_views->len < VIEW_POOL)
        g_ptr_array_add (channel->free_views, g_steal_pointer (&r->view));
      g_mutex_unlock (&channel->lock);
    }
  g_clear_pointer (&r->view, lm_image_unref);
  g_free (r);
}

static gboolean
deliver (gpointer data)
{
  Delivery *d = data;
  if (!d->channel->closed)
    d->channel->done (d->result, d->channel->user_data);
  return G_SOURCE_REMOVE;
}

static void
delivery_free (gpointer data)
{
  Delivery *d = data;
  result_free (d->channel, d->result);
  channel_unref (d->channel);
  g_free (d);
}

/* Always queued on the receiver's context: g_main_context_invoke_full would run DELIVER
 * right here, in the worker, whenever this thread can acquire that context (it can, for the
 * global default context, whenever the main thread is between iterations). */
static void
post (LmRenderWorker *w, LmRenderResult *result)
{
  Delivery *d = g_new (Delivery, 1);
  d->channel = channel_ref (w->channel);
  d->result = result;
  GSource *source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, deliver, d, delivery_free);
  g_source_set_static_name (source, "[lumen] render result");
  g_source_attach (source, w->context);
  g_source_unref (source);
}

static LmRenderResult *
result_new (LmResultKind kind, const LmRenderRequest *request)
{
  LmRenderResult *r = g_new0 (LmRenderResult, 1);
  r->kind = kind;
  if (request)
    {
      r->generation = request->generation;
      r->changed_us = request->changed_us;
      r->view_rect = request->view;
    }
  return r;
}

/* Host memory that uploads fastest (pinned when CUDA is usable). */
static const LmAllocator *
fast_host (LmRenderWorker *w)
{
  return w->sides[1].backend ? lm_backend_host_allocator (w->sides[1].backend) : lm_allocator_host ();
}

/* A host buffer for a view of W × H, reused from earlier results when one fits. */
static LmImage *
view_buffer (LmRenderWorker *w, int width, int height, GError **error)
{
  Channel *c = w->channel;
  LmImage *found = NULL;
  g_mutex_lock (&c->lock);
  for (guint i = 0; i < c->free_views->len && !found; i++)
    {
      LmImage *v = g_ptr_array_index (c->free_views, i);
      if (v->width == (guint) width && v->height == (guint) height)
        found = g_ptr_array_steal_index_fast (c->free_views, i);
    }
  if (!found)
    g_ptr_array_set_size (c->free_views, 0); /* another size: the old buffers are of no use */
  g_mutex_unlock (&c->lock);
  if (found)
    return found;
  return lm_image_new (LM_FORMAT_RGBA8, width, height, fast_host (w), error);
}

static void
side_reset (Side *side)
{
  g_clear_pointer (&side->cache, lm_render_cache_free);
  g_clear_pointer (&side->source, lm_image_unref);
  g_clear_pointer (&side->view, lm_image_unref);
}

/* The backend of KIND, or NULL and the reason. */
static LmBackend *
backend_for (LmRenderWorker *w, LmBackendKind kind, GError **error)
{
  Side *side = &w->sides[kind == LM_BACKEND_CUDA ? 1 : 0];
  if (side->backend == NULL)
    {
      if (kind == LM_BACKEND_CUDA)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, "%s",
                       w->cuda_unavailable ? w->cuda_unavailable : _("CUDA is not available"));
          return NULL;
        }
      side->backend = lm_backend_cpu_new ();
    }
  return side->backend;
}

/* A cache of SIDE's source that can tone map on the CPU where the backend cannot yet. */
static LmRenderCache *
cache_new (LmRenderWorker *w, Side *side)
{
  LmRenderCache *cache = lm_render_cache_new (side->backend, side->source);
  lm_render_cache_set_fallback (cache, w->sides[0].backend, w->source);
  return cache;
}

/* The backend of KIND with the photo uploaded, or NULL and an error. */
static Side *
side_for (LmRenderWorker *w, LmBackendKind kind, GError **error)
{
  Side *side = &w->sides[kind == LM_BACKEND_CUDA ? 1 : 0];
  if (backend_for (w, kind, error) == NULL)
    return NULL;
  if (w->source == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("no photo is open"));
      return NULL;
    }
  if (side->source == NULL)
    {
      gint64 t = g_get_monotonic_time ();
      side->source = lm_backend_upload (side->backend, w->source, error);
      if (side->source == NULL || !lm_backend_synchronize (side->backend, error))
        {
          side_reset (side);
          return NULL;
        }
      side->cache = cache_new (w, side);
      side->upload_ms = lm_ms_since (t);
    }
  return side;
}

const LmAllocator *
lm_render_worker_host_allocator (LmRenderWorker *w)
{
  g_mutex_lock (&w->lock);
  const LmAllocator *a = w->host_allocator ? w->host_allocator : lm_allocator_host ();
  g_mutex_unlock (&w->lock);
  return a;
}

static void
adopt_source (LmRenderWorker *w, LmImage *source)
{
  for (int i = 0; i < N_SIDES; i++)
    side_reset (&w->sides[i]);
  g_clear_pointer (&w->shrunk_cache, lm_render_cache_free);
  g_clear_pointer (&w->shrunk, lm_image_unref);
  g_clear_pointer (&w->source, lm_image_unref);
  w->source = source;
}

static gboolean
superseded (LmRenderWorker *w)
{
  g_mutex_lock (&w->lock);
  gboolean newer = w->has_request || w->source_pending || w->quit;
  g_mutex_unlock (&w->lock);
  return newer;
}

/* The CPU's quick pass: the pipeline on the photo shrunk to about the view's scale, so that
 * the first paint of a large photo comes fast; the full-resolution render follows. */
static void
quick_preview (LmRenderWorker *w, const LmRenderRequest *req, int factor)
{
  GError *e = NULL;
  LmImage *src = w->source;
  if (w->shrunk == NULL || w->shrunk->width != (src->width + factor - 1) / factor)
    {
      g_clear_pointer (&w->shrunk_cache, lm_render_cache_free);
      g_clear_pointer (&w->shrunk, lm_image_unref);
      w->shrunk = lm_image_new (src->format, (src->width + factor - 1) / factor,
                                (src->height + factor - 1) / factor, lm_allocator_host (), &e);
      if (w->shrunk == NULL)
        {
          g_error_free (e);
          return; /* the full render still comes */
        }
      lm_shrink_cpu (src, w->shrunk);
      w->shrunk_cache = lm_render_cache_new (w->sides[0].backend, w->shrunk);
    }

  LmPipeline pipeline = req->pipeline;
  lm_pipeline_scale (&pipeline, (double) src->width / w->shrunk->width);
  g_autoptr (LmImage) out = lm_render_cache_run (w->shrunk_cache, &pipeline, NULL, &e);
  double fx = (double) w->shrunk->width / src->width, fy = (double) w->shrunk->height / src->height;
  LmViewRect rect = { req->view.rx * fx, req->view.ry * fy, req->view.rw * fx, req->view.rh * fy,
                      req->view.out_w, req->view.out_h };
  rect.rw = MIN (rect.rw, w->shrunk->width - rect.rx);
  rect.rh = MIN (rect.rh, w->shrunk->height - rect.ry);
  LmRenderResult *r = result_new (LM_RESULT_PREVIEW, req);
  r->backend_name = "cpu";
  r->width = src->width, r->height = src->height;
  if (out != NULL && (r->view = view_buffer (w, rect.out_w, rect.out_h, &e)) != NULL
      && lm_backend_view (w->sides[0].backend, out, &rect, r->view, &e)
      && lm_backend_histogram (w->sides[0].backend, out, LM_HIST_WANT_ALL, &r->histogram, &e))
    post (w, r);
  else
    {
      g_clear_error (&e); /* the full render reports what went wrong */
      result_free (w->channel, r);
    }
}

/* The pipeline at full resolution on SIDE, its view and histogram into R. */
static gboolean
render_full (LmRenderWorker *w, Side *side, const LmRenderRequest *req, LmRenderResult *r,
             GError **error)
{
  lm_timings_init (&r->timings);
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) out = lm_render_cache_run (side->cache, &req->pipeline, &r->timings, error);
  if (out == NULL)
    return FALSE;
  if (lm_render_cache_last_notice (side->cache))
    {
      g_free (r->notice);
      r->notice = g_strdup_printf (_("%s; tone mapped on the CPU"), lm_render_cache_last_notice (side->cache));
    }
  const LmViewRect *v = &req->view;
  if (side->view == NULL || side->view->width != (guint) v->out_w || side->view->height != (guint) v->out_h)
    {
      g_clear_pointer (&side->view, lm_image_unref);
      side->view = lm_image_new (LM_FORMAT_RGBA8, v->out_w, v->out_h,
                                 lm_backend_work_allocator (side->backend), error);
      if (side->view == NULL)
        return FALSE;
    }
  r->view = view_buffer (w, v->out_w, v->out_h, error);
  if (r->view == NULL || !lm_backend_view (side->backend, out, v, side->view, error)
      || !lm_backend_synchronize (side->backend, error))
    return FALSE;
  gint64 d = g_get_monotonic_time ();
  if (!lm_backend_copy (side->backend, side->view, r->view, error)
      || !lm_backend_synchronize (side->backend, error))
    return FALSE;
  r->download_ms = lm_ms_since (d);
  if (!lm_backend_histogram (side->backend, out, LM_HIST_WANT_ALL, &r->histogram, error))
    return FALSE;
  r->render_ms = lm_ms_since (t);
  r->upload_ms = side->upload_ms;
  side->upload_ms = 0.0;
  r->refined = TRUE;
  r->backend_name = lm_backend_name (side->backend);
  r->width = w->source->width, r->height = w->source->height;
  return TRUE;
}

static void
run_preview (LmRenderWorker *w, const LmRenderRequest *req)
{
  GError *e = NULL;
  if (w->source == NULL)
    return;
  Side *side = side_for (w, req->backend, &e);
  /* The quick pass shrinks 8-bit sources; a radiance source's tone mapping needs the whole
   * image's statistics and is cached anyway. */
  if (side != NULL && req->backend == LM_BACKEND_CPU && w->source->format != LM_FORMAT_RGBA_F32)
    {
      int factor = (int) floor (req->view.rw / req->view.out_w);
      if (factor >= 2)
        {
          quick_preview (w, req, factor);
          if (superseded (w))
            return;
        }
    }

  LmRenderResult *r = result_new (LM_RESULT_PREVIEW, req);
  gboolean ok = side != NULL && render_full (w, side, req, r, &e);
  if (!ok && req->backend == LM_BACKEND_CUDA && g_error_matches (e, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY))
    {
      /* The photo does not fit the GPU: this render comes from the CPU. */
      g_free (r->notice);
      r->notice = g_strdup_printf (_("%s; rendered on the CPU"), e->message);
      g_clear_error (&e);
      g_clear_pointer (&r->view, lm_image_unref);
      if (r->timings.entries)
        lm_timings_clear (&r->timings);
      side_reset (&w->sides[1]);
      side = side_for (w, LM_BACKEND_CPU, &e);
      ok = side != NULL && render_full (w, side, req, r, &e);
    }
  if (!ok)
    {
      g_clear_pointer (&r->view, lm_image_unref);
      r->error = e;
    }
  post (w, r);
}

/* Both backends at full resolution, on fresh caches so that the timings are real. */
static void
run_compare (LmRenderWorker *w, const Job *job)
{
  LmRenderResult *r = result_new (LM_RESULT_COMPARE, &job->request);
  GError *e = NULL;
  LmImage *results[N_SIDES] = { NULL, NULL };
  double ms[N_SIDES] = { 0 };
  LmTimings *timings[N_SIDES] = { &r->timings, &r->timings_other };
  for (int i = 0; i < N_SIDES && e == NULL; i++)
    {
      lm_timings_init (timings[i]);
      Side *side = side_for (w, job->sides[i], &e);
      if (side == NULL)
        break;
      if (i == 0)
        r->backend_name = lm_backend_name (side->backend);
      else
        r->other_name = lm_backend_name (side->backend);
      g_autoptr (LmRenderCache) fresh = cache_new (w, side);
      g_autoptr (LmImage) out = lm_render_cache_run (fresh, &job->request.pipeline, timings[i], &e);
      if (lm_render_cache_last_notice (fresh) && r->notice == NULL)
        r->notice = g_strdup_printf (_("%s; tone mapped on the CPU"), lm_render_cache_last_notice (fresh));
      ms[i] = lm_timings_total (timings[i]);
      if (out != NULL)
        {
          results[i] = lm_backend_download (side->backend, out, &e);
          if (results[i] != NULL)
            lm_backend_synchronize (side->backend, &e);
        }
    }
  if (e == NULL)
    {
      LmDiffSums sums;
      lm_diff_cpu (results[0], results[1], job->gain, NULL, &sums);
      lm_diff_stats_from_sums (&sums, &r->diff);
      r->view = lm_image_new (LM_FORMAT_RGBA8, job->request.view.out_w, job->request.view.out_h,
                              lm_allocator_host (), &e);
      if (r->view)
        lm_diff_heat_view (results[0], results[1], &job->request.view, job->gain, r->view);
      r->render_ms = ms[0], r->other_ms = ms[1];
      r->width = w->source->width, r->height = w->source->height;
    }
  r->error = e;
  for (int i = 0; i < N_SIDES; i++)
    g_clear_pointer (&results[i], lm_image_unref);
  post (w, r);
}

static void
post_progress (LmRenderWorker *w, const Job *job, double fraction)
{
  LmRenderResult *r = result_new (LM_RESULT_PROGRESS, &job->request);
  r->fraction = fraction;
  r->path = g_strdup (job->path);
  post (w, r);
}

/* A .hdr export writes the merged radiance itself, not a render of it. */
static gboolean
export_radiance (LmRenderWorker *w, const Job *job, GError **error)
{
  if (w->source == NULL || w->source->format != LM_FORMAT_RGBA_F32)
    {
      g_autofree char *display = g_filename_display_name (job->path);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("%s: only a merged HDR image can be written as radiance (.hdr)"), display);
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
    return FALSE;
  post_progress (w, job, 0.3);
  return lm_io_save (w->source, job->path, &job->options, error);
}

static void
run_export (LmRenderWorker *w, const Job *job)
{
  LmRenderResult *r = result_new (LM_RESULT_EXPORTED, &job->request);
  r->path = g_strdup (job->path);
  GError *e = NULL;
  if (lm_file_type_for_output (job->path) == LM_FILE_RADIANCE)
    {
      export_radiance (w, job, &e);
      r->error = e;
      r->fraction = 1.0;
      post (w, r);
      return;
    }
  Side *side = side_for (w, job->request.backend, &e);
  g_autoptr (LmImage) out = NULL, host = NULL;
  if (side && !g_cancellable_set_error_if_cancelled (job->cancellable, &e))
    {
      post_progress (w, job, 0.1);
      out = lm_render_cache_run (side->cache, &job->request.pipeline, NULL, &e);
    }
  if (out && !g_cancellable_set_error_if_cancelled (job->cancellable, &e))
    {
      post_progress (w, job, 0.4);
      host = lm_backend_download (side->backend, out, &e);
      if (host && !lm_backend_synchronize (side->backend, &e))
        g_clear_pointer (&host, lm_image_unref);
    }
  if (host && !g_cancellable_set_error_if_cancelled (job->cancellable, &e))
    {
      post_progress (w, job, 0.6);
      /* The export carries the photo's profile and EXIF. On the CPU the downloaded image is the
       * cache's own; setting the same photo's metadata on it is harmless, as only writers read it. */
      lm_image_copy_metadata (host, w->source);
      lm_io_save (host, job->path, &job->options, &e);
    }
  r->error = e;
  r->fraction = 1.0;
  post (w, r);
}

/* ---- HDR merge ----------------------------------------------------------------------------- */

static void
merge_progress (LmRenderWorker *w, const Job *job, double fraction, const char *step,
                const LmResponse *response)
{
  LmRenderResult *r = result_new (LM_RESULT_MERGE_PROGRESS, &job->request);
  r->fraction = fraction;
  r->step = step;
  r->method = job->method;
  if (response)
    r->response = g_memdup2 (response, sizeof *response);
  post (w, r);
}

/* A copy of STACK whose images are in B's work memory (the same images on the CPU). */
static LmHdrStack *
stack_upload (LmBackend *b, const LmHdrStack *stack, GError **error)
{
  g_autoptr (LmHdrStack) work = g_new0 (LmHdrStack, 1);
  work->n = stack->n;
  work->images = g_new0 (LmImage *, stack->n);
  work->paths = g_new0 (char *, stack->n);
  work->times = g_memdup2 (stack->times, stack->n * sizeof (double));
  for (guint i = 0; i < stack->n; i++)
    {
      work->paths[i] = g_strdup (stack->paths[i]);
      work->images[i] = lm_backend_upload (b, stack->images[i], error);
      if (work->images[i] == NULL)
        return NULL;
    }
  return lm_backend_synchronize (b, error) ? g_steal_pointer (&work) : NULL;
}

/* After B failed with *E: TRUE when the CPU should do the step instead (B has no such entry
 * yet, or the stack does not fit in its memory); the reason joins NOTICE. */
static gboolean
cpu_instead (LmRenderWorker *w, LmBackend *b, GError **e, GString *notice)
{
  if (b == w->sides[0].backend
      || !(g_error_matches (*e, LUMEN_ERROR, LM_ERROR_UNSUPPORTED)
           || g_error_matches (*e, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY)))
    return FALSE;
  g_string_append_printf (notice, "%s%s", notice->len ? "; " : "", (*e)->message);
  g_clear_error (e);
  return TRUE;
}

static gboolean
align_on (LmBackend *b, LmHdrStack *stack, LmShift *shifts, GError **error)
{
  LmAlignParams params = LM_ALIGN_PARAMS_INIT;
  g_autoptr (LmHdrStack) work = stack_upload (b, stack, error);
  return work != NULL && lm_backend_hdr_align (b, &params, work, shifts, error)
         && lm_backend_synchronize (b, error);
}

/* STACK (host) uploaded to B and merged there: the radiance in B's work memory. */
static LmImage *
merge_on (LmBackend *b, const LmHdrMergeParams *params, const LmHdrStack *stack,
          const LmAllocator *allocator, GError **error)
{
  g_autoptr (LmHdrStack) work = stack_upload (b, stack, error);
  if (work == NULL)
    return NULL;
  g_autoptr (LmImage) out = lm_image_new (LM_FORMAT_RGBA_F32, stack->images[0]->width,
                                          stack->images[0]->height, allocator, error);
  if (out == NULL || !lm_backend_hdr_merge (b, params, work, out, error)
      || !lm_backend_synchronize (b, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* The steps of a merge, each on B where it can and on the CPU where B cannot. Returns the
 * image in host memory and, in *WORK, in the memory of *ON, the backend that merged. */
static LmImage *
merge_steps (LmRenderWorker *w, const Job *job, LmBackend *b, LmRenderResult *r, GString *notice,
             LmImage **work_out, LmBackend **on, GError **error)
{
  LmBackend *cpu = w->sides[0].backend;
  GError *e = NULL;
  gint64 t = g_get_monotonic_time ();
  merge_progress (w, job, 0.0, _("Loading the exposures…"), NULL);
  g_autoptr (LmHdrStack) stack = lm_hdr_stack_load ((const char *const *) job->paths, job->n, job->times,
                                                    fast_host (w), error);
  if (stack == NULL || g_cancellable_set_error_if_cancelled (job->cancellable, error))
    return NULL;
  lm_timings_add (&r->timings, _("load"), lm_ms_since (t));

  /* Aligned before calibrating: the calibration samples each exposure at the same places. */
  if (job->align)
    {
      merge_progress (w, job, 0.25, _("Aligning the exposures…"), NULL);
      t = g_get_monotonic_time ();
      g_autofree LmShift *shifts = g_new0 (LmShift, stack->n);
      LmAlignParams params = LM_ALIGN_PARAMS_INIT;
      if (!align_on (b, stack, shifts, &e)
          && !(cpu_instead (w, b, &e, notice) && align_on (cpu, stack, shifts, &e)))
        {
          g_propagate_error (error, e);
          return NULL;
        }
      if (!lm_hdr_stack_apply_shifts (&params, stack, shifts, error)
          || g_cancellable_set_error_if_cancelled (job->cancellable, error))
        return NULL;
      lm_timings_add (&r->timings, _("align"), lm_ms_since (t));
    }

  LmHdrMergeParams params = { .method = job->method, .mertens = LM_MERTENS_PARAMS_INIT };
  if (job->method != LM_HDR_MERTENS)
    {
      /* OpenCV's defaults: Debevec 70 samples, λ 10; Robertson 30 iterations, 0.01. */
      merge_progress (w, job, 0.4, _("Calibrating the camera response…"), NULL);
      t = g_get_monotonic_time ();
      gboolean ok = job->method == LM_HDR_DEBEVEC
                      ? lm_hdr_calibrate_debevec (stack, 70, 10.0f, &params.response, error)
                      : lm_hdr_calibrate_robertson (stack, 30, 0.01f, &params.response, error);
      if (!ok || g_cancellable_set_error_if_cancelled (job->cancellable, error))
        return NULL;
      lm_timings_add (&r->timings, _("calibrate"), lm_ms_since (t));
      r->response = g_memdup2 (&params.response, sizeof params.response);
      merge_progress (w, job, 0.6, _("Merging the exposures…"), &params.response);
    }
  else
    merge_progress (w, job, 0.6, _("Fusing the exposures…"), NULL);

  t = g_get_monotonic_time ();
  *on = b;
  g_autoptr (LmImage) work = merge_on (b, &params, stack, lm_backend_work_allocator (b), &e);
  if (work == NULL && cpu_instead (w, b, &e, notice))
    {
      *on = cpu;
      work = merge_on (cpu, &params, stack, fast_host (w), &e);
    }
  if (work == NULL)
    {
      g_propagate_error (error, e);
      return NULL;
    }
  lm_timings_add (&r->timings, _("merge"), lm_ms_since (t));
  if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
    return NULL;

  LmImage *host = lm_image_ref (work);
  if (*on != cpu)
    {
      merge_progress (w, job, 0.9, _("Downloading the result…"), NULL);
      t = g_get_monotonic_time ();
      g_clear_pointer (&host, lm_image_unref);
      host = lm_backend_download (*on, work, error);
      if (host == NULL || !lm_backend_synchronize (*on, error))
        {
          g_clear_pointer (&host, lm_image_unref);
          return NULL;
        }
      lm_timings_add (&r->timings, _("download"), lm_ms_since (t));
    }
  /* The export carries the exposures' colour profile (and EXIF, as lumen-cli hdr does). */
  lm_image_copy_metadata (host, stack->images[0]);
  *work_out = g_steal_pointer (&work);
  return host;
}

static void
run_merge (LmRenderWorker *w, const Job *job)
{
  LmRenderResult *r = result_new (LM_RESULT_MERGED, &job->request);
  r->method = job->method;
  lm_timings_init (&r->timings);
  g_autoptr (GString) notice = g_string_new (NULL);
  GError *e = NULL;
  LmImage *work = NULL;
  LmBackend *on = NULL;
  LmBackend *b = backend_for (w, job->request.backend, &e);
  LmImage *host = b ? merge_steps (w, job, b, r, notice, &work, &on, &e) : NULL;
  if (host != NULL)
    {
      /* The merged image is the source from now on; where it was merged on the device, it
       * stays there as that side's source. */
      adopt_source (w, lm_image_ref (host));
      if (on != w->sides[0].backend)
        {
          Side *side = &w->sides[1];
          side->source = lm_image_ref (work);
          side->cache = cache_new (w, side);
        }
      g_mutex_lock (&w->lock);
      w->has_request = FALSE; /* it was for the old source */
      g_mutex_unlock (&w->lock);
      r->image = host;
      r->width = host->width, r->height = host->height;
      r->backend_name = lm_backend_name (on);
      r->fraction = 1.0;
    }
  g_clear_pointer (&work, lm_image_unref);
  if (notice->len)
    r->notice = g_strdup_printf (_("%s; merged on the CPU"), notice->str);
  r->error = e;
  post (w, r);
}

static void
job_free (Job *job)
{
  g_strfreev (job->paths);
  g_free (job->times);
  g_free (job->path);
  g_clear_object (&job->cancellable);
  g_free (job);
}

static void
announce (LmRenderWorker *w)
{
  GError *e = NULL;
  LmRenderResult *r = result_new (LM_RESULT_READY, NULL);
  w->sides[1].backend = lm_backend_new (LM_BACKEND_CUDA, &e);
  if (w->sides[1].backend == NULL)
    {
      w->cuda_unavailable = g_strdup (e->message);
      r->cuda_unavailable = g_strdup (e->message);
      g_error_free (e);
    }
  else
    {
      r->cuda_description = g_strdup (w->sides[1].backend->description);
      g_mutex_lock (&w->lock);
      w->host_allocator = lm_backend_host_allocator (w->sides[1].backend);
      g_mutex_unlock (&w->lock);
    }
  w->sides[0].backend = lm_backend_cpu_new ();
  post (w, r);
}

static gpointer
worker_main (gpointer data)
{
  LmRenderWorker *w = data;
  announce (w);
  for (;;)
    {
      g_mutex_lock (&w->lock);
      while (!w->quit && !w->source_pending && !w->has_request && g_queue_is_empty (&w->jobs))
        g_cond_wait (&w->wake, &w->lock);
      if (w->quit)
        {
          g_mutex_unlock (&w->lock);
          break;
        }
      if (w->source_pending)
        {
          LmImage *source = g_steal_pointer (&w->next_source);
          w->source_pending = FALSE;
          g_mutex_unlock (&w->lock);
          adopt_source (w, source);
          continue;
        }
      Job *job = g_queue_pop_head (&w->jobs);
      if (job != NULL)
        {
          g_mutex_unlock (&w->lock);
          if (job->kind == JOB_COMPARE)
            run_compare (w, job);
          else if (job->kind == JOB_MERGE)
            run_merge (w, job);
          else
            run_export (w, job);
          job_free (job);
          continue;
        }
      LmRenderRequest request = w->request;
      w->has_request = FALSE;
      g_mutex_unlock (&w->lock);
      run_preview (w, &request);
    }

  adopt_source (w, NULL);
  for (int i = 0; i < N_SIDES; i++)
    g_clear_pointer (&w->sides[i].backend, lm_backend_free);
  return NULL;
}

LmRenderWorker *
lm_render_worker_new (GMainContext *context, LmRenderDone done, gpointer user_data)
{
  LmRenderWorker *w = g_new0 (LmRenderWorker, 1);
  g_mutex_init (&w->lock);
  g_cond_init (&w->wake);
  g_queue_init (&w->jobs);
  w->context = g_main_context_ref (context);
  w->channel = g_new0 (Channel, 1);
  w->channel->ref_count = 1;
  w->channel->done = done;
  w->channel->user_data = user_data;
  w->channel->free_views = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_image_unref);
  g_mutex_init (&w->channel->lock);
  w->thread = g_thread_new ("lumen-render", worker_main, w);
  return w;
}

void
lm_render_worker_free (LmRenderWorker *w)
{
  if (w == NULL)
    return;
  g_mutex_lock (&w->lock);
  w->quit = TRUE;
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);

  w->channel->closed = TRUE;
  channel_unref (w->channel);
  g_queue_clear_full (&w->jobs, (GDestroyNotify) job_free);
  g_clear_pointer (&w->next_source, lm_image_unref);
  g_free (w->cuda_unavailable);
  g_main_context_unref (w->context);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->wake);
  g_free (w);
}

void
lm_render_worker_set_source (LmRenderWorker *w, LmImage *source)
{
  g_mutex_lock (&w->lock);
  g_clear_pointer (&w->next_source, lm_image_unref);
  w->next_source = source ? lm_image_ref (source) : NULL;
  w->source_pending = TRUE;
  w->has_request = FALSE; /* a request for the previous photo is of no use */
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

void
lm_render_worker_request (LmRenderWorker *w, const LmRenderRequest *request)
{
  g_mutex_lock (&w->lock);
  w->request = *request;
  w->has_request = TRUE;
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

static void
enqueue (LmRenderWorker *w, Job *job)
{
  g_mutex_lock (&w->lock);
  g_queue_push_tail (&w->jobs, job);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

void
lm_render_worker_compare (LmRenderWorker *w, const LmRenderRequest *request, LmBackendKind a,
                          LmBackendKind b, float gain)
{
  Job *job = g_new0 (Job, 1);
  job->kind = JOB_COMPARE;
  job->sides[0] = a;
  job->sides[1] = b;
  job->request = *request;
  job->gain = gain;
  enqueue (w, job);
}

void
lm_render_worker_export (LmRenderWorker *w, const LmRenderRequest *request, const char *path,
                         const LmSaveOptions *options, GCancellable *cancellable)
{
  Job *job = g_new0 (Job, 1);
  job->kind = JOB_EXPORT;
  job->request = *request;
  job->path = g_strdup (path);
  job->options = *options;
  job->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  enqueue (w, job);
}

void
lm_render_worker_merge (LmRenderWorker *w, const LmRenderRequest *request, const LmMergeSpec *spec,
                        GCancellable *cancellable)
{
  Job *job = g_new0 (Job, 1);
  job->kind = JOB_MERGE;
  job->request = *request;
  job->n = spec->n;
  job->paths = g_new0 (char *, spec->n + 1);
  for (guint i = 0; i < spec->n; i++)
    job->paths[i] = g_strdup (spec->paths[i]);
  job->times = spec->times ? g_memdup2 (spec->times, spec->n * sizeof (double)) : NULL;
  job->method = spec->method;
  job->align = spec->align;
  job->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  enqueue (w, job);
}
