/* One photo developed as lumen-cli develops it (develop-one.h). */
#include <glib/gi18n.h>

#include "develop-one.h"
#include "../color/rec2020.h"
#include "../error.h"
#include "../io/file-read.h"
#include "../io/raw.h"
#include "../pixel-budget.h"
#include "cache.h"
#include "jpeg-gpu.h"
#include "tiled.h"

static void
say (GPtrArray *said, char *line)
{
  if (said)
    g_ptr_array_add (said, line);
  else
    g_free (line);
}

/* Only where the backend's work memory is apart from the host's do upload and download move
 * pixels, and only then are they timed. */
static gboolean
transfers (LmBackend *backend)
{
  return lm_backend_work_allocator (backend)->memory == LM_MEMORY_DEVICE;
}

gboolean
lm_develop_is_raw (const char *path)
{
  /* Mapped, not read: the sniffers look at the header and a few directories. */
  g_autoptr (GBytes) bytes = lm_file_map (path, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), NULL);
  if (bytes == NULL)
    return FALSE;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  return lm_file_type_sniff (data, len) == LM_FILE_RAW;
}

gboolean
lm_develop_fall_back (LmBackendKind asked, LmBackend *backend, const GError *error, GPtrArray *said)
{
  gboolean failed = g_error_matches (error, LUMEN_ERROR, LM_ERROR_DEVICE);
  if (backend == NULL || !transfers (backend)
      || !(failed || g_error_matches (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY)
           || g_error_matches (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED)))
    return FALSE;
  /* A device that fails is news even to whoever let Lumen choose it. */
  if (asked == LM_BACKEND_CUDA || failed)
    say (said, g_strdup_printf (_("note: %s; rendering on the CPU instead"), error->message));
  return TRUE;
}

/* The operations PIPELINE has on that act after the display transform, joined by ", ", or
 * NULL when none is. */
static char *
display_operations (const LmPipeline *pipeline)
{
  g_autoptr (GString) names = g_string_new (NULL);
  for (guint i = 0; i < pipeline->n; i++)
    if (pipeline->inst[i].enabled && !pipeline->inst[i].info->on_scene)
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", pipeline->inst[i].info->name);
  return names->len ? g_string_free (g_steal_pointer (&names), FALSE) : NULL;
}

