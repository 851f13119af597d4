/* The render worker's HDR merge job (render-private.h): the exposures loaded, aligned,
 * calibrated and merged on the chosen backend, each step on the CPU where that backend
 * cannot do it; the merged radiance becomes the worker's source. */
#include "render-private.h"

#include <glib/gi18n.h>

#include "../error.h"

static void
merge_progress (LmRenderWorker *w, const Job *job, double fraction, const char *step,
                const LmResponse *response)
{
  LmRenderResult *r = lm_render_result_new (LM_RESULT_MERGE_PROGRESS, &job->request);
  r->fraction = fraction;
  r->step = step;
  r->method = job->method;
  if (response)
    r->response = g_memdup2 (response, sizeof *response);
  lm_render_post (w, r);
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
  /* Fusion needs no times: none are asked of the files, none invented. */
  g_autoptr (LmHdrStack) stack = job->method == LM_HDR_MERTENS
    ? lm_hdr_stack_load_untimed ((const char *const *) job->paths, job->n, job->times, lm_render_fast_host (w), error)
    : lm_hdr_stack_load ((const char *const *) job->paths, job->n, job->times, lm_render_fast_host (w), error);
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
      work = merge_on (cpu, &params, stack, lm_render_fast_host (w), &e);
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
      if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
        {
          g_clear_pointer (&host, lm_image_unref);
          return NULL;
        }
    }
  /* The export carries the exposures' colour profile (and EXIF, as lumen-cli hdr does). */
  lm_image_copy_metadata (host, stack->images[0]);
  *work_out = g_steal_pointer (&work);
  return host;
}

void
lm_render_run_merge (LmRenderWorker *w, const Job *job)
{
  LmRenderResult *r = lm_render_result_new (LM_RESULT_MERGED, &job->request);
  r->method = job->method;
  lm_timings_init (&r->timings);
  g_autoptr (GString) notice = g_string_new (NULL);
  GError *e = NULL;
  LmImage *work = NULL;
  LmBackend *on = NULL;
  LmBackend *b = lm_render_backend_for (w, job->request.backend, &e);
  LmImage *host = b ? merge_steps (w, job, b, r, notice, &work, &on, &e) : NULL;
  if (host != NULL)
    {
      /* The merged image is the source from now on; where it was merged on the device, it
       * stays there as that side's source. */
      lm_render_adopt_source (w, lm_image_ref (host));
      if (on != w->sides[0].backend)
        {
          Side *side = &w->sides[1];
          side->source = lm_image_ref (work);
          side->cache = lm_render_side_cache_new (w, side);
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
  lm_render_post (w, r);
}
