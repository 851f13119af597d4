/* The render worker's compare job (render-private.h): the request's pipeline at full
 * resolution on two backends, their difference as figures and as a heatmap of the view (a
 * large photo's on the level of its pyramid that its view shows, level-view.c). */
#include "render-private.h"

#include <glib/gi18n.h>

/* The downloads' host buffers (pinned with CUDA), kept per render worker and side: a
 * compare repeated on one photo pins nothing again, as pinning 200 MB costs more than moving
 * it. Freed when the worker's thread ends. */
static GPrivate kept[N_SIDES] = { G_PRIVATE_INIT ((GDestroyNotify) lm_image_unref),
                                  G_PRIVATE_INIT ((GDestroyNotify) lm_image_unref) };

static LmImage *
download_kept (LmBackend *b, int side, const LmImage *work, GError **error)
{
  const LmAllocator *host = lm_backend_host_allocator (b);
  LmImage *dst = g_private_get (&kept[side]);
  if (dst == NULL || dst->allocator != host || !lm_image_reshape (dst, work->format, work->width, work->height))
    {
      g_private_replace (&kept[side], NULL); /* its memory goes before the next is taken */
      dst = lm_image_new (work->format, work->width, work->height, host, error);
      if (dst == NULL)
        return NULL;
      g_private_set (&kept[side], dst);
    }
  if (!lm_backend_copy (b, work, dst, error))
    return NULL;
  return lm_image_ref (dst);
}

/* Both backends at full resolution, on fresh caches so that the timings are real. */
void
lm_render_run_compare (LmRenderWorker *w, const Job *job)
{
  LmRenderResult *r = lm_render_result_new (LM_RESULT_COMPARE, &job->request);
  GError *e = NULL;
  LmImage *results[N_SIDES] = { NULL, NULL };
  double ms[N_SIDES] = { 0 };
  LmViewRect view = job->request.view; /* on the render compared */
  LmTimings *timings[N_SIDES] = { &r->timings, &r->timings_other };
  for (int i = 0; i < N_SIDES && e == NULL; i++)
    {
      lm_timings_init (timings[i]);
      gboolean level = lm_render_level_wanted (w);
      Side *side = level ? lm_render_side_bare (w, job->sides[i], &e) : lm_render_side_for (w, job->sides[i], &e);
      if (side == NULL)
        break;
      if (i == 0)
        r->backend_name = lm_backend_name (side->backend);
      else
        r->other_name = lm_backend_name (side->backend);
      g_autoptr (LmImage) out = NULL;
      if (level) /* a large photo: both on the level its view shows */
        out = lm_render_level_compare (w, side, &job->request, timings[i], &view, &e);
      else
        {
          g_autoptr (LmRenderCache) fresh = lm_render_side_cache_new (w, side);
          /* What the view shows: the export's resize is not compared. */
          LmPipeline pipeline = job->request.pipeline;
          lm_pipeline_for_view (&pipeline);
          out = lm_render_cache_run (fresh, &pipeline, timings[i], &e);
          if (lm_render_cache_last_notice (fresh) && r->notice == NULL)
            r->notice = g_strdup_printf (_("%s; tone mapped on the CPU"), lm_render_cache_last_notice (fresh));
        }
      ms[i] = lm_timings_total (timings[i]);
      if (out != NULL)
        {
          results[i] = download_kept (side->backend, i, out, &e);
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
        lm_diff_heat_view (results[0], results[1], &view, job->gain, r->view);
      r->render_ms = ms[0], r->other_ms = ms[1];
      r->width = results[0]->width, r->height = results[0]->height; /* the render's, geometry done */
      if (lm_render_level_wanted (w)) /* the photo's size, as its previews say it */
        {
          LmPipeline pipeline = job->request.pipeline;
          lm_pipeline_for_view (&pipeline);
          lm_pipeline_output_size (&pipeline, w->source->width, w->source->height, &r->width, &r->height);
        }
    }
  r->error = e;
  for (int i = 0; i < N_SIDES; i++)
    g_clear_pointer (&results[i], lm_image_unref);
  lm_render_post (w, r);
}
