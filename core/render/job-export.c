/* The render worker's export job (render-private.h): the request's pipeline at full
 * resolution, downloaded and written with the photo's metadata, with progress and a check
 * for cancellation between steps; a .hdr export writes the merged radiance itself. */
#include "render-private.h"

#include <glib/gi18n.h>

#include "../error.h"

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

void
lm_render_run_export (LmRenderWorker *w, const Job *job)
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
  Side *side = lm_render_side_for (w, job->request.backend, &e);
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
