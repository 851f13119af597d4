/* Boxes drawn on and blurred in a photo (annotate.h). */
#include "annotate.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../ops/blur-math.h"
#include "../ops/ops.h"

static gboolean
supported (const LmImage *image, GError **error)
{
  if (image->format == LM_FORMAT_RGBA8 || image->format == LM_FORMAT_RGBA16)
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
               _("boxes can be drawn on and blurred in 8- and 16-bit photos only"));
  return FALSE;
}

/* BOX clipped to IMAGE; FALSE where nothing of it is inside. */
static gboolean
clip (const LmImage *image, const LmCascadeBox *box, int *x0, int *y0, int *x1, int *y1)
{
  *x0 = MAX (box->x, 0), *y0 = MAX (box->y, 0);
  *x1 = MIN (box->x + box->width, (int) image->width), *y1 = MIN (box->y + box->height, (int) image->height);
  return *x0 < *x1 && *y0 < *y1;
}

static void
paint (LmImage *image, int x, int y, const guint8 rgb[3])
{
  if (image->format == LM_FORMAT_RGBA8)
    {
      guint8 *p = lm_image_row (image, (guint) y) + 4 * (gsize) x;
      p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2], p[3] = 255;
      return;
    }
  guint16 *p = (guint16 *) (lm_image_row (image, (guint) y) + 8 * (gsize) x);
  p[0] = (guint16) (rgb[0] * 257), p[1] = (guint16) (rgb[1] * 257), p[2] = (guint16) (rgb[2] * 257), p[3] = 65535;
}

guint
lm_annotate_line_width (guint width, guint height)
{
  return MAX (MIN (width, height) / 400, 2u);
}

gboolean
lm_annotate_draw (LmImage *image, const LmCascadeBox *boxes, guint n, const guint8 rgb[3], GError **error)
{
  if (!supported (image, error))
    return FALSE;
  int line = (int) lm_annotate_line_width (image->width, image->height);
  for (guint i = 0; i < n; i++)
    {
      int x0, y0, x1, y1;
      if (!clip (image, &boxes[i], &x0, &y0, &x1, &y1))
        continue;
      for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
          if (x < x0 + line || x >= x1 - line || y < y0 + line || y >= y1 - line)
            paint (image, x, y, rgb);
    }
  return TRUE;
}

float
lm_annotate_blur_sigma (const LmCascadeBox *box)
{
  return CLAMP (MAX (box->width, box->height) / 8.0f, 2.0f, LM_BLUR_SIGMA_MAX);
}

gboolean
lm_annotate_blur (LmImage *image, const LmCascadeBox *boxes, guint n, GError **error)
{
  if (!supported (image, error))
    return FALSE;
  /* Boxes may overlap: each is blurred from the photo as it was, so that the order of the
   * list does not change the result. */
  g_autoptr (LmImage) original = lm_image_cut (image, 0, 0, image->width, image->height, lm_allocator_host (), error);
  if (original == NULL)
    return FALSE;
  gsize bpp = lm_format_bytes_per_pixel (image->format);
  LmBlurScratch scratch = { 0 };
  gboolean ok = TRUE;
  for (guint i = 0; i < n && ok; i++)
    {
      int x0, y0, x1, y1;
      if (!clip (image, &boxes[i], &x0, &y0, &x1, &y1))
        continue;
      LmBlurParams params = { 0 };
      params.sigma = lm_annotate_blur_sigma (&boxes[i]);
      /* Room for every tap around the box: inside the photo, its pixels are those of a blur
       * of the whole photo; at the photo's edge, the reflection is the same one. */
      int margin = lm_blur_radius (params.sigma) + 1;
      int cx0 = MAX (x0 - margin, 0), cy0 = MAX (y0 - margin, 0);
      int cx1 = MIN (x1 + margin, (int) image->width), cy1 = MIN (y1 + margin, (int) image->height);
      g_autoptr (LmImage) part = lm_image_cut (original, (guint) cx0, (guint) cy0, (guint) (cx1 - cx0),
                                               (guint) (cy1 - cy0), lm_allocator_host (), error);
      g_autoptr (LmImage) blurred = part ? lm_image_new (part->format, part->width, part->height, lm_allocator_host (),
                                                         error)
                                         : NULL;
      ok = blurred != NULL && lm_blur_run_cpu_scratch (&params, part, blurred, &scratch, error);
      for (int y = y0; ok && y < y1; y++)
        memcpy (lm_image_row (image, (guint) y) + bpp * (gsize) x0,
                lm_image_row (blurred, (guint) (y - cy0)) + bpp * (gsize) (x0 - cx0), bpp * (gsize) (x1 - x0));
    }
  lm_blur_scratch_clear (&scratch);
  return ok;
}
