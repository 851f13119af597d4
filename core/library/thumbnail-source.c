/* Thumbnail pixels from a photo (thumbnail-source.h). */
#include "thumbnail-source.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <libexif/exif-data.h>

#include "../error.h"
#include "../pixel-budget.h"
#include "../io/depth.h"
#include "../io/file-read.h"
#include "../io/io.h"
#include "../io/jpeg-scaled.h"
#include "../io/orientation.h"
#include "../ops/op.h"
#include "../ops/resize-math.h"

/* An embedded preview is taken when its shape is the photo's within this share: cameras
 * that letterbox a 3:2 photo into a 4:3 EXIF thumbnail give black bands otherwise. */
#define PREVIEW_ASPECT_TOLERANCE 0.02

void
lm_thumbnail_fit (guint w, guint h, int size, guint *out_w, guint *out_h)
{
  guint side = MAX (w, h);
  if (side <= (guint) size)
    {
      *out_w = w, *out_h = h;
      return;
    }
  double scale = (double) size / side;
  *out_w = w >= h ? (guint) size : MAX (1u, (guint) floor (w * scale + 0.5));
  *out_h = h >= w ? (guint) size : MAX (1u, (guint) floor (h * scale + 0.5));
}

LmImage *
lm_thumbnail_shrink (LmImage *src, int size, GError **error)
{
  g_return_val_if_fail (src->format == LM_FORMAT_RGBA8, NULL);
  guint w, h;
  lm_thumbnail_fit (src->width, src->height, size, &w, &h);
  return lm_thumbnail_shrink_to (src, w, h, error);
}

LmImage *
lm_thumbnail_shrink_to (LmImage *src, guint w, guint h, GError **error)
{
  g_return_val_if_fail (src->format == LM_FORMAT_RGBA8, NULL);
  if (w == src->width && h == src->height)
    return lm_image_ref (src);
  const LmOpInfo *resize = lm_op_info (LM_OP_RESIZE);
  LmResizeParams params;
  lm_op_params_init (resize, &params);
  params.width = (float) w, params.height = (float) h, params.mode = LM_RESIZE_EXACT;
  g_autoptr (LmImage) dst = lm_image_new (LM_FORMAT_RGBA8, w, h, lm_allocator_host (), error);
  if (dst == NULL || !resize->run_cpu (&params, src, dst, error))
    return NULL;
  dst->opaque = src->opaque;
  return g_steal_pointer (&dst);
}

LmImage *
lm_thumbnail_to_rgba8 (LmImage *src, const char *path, GError **error)
{
  if (src->format == LM_FORMAT_RGBA8)
    return lm_image_ref (src);
  if (src->format == LM_FORMAT_RGBA16 || src->format == LM_FORMAT_GRAY16)
    {
      g_autoptr (LmImage) narrow = lm_image_to_depth8 (src, error);
      return narrow ? lm_thumbnail_to_rgba8 (narrow, path, error) : NULL;
    }
  if (src->format != LM_FORMAT_GRAY8 && src->format != LM_FORMAT_RGBA_F32 && src->format != LM_FORMAT_GRAY_F32)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path, _("no thumbnail can be made of its kind of pixels (%s)"),
                         lm_format_name (src->format));
      return NULL;
    }
  LmImage *dst = lm_image_new (LM_FORMAT_RGBA8, src->width, src->height, lm_allocator_host (), error);
  if (dst == NULL)
    return NULL;
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      for (guint x = 0; x < src->width; x++)
        {
          guint8 px[4] = { 0, 0, 0, 255 };
          if (src->format == LM_FORMAT_GRAY8)
            px[0] = px[1] = px[2] = in[x];
          else if (src->format == LM_FORMAT_GRAY_F32)
            {
              float v = ((const float *) in)[x];
              px[0] = px[1] = px[2] = isnan (v) ? 0 : (guint8) (CLAMP (v, 0.0f, 1.0f) * 255.0f + 0.5f);
            }
          else
            for (int c = 0; c < 4; c++)
              {
                float v = ((const float *) in)[4 * x + c];
                px[c] = isnan (v) ? 0 : (guint8) (CLAMP (v, 0.0f, 1.0f) * 255.0f + 0.5f);
              }
          memcpy (out + 4 * x, px, 4);
        }
    }
  dst->opaque = src->opaque || src->format != LM_FORMAT_RGBA_F32;
  return dst;
}

