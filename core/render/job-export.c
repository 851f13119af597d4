/* The render worker's export job (render-private.h): the request's pipeline at full
 * resolution, downloaded and written with the photo's metadata, with progress and a check
 * for cancellation between steps; a .hdr export writes the merged radiance itself. */
#include "render-private.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "../color/rec2020.h"
#include "../io/depth.h"
#include "../io/raw.h"
#include "../raw-info.h"
#include "jpeg-gpu.h"
#include "tiled.h"

static void
post_progress (LmRenderWorker *w, const Job *job, double fraction)
{
  LmRenderResult *r = lm_render_result_new (LM_RESULT_PROGRESS, &job->request);
  r->fraction = fraction;
  r->path = g_strdup (job->path);
  lm_render_post (w, r);
}

/* The scene (RGBA_F32, before the display transform, with its edits on scene light: a raw's
 * developed in linear Rec. 2020, a merge's radiance) rendered on the job's backend, in host
 * memory and tagged with its primaries: what its .exr holds. */
static LmImage *
develop_scene (LmRenderWorker *w, const Job *job, GError **error)
{
  LmBackend *b = lm_render_backend_for (w, job->request.backend, error);
  if (b == NULL)
    return NULL;
  g_autoptr (LmImage) work = lm_backend_upload (b, w->source, error);
  if (work == NULL)
    return NULL;
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (b, work);
  lm_render_cache_set_color (cache, w->color);
  g_autoptr (LmImage) scene = lm_render_cache_run_scene (cache, &job->request.pipeline, NULL, error);
  if (scene == NULL)
    return NULL;
  LmImage *host = lm_backend_download (b, scene, error);
  if (host == NULL || !lm_backend_synchronize (b, error))
    {
      g_clear_pointer (&host, lm_image_unref);
      return NULL;
    }
  lm_image_copy_metadata (host, w->source);
  if (lm_image_is_raw (w->source))
    {
      g_clear_pointer (&host->icc_profile, g_bytes_unref);
      host->icc_profile = lm_color_rec2020_linear_icc ();
    }
  return host;
}

/* A .hdr or .exr export writes the scene itself, a merge's radiance or a raw's development,
 * with the edits on scene light: not a render of it. */
static gboolean
export_radiance (LmRenderWorker *w, const Job *job, GError **error)
{
  gboolean raw = w->source && lm_image_is_raw (w->source);
  if (w->source == NULL || (w->source->format != LM_FORMAT_RGBA_F32 && !raw))
    {
      g_autofree char *display = g_filename_display_name (job->path);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("%s: only a merged HDR image or a camera raw can be written as radiance (.hdr, .exr)"),
                   display);
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
    return FALSE;
  post_progress (w, job, 0.3);
  if ((raw || w->source->raw_scene) && !lm_raw_scene_output_check (job->path, error))
    return FALSE;
  g_autoptr (LmImage) scene = develop_scene (w, job, error);
  if (scene == NULL || g_cancellable_set_error_if_cancelled (job->cancellable, error))
    return FALSE;
  post_progress (w, job, 0.7);
  return lm_io_save (scene, job->path, &job->options, error);
}

/* Whether the export goes tile by tile: on a GPU that cannot hold the untiled render (or when
 * LUMEN_TILE asks, for tests). Radiance is never tiled: its tone mapping needs the whole image;
 * nor is a raw: its development is not tiled yet. */
static gboolean
wants_tiles (LmRenderWorker *w, const Job *job, const LmImage *source)
{
  if (job->request.backend != LM_BACKEND_CUDA || source == NULL || source->format == LM_FORMAT_RGBA_F32
      || lm_image_is_raw (source))
    return FALSE;
  LmBackend *backend = lm_render_backend_for (w, job->request.backend, NULL);
  return backend && (g_getenv ("LUMEN_TILE") || !lm_render_fits (backend, source, &job->request.pipeline));
}

/* The request's pipeline on the photo in host memory (pinned), tile by tile, into pinned
 * host memory: the GPU's memory holds a few tiles, not the photo. */
static LmImage *
export_tiled (LmRenderWorker *w, const Job *job, const LmImage *source, GError **error)
{
  LmBackend *backend = lm_render_backend_for (w, job->request.backend, error);
  if (backend == NULL)
    return NULL;
  /* What the window's renders keep there (the uploaded photo, its cache) makes room. */
  lm_render_side_reset (&w->sides[1]);
  lm_backend_release_scratch (backend);
  LmFormat format;
  guint width, height;
  lm_render_tiled_output (source, &job->request.pipeline, &format, &width, &height);
  g_autoptr (LmImage) host = lm_image_new (format, width, height, lm_backend_host_allocator (backend), error);
  if (host == NULL
      || !lm_render_tiled (backend, source, &job->request.pipeline, w->color, NULL, host, NULL, NULL, error))
    return NULL;
  return g_steal_pointer (&host);
}

/* The JPEG through nvJPEG, as the export asks: TRUE when that was done (ERROR: writing it
 * failed); FALSE when the CPU's encoder is to write IMAGE, *NOTICE saying why. */
