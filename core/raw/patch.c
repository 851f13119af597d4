#include "patch.h"

/* Site (X, Y)'s colour, the second green as green; for LINEAR images CHANNEL itself. */
static int
colour_of (const LmRawInfo *info, int x, int y)
{
  int c = info->cfa[y % info->cfa_h][x % info->cfa_w];
  return c == 3 ? 1 : c;
}

/* V at (X, Y) of colour index C (0..3) over black, as a fraction of the white above it (0 for
 * noise below black: left out, dark patches would read bright); -1 where it reached the white
 * level. */
static double
level_of (const LmRawInfo *info, int x, int y, int c, guint16 v)
{
  double black = info->black[y % info->black_h][x % info->black_w], white = info->white[c];
  if (v >= white || !(white > black))
    return -1.0;
  return MAX (0.0, (v - black) / (white - black));
}

gboolean
lm_raw_patch_camera_rgb (const LmRawInfo *info, const LmImage *src, int x0, int y0, int x1, int y1, float rgb[3])
{
  if (info->layout == LM_RAW_MONO || src->width == 0 || src->height == 0)
    return FALSE;
  x0 = CLAMP (x0, 0, (int) src->width - 1), x1 = CLAMP (x1, 0, (int) src->width - 1);
  y0 = CLAMP (y0, 0, (int) src->height - 1), y1 = CLAMP (y1, 0, (int) src->height - 1);
  double sum[3] = { 0 };
  guint n[3] = { 0 };
  for (int y = y0; y <= y1; y++)
    {
      const guint16 *row = (const guint16 *) lm_image_row (src, (guint) y);
      for (int x = x0; x <= x1; x++)
        {
          if (info->layout == LM_RAW_LINEAR)
            for (int c = 0; c < 3; c++)
              {
                double l = level_of (info, x, y, c, row[4 * x + c]);
                if (l >= 0)
                  sum[c] += l, n[c]++;
              }
          else
            {
              int site = info->cfa[y % info->cfa_h][x % info->cfa_w], c = colour_of (info, x, y);
              double l = level_of (info, x, y, site, row[x]);
              if (l >= 0)
                sum[c] += l, n[c]++;
            }
        }
    }
  for (int c = 0; c < 3; c++)
    {
      if (n[c] == 0)
        return FALSE;
      rgb[c] = (float) (sum[c] / n[c]);
    }
  return TRUE;
}
