/* The render worker's HDR merge job (render-private.h): the HDR job (core/merge/job.h) run on
 * the chosen backend, each step on the CPU where that backend cannot do it, its progress
 * posted as results; the merged radiance becomes the worker's source. */
#include "render-private.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "../merge/job.h"

typedef struct {
  LmRenderWorker *w;
  const Job *job;
} Progress;

static void
post_progress (LmRenderWorker *w, const Job *job, double fraction, const char *step, const LmResponse *response)
{
  LmRenderResult *r = lm_render_result_new (LM_RESULT_MERGE_PROGRESS, &job->request);
  r->fraction = fraction;
  r->step = step;
  r->method = job->method;
  if (response)
    r->response = g_memdup2 (response, sizeof *response);
  lm_render_post (w, r);
}

static void
on_progress (double fraction, const char *label, const LmResponse *response, gpointer data)
{
  Progress *p = data;
  post_progress (p->w, p->job, fraction, label, response);
}

/* The job's steps on B (the CPU where B cannot), then the result brought to host memory.
 * Returns the image in host memory and, in *WORK, in the memory of *ON, the backend that
 * merged. */
static LmImage *
merge_steps (LmRenderWorker *w, const Job *job, LmBackend *b, LmRenderResult *r, GString *notice,
             LmImage **work_out, LmBackend **on, GError **error)
{
  LmBackend *cpu = w->sides[0].backend;
  LmHdrJobSpec spec = { .n = job->n, .paths = (const char *const *) job->paths, .times = job->times,
                        .method = job->method, .align = job->align };
  g_autoptr (LmHdrJob) hdr = lm_hdr_job_new (&spec);
  Progress p = { w, job };
  lm_hdr_job_set_progress (hdr, on_progress, &p);
  lm_hdr_job_set_timings (hdr, &r->timings);
  lm_hdr_job_set_fallback (hdr, cpu);
  lm_hdr_job_set_cancellable (hdr, job->cancellable);
  gboolean ok = lm_hdr_job_run (hdr, b, lm_render_fast_host (w), error);
  if (lm_hdr_job_notice (hdr))
    g_string_append (notice, lm_hdr_job_notice (hdr));
  if (!ok)
    return NULL;
  if (lm_hdr_job_response (hdr))
    r->response = g_memdup2 (lm_hdr_job_response (hdr), sizeof (LmResponse));

  *on = lm_hdr_job_merged_on (hdr);
  g_autoptr (LmImage) work = lm_hdr_job_steal_merged (hdr);
  g_autoptr (LmImage) host = lm_image_ref (work);
  if (*on != cpu)
    {
      post_progress (w, job, 0.9, _("Downloading the result…"), NULL);
      gint64 t = g_get_monotonic_time ();
      g_clear_pointer (&host, lm_image_unref);
      host = lm_backend_download (*on, work, error);
      if (host == NULL || !lm_backend_synchronize (*on, error))
        return NULL;
      lm_timings_add (&r->timings, _("download"), lm_ms_since (t));
      if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
        return NULL;
    }
  /* The export carries the exposures' colour profile (and EXIF, as lumen-cli hdr does): a raw
   * merge the raws' Rec. 2020, in which its tone mapping comes out. */
  lm_image_copy_metadata (host, lm_hdr_job_stack (hdr)->images[0]);
  r->raw = lm_image_is_raw (lm_hdr_job_stack (hdr)->images[0]);
  host->raw_scene = work->raw_scene = r->raw;
  *work_out = g_steal_pointer (&work);
  return g_steal_pointer (&host);
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
