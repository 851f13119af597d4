/* The render worker (render.h): its thread, the one-slot mailbox of previews and the queue of
 * jobs that are never dropped, and the entry points the main thread calls. The thread owns
 * the backends (sides.c) and runs the jobs: previews (job-preview.c), comparisons
 * (job-compare.c), exports (job-export.c), HDR merges (merge.c), FITS data's stretch and
 * detection (job-astro.c) and object detection in photos (job-objects.c); results go back
 * through the channel (channel.c). */
#include "render-private.h"

#include <malloc.h>

/* Idle time after which the worker gives freed memory back to the system. */
#define LM_RENDER_TRIM_AFTER_US G_USEC_PER_SEC

static void
job_free (Job *job)
{
  g_strfreev (job->paths);
  g_free (job->times);
  g_free (job->path);
  g_clear_object (&job->cancellable);
  g_free (job);
}

gboolean
lm_render_superseded (LmRenderWorker *w)
{
  g_mutex_lock (&w->lock);
  gboolean newer = w->has_request || w->source_pending || w->quit;
  g_mutex_unlock (&w->lock);
  return newer;
}

static void
run_job (LmRenderWorker *w, const Job *job)
{
  if (job->kind == JOB_COMPARE)
    lm_render_run_compare (w, job);
  else if (job->kind == JOB_MERGE)
    lm_render_run_merge (w, job);
  else
    lm_render_run_export (w, job);
}

/* Under the lock: whatever is asked for while a detection runs goes first, and stops it. */
static void
preempt_detection (LmRenderWorker *w)
{
  if (w->detecting == NULL)
    return;
  g_cancellable_cancel (w->detecting);
  w->detect_preempted = TRUE;
}

static gboolean
has_work (LmRenderWorker *w)
{
  return w->quit || w->source_pending || w->has_request || !g_queue_is_empty (&w->jobs) || w->stretch.pending
         || w->detect.pending || w->objects.pending;
}

static void
cancel_too (GCancellable *cancelled, gpointer also)
{
  g_cancellable_cancel (also);
}

/* Called with the lock held, which it gives up while the detection in MAILBOX (source or
 * object detection) runs. A detection stopped for other work is asked for again unless a newer
 * one has been since. */
static void
run_detection (LmRenderWorker *w, DataSlot *mailbox)
{
  DataSlot slot = *mailbox;
  *mailbox = (DataSlot) { 0 };
  GCancellable *cancellable = w->detecting = g_cancellable_new ();
  w->detect_preempted = FALSE;
  /* Stopped by its receiver too. */
  gulong handler = slot.request.cancellable
                     ? g_cancellable_connect (slot.request.cancellable, G_CALLBACK (cancel_too), cancellable, NULL)
                     : 0;
  g_mutex_unlock (&w->lock);
  gboolean done = mailbox == &w->objects ? lm_render_run_objects (w, &slot, cancellable)
                                         : lm_render_run_detect (w, &slot, cancellable);
  if (handler)
    g_cancellable_disconnect (slot.request.cancellable, handler);
  g_mutex_lock (&w->lock);
  w->detecting = NULL;
  if (!done && w->detect_preempted && !mailbox->pending && !w->quit
      && !g_cancellable_is_cancelled (slot.request.cancellable))
    *mailbox = slot; /* its references go back to the slot */
  else
    lm_render_data_slot_clear (&slot);
  g_object_unref (cancellable);
}

