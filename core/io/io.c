#include "io.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "file-read.h"
#include "../pixel-budget.h"
#include "io-private.h"
#include "../color/convert.h"

/* Every format, in the order their sniffers are asked: magic numbers first, camera raw before
 * TIFF (most raws are TIFFs whose IFDs say they hold sensor data), FITS (whose gzip-compressed
 * form is told by inflating a little) last. */
static const LmFileFormat *const formats[] = {
  &lm_file_format_jpeg,
  &lm_file_format_png,
  &lm_file_format_raw,
  &lm_file_format_tiff,
  &lm_file_format_webp,
  &lm_file_format_bmp,
  &lm_file_format_gif,
  &lm_file_format_radiance,
  &lm_file_format_exr,
  &lm_file_format_fits,
};

static const LmFileFormat *
format_of (LmFileType type)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (formats[i]->type == type)
      return formats[i];
  return NULL;
}

static const LmFileFormat *
format_sniffed (const guint8 *data, gsize len)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (formats[i]->sniff (data, len))
      return formats[i];
  return NULL;
}

LmFileType
lm_file_type_sniff (const guint8 *h, gsize n)
{
  const LmFileFormat *format = format_sniffed (h, n);
  return format ? format->type : LM_FILE_UNKNOWN;
}

const char *
lm_file_type_name (LmFileType type)
{
  const LmFileFormat *format = format_of (type);
  return format ? format->name : "unknown";
}

gboolean
lm_file_type_is_radiance (LmFileType type)
{
  const LmFileFormat *format = format_of (type);
  return format && format->radiance;
}

gboolean
lm_file_type_writable (LmFileType type, GError **error)
{
  const LmFileFormat *format = format_of (type);
  if (format && format->no_save)
    {
      /* Not LM_ERROR_UNSUPPORTED: that one means "another backend may", and no backend can. */
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID, _(format->no_save));
      return FALSE;
    }
  return format && format->save;
}

LmFileType
lm_file_type_for_output (const char *path)
{
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, '/');
  if (dot == NULL || (slash && dot < slash))
    return LM_FILE_UNKNOWN;
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    for (const char *const *suffix = formats[i]->suffixes; suffix && *suffix; suffix++)
      if (g_ascii_strcasecmp (dot, *suffix) == 0)
        return formats[i]->type;
  return LM_FILE_UNKNOWN;
}

/* lm_io_load_telling's listener (on its caller's stack), for the loading thread's next
 * image: a load runs on one thread, and the batch loads several photos at once on others. */
typedef struct {
  LmIoImageFunc func;
  gpointer data;
} Told;
static GPrivate told_key = G_PRIVATE_INIT (NULL);

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
  Told *told = g_private_get (&told_key);
  g_private_set (&told_key, NULL);
  if (image && told)
    told->func (image, told->data);
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
lm_io_load_telling (const char *path, const LmAllocator *allocator, LmIoImageFunc told, gpointer data,
                    GError **error)
{
  Told listener = { told, data };
  g_private_set (&told_key, told ? &listener : NULL);
  LmImage *image = lm_io_load (path, allocator, error);
  g_private_set (&told_key, NULL);
  return image;
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
  const LmFileFormat *format = format_sniffed (data, len);
  if (format)
    return format->load (path, data, len, allocator, error);

  if (looks_like_text (data, MIN (len, 512)))
    lm_set_file_error (error, LM_ERROR_FORMAT, path,
                       _("is a text file, not an image (Lumen reads JPEG, PNG, TIFF, WebP, BMP, "
                         "GIF, Radiance HDR, OpenEXR and camera raw)"));
  else
    lm_set_file_error (error, LM_ERROR_FORMAT, path,
                       _("is not an image Lumen can read (JPEG, PNG, TIFF, WebP, BMP, GIF, "
                         "Radiance HDR, OpenEXR or camera raw)"));
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
  /* Sensor data is no picture until it is developed (core/raw): written as it is, it would be
   * a gray mosaic, or camera RGB without its black level, white balance and colours. */
  if (image->format == LM_FORMAT_CFA16 || image->raw != NULL)
    {
      lm_set_file_error (error, LM_ERROR_INVALID, path,
                         _("this is a camera raw's undeveloped sensor data; image files cannot hold it as it is"));
      return FALSE;
    }
  const LmFileFormat *format = format_of (type);
  if (format->radiance != (image->format == LM_FORMAT_RGBA_F32))
    {
      lm_set_file_error (error, LM_ERROR_INVALID, path, "%s",
                         format->wrong_kind ? _(format->wrong_kind)
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
  gboolean ok = format->save (image, file, options, &codec_error);
  if (!ok)
    lm_atomic_file_take_error (file, codec_error);
  return lm_atomic_file_commit (file, error);
}
