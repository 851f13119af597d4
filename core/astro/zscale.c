/* IRAF's zscale limits (stretch.h), step for step as astropy.visualization.ZScaleInterval
 * computes them, so that astropy is an oracle: a strided sample of the finite values, sorted;
 * a line fitted to it with iterative k-σ rejection of the points far from the line (the
 * rejected mask grown by 1 % of the sample each pass); the limits from the median and the
 * line's slope divided by the contrast. */
#include "stretch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N_SAMPLES 1000
#define CONTRAST 0.25
#define MAX_REJECT 0.5
#define MIN_NPIXELS 5
#define KREJ 2.5
#define MAX_ITERATIONS 5

static int
compare_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

/* numpy.polyfit (deg 1) of S against its index over the points not in BAD. */
static void
fit_line (const float *s, const gboolean *bad, int n, double *slope, double *intercept)
{
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++)
    if (!bad[i])
      {
        sw += 1;
        sx += i;
        sy += s[i];
        sxx += (double) i * i;
        sxy += (double) i * s[i];
      }
  double mx = sx / sw, my = sy / sw;
  double vxx = sxx / sw - mx * mx, vxy = sxy / sw - mx * my;
  *slope = vxx > 0 ? vxy / vxx : 0.0;
  *intercept = my - *slope * mx;
}

gboolean
lm_zscale (const float *data, gsize n, double *z1, double *z2)
{
  gsize n_finite = 0;
  for (gsize i = 0; i < n; i++)
    n_finite += isfinite (data[i]) != 0;
  if (n_finite == 0)
    return FALSE;
  /* stride = int(max(1, size / n_samples)); samples = finite[::stride][:n_samples] */
  gsize stride = (gsize) MAX (1.0, (double) n_finite / N_SAMPLES);
  g_autofree float *s = g_new (float, N_SAMPLES);
  int npix = 0;
  for (gsize i = 0, k = 0; i < n && npix < N_SAMPLES; i++)
    if (isfinite (data[i]))
      {
        if (k % stride == 0)
          s[npix++] = data[i];
        k++;
      }
  qsort (s, npix, sizeof *s, compare_float);

  double vmin = s[0], vmax = s[npix - 1];
  int minpix = MAX (MIN_NPIXELS, (int) (npix * MAX_REJECT));
  int ngoodpix = npix, last_ngoodpix = npix + 1;
  int ngrow = MAX (1, (int) (npix * 0.01));
  g_autofree gboolean *bad = g_new0 (gboolean, npix);
  g_autofree gboolean *grown = g_new0 (gboolean, npix);
  double slope = 0, intercept = 0;
  for (int iter = 0; iter < MAX_ITERATIONS; iter++)
    {
      if (ngoodpix >= last_ngoodpix || ngoodpix < minpix)
        break;
      fit_line (s, bad, npix, &slope, &intercept);
      /* threshold = krej · std (ddof 0) of the residuals of the good points */
      double sum = 0, sum2 = 0;
      int good = 0;
      for (int i = 0; i < npix; i++)
        if (!bad[i])
          {
            double r = s[i] - (slope * i + intercept);
            sum += r;
            good++;
          }
      double mean = sum / good;
      for (int i = 0; i < npix; i++)
        if (!bad[i])
          {
            double d = s[i] - (slope * i + intercept) - mean;
            sum2 += d * d;
          }
      double threshold = KREJ * sqrt (sum2 / good);
      for (int i = 0; i < npix; i++)
        {
          double r = s[i] - (slope * i + intercept);
          if (r < -threshold || r > threshold)
            bad[i] = TRUE;
        }
      /* np.convolve (bad, ones (ngrow), mode='same'): point i is bad when any of
       * i + off − ngrow + 1 … i + off is, off = (ngrow − 1) / 2. */
      int off = (ngrow - 1) / 2;
      for (int i = 0; i < npix; i++)
        {
          gboolean any = FALSE;
          for (int j = i + off - ngrow + 1; j <= i + off && !any; j++)
            any = j >= 0 && j < npix && bad[j];
          grown[i] = any;
        }
      memcpy (bad, grown, npix * sizeof *bad);
      last_ngoodpix = ngoodpix;
      ngoodpix = 0;
      for (int i = 0; i < npix; i++)
        ngoodpix += !bad[i];
    }
  if (ngoodpix >= minpix)
    {
      slope /= CONTRAST;
      int center = (npix - 1) / 2;
      double median = npix % 2 ? s[npix / 2] : 0.5 * ((double) s[npix / 2 - 1] + s[npix / 2]);
      vmin = MAX (vmin, median - (center - 1) * slope);
      vmax = MIN (vmax, median + (npix - center) * slope);
    }
  *z1 = vmin;
  *z2 = vmax;
  return TRUE;
}
