/* Integral images (integral.h). The sums are made in horizontal bands, one a thread: each band
 * as if the image began at its first row, then each band's last row made whole in turn, then
 * the rows of every band but the first raised by the last row of the band above. Sums wrap in
 * 32 bits, so the order of the additions changes nothing. The tilted sum adds the two diagonal
 * neighbours of the row above and removes their overlap two rows up: one pass, after. */
#include <omp.h>

#include "integral.h"

/* Small images are made in one band: a band's bookkeeping would cost more than it saves. */
#define BAND_MIN_ROWS 64

/* Rows Y0 + 1 … Y1 of SUM and SQSUM (may be NULL), row Y0 taken as zero. */
static void
band (const guint8 *gray, gsize gray_stride, guint width, guint y0, guint y1, guint32 *sum, guint32 *sqsum,
      gsize step)
{
  for (guint y = y0 + 1; y <= y1; y++)
    {
      const guint8 *row = gray + (gsize) (y - 1) * gray_stride;
      guint32 *s = sum + (gsize) y * step;
      guint32 run = 0;
      s[0] = 0;
      if (y == y0 + 1)
        for (guint x = 1; x <= width; x++)
          s[x] = run += row[x - 1];
      else
        for (guint x = 1, *up = s - step; x <= width; x++)
          {
            run += row[x - 1];
            s[x] = up[x] + run;
          }
      if (sqsum == NULL)
        continue;
      guint32 *q = sqsum + (gsize) y * step;
      run = 0;
      q[0] = 0;
      if (y == y0 + 1)
        for (guint x = 1; x <= width; x++)
          q[x] = run += (guint32) row[x - 1] * row[x - 1];
      else
        for (guint x = 1, *up = q - step; x <= width; x++)
          {
            run += (guint32) row[x - 1] * row[x - 1];
            q[x] = up[x] + run;
          }
    }
}

static void
add_row (guint32 *to, const guint32 *from, guint width)
{
  for (guint x = 1; x <= width; x++)
    to[x] += from[x];
}

void
lm_integral_compute_bands (const guint8 *gray, gsize gray_stride, guint width, guint height, guint32 *sum,
                           guint32 *sqsum, guint32 *tilted, gsize step, int n_bands)
{
  for (guint x = 0; x <= width; x++)
    {
      sum[x] = 0;
      if (sqsum)
        sqsum[x] = 0;
      if (tilted)
        tilted[x] = 0;
    }
  n_bands = CLAMP (n_bands, 1, (int) MAX (height, 1));
  /* Band b holds rows first[b] + 1 … first[b + 1]. */
  guint *first = g_new (guint, n_bands + 1);
  for (int b = 0; b <= n_bands; b++)
    first[b] = (guint) ((guint64) height * b / n_bands);
#pragma omp parallel for schedule(static) num_threads(n_bands) if (n_bands > 1)
  for (int b = 0; b < n_bands; b++)
    band (gray, gray_stride, width, first[b], first[b + 1], sum, sqsum, step);
  for (int b = 1; b < n_bands; b++)
    {
      add_row (sum + first[b + 1] * step, sum + first[b] * step, width);
      if (sqsum)
        add_row (sqsum + first[b + 1] * step, sqsum + first[b] * step, width);
    }
#pragma omp parallel for schedule(static) if (n_bands > 1)
  for (guint y = first[1] + 1; y <= height; y++)
    {
      int b = 1;
      while (first[b + 1] < y)
        b++;
      if (y == first[b + 1])
        continue; /* made whole above */
      add_row (sum + (gsize) y * step, sum + (gsize) first[b] * step, width);
      if (sqsum)
        add_row (sqsum + (gsize) y * step, sqsum + (gsize) first[b] * step, width);
    }
  g_free (first);
  if (tilted == NULL)
    return;
  /* T(X, Y) = T(X−1, Y−1) + T(X+1, Y−1) − T(X, Y−2) + I(X−1, Y−1) + I(X−1, Y−2); past the
   * right edge T(W+1, Y−1) is T(W, Y−2), and T(0, Y) is T(1, Y−1): the parts of those
   * triangles inside the image are the same pixels. */
  for (guint y = 1; y <= height; y++)
    {
      const guint8 *row = gray + (gsize) (y - 1) * gray_stride;
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

void
lm_integral_compute (const guint8 *gray, gsize gray_stride, guint width, guint height, guint32 *sum,
                     guint32 *sqsum, guint32 *tilted, gsize step)
{
  int n_bands = height >= 2 * BAND_MIN_ROWS ? MIN (omp_get_max_threads (), (int) (height / BAND_MIN_ROWS)) : 1;
  lm_integral_compute_bands (gray, gray_stride, width, height, sum, sqsum, tilted, step, n_bands);
}
