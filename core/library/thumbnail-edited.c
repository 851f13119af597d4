/* Edited photos' thumbnails (thumbnail-edited.h). The render is the window's quick preview:
 * the render cache on a shrunk source told its pyramid level (masks placed by it), the
 * pipeline scaled by lm_pipeline_scale so that lengths in pixels (blur's sigma, denoise's
 * radius, a crop's rectangle) shrink with the source, on the CPU backend, whose operations
 * are the reference. The source is at least twice the thumbnail (libjpeg's 1/8 of a 24 MP
 * photo: 750 × 500), so that a crop keeps detail. */
#include "thumbnail-edited.h"


#include "thumbnail-cache.h"
#include "thumbnail-source.h"
#include "../error.h"
#include "../pixel-budget.h"
#include "../backend/backend.h"
#include "../color/profile.h"
#include "../edit/sidecar.h"
#include "../io/file-read.h"
#include "../io/io.h"
#include "../render/cache.h"

/* A sidecar's bound when it is read here: lm_sidecar_load has its own. */
#define SIDECAR_MAX ((guint64) 64 << 20)

char *
lm_thumbnail_edited_path (const char *uri, int folder_size)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_MD5, uri, -1);
  g_autofree char *shared = lm_thumbnail_root ();
  g_autofree char *cache = g_path_get_dirname (shared);
  g_autofree char *name = g_strconcat (sum, ".png", NULL);
  return g_build_filename (cache, "lumen", "thumbnails", lm_thumbnail_folder_name (folder_size), name, NULL);
}

char *
lm_thumbnail_edited_uri (const char *uri, GBytes *sidecar)
{
  g_autofree char *sum = g_compute_checksum_for_bytes (G_CHECKSUM_MD5, sidecar);
  return g_strconcat (uri, "#lumen-edits=", sum, NULL);
}

/* The photo's upright size, of which SOURCE (a scaled decode of it) is a level. */
static void
photo_size (LmFileType type, const guint8 *data, gsize len, const LmImage *source, guint *w, guint *h)
{
  *w = source->width, *h = source->height;
  if (type != LM_FILE_JPEG)
    return;
  guint sw, sh;
  if (!lm_thumbnail_jpeg_stored_size (data, len, &sw, &sh))
    return;
  /* The decode is upright: the stored sides swap where its shape does. */
  gboolean turned = (sw > sh) != (source->width > source->height);
  *w = turned ? sh : sw, *h = turned ? sw : sh;
}

static LmImage *
render (const char *photo, const LmPipeline *edits, int folder, GError **error)
{
  g_autoptr (GBytes) bytes = lm_file_map (photo, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), error);
  if (bytes == NULL)
    return NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  LmFileType type = lm_file_type_sniff (data, len);
  g_autoptr (LmImage) source = lm_thumbnail_decode (photo, data, len, 2 * folder, NULL, error);
  if (source == NULL)
    return NULL;
  guint full_w, full_h;
  photo_size (type, data, len, source, &full_w, &full_h);
  double factor = (double) full_w / source->width;

  LmPipeline pipeline = *edits;
  lm_pipeline_fit_source (&pipeline, FALSE);
  lm_pipeline_for_view (&pipeline);
  lm_pipeline_scale (&pipeline, factor);
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmColorProfile) color = lm_color_profile_new (source->icc_profile, NULL);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  lm_render_cache_set_color (cache, color);
  LmRenderLevel level = { factor, full_w, full_h };
  lm_render_cache_set_level (cache, &level);
  g_autoptr (LmImage) out = lm_render_cache_run (cache, &pipeline, NULL, error);
  if (out == NULL)
    return NULL;
  g_autoptr (LmImage) rgba = lm_thumbnail_to_rgba8 (out, photo, error);
  return rgba ? lm_thumbnail_shrink (rgba, folder, error) : NULL;
}

LmImage *
lm_thumbnail_edited_load (const char *photo, int size, gboolean *edited, GError **error)
{
  if (edited != NULL)
    *edited = FALSE;
  int folder = lm_thumbnail_folder_size (size);
  g_autofree char *sidecar = lm_sidecar_find (photo);
  if (folder == 0 || sidecar == NULL)
    return NULL;
  /* The edits come from the very bytes the cache's name is made of: a save of the window
   * between two reads would store one look under the other's name. */
  g_autoptr (GBytes) text = lm_file_read (sidecar, LM_FILE_KIND_TEXT, SIDECAR_MAX, NULL);
  LmPipeline edits;
  lm_pipeline_init (&edits);
  gsize len = 0;
  const char *data = text ? g_bytes_get_data (text, &len) : NULL;
  if (text == NULL || !lm_pipeline_from_text (&edits, data, len, NULL) || lm_sidecar_is_default (&edits))
    return NULL;
  LmThumbnailKey key = { 0 };
  if (!lm_thumbnail_key_init (&key, photo, error))
    return NULL;
  g_autofree char *path = lm_thumbnail_edited_path (key.uri, folder);
  char *edited_uri = lm_thumbnail_edited_uri (key.uri, text);
  g_free (key.uri);
  key.uri = edited_uri;
  g_autoptr (LmImage) made = lm_thumbnail_cache_lookup (path, &key, folder);
  if (made == NULL)
    {
      made = render (photo, &edits, folder, error);
      if (made != NULL)
        lm_thumbnail_cache_store (path, made, &key, NULL, NULL);
    }
  lm_thumbnail_key_clear (&key);
  if (made == NULL)
    return NULL;
  if (edited != NULL)
    *edited = TRUE;
  return lm_thumbnail_shrink (made, size, error);
}
