/* Iterative κ-σ clipping, as astropy.stats.sigma_clipped_stats (astropy 5.2, cenfunc='median',
 * stdfunc='std', axis=None) computes it on float32 data:
 *
 * - non-finite values are dropped first;
 * - each pass takes the median and the population σ of the values still kept (NumPy returns
 *   both as float32 for float32 data, so they are rounded to float here too), forms the bounds
 *   median − κσ and median + κσ in double, and keeps lo ≤ v ≤ hi; NumPy compares a float32
 *   array with a double scalar in float32, so the bounds are rounded to float before the
 *   comparison;
 * - passes go on until one clips nothing or MAX_ITERATIONS ran (≤ 0: no limit); the pass that
 *   clips nothing counts;
 * - the result is the mean, median and σ of what remains.
 *
 * NumPy sums float32 in float32 (pairwise); the sums here are in double, so mean and σ may
 * differ from astropy's in the last float digits (~1e-7 relative), which can move a bound by
 * an ulp: tests hold the statistics within 1e-6 relative.
 *
 * The median is a selection (quickselect), not a sort: linear time on the kept values. */
#include <math.h>

#include "detect-private.h"
#include "select.h"

float
lm_median_select (float *values, gsize n)
{
  gsize k = n / 2;
  lm_select_kth (values, n, k);
  if (n % 2 == 1)
    return values[k];
  float below = values[0];
  for (gsize i = 1; i < k; i++)
    below = values[i] > below ? values[i] : below;
  /* NumPy's mean of the two: their float sum, halved. */
  float sum = below + values[k];
  return sum * 0.5f;
}

static void
mean_std (const float *v, gsize n, double *mean, double *std)
{
  double sum = 0.0;
  for (gsize i = 0; i < n; i++)
    sum += v[i];
  double m = sum / (double) n;
  double squares = 0.0;
  for (gsize i = 0; i < n; i++)
    {
      double d = (double) v[i] - m;
      squares += d * d;
    }
  *mean = m;
  *std = sqrt (squares / (double) n);
}

gboolean
lm_clip_values (float *values, gsize n, double kappa, int max_iterations, LmClipStats *stats)
{
  if (n == 0)
    return FALSE;
  int iterations = 0;
  gsize changed = 1;
  while (changed != 0 && (max_iterations <= 0 || iterations < max_iterations))
    {
      iterations++;
      float median = lm_median_select (values, n);
      double mean, std;
      mean_std (values, n, &mean, &std);
      float std_f = (float) std;
      float lo = (float) ((double) median - (double) std_f * kappa);
      float hi = (float) ((double) median + (double) std_f * kappa);
      gsize kept = 0;
      for (gsize i = 0; i < n; i++)
        if (values[i] >= lo && values[i] <= hi)
          values[kept++] = values[i];
      changed = n - kept;
      n = kept;
    }
  /* A pass cannot clip everything (the median lies within its bounds), so N > 0 here. */
  stats->count = n;
  stats->iterations = iterations;
  mean_std (values, n, &stats->mean, &stats->std);
  stats->median = lm_median_select (values, n);
  return TRUE;
}

gboolean
lm_clip_stats (const float *data, gsize n, double kappa, int max_iterations, LmClipStats *stats)
{
  g_return_val_if_fail (data != NULL || n == 0, FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);
  float *values = g_new (float, MAX (n, 1));
  gsize finite = 0;
  for (gsize i = 0; i < n; i++)
    if (isfinite (data[i]))
      values[finite++] = data[i];
  gboolean ok = lm_clip_values (values, finite, kappa, max_iterations, stats);
  g_free (values);
  return ok;
}