static int
exif_orientation (ExifData *ed)
{
  ExifEntry *e = exif_content_get_entry (ed->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
  if (e == NULL || e->format != EXIF_FORMAT_SHORT || e->components < 1 || e->size < 2)
    return 1;
  int v = exif_get_short (e->data, exif_data_get_byte_order (ed));
  return v >= 1 && v <= 8 ? v : 1;
}

LmImage *
lm_thumbnail_exif_preview (const guint8 *data, gsize len, int size, guint photo_w, guint photo_h)
{
  if (len > G_MAXUINT || photo_w == 0 || photo_h == 0)
    return NULL;
  /* libexif finds the APP1 segment of a JPEG itself. */
  ExifData *ed = exif_data_new_from_data (data, (unsigned int) len);
  if (ed == NULL)
    return NULL;
  LmImage *preview = NULL;
  if (ed->data != NULL && ed->size > 0)
    {
      g_autoptr (LmImage) stored = lm_jpeg_load_scaled ("", ed->data, ed->size, (guint) size, NULL);
      double photo_aspect = (double) photo_w / photo_h;
      if (stored != NULL && MAX (stored->width, stored->height) >= (guint) size
          && fabs ((double) stored->width / stored->height - photo_aspect) <= PREVIEW_ASPECT_TOLERANCE * photo_aspect)
        preview = lm_image_orient (stored, exif_orientation (ed), NULL);
    }
  exif_data_unref (ed);
  return preview;
}

static const char *
mime_of (LmFileType type)
{
  switch (type)
    {
    case LM_FILE_JPEG: return "image/jpeg";
    case LM_FILE_PNG: return "image/png";
    case LM_FILE_TIFF: return "image/tiff";
    case LM_FILE_WEBP: return "image/webp";
    case LM_FILE_BMP: return "image/bmp";
    case LM_FILE_GIF: return "image/gif";
    case LM_FILE_RADIANCE: return "image/vnd.radiance";
    case LM_FILE_EXR: return "image/x-exr";
    case LM_FILE_FITS: return "image/fits";
    default: return NULL;
    }
}

gboolean
lm_thumbnail_jpeg_stored_size (const guint8 *data, gsize len, guint *w, guint *h)
{
  gsize at = 2;
  while (at + 4 <= len)
    {
      if (data[at] != 0xFF)
        return FALSE;
      guint8 marker = data[at + 1];
      if (marker == 0xFF)
        {
          at++;
          continue;
        }
      gsize seg = ((gsize) data[at + 2] << 8) | data[at + 3];
      gboolean sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (sof)
        {
          if (seg < 7 || at + 9 > len)
            return FALSE;
          *h = ((guint) data[at + 5] << 8) | data[at + 6];
          *w = ((guint) data[at + 7] << 8) | data[at + 8];
          return *w > 0 && *h > 0;
        }
      if (marker == 0xDA || seg < 2)
        return FALSE;
      at += 2 + seg;
    }
  return FALSE;
}

LmImage *
lm_thumbnail_jpeg_preview (const guint8 *data, gsize len, int size)
{
  guint w = 0, h = 0;
  return lm_thumbnail_jpeg_stored_size (data, len, &w, &h) ? lm_thumbnail_exif_preview (data, len, size, w, h) : NULL;
}

LmImage *
lm_thumbnail_shrink_photo (LmImage *decoded, const guint8 *data, gsize len, int size, GError **error)
{
  guint w = 0, h = 0;
  if (lm_file_type_sniff (data, len) != LM_FILE_JPEG || !lm_thumbnail_jpeg_stored_size (data, len, &w, &h))
    return lm_thumbnail_shrink (decoded, size, error);
  if ((decoded->width > decoded->height) != (w > h))
    {
      guint t = w;
      w = h, h = t;
    }
  guint tw, th;
  lm_thumbnail_fit (w, h, size, &tw, &th);
  if (tw > decoded->width || th > decoded->height)
    return lm_thumbnail_shrink (decoded, size, error);
  return lm_thumbnail_shrink_to (decoded, tw, th, error);
}

LmImage *
lm_thumbnail_decode (const char *photo, const guint8 *data, gsize len, int size, const char **mime, GError **error)
{
  LmFileType type = lm_file_type_sniff (data, len);
  if (mime != NULL)
    *mime = mime_of (type);
  if (type == LM_FILE_JPEG)
    {
      LmImage *preview = lm_thumbnail_jpeg_preview (data, len, size);
      if (preview != NULL)
        return preview;
      /* Twice the size where the photo allows: the shrink then averages areas (a factor of
       * 2 or more) rather than interpolating. A CMYK file comes back as lm_io_load has it. */
      g_autoptr (LmImage) scaled = lm_jpeg_load_scaled (photo, data, len, 2 * (guint) size, error);
      return scaled ? lm_thumbnail_to_rgba8 (scaled, photo, error) : NULL;
    }
  if (type == LM_FILE_RAW)
    return lm_thumbnail_raw_preview (photo, data, len, size, error);
  g_autoptr (LmImage) image = lm_io_load_from_memory (photo, data, len, lm_allocator_host (), error);
  return image ? lm_thumbnail_to_rgba8 (image, photo, error) : NULL;
}

LmImage *
lm_thumbnail_make (const char *photo, int size, const char **mime, GError **error)
{
  g_autoptr (GBytes) bytes = lm_file_map (photo, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), error);
  if (bytes == NULL)
    return NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr (LmImage) decoded = lm_thumbnail_decode (photo, data, len, size, mime, error);
  return decoded ? lm_thumbnail_shrink_photo (decoded, data, len, size, error) : NULL;
}
