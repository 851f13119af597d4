#include "io.h"

#include <string.h>
#include <glib/gi18n.h>

#include "config.h"
#include "../error.h"
#include "depth.h"
#include "file-read.h"
#include "pixel-budget.h"
#include "io-private.h"
#include "../color/convert.h"
#include "../astro/fits.h"
#include "../astro/fits-gzip.h"

LmFileType
lm_file_type_sniff (const guint8 *h, gsize n)
{
  if (n >= 3 && h[0] == 0xFF && h[1] == 0xD8 && h[2] == 0xFF)
    return LM_FILE_JPEG;
  if (n >= 8 && memcmp (h, "\x89PNG\r\n\x1a\n", 8) == 0)
    return LM_FILE_PNG;
  if (n >= 4 && (memcmp (h, "II*\0", 4) == 0 || memcmp (h, "MM\0*", 4) == 0))
    return LM_FILE_TIFF;
  if (n >= 12 && memcmp (h, "RIFF", 4) == 0 && memcmp (h + 8, "WEBP", 4) == 0)
    return LM_FILE_WEBP;
  if (n >= 2 && h[0] == 'B' && h[1] == 'M')
    return LM_FILE_BMP;
  if (n >= 6 && (memcmp (h, "GIF87a", 6) == 0 || memcmp (h, "GIF89a", 6) == 0))
    return LM_FILE_GIF;
  if ((n >= 10 && memcmp (h, "#?RADIANCE", 10) == 0) || (n >= 6 && memcmp (h, "#?RGBE", 6) == 0))
    return LM_FILE_RADIANCE;
  if (n >= 4 && memcmp (h, "\x76\x2f\x31\x01", 4) == 0)
    return LM_FILE_EXR;
  return LM_FILE_UNKNOWN;
}

const char *
lm_file_type_name (LmFileType type)
{
  switch (type)
    {
    case LM_FILE_JPEG:
      return "JPEG";
    case LM_FILE_PNG:
      return "PNG";
    case LM_FILE_TIFF:
      return "TIFF";
    case LM_FILE_WEBP:
      return "WebP";
    case LM_FILE_BMP:
      return "BMP";
    case LM_FILE_GIF:
      return "GIF";
    case LM_FILE_RADIANCE:
      return "Radiance HDR";
    case LM_FILE_EXR:
      return "OpenEXR";
    case LM_FILE_UNKNOWN:
      break;
    }
  return "unknown";
}

gboolean
lm_file_type_is_radiance (LmFileType type)
{
  return type == LM_FILE_RADIANCE || type == LM_FILE_EXR;
}

gboolean
lm_file_type_writable (LmFileType type, GError **error)
{
  if (type == LM_FILE_EXR && !LUMEN_HAVE_OPENEXR)
    {
      /* Not LM_ERROR_UNSUPPORTED: that one means "another backend may", and no backend can. */
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID,
                           _("this build of Lumen cannot write OpenEXR files (it was built without the "
                             "OpenEXR library); write radiance as .hdr"));
      return FALSE;
    }
  return type != LM_FILE_UNKNOWN && type != LM_FILE_WEBP && type != LM_FILE_BMP && type != LM_FILE_GIF;
}

LmFileType
lm_file_type_for_output (const char *path)
{
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, '/');
  if (dot == NULL || (slash && dot < slash))
    return LM_FILE_UNKNOWN;
  static const struct {
    const char *ext;
    LmFileType type;
  } table[] = {
    { ".png", LM_FILE_PNG },   { ".jpg", LM_FILE_JPEG }, { ".jpeg", LM_FILE_JPEG },
    { ".tif", LM_FILE_TIFF },  { ".tiff", LM_FILE_TIFF }, { ".hdr", LM_FILE_RADIANCE },
    { ".exr", LM_FILE_EXR },
  };
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_ascii_strcasecmp (dot, table[i].ext) == 0)
      return table[i].type;
  return LM_FILE_UNKNOWN;
}

LmImage *
lm_io_image_new (LmFormat format, guint width, guint height, const LmAllocator *allocator, const char *path,
                 GError **error)
{
  GError *e = NULL;
  LmImage *image = lm_image_new (format, width, height, allocator, &e);
  if (image == NULL)
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
    }
  return image;
}

static gboolean
looks_like_text (const guint8 *h, gsize n)
{
  if (n == 0)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (h[i] < 0x09 || (h[i] > 0x0d && h[i] < 0x20 && h[i] != 0x1b))
      return FALSE;
  return TRUE;
}

LmImage *
lm_io_load (const char *path, const LmAllocator *allocator, GError **error)
{
  g_autoptr (GBytes) bytes = lm_file_map (path, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), error);
  if (bytes == NULL)
    return NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  return lm_io_load_from_memory (path, data, len, allocator, error);
}

LmImage *
lm_io_load_from_memory (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
                        GError **error)
{
  if (len == 0)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("the file is empty"));
      return NULL;
    }
  LmFileType type = lm_file_type_sniff (data, MIN (len, 16));
  switch (type)
    {
    case LM_FILE_JPEG:
      return lm_jpeg_load (path, data, len, allocator, error);
    case LM_FILE_RADIANCE:
      return lm_radiance_load (path, data, len, allocator, error);
    case LM_FILE_EXR:
#if LUMEN_HAVE_OPENEXR
      return lm_exr_load (path, data, len, allocator, error);
#else
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                         _("is an OpenEXR file, and this build of Lumen was built without the OpenEXR "
                           "library"));
      return NULL;
