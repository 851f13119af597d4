#include "hdr-exposure.h"

#include <math.h>

#include "core/merge/job.h"
#include "core/io/exif.h"
#include "core/io/io.h"

void
lm_hdr_exposure_free (LmHdrExposure *x)
{
  if (x == NULL)
    return;
  g_clear_object (&x->thumbnail);
  g_free (x);
}

/* IMAGE (8 or 16 bits, gray or colour, upright) shrunk to fit a box of BOX_WIDTH ×
 * BOX_HEIGHT (never enlarged), each of its pixels the mean of the pixels it covers: one pass
 * over the decoded photo, whatever its format, and no copy of it. */
static GdkPixbuf *
thumbnail_of (const LmImage *image, guint box_width, guint box_height)
{
  double scale = MIN (1.0, MIN ((double) box_width / image->width, (double) box_height / image->height));
  guint tw = CLAMP ((guint) lround (image->width * scale), 1, box_width);
  guint th = CLAMP ((guint) lround (image->height * scale), 1, box_height);
  guint channels = lm_format_channels (image->format);
  gboolean wide = lm_format_depth (image->format) == 16;
  g_autofree guint64 *sums = g_new0 (guint64, (gsize) tw * th * 3);
  g_autofree guint64 *counts = g_new0 (guint64, (gsize) tw * th);
  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *row = lm_image_row (image, y);
      guint ty = (guint) ((guint64) y * th / image->height);
      for (guint x = 0; x < image->width; x++)
        {
          gsize t = (gsize) ty * tw + (guint) ((guint64) x * tw / image->width);
          counts[t]++;
          for (guint c = 0; c < 3; c++)
            {
              gsize at = (gsize) x * channels + MIN (c, channels - 1); /* gray: one value for all */
              sums[3 * t + c] += wide ? ((const guint16 *) row)[at] >> 8 : row[at];
            }
        }
    }
  GdkPixbuf *thumbnail = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, (int) tw, (int) th);
  guint8 *pixels = gdk_pixbuf_get_pixels (thumbnail);
  int stride = gdk_pixbuf_get_rowstride (thumbnail);
  for (guint ty = 0; ty < th; ty++)
    for (guint tx = 0; tx < tw; tx++)
      {
        gsize t = (gsize) ty * tw + tx;
        guint64 n = MAX (counts[t], 1); /* 1 at least: the thumbnail is no larger than IMAGE */
        for (guint c = 0; c < 3; c++)
          pixels[(gsize) ty * stride + 3 * tx + c] = (guint8) ((sums[3 * t + c] + n / 2) / n);
      }
  return thumbnail;
}

LmHdrExposure *
lm_hdr_exposure_read (const char *path, guint box_width, guint box_height, GError **error)
{
  g_autoptr (LmImage) image = lm_io_load (path, lm_allocator_host (), error);
  if (image == NULL || !lm_hdr_job_check_member (path, image, NULL, NULL, error))
    return NULL;
  LmHdrExposure *x = g_new0 (LmHdrExposure, 1);
  x->width = image->width;
  x->height = image->height;
  x->seconds = lm_exif_exposure_seconds (image->exif);
  x->thumbnail = thumbnail_of (image, box_width, box_height);
  return x;
}
