/* BMP (and CMYK JPEG) through gdk-pixbuf's loaders, named by the type we sniffed so that no
 * MIME database is needed. A BMP's header is read here first: its loader allocates the
 * declared size before it reads a pixel. The pixels come as stored: a BMP carries no
 * orientation, and jpeg.c turns a CMYK JPEG by the metadata of its own segments, as every
 * loader does (orientation.h), gdk-pixbuf knowing only EXIF's. */
#include <string.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gi18n.h>

#include "icc-input.h"
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

static const char *
loader_name (LmFileType type)
{
  switch (type)
    {
    case LM_FILE_JPEG:
      return "jpeg";
    case LM_FILE_BMP:
      return "bmp";
    default:
      return NULL;
    }
}

static GdkPixbuf *
decode (const char *path, LmFileType type, const guint8 *data, gsize len, GError **error)
{
  GError *e = NULL;
  g_autoptr (GdkPixbufLoader) loader = gdk_pixbuf_loader_new_with_type (loader_name (type), &e);
  if (loader == NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path,
                         _("this system's gdk-pixbuf has no %s loader (%s)"),
                         lm_file_type_name (type), e->message);
      g_error_free (e);
      return NULL;
    }
  gboolean written = gdk_pixbuf_loader_write (loader, data, len, &e);
  /* close even after a failed write: the loader insists on it */
  gboolean closed = gdk_pixbuf_loader_close (loader, written ? &e : NULL);
  GdkPixbuf *pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (!written || !closed || pixbuf == NULL)
    {
      LmErrorCode code = e && g_error_matches (e, GDK_PIXBUF_ERROR, GDK_PIXBUF_ERROR_INSUFFICIENT_MEMORY)
                           ? LM_ERROR_OUT_OF_MEMORY
                           : LM_ERROR_FORMAT;
      lm_set_file_error (error, code, path, _("cannot decode %s: %s"), lm_file_type_name (type),
                         e ? cause_of (e, path) : _("the file is damaged"));
      g_clear_error (&e);
      return NULL;
    }
  return g_object_ref (pixbuf);
}

static gint64
read_le (const guint8 *p, int bytes)
{
  guint32 v = 0;
  for (int i = bytes - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return bytes == 2 ? (gint16) v : (gint32) v;
}

/* The declared size within the memory budget, and uncompressed pixel rows all present: a
 * run-length encoded BMP may legitimately skip pixels, an uncompressed one may not. */
static gboolean
check_bmp_header (const char *path, const guint8 *data, gsize len, GError **error)
{
  if (len < 26)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("the file is truncated: its header ends early"));
      return FALSE;
    }
  /* The loader allocates what these fields say (the header's size, the colour table's
   * entries) before it reads them: each must be one that exists and fit in the file. */
  gint64 offset = (guint32) read_le (data + 10, 4);
  gint64 header = (guint32) read_le (data + 14, 4);
  gboolean core = header == 12;
  gboolean known = core || header == 40 || header == 52 || header == 56 || header == 64 || header == 108
                   || header == 124;
  if (!known || 14 + header > (gint64) len || offset < 14 + header || offset > (gint64) len)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode BMP: the header is damaged"));
      return FALSE;
    }
  gint64 width = core ? read_le (data + 18, 2) : read_le (data + 18, 4);
  gint64 height = ABS (core ? read_le (data + 20, 2) : read_le (data + 22, 4));
  gint64 bits = read_le (data + (core ? 24 : 28), 2);
  gint64 compression = core ? 0 : (guint32) read_le (data + 30, 4);
  gint64 colours = core ? 0 : (guint32) read_le (data + 46, 4);
  if ((bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32) || compression > 6
      || colours > 256)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode BMP: the header is damaged"));
      return FALSE;
    }
  GError *e = NULL;
  if (width <= 0 || height <= 0 || width > G_MAXUINT || height > G_MAXUINT
      || !lm_image_layout (LM_FORMAT_RGBA8, (guint) width, (guint) height, NULL, NULL, &e))
    {
      if (e != NULL)
        lm_set_file_error (error, e->code, path, "%s", e->message);
      else
        lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode BMP: the header is damaged"));
      g_clear_error (&e);
      return FALSE;
    }
  gboolean uncompressed = compression == 0 || compression == 3 || compression == 6;
  if (uncompressed && bits > 0 && bits <= 32)
    {
      guint64 row = ((guint64) width * bits + 31) / 32 * 4;
      if (offset > (gint64) len || row * (guint64) height > len - (guint64) offset)
        {
          lm_set_file_error (error, LM_ERROR_FORMAT, path,
                             _("the file is truncated: its data cannot fill the %u×%u pixels it declares"),
                             (guint) width, (guint) height);
          return FALSE;
        }
    }
  return TRUE;
}

LmImage *
lm_pixbuf_load (const char *path, LmFileType type, const guint8 *data, gsize len,
                const LmAllocator *allocator, GError **error)
{
  if (type == LM_FILE_BMP && !check_bmp_header (path, data, len, error))
    return NULL;
  g_autoptr (GdkPixbuf) pixbuf = decode (path, type, data, len, error);
  if (pixbuf == NULL)
    return NULL;

  LmImage *image = lm_io_image_new (LM_FORMAT_RGBA8, gdk_pixbuf_get_width (pixbuf),
                                    gdk_pixbuf_get_height (pixbuf), allocator, path, error);
  if (image == NULL)
    return NULL;
  copy_rgba (pixbuf, image);

  const char *icc = gdk_pixbuf_get_option (pixbuf, "icc-profile");
  if (icc != NULL)
    {
      gsize icc_len = 0;
      g_autofree guchar *raw = g_base64_decode (icc, &icc_len);
      lm_io_take_profile (image, raw, icc_len);
    }
  return image;
}

static gboolean
sniff_bmp (const guint8 *h, gsize n)
{
  return n >= 2 && h[0] == 'B' && h[1] == 'M';
}

static LmImage *
load_bmp (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator, GError **error)
{
  return lm_pixbuf_load (path, LM_FILE_BMP, data, len, allocator, error);
}

const LmFileFormat lm_file_format_bmp = {
  .type = LM_FILE_BMP,
  .name = "BMP",
  .sniff = sniff_bmp,
  .load = load_bmp,
};
