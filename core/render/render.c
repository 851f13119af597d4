/* The render worker (render.h): its thread, previews, comparisons and exports; the HDR merge
 * job is in merge.c. */
#include "render-private.h"

#include <malloc.h>
#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "cache.h"
#include "view.h"

#define VIEW_POOL 4 /* the window keeps two on screen in a split view, more are in flight */

/* What results in flight share with the worker, so that they can be delivered (or dropped)
 * after it is gone; and the view buffers the worker lends them. */
struct _LmRenderChannel {
  gint ref_count;
  gboolean closed; /* the receiver is gone: deliver nothing */
  LmRenderDone done;
  gpointer user_data;
  GMutex lock;
  GPtrArray *views; /* host view buffers made, each with a reference of the pool's own */
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
  g_ptr_array_unref (c->views);
  g_mutex_clear (&c->lock);
  g_free (c);
}

typedef struct {
  Channel *channel;
  LmRenderResult *result;
} Delivery;

static void
result_free (LmRenderResult *r)
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
  g_clear_pointer (&r->view, lm_image_unref);
  g_clear_pointer (&r->before_view, lm_image_unref);
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
  result_free (d->result);
  channel_unref (d->channel);
  g_free (d);
}

/* Always queued on the receiver's context: g_main_context_invoke_full would run DELIVER
 * right here, in the worker, whenever this thread can acquire that context (it can, for the
 * global default context, whenever the main thread is between iterations). */
void
lm_render_post (LmRenderWorker *w, LmRenderResult *result)
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

LmRenderResult *
lm_render_result_new (LmResultKind kind, const LmRenderRequest *request)
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
const LmAllocator *
lm_render_fast_host (LmRenderWorker *w)
{
  return w->sides[1].backend ? lm_backend_host_allocator (w->sides[1].backend) : lm_allocator_host ();
}

/* A host buffer for a view of W × H: one of the pool's that nobody else holds any more (the
 * window keeps the one on screen until the next arrives, so the pool keeps a reference of its
 * own to see when that is), else a new one, pooled while there is room. A view's size of
 * memory allocated per render and freed by the window grew the window's memory by that size
 * now and then (bench/results/soak.md). */
static LmImage *
view_buffer (LmRenderWorker *w, int width, int height, GError **error)
{
  Channel *c = w->channel;
  LmImage *found = NULL;
  g_mutex_lock (&c->lock);
  for (guint i = c->views->len; i-- > 0 && !found;)
    {
      LmImage *v = g_ptr_array_index (c->views, i);
      if (g_atomic_int_get (&v->ref_count) != 1)
        continue; /* still shown or on its way */
      if (v->width == (guint) width && v->height == (guint) height)
        found = lm_image_ref (v);
      else
        g_ptr_array_remove_index_fast (c->views, i); /* another size: of no use now */
    }
  g_mutex_unlock (&c->lock);
  if (found)
    return found;
  LmImage *made = lm_image_new (LM_FORMAT_RGBA8, width, height, lm_render_fast_host (w), error);
  g_mutex_lock (&c->lock);
  if (made && c->views->len < VIEW_POOL)
    g_ptr_array_add (c->views, lm_image_ref (made));
  g_mutex_unlock (&c->lock);
  return made;
}

static void
side_reset (Side *side)
{
  g_clear_pointer (&side->cache, lm_render_cache_free);
  g_clear_pointer (&side->source, lm_image_unref);
  g_clear_pointer (&side->view, lm_image_unref);
}

/* The backend of KIND, or NULL and the reason. */
LmBackend *
lm_render_backend_for (LmRenderWorker *w, LmBackendKind kind, GError **error)
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
LmRenderCache *
lm_render_side_cache_new (LmRenderWorker *w, Side *side)
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
  if (lm_render_backend_for (w, kind, error) == NULL)
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
      side->cache = lm_render_side_cache_new (w, side);
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

void
lm_render_adopt_source (LmRenderWorker *w, LmImage *source)
{
  for (int i = 0; i < N_SIDES; i++)
    {
      side_reset (&w->sides[i]);
      /* Sized for the last photo: the next one's first edits size them again. */
      if (w->sides[i].backend)
        lm_backend_release_scratch (w->sides[i].backend);
    }
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
  LmRenderResult *r = lm_render_result_new (LM_RESULT_PREVIEW, req);
  r->backend_name = "cpu";
  r->width = src->width, r->height = src->height;
  if (out != NULL && (r->view = view_buffer (w, rect.out_w, rect.out_h, &e)) != NULL
      && lm_backend_view (w->sides[0].backend, out, &rect, r->view, &e)
      && lm_backend_histogram (w->sides[0].backend, out, LM_HIST_WANT_ALL, &r->histogram, &e))
    lm_render_post (w, r);
  else
    {
      g_clear_error (&e); /* the full render reports what went wrong */
      result_free (r);
    }
}

/* The view V of IMAGE (in SIDE's work memory) made there and brought into HOST; the time
 * of the way back is added to *DOWNLOAD_MS. */
static gboolean
view_down (Side *side, const LmImage *image, const LmViewRect *v, LmImage *host, double *download_ms,
           GError **error)
{
  if (!lm_backend_view (side->backend, image, v, side->view, error)
      || !lm_backend_synchronize (side->backend, error))
    return FALSE;
  gint64 d = g_get_monotonic_time ();
  if (!lm_backend_copy (side->backend, side->view, host, error)
      || !lm_backend_synchronize (side->backend, error))
    return FALSE;
  *download_ms += lm_ms_since (d);
  return TRUE;
}