#endif
    case LM_FILE_PNG:
      return lm_png_load (path, data, len, allocator, error);
    case LM_FILE_TIFF:
      return lm_tiff_load (path, data, len, allocator, error);
    case LM_FILE_WEBP:
      return lm_webp_load (path, data, len, allocator, error);
    case LM_FILE_GIF:
      return lm_gif_load (path, data, len, allocator, error);
    case LM_FILE_BMP:
      return lm_pixbuf_load (path, type, data, len, allocator, error);
    case LM_FILE_UNKNOWN:
      break;
    }
  /* FITS data (astronomy) as LM_FORMAT_GRAY_F32, plain or gzip-compressed; its header comes
   * with lm_fits_load. */
  if (lm_fits_sniff (data, len) || lm_fits_gzip_sniff (data, len))
    return lm_fits_load_memory (path, data, len, allocator, NULL, error);

  if (looks_like_text (data, MIN (len, 512)))
    lm_set_file_error (error, LM_ERROR_FORMAT, path,
                       _("is a text file, not an image (Lumen reads JPEG, PNG, TIFF, WebP, BMP, "
                         "GIF, Radiance HDR and OpenEXR)"));
  else
    lm_set_file_error (error, LM_ERROR_FORMAT, path,
                       _("is not an image Lumen can read (JPEG, PNG, TIFF, WebP, BMP, GIF, "
                         "Radiance HDR or OpenEXR)"));
  return NULL;
}

gboolean
lm_io_check_output (const char *path, GError **error)
{
  LmFileType type = lm_file_type_for_output (path);
  if (type == LM_FILE_UNKNOWN)
    {
      lm_set_file_error (error, LM_ERROR_INVALID, path,
                         _("unknown output format; use a name ending in .png, .jpg, .tif, .hdr or .exr"));
      return FALSE;
    }
  GError *e = NULL;
  if (!lm_file_type_writable (type, &e))
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
      return FALSE;
    }
  return lm_io_check_writable (path, error);
}

gboolean
lm_io_check_writable (const char *path, GError **error)
{
  /* The one reliable test of "can I create a file there" is to create one: permission bits
   * say nothing for root, read-only mounts or full quotas. Opening refuses first what must
   * not be replaced (a folder, a fifo, a device), by name. */
  LmAtomicFile *probe = lm_atomic_file_open (path, error);
  if (probe == NULL)
    return FALSE;
  lm_atomic_file_abort (probe);
  return TRUE;
}

gboolean
lm_io_save (const LmImage *image, const char *path, const LmSaveOptions *options,
            GError **error)
{
  g_return_val_if_fail (image->allocator->memory == LM_MEMORY_HOST, FALSE);
  static const LmSaveOptions defaults = LM_SAVE_OPTIONS_INIT;
  if (options == NULL)
    options = &defaults;

  LmFileType type = lm_file_type_for_output (path);
  if (type == LM_FILE_UNKNOWN || !lm_file_type_writable (type, NULL))
    return lm_io_check_output (path, error);
  /* FITS data is measured values, not pixels an image file holds: it leaves as a catalogue or
   * through a display stretch, never as raw floats an encoder would misread. */
  if (image->format == LM_FORMAT_GRAY_F32)
    {
      lm_set_file_error (error, LM_ERROR_INVALID, path,
                         _("this is float data from a FITS file; image files cannot hold it as it is "
                           "(detect sources with lumen-cli detect, or stretch it for display first)"));
      return FALSE;
    }
  if (lm_file_type_is_radiance (type) != (image->format == LM_FORMAT_RGBA_F32))
    {
      lm_set_file_error (error, LM_ERROR_INVALID, path,
                         type == LM_FILE_RADIANCE ? _("Radiance HDR holds linear radiance; this 8-bit result belongs in "
                                                      "a .png, .jpg or .tif file")
                         : type == LM_FILE_EXR    ? _("OpenEXR holds linear radiance here; this 8-bit result belongs "
                                                      "in a .png, .jpg or .tif file")
                                                  : _("this is linear HDR radiance; write it as .hdr or .exr, or "
                                                      "tone map it to 8 bits first"));
      return FALSE;
    }

  g_autoptr (LmImage) converted = NULL;
  if (options->to_srgb && image->format != LM_FORMAT_RGBA_F32)
    {
      GError *e = NULL;
      if ((converted = lm_color_convert_to_srgb (image, &e)) == NULL)
        {
          lm_set_file_error (error, e->code, path, "%s", e->message);
          g_error_free (e);
          return FALSE;
        }
      image = converted;
    }

  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    return FALSE;

  GError *codec_error = NULL;
  gboolean ok = FALSE;
  switch (type)
    {
    case LM_FILE_JPEG:
      {
        /* JPEG is 8-bit: a 16-bit image is rounded to 8 bits for it. */
        g_autoptr (LmImage) narrow = lm_image_to_depth8 (image, &codec_error);
        ok = narrow && lm_jpeg_save (narrow, file, options, &codec_error);
      }
      break;
    case LM_FILE_PNG:
      ok = lm_png_save (image, file, options->png_level, &codec_error);
      break;
    case LM_FILE_TIFF:
      ok = lm_tiff_save (image, file, &codec_error);
      break;
    case LM_FILE_RADIANCE:
      ok = lm_radiance_save (image, file, &codec_error);
      break;
#if LUMEN_HAVE_OPENEXR
    case LM_FILE_EXR:
      ok = lm_exr_save (image, file, &codec_error);
      break;
#endif
    default:
      g_assert_not_reached ();
    }
  if (!ok)
    lm_atomic_file_take_error (file, codec_error);
  return lm_atomic_file_commit (file, error);
}
