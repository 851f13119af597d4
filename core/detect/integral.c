/* Integral images (integral.h). Rows depend on the row above, so the work is one pass; the
 * tilted sum adds the two diagonal neighbours of the row above and removes their overlap
 * two rows up. */
#include "integral.h"

void
lm_integral_compute (const guint8 *gray, gsize gray_stride, guint width, guint height, guint32 *sum,
                     guint32 *sqsum, guint32 *tilted, gsize step)
{
  for (guint x = 0; x <= width; x++)
    {
      sum[x] = 0;
      if (sqsum)
        sqsum[x] = 0;
      if (tilted)
        tilted[x] = 0;
    }
  for (guint y = 1; y <= height; y++)
    {
      const guint8 *row = gray + (gsize) (y - 1) * gray_stride;
      guint32 *s = sum + (gsize) y * step;
      const guint32 *s_up = s - step;
      guint32 run = 0, run_sq = 0;
      s[0] = 0;
      for (guint x = 1; x <= width; x++)
        {
          run += row[x - 1];
          s[x] = s_up[x] + run;
        }
      if (sqsum)
        {
          guint32 *q = sqsum + (gsize) y * step;
          const guint32 *q_up = q - step;
          q[0] = 0;
          for (guint x = 1; x <= width; x++)
            {
              run_sq += (guint32) row[x - 1] * row[x - 1];
              q[x] = q_up[x] + run_sq;
            }
        }
      if (tilted == NULL)
        continue;
      /* T(X, Y) = T(X−1, Y−1) + T(X+1, Y−1) − T(X, Y−2) + I(X−1, Y−1) + I(X−1, Y−2); past the
       * right edge T(W+1, Y−1) is T(W, Y−2), and T(0, Y) is T(1, Y−1): the parts of those
       * triangles inside the image are the same pixels. */
      guint32 *t = tilted + (gsize) y * step;
      const guint32 *t1 = t - step;
      const guint32 *t2 = y >= 2 ? t - 2 * step : NULL;
      const guint8 *above = y >= 2 ? row - gray_stride : NULL;
      for (guint x = 1; x <= width; x++)
        {
          guint32 right = x + 1 <= width ? t1[x + 1] : (t2 ? t2[width] : 0);
          guint32 v = t1[x - 1] + right + row[x - 1];
          if (t2)
            v += above[x - 1] - t2[x];
          t[x] = v;
        }
      t[0] = width >= 1 ? t1[1] : 0;
    }
}