LmImage *
lm_develop_scene (LmBackend *backend, LmImage *source, LmColorProfile *color, const LmPipeline *pipeline,
                  const char *output, LmTimings *timings, GPtrArray *said, GError **error)
{
  if (!lm_raw_scene_output_check (output, error))
    return NULL;
  g_autofree char *edits = display_operations (pipeline);
  if (edits)
    {
      g_autofree char *display = g_filename_display_name (output);
      say (said, g_strdup_printf (_("note: %s: holds the developed scene, before the display transform: the edits "
                                    "that act after it (%s) are not in it"),
                                  display, edits));
    }
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) work = lm_backend_upload (backend, source, error);
  if (work == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  if (transfers (backend))
    lm_timings_add (timings, _("upload"), lm_ms_since (t));

  g_autoptr (LmRenderCache) cache = lm_render_cache_new (backend, work);
  lm_render_cache_set_color (cache, color);
  g_autoptr (LmImage) scene = lm_render_cache_run_scene (cache, pipeline, timings, error);
  if (scene == NULL)
    return NULL;

  t = g_get_monotonic_time ();
  g_autoptr (LmImage) host = lm_backend_download (backend, scene, error);
  if (host == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  if (transfers (backend))
    lm_timings_add (timings, _("download"), lm_ms_since (t));
  /* The EXR's chromaticities say which primaries its numbers are of. */
  g_clear_pointer (&host->icc_profile, g_bytes_unref);
  host->icc_profile = lm_color_rec2020_linear_icc ();
  return g_steal_pointer (&host);
}

/* FALSE, naming IN_PATH and why, where PIPELINE asks for lens correction and the photo gets
 * none: a render leaves a photo that names no lens as it is (the window says why in its info
 * bar), but an export asked for the correction means it. */
static gboolean
lens_found (const char *in_path, const LmImage *source, const LmColorProfile *color, const LmPipeline *pipeline,
            GError **error)
{
  g_autofree char *note = lm_pipeline_lens_note (pipeline, color, source);
  if (note == NULL)
    return TRUE;
  g_autofree char *shown = g_filename_display_name (in_path);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s: lens correction: %s"), shown, note);
  return FALSE;
}

/* SOURCE through the pipeline on BACKEND tile by tile (tiled.h), into host memory of the
 * backend's (pinned where it can). */
static LmImage *
render_tiled (LmBackend *backend, LmImage *source, LmColorProfile *color, const LmPipeline *pipeline,
              LmTimings *timings, GError **error)
{
  LmFormat format;
  guint width, height;
  lm_render_tiled_output (source, pipeline, &format, &width, &height);
  g_autoptr (LmImage) host = lm_image_new (format, width, height, lm_backend_host_allocator (backend), error);
  if (host == NULL || !lm_render_tiled (backend, source, pipeline, color, NULL, host, NULL, timings, error))
    return NULL;
  return g_steal_pointer (&host);
}

/* Whether the render goes tile by tile: where the untiled one does not fit the device, or
 * LUMEN_TILE asks for tiles (tests). Radiance is never tiled (its tone mapping needs the
 * whole image), nor is a raw: its development is not tiled yet. */
static gboolean
wants_tiles (LmBackend *backend, LmImage *source, const LmPipeline *pipeline)
{
  if (source->format == LM_FORMAT_RGBA_F32 || lm_image_is_raw (source))
    return FALSE;
  return g_getenv ("LUMEN_TILE") != NULL || !lm_render_fits (backend, source, pipeline);
}

/* The final mask plane of instance MASK_ID in CACHE's last run, in host memory. */
static LmImage *
download_mask (LmBackend *backend, LmRenderCache *cache, guint32 mask_id, GError **error)
{
  g_autoptr (LmImage) plane = lm_render_cache_mask (cache, mask_id);
  if (plane == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("--mask-out: the render made no mask for that instance"));
      return NULL;
    }
  g_autoptr (LmImage) host = lm_backend_download (backend, plane, error);
  if (host == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  return g_steal_pointer (&host);
}

/* SOURCE through the pipeline on BACKEND, back in host memory; left in the device's where
 * ON_DEVICE asks. MASK_ID not 0: that instance's mask in *MASK, in host memory. The cache runs
 * once: where the work memory is the host's, its outputs alternate between two buffers, taken
 * first from BUFFERS (may be NULL). */
static LmImage *
render_whole (LmBackend *backend, LmImage *source, LmColorProfile *color, const LmPipeline *pipeline,
              gboolean on_device, guint32 mask_id, LmImage **mask, GPtrArray *buffers, LmTimings *timings,
              GError **error)
{
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) work = lm_backend_upload (backend, source, error);
  if (work == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  if (transfers (backend))
    lm_timings_add (timings, _("upload"), lm_ms_since (t));

  g_autoptr (LmRenderCache) cache = lm_render_cache_new (backend, work);
  lm_render_cache_set_color (cache, color);
  /* A device's memory is left as it was: its buffers are not faulted in, and it is not
   * tested here. */
  if (!transfers (backend))
    lm_render_cache_set_single_run (cache, buffers);
  g_autoptr (LmImage) result = lm_render_cache_run (cache, pipeline, timings, error);
  if (result == NULL)
    return NULL;
  if (mask_id != 0 && (*mask = download_mask (backend, cache, mask_id, error)) == NULL)
    return NULL;
  if (on_device)
    return g_steal_pointer (&result);

  t = g_get_monotonic_time ();
  g_autoptr (LmImage) host = lm_backend_download (backend, result, error);
  if (host == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  if (transfers (backend))
    lm_timings_add (timings, _("download"), lm_ms_since (t));
  return g_steal_pointer (&host);
}

/* In one piece where it fits, else in tiles; a device that runs out of memory in one piece
 * gets the tiles before the CPU is asked. A mask (MASK_ID not 0) needs the one piece, whose
 * cache keeps it. */
static LmImage *
render (LmBackend *backend, LmImage *source, LmColorProfile *color, const LmPipeline *pipeline, gboolean on_device,
        guint32 mask_id, LmImage **mask, GPtrArray *buffers, LmTimings *timings, GError **error)
{
  if (mask_id == 0 && wants_tiles (backend, source, pipeline))
    return render_tiled (backend, source, color, pipeline, timings, error);
  GError *e = NULL;
  guint kept = timings->entries->len;
  LmImage *host = render_whole (backend, source, color, pipeline, on_device, mask_id, mask, buffers, timings, &e);
  if (host == NULL && mask_id == 0 && g_error_matches (e, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY)
      && source->format != LM_FORMAT_RGBA_F32 && !lm_image_is_raw (source) && transfers (backend))
    {
      /* What the tiles take is what the photo took: not the upload of the attempt before. */
      g_clear_error (&e);
      lm_timings_truncate (timings, kept);
      lm_backend_release_scratch (backend);
      return render_tiled (backend, source, color, pipeline, timings, error);
    }
  if (e)
    g_propagate_error (error, e);
  return host;
}

static LmImage *
render_or_scene (LmBackend *backend, gboolean scene, const char *output, LmImage *source, LmColorProfile *color,
                 const LmPipeline *pipeline, gboolean on_device, guint32 mask_id, LmImage **mask, GPtrArray *buffers,
                 LmTimings *timings, GPtrArray *said, GError **error)
{
  if (scene)
    return lm_develop_scene (backend, source, color, pipeline, output, timings, said, error);
  return render (backend, source, color, pipeline, on_device, mask_id, mask, buffers, timings, error);
}

LmImage *
lm_develop_photo (LmBackend **backend, LmBackendKind asked, const char *in_path, LmImage *source,
                  const LmPipeline *pipeline, const char *output, gboolean on_device, guint32 mask_id,
                  LmImage **mask, GPtrArray *buffers, LmTimings *timings, GPtrArray *said, GError **error)
{
  g_autofree char *color_note = NULL;
  g_autoptr (LmColorProfile) color = lm_color_profile_new (source->icc_profile, &color_note);
  if (color_note)
    {
      g_autofree char *shown = g_filename_display_name (in_path);
      say (said, g_strdup_printf (_("note: %s: %s"), shown, color_note));
    }
  if (!lens_found (in_path, source, color, pipeline, error))
    return NULL;

  /* A raw's .exr is its scene. */
  gboolean scene = output && lm_file_type_is_radiance (lm_file_type_for_output (output));
  GError *e = NULL;
  guint kept = timings->entries->len;
  g_autoptr (LmImage) result = render_or_scene (*backend, scene, output, source, color, pipeline, on_device, mask_id,
                                                mask, buffers, timings, said, &e);
  if (result == NULL && lm_develop_fall_back (asked, *backend, e, said))
    {
      /* The photo does not fit the GPU, or the GPU failed: render it on the CPU rather than
       * not at all, from the pixels already decoded. */
      g_clear_error (&e);
      lm_timings_truncate (timings, kept);
      g_clear_pointer (backend, lm_backend_free);
      *backend = lm_backend_new (LM_BACKEND_CPU, &e);
      if (mask)
        g_clear_pointer (mask, lm_image_unref);
      if (*backend)
        result = render_or_scene (*backend, scene, output, source, color, pipeline, on_device, mask_id, mask,
                                  buffers, timings, said, &e);
    }
  if (result == NULL)
    {
      g_propagate_error (error, e);
      return NULL;
    }
  lm_image_copy_metadata (result, source);
  return g_steal_pointer (&result);
}

gboolean
lm_develop_encode (LmBackend *backend, LmImage *image, const char *output, gboolean nvjpeg,
                   const LmSaveOptions *options, const LmAllocator *download_to, GBytes **encoded, LmImage **host,
                   LmTimings *timings, GPtrArray *said, GError **error)
{
  *encoded = NULL;
  *host = NULL;
  if (nvjpeg)
    {
      GError *why = NULL;
      *encoded = lm_jpeg_gpu_encode (backend, image, options, &why);
      if (*encoded)
        return TRUE;
      g_autofree char *note = lm_jpeg_gpu_note (why);
      g_autofree char *display = g_filename_display_name (output);
      say (said, g_strdup_printf (_("note: %s: %s"), display, note));
      g_error_free (why);
    }
  if (image->allocator->memory != LM_MEMORY_DEVICE)
    {
      *host = lm_image_ref (image);
      return TRUE;
    }
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) down = download_to ? lm_backend_download_to (backend, image, download_to, error)
                                         : lm_backend_download (backend, image, error);
  if (down == NULL || !lm_backend_synchronize (backend, error))
    return FALSE;
  lm_timings_add (timings, _("download"), lm_ms_since (t));
  lm_image_copy_metadata (down, image);
  *host = g_steal_pointer (&down);
  return TRUE;
}

gboolean
lm_develop_save (LmBackend *backend, LmImage *image, const char *output, gboolean nvjpeg,
                 const LmSaveOptions *options, LmTimings *timings, GPtrArray *said, GError **error)
{
  g_autoptr (GBytes) encoded = NULL;
  g_autoptr (LmImage) host = NULL;
  gint64 t = g_get_monotonic_time ();
  if (!lm_develop_encode (backend, image, output, nvjpeg, options, NULL, &encoded, &host, timings, said, error))
    return FALSE;
  if (encoded)
    {
      if (!lm_jpeg_gpu_write (encoded, output, error))
        return FALSE;
      lm_timings_add (timings, _("save (nvJPEG)"), lm_ms_since (t));
      return TRUE;
    }
  t = g_get_monotonic_time ();
  if (!lm_io_save (host, output, options, error))
    return FALSE;
  lm_timings_add (timings, _("save"), lm_ms_since (t));
  return TRUE;
}
