/* PNG, TIFF, WebP, BMP and GIF through gdk-pixbuf's loaders; TIFF export through its saver. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gi18n.h>

#include "io-private.h"

/* gdk-pixbuf's messages often read "Failed to load image “name”: cause"; keep the cause,
 * since our message names the file already. */
static const char *
cause_of (const GError *e, const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  const char *at = strstr (e->message, base);
  if (at != NULL)
    {
      const char *colon = strstr (at + strlen (base), ": ");
      if (colon != NULL && colon[2] != '\0')
        return colon + 2;
    }
  return e->message;
}

static void
copy_gray (const GdkPixbuf *pixbuf, LmImage *image)
{
  const guint8 *pixels = gdk_pixbuf_read_pixels (pixbuf);
  int rowstride = gdk_pixbuf_get_rowstride (pixbuf);
  int channels = gdk_pixbuf_get_n_channels (pixbuf);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *in = pixels + (gsize) y * rowstride;
      guint8 *out = lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++)
        out[x] = in[channels * x];
    }
}

static void
copy_rgba (const GdkPixbuf *pixbuf, LmImage *image)
{
  const guint8 *pixels = gdk_pixbuf_read_pixels (pixbuf);
  int rowstride = gdk_pixbuf_get_rowstride (pixbuf);
  int channels = gdk_pixbuf_get_n_channels (pixbuf);
  gboolean has_alpha = gdk_pixbuf_get_has_alpha (pixbuf);
  gboolean opaque = TRUE;

#pragma omp parallel for schedule(static) reduction(&& : opaque)
  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *in = pixels + (gsize) y * rowstride;
      guint8 *out = lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++)
        {
          out[4 * x + 0] = in[channels * x + 0];
          out[4 * x + 1] = in[channels * x + 1];
          out[4 * x + 2] = in[channels * x + 2];
          out[4 * x + 3] = has_alpha ? in[channels * x + 3] : 255;
          opaque = opaque && out[4 * x + 3] == 255;
        }
    }
  image->opaque = opaque;
}

LmImage *
lm_pixbuf_load (const char *path, gboolean gray, const LmAllocator *allocator, GError **error)
{
  int width = 0, height = 0;
  GError *e = NULL;
  if (gdk_pixbuf_get_file_info (path, &width, &height) == NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path,
                         _("the file is damaged or not in a format this system's gdk-pixbuf "
                           "can read"));
      return NULL;
    }
  /* Refuse forged dimensions before the decoder allocates for them. */
  if (width > 0 && height > 0 && !lm_image_layout (LM_FORMAT_RGBA8, width, height, NULL, NULL, &e))
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
      return NULL;
    }

  g_autoptr (GdkPixbuf) loaded = gdk_pixbuf_new_from_file (path, &e);
  if (loaded == NULL)
    {
      LmErrorCode code = g_error_matches (e, GDK_PIXBUF_ERROR, GDK_PIXBUF_ERROR_INSUFFICIENT_MEMORY)
                           ? LM_ERROR_OUT_OF_MEMORY
                           : LM_ERROR_FORMAT;
      lm_set_file_error (error, code, path, _("cannot decode: %s"), cause_of (e, path));
      g_error_free (e);
      return NULL;
    }
  g_autoptr (GdkPixbuf) pixbuf = gdk_pixbuf_apply_embedded_orientation (loaded);

  /* gdk-pixbuf hands out RGB even for gray files; store them as the one channel they are. */
  gray = gray && !gdk_pixbuf_get_has_alpha (pixbuf);
  LmImage *image = lm_image_new (gray ? LM_FORMAT_GRAY8 : LM_FORMAT_RGBA8,
                                 gdk_pixbuf_get_width (pixbuf), gdk_pixbuf_get_height (pixbuf),
                                 allocator, &e);
  if (image == NULL)
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
      return NULL;
    }
  if (gray)
    copy_gray (pixbuf, image);
  else
    copy_rgba (pixbuf, image);

  const char *icc = gdk_pixbuf_get_option (loaded, "icc-profile");
  if (icc != NULL)
    {
      gsize len = 0;
      guchar *raw = g_base64_decode (icc, &len);
      if (len > 0)
        image->icc_profile = g_bytes_new_take (raw, len);
      else
        g_free (raw);
    }
  return image;
}

static gboolean
write_to_stream (const gchar *buf, gsize count, GError **error, gpointer data)
{
  LmAtomicFile *file = data;
  if (fwrite (buf, 1, count, lm_atomic_file_stream (file)) != count)
    {
      lm_set_write_error (error, lm_atomic_file_path (file), errno);
      return FALSE;
    }
  return TRUE;
}

gboolean
lm_tiff_save (const LmImage *image, LmAtomicFile *file, GError **error)
{
  gboolean keep_alpha = image->format == LM_FORMAT_RGBA8 && !image->opaque;
  g_autoptr (GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, keep_alpha, 8,
                                                 (int) image->width, (int) image->height);
  if (pixbuf == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, lm_atomic_file_path (file),
                         _("not enough memory to encode TIFF"));
      return FALSE;
    }
  guint8 *pixels = gdk_pixbuf_get_pixels (pixbuf);
  int rowstride = gdk_pixbuf_get_rowstride (pixbuf);
  int out_ch = keep_alpha ? 4 : 3;
  guint in_ch = lm_format_channels (image->format);

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *in = lm_image_row (image, y);
      guint8 *out = pixels + (gsize) y * rowstride;
      for (guint x = 0; x < image->width; x++)
        for (int c = 0; c < out_ch; c++)
          out[out_ch * x + c] = in[in_ch * x + (in_ch == 1 ? 0 : c)];
    }

  g_autofree char *icc = NULL;
  if (image->icc_profile)
    icc = g_base64_encode (g_bytes_get_data (image->icc_profile, NULL),
                           g_bytes_get_size (image->icc_profile));
  char *keys[] = { "compression", icc ? "icc-profile" : NULL, NULL };
  char *values[] = { "5" /* LZW: read by every TIFF reader */, icc, NULL };

  GError *e = NULL;
  if (!gdk_pixbuf_save_to_callbackv (pixbuf, write_to_stream, file, "tiff", keys, values, &e))
    {
      if (e->domain == LUMEN_ERROR)
        g_propagate_error (error, e);
      else
        {
          lm_set_file_error (error, LM_ERROR_IO, lm_atomic_file_path (file),
                             _("cannot encode TIFF: %s"), e->message);
          g_error_free (e);
        }
      return FALSE;
    }
  return TRUE;
}