static gpointer
worker_main (gpointer data)
{
  LmRenderWorker *w = data;
  lm_render_open_backends (w);
  gboolean worked = FALSE; /* since memory was last given back */
  for (;;)
    {
      lm_render_data_release (w, FALSE); /* FITS data nothing more comes for */
      g_mutex_lock (&w->lock);
      gint64 trim_at = g_get_monotonic_time () + LM_RENDER_TRIM_AFTER_US;
      while (!has_work (w))
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
      if (w->stretch.pending)
        {
          DataSlot slot = w->stretch;
          w->stretch = (DataSlot) { 0 };
          g_mutex_unlock (&w->lock);
          lm_render_run_stretch (w, &slot);
          lm_render_data_slot_clear (&slot);
          continue;
        }
      Job *job = g_queue_pop_head (&w->jobs);
      if (job != NULL)
        {
          g_mutex_unlock (&w->lock);
          run_job (w, job);
          job_free (job);
          continue;
        }
      if (!w->has_request) /* a detection alone waits */
        {
          run_detection (w, w->objects.pending ? &w->objects : &w->detect);
          g_mutex_unlock (&w->lock);
          continue;
        }
      LmRenderRequest request = w->request;
      w->has_request = FALSE;
      if (w->view_transform != w->next_view_transform)
        {
          g_clear_pointer (&w->view_transform, lm_view_transform_unref);
          w->view_transform = w->next_view_transform ? lm_view_transform_ref (w->next_view_transform) : NULL;
        }
      g_mutex_unlock (&w->lock);
      lm_render_run_preview (w, &request);
    }

  lm_render_data_release (w, TRUE); /* its upload before the backends go */
  lm_render_objects_release (w);
  lm_render_close_backends (w);
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
  w->channel = lm_render_channel_new (done, user_data);
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
  preempt_detection (w);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);

  lm_render_channel_close (w->channel);
  g_queue_clear_full (&w->jobs, (GDestroyNotify) job_free);
  lm_render_data_slot_clear (&w->stretch);
  lm_render_data_slot_clear (&w->detect);
  lm_render_data_slot_clear (&w->objects);
  g_clear_pointer (&w->next_source, lm_image_unref);
  g_clear_pointer (&w->next_view_transform, lm_view_transform_unref);
  g_clear_pointer (&w->view_transform, lm_view_transform_unref);
  g_free (w->cuda_unavailable);
  g_main_context_unref (w->context);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->wake);
  g_free (w);
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
lm_render_worker_set_source (LmRenderWorker *w, LmImage *source)
{
  g_mutex_lock (&w->lock);
  g_clear_pointer (&w->next_source, lm_image_unref);
  w->next_source = source ? lm_image_ref (source) : NULL;
  w->source_pending = TRUE;
  w->has_request = FALSE; /* a request for the previous photo is of no use */
  preempt_detection (w);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

void
lm_render_worker_set_view_transform (LmRenderWorker *w, LmViewTransform *xf)
{
  g_mutex_lock (&w->lock);
  if (xf)
    lm_view_transform_ref (xf);
  g_clear_pointer (&w->next_view_transform, lm_view_transform_unref);
  w->next_view_transform = xf;
  g_mutex_unlock (&w->lock);
}

void
lm_render_worker_show_mask (LmRenderWorker *w, guint32 id)
{
  g_mutex_lock (&w->lock);
  w->mask_of = id;
  g_mutex_unlock (&w->lock);
}

void
lm_render_worker_request (LmRenderWorker *w, const LmRenderRequest *request)
{
  g_mutex_lock (&w->lock);
  w->request = *request;
  if (w->request.mask_of == 0)
    w->request.mask_of = w->mask_of;
  w->has_request = TRUE;
  preempt_detection (w);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

/* A job of KIND for REQUEST; the caller sets the rest of it and enqueues it. */
static Job *
job_new (JobKind kind, const LmRenderRequest *request, GCancellable *cancellable)
{
  Job *job = g_new0 (Job, 1);
  job->kind = kind;
  job->request = *request;
  job->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  return job;
}

static void
enqueue (LmRenderWorker *w, Job *job)
{
  g_mutex_lock (&w->lock);
  g_queue_push_tail (&w->jobs, job);
  preempt_detection (w);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

void
lm_render_worker_compare (LmRenderWorker *w, const LmRenderRequest *request, LmBackendKind a,
                          LmBackendKind b, float gain)
{
  Job *job = job_new (JOB_COMPARE, request, NULL);
  job->sides[0] = a;
  job->sides[1] = b;
  job->gain = gain;
  enqueue (w, job);
}

void
lm_render_worker_export (LmRenderWorker *w, const LmRenderRequest *request, const char *path,
                         const LmSaveOptions *options, GCancellable *cancellable)
{
  Job *job = job_new (JOB_EXPORT, request, cancellable);
  job->path = g_strdup (path);
  job->options = *options;
  enqueue (w, job);
}

void
lm_render_worker_merge (LmRenderWorker *w, const LmRenderRequest *request, const LmMergeSpec *spec,
                        GCancellable *cancellable)
{
  Job *job = job_new (JOB_MERGE, request, cancellable);
  job->n = spec->n;
  job->paths = g_new0 (char *, spec->n + 1);
  for (guint i = 0; i < spec->n; i++)
    job->paths[i] = g_strdup (spec->paths[i]);
  job->times = spec->times ? g_memdup2 (spec->times, spec->n * sizeof (double)) : NULL;
  job->method = spec->method;
  job->align = spec->align;
  enqueue (w, job);
}

/* SLOT waits with REQUEST, its references its own; a request waiting there is dropped. */
static void
fill_slot (DataSlot *slot, const LmDataRequest *request)
{
  lm_render_data_slot_clear (slot);
  slot->pending = TRUE;
  slot->request = *request;
  slot->request.data = lm_image_ref (request->data);
  slot->request.to = lm_render_channel_ref (request->to);
  slot->request.cancellable = request->cancellable ? g_object_ref (request->cancellable) : NULL;
}

void
lm_render_worker_stretch (LmRenderWorker *w, const LmDataRequest *request, const LmStretchParams *params,
                          gboolean flip)
{
  g_return_if_fail (request->data && request->data->format == LM_FORMAT_GRAY_F32 && request->to);
  g_mutex_lock (&w->lock);
  fill_slot (&w->stretch, request);
  w->stretch.stretch = *params;
  w->stretch.flip = flip;
  preempt_detection (w);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

void
lm_render_worker_detect (LmRenderWorker *w, const LmDataRequest *request, const LmDetectParams *params)
{
  g_return_if_fail (request->data && request->to);
  g_mutex_lock (&w->lock);
  fill_slot (&w->detect, request);
  w->detect.detect = *params;
  preempt_detection (w);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

void
lm_render_worker_detect_objects (LmRenderWorker *w, const LmDataRequest *request, const char *model_path,
                                 const LmCascadeParams *params)
{
  g_return_if_fail (request->data && request->to && model_path && params);
  g_mutex_lock (&w->lock);
  fill_slot (&w->objects, request);
  w->objects.model_path = g_strdup (model_path);
  w->objects.objects = *params;
  preempt_detection (w);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}