/* The pipeline at full resolution on SIDE, its view and histogram into R (and the view of
 * the unedited source, when the request asks for it). */
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
  if (r->view == NULL || !view_down (side, out, v, r->view, &r->download_ms, error))
    return FALSE;
  if (!lm_backend_histogram (side->backend, out, LM_HIST_WANT_ALL, &r->histogram, error))
    return FALSE;
  if (req->with_before)
    {
      /* Every operation off: the cache hands back the source, or its cached tone mapping, and
       * keeps the operations' outputs for the next edit. OUT is not read after this run. */
      LmPipeline original;
      lm_pipeline_init (&original);
      original.tonemap = req->pipeline.tonemap;
      g_autoptr (LmImage) plain = lm_render_cache_run (side->cache, &original, NULL, error);
      if (plain == NULL)
        return FALSE;
      r->before_view = view_buffer (w, v->out_w, v->out_h, error);
      if (r->before_view == NULL || !view_down (side, plain, v, r->before_view, &r->download_ms, error))
        return FALSE;
    }
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

  LmRenderResult *r = lm_render_result_new (LM_RESULT_PREVIEW, req);
  gboolean ok = side != NULL && render_full (w, side, req, r, &e);
  if (!ok && req->backend == LM_BACKEND_CUDA
      && (g_error_matches (e, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY) || g_error_matches (e, LUMEN_ERROR, LM_ERROR_DEVICE)))
    {
      /* The photo does not fit the GPU, or the GPU failed: this render comes from the CPU. */
      g_free (r->notice);
      r->notice = g_strdup_printf (_("%s; rendered on the CPU"), e->message);
      g_clear_error (&e);
      g_clear_pointer (&r->view, lm_image_unref);
      g_clear_pointer (&r->before_view, lm_image_unref);
      r->download_ms = 0.0;
      if (r->timings.entries)
        lm_timings_clear (&r->timings);
      side_reset (&w->sides[1]);
      side = side_for (w, LM_BACKEND_CPU, &e);
      ok = side != NULL && render_full (w, side, req, r, &e);
    }
  if (!ok)
    {
      g_clear_pointer (&r->view, lm_image_unref);
      g_clear_pointer (&r->before_view, lm_image_unref);
      r->error = e;
    }
  lm_render_post (w, r);
}

/* Both backends at full resolution, on fresh caches so that the timings are real. */
static void
run_compare (LmRenderWorker *w, const Job *job)
{
  LmRenderResult *r = lm_render_result_new (LM_RESULT_COMPARE, &job->request);
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
      g_autoptr (LmRenderCache) fresh = lm_render_side_cache_new (w, side);
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
  lm_render_post (w, r);
}

static void
post_progress (LmRenderWorker *w, const Job *job, double fraction)
{
  LmRenderResult *r = lm_render_result_new (LM_RESULT_PROGRESS, &job->request);
  r->fraction = fraction;
  r->path = g_strdup (job->path);
  lm_render_post (w, r);
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
  LmRenderResult *r = lm_render_result_new (LM_RESULT_EXPORTED, &job->request);
  r->path = g_strdup (job->path);
  GError *e = NULL;
  if (lm_file_type_for_output (job->path) == LM_FILE_RADIANCE)
    {
      export_radiance (w, job, &e);
      r->error = e;
      r->fraction = 1.0;
      lm_render_post (w, r);
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
  lm_render_post (w, r);
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
  LmRenderResult *r = lm_render_result_new (LM_RESULT_READY, NULL);
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
  lm_render_post (w, r);
}

/* Idle time after which the worker gives freed memory back to the system. */
#define LM_RENDER_TRIM_AFTER_US G_USEC_PER_SEC

static gpointer
worker_main (gpointer data)
{
  LmRenderWorker *w = data;
  announce (w);
  gboolean worked = FALSE; /* since memory was last given back */
  for (;;)
    {
      g_mutex_lock (&w->lock);
      gint64 trim_at = g_get_monotonic_time () + LM_RENDER_TRIM_AFTER_US;
      while (!w->quit && !w->source_pending && !w->has_request && g_queue_is_empty (&w->jobs))
        if (!g_cond_wait_until (&w->wake, &w->lock, worked ? trim_at : G_MAXINT64) && worked)
          {
            /* A render frees buffers of a whole image's size (blur's, a cache's outputs) that
             * glibc keeps in this thread's heap once its mmap threshold has risen: over a
             * session the window's memory would grow by a few of them. Given back after a
             * second without work, never between the renders of a drag. */
            g_mutex_unlock (&w->lock);
            malloc_trim (0);
            g_mutex_lock (&w->lock);
            worked = FALSE;
          }
      worked = TRUE;
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
          lm_render_adopt_source (w, source);
          continue;
        }
      Job *job = g_queue_pop_head (&w->jobs);
      if (job != NULL)
        {
          g_mutex_unlock (&w->lock);
          if (job->kind == JOB_COMPARE)
            run_compare (w, job);
          else if (job->kind == JOB_MERGE)
            lm_render_run_merge (w, job);
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

  lm_render_adopt_source (w, NULL);
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
  w->channel->views = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_image_unref);
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
