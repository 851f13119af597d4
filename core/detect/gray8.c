/* OpenCV's fixed-point BGR2GRAY for 8 bits (gray8.h): BT.601's weights rounded to 15 bits,
 * summing to 2¹⁵ exactly (checked against cv2.cvtColor on every value of a random image). */
#include <string.h>
#include <glib/gi18n.h>

#include "gray8.h"
#include "core/error.h"

#define R2Y 9798
#define G2Y 19235
#define B2Y 3735

guint8 *
lm_cascade_gray8 (const LmImage *image, GError **error)
{
  if (image->format != LM_FORMAT_RGBA8 && image->format != LM_FORMAT_GRAY8)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                   _("object detection reads 8-bit photos; this one has more bits per channel"));
      return NULL;
    }
  guint w = image->width, h = image->height;
  guint8 *gray = g_try_malloc ((gsize) w * MAX (h, 1));
  if (gray == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory for a %u × %u gray image"), w, h);
      return NULL;
    }
  gboolean rgba = image->format == LM_FORMAT_RGBA8;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < h; y++)
    {
      const guint8 *s = image->data + (gsize) y * image->stride;
      guint8 *d = gray + (gsize) y * w;
      if (!rgba)
        memcpy (d, s, w);
      else
        for (guint x = 0; x < w; x++, s += 4)
          d[x] = (guint8) ((s[0] * R2Y + s[1] * G2Y + s[2] * B2Y + (1 << 14)) >> 15);
    }
  return gray;
}