static gboolean
export_nvjpeg (LmRenderWorker *w, const Job *job, LmBackend *backend, LmImage *image, char **notice,
               GError **error)
{
  lm_image_copy_metadata (image, w->source);
  GError *why = NULL;
  g_autoptr (GBytes) jpeg = lm_jpeg_gpu_encode (backend, image, &job->options, &why);
  if (jpeg)
    {
      lm_jpeg_gpu_write (jpeg, job->path, error);
      return TRUE;
    }
  g_autofree char *note = lm_jpeg_gpu_note (why);
  g_autofree char *display = g_filename_display_name (job->path);
  g_free (*notice);
  *notice = g_strdup_printf ("%s: %s", display, note);
  g_error_free (why);
  return FALSE;
}

/* The 16-bit twin of an 8-bit photo where the export asks for 16 bits (LmSaveOptions.depth)
 * in a format that holds them: the operations then run on 16-bit samples and keep the
 * gradations an 8-bit render rounds to 256 levels. NULL: the photo renders as it is. */
static LmImage *
deep_source (LmRenderWorker *w, const Job *job, GError **error)
{
  LmFileType type = lm_file_type_for_output (job->path);
  if (job->options.depth != 16 || (type != LM_FILE_PNG && type != LM_FILE_TIFF) || w->source == NULL
      || lm_format_depth (w->source->format) != 8 || lm_image_is_raw (w->source))
    return NULL;
  LmBackend *backend = lm_render_backend_for (w, job->request.backend, error);
  return backend ? lm_image_to_depth16 (w->source, lm_backend_host_allocator (backend), error) : NULL;
}

/* The request's pipeline on DEEP in a cache of its own: the window's caches hold the 8-bit
 * photo's steps. */
static LmImage *
render_deep (LmRenderWorker *w, const Job *job, LmImage *deep, LmBackend *b, GError **error)
{
  g_autoptr (LmImage) work = lm_backend_upload (b, deep, error);
  if (work == NULL)
    return NULL;
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (b, work);
  lm_render_cache_set_color (cache, w->color);
  return lm_render_cache_run (cache, &job->request.pipeline, NULL, error);
}

void
lm_render_run_export (LmRenderWorker *w, const Job *job)
{
  LmRenderResult *r = lm_render_result_new (LM_RESULT_EXPORTED, &job->request);
  r->path = g_strdup (job->path);
  GError *e = NULL;
  if (lm_file_type_is_radiance (lm_file_type_for_output (job->path)))
    {
      export_radiance (w, job, &e);
      r->error = e;
      r->fraction = 1.0;
      lm_render_post (w, r);
      return;
    }
  g_autoptr (LmImage) deep = deep_source (w, job, &e);
  const LmImage *source = deep ? deep : w->source;
  gboolean tiles = e == NULL && wants_tiles (w, job, source);
  Side *side = NULL;
  LmBackend *backend = NULL;
  if (!tiles && e == NULL && deep)
    backend = lm_render_backend_for (w, job->request.backend, &e);
  else if (!tiles && e == NULL)
    backend = (side = lm_render_side_for (w, job->request.backend, &e)) ? side->backend : NULL;
  g_autoptr (LmImage) out = NULL, host = NULL;
  if (backend && !g_cancellable_set_error_if_cancelled (job->cancellable, &e))
    {
      post_progress (w, job, 0.1);
      out = deep ? render_deep (w, job, deep, backend, &e)
                 : lm_render_cache_run (side->cache, &job->request.pipeline, NULL, &e);
    }
  /* Out of GPU memory in one piece: in tiles, before the window's fall-back to the CPU. */
  if (job->request.backend == LM_BACKEND_CUDA && out == NULL && g_error_matches (e, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY)
      && source && source->format != LM_FORMAT_RGBA_F32 && !lm_image_is_raw (source))
    {
      g_clear_error (&e);
      tiles = TRUE;
    }
  if (tiles && !g_cancellable_set_error_if_cancelled (job->cancellable, &e))
    {
      post_progress (w, job, 0.1);
      host = export_tiled (w, job, source, &e);
    }
  gboolean nvjpeg = job->options.nvjpeg && lm_file_type_for_output (job->path) == LM_FILE_JPEG;
  if (nvjpeg && out && !g_cancellable_set_error_if_cancelled (job->cancellable, &e))
    {
      post_progress (w, job, 0.4);
      if (export_nvjpeg (w, job, backend, out, &r->notice, &e))
        g_clear_pointer (&out, lm_image_unref); /* written */
      nvjpeg = FALSE;
    }
  if (out && !g_cancellable_set_error_if_cancelled (job->cancellable, &e))
    {
      post_progress (w, job, 0.4);
      host = lm_backend_download (backend, out, &e);
      if (host && !lm_backend_synchronize (backend, &e))
        g_clear_pointer (&host, lm_image_unref);
    }
  if (host && !g_cancellable_set_error_if_cancelled (job->cancellable, &e))
    {
      post_progress (w, job, 0.6);
      /* The export carries the photo's profile and EXIF. On the CPU the downloaded image is the
       * cache's own; setting the same photo's metadata on it is harmless, as only writers read it. */
      lm_image_copy_metadata (host, w->source);
      /* Rendered in tiles, the result is in host memory: the note says so. */
      if (nvjpeg)
        export_nvjpeg (w, job, lm_render_backend_for (w, job->request.backend, NULL), host, &r->notice, NULL);
      lm_io_save (host, job->path, &job->options, &e);
    }
  r->error = e;
  r->fraction = 1.0;
  lm_render_post (w, r);
}
