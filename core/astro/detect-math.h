/* Per-pixel and per-source math of source detection, shared by the CPU reference
 * (core/astro/<step>.c) and the CUDA kernels (kernels/astro-<step>.cu): plain C, no GLib, compiled by
 * gcc and nvcc alike, so that the two backends compute each value the same way.
 *
 * - The mesh background: SExtractor's mode estimate of one box, the natural cubic spline
 *   through the box centres (its second derivatives and its evaluation).
 * - The matched filter: the taps of Lumen's Gaussian blur (core/ops/blur-math.h: round(6σ+1)|1
 *   taps, exp(−x²/2σ²) normalised), applied with reflect-101 edges (OpenCV's default,
 *   `dcb|abcdefgh|gfe`), summed in float in tap order from −r to +r, rows first.
 * - The shape of a source from its second moments, as SExtractor and sep compute it. */
#pragma once

#include <math.h>

#ifdef __CUDACC__
#define LM_ASTRO_INLINE __host__ __device__ static inline
#else
#define LM_ASTRO_INLINE static inline
#endif

/* SExtractor's background of one box from its κ-σ clipped mean, median and σ: the mode
 * 2.5·median − 1.5·mean where the distribution is only mildly skewed (|mean − median| <
 * 0.3σ), else the median, which crowding by sources biases less; the mean where σ is 0. */
LM_ASTRO_INLINE double
lm_astro_box_mode (double mean, double median, double sigma)
{
  if (!(sigma > 0.0))
    return mean;
  if (fabs (mean - median) / sigma < 0.3)
    return 2.5 * median - 1.5 * mean;
  return median;
}

/* Where pixel P (0-based) falls among mesh nodes placed at the box centres, boxes of BOX px,
 * N nodes: the left node of its interval (0 … N−2) and its offset T from that node in units
 * of the box (T < 0 or > 1 outside the first or last centre: the end pieces are extended). */
LM_ASTRO_INLINE int
lm_astro_spline_interval (long p, unsigned box, int n, double *t)
{
  double u = ((double) p + 0.5) / (double) box - 0.5;
  int k = (int) floor (u);
  if (k < 0)
    k = 0;
  if (k > n - 2)
    k = n - 2;
  if (k < 0)
    k = 0;
  *t = u - (double) k;
  return k;
}

/* Second derivatives (divided by 6) of the natural cubic spline through the N values at
 * VALUES[i·STEP], nodes one unit apart, into D2[i·STEP]; SCRATCH holds 2·N doubles. The
 * tridiagonal system d2[i−1] + 4·d2[i] + d2[i+1] = 6·(v[i+1] − 2v[i] + v[i−1]), d2 = 0 at
 * both ends, solved by forward elimination and back substitution in double. */
LM_ASTRO_INLINE void
lm_astro_spline_d2 (const float *values, long step, int n, float *d2, double *scratch)
{
  if (n < 3)
    {
      for (int i = 0; i < n; i++)
        d2[i * step] = 0.0f;
      return;
    }
  /* After elimination row i reads d2[i] = factor[i]·d2[i+1] + u[i]. */
  double *u = scratch;
  double *factor = scratch + n;
  double diag_prev = 0.0;
  u[0] = 0.0;
  factor[0] = 0.0;
  for (int i = 1; i < n - 1; i++)
    {
      double rhs = 6.0 * ((double) values[(i + 1) * step] - 2.0 * (double) values[i * step]
                          + (double) values[(i - 1) * step]);
      double f = -1.0 / (diag_prev + 4.0);
      factor[i] = f;
      u[i] = f * (u[i - 1] - rhs);
      diag_prev = f;
    }
  double next = 0.0; /* natural end */
  d2[(n - 1) * step] = 0.0f;
  for (int i = n - 2; i >= 1; i--)
    {
      next = factor[i] * next + u[i];
      d2[i * step] = (float) (next / 6.0);
    }
  d2[0] = 0.0f;
}

/* The spline between nodes LO and HI (second derivatives ÷ 6: D2LO, D2HI) at offset T. */
LM_ASTRO_INLINE double
lm_astro_spline_eval (double lo, double hi, double d2lo, double d2hi, double t)
{
  double c = 1.0 - t;
  return c * lo + t * hi + (c * c * c - c) * d2lo + (t * t * t - t) * d2hi;
}

/* The least σ of the mesh boxes whose centres surround a pixel: GRID's nodes KY and KY + 1
 * (KY alone when NY is 1) of columns KX and KX + 1 (KX alone when NX is 1), the intervals
 * lm_astro_spline_interval gives. */
LM_ASTRO_INLINE float
lm_astro_noise_least (const float *grid, unsigned nx, unsigned ny, int kx, int ky)
{
  float least = grid[(long) ky * nx + kx];
  for (int dy = 0; dy <= (ny > 1); dy++)
    for (int dx = 0; dx <= (nx > 1); dx++)
      {
        float v = grid[(long) (ky + dy) * nx + kx + dx];
        if (v < least)
          least = v;
      }
  return least;
}

/* The noise map at a pixel: the spline's VALUE, held at or above LEAST (lm_astro_noise_least).
 * Where σ falls steeply, towards an edge or a corner above all, the cubic overshoots below
 * every box around it, to 0 and below in the end pieces that extend it past the outer
 * centres; a threshold of a few times that is crossed by the noise itself. */
LM_ASTRO_INLINE float
lm_astro_noise_at (float value, float least)
{
  return value < least ? least : value;
}

/* Reflect-101 index of I on a side of N: −1 → 1, N → N − 2 (N = 1: 0). */
LM_ASTRO_INLINE long
lm_astro_reflect101 (long i, long n)
{
  if (n == 1)
    return 0;
  while (i < 0 || i >= n)
    i = i < 0 ? -i : 2 * n - 2 - i;
  return i;
}

/* One output of the matched filter along an axis: Σ W[|k|]·SRC[reflect(P + k)·STEP] for
 * k = −R … R, in that order, in float. */
LM_ASTRO_INLINE float
lm_astro_filter_at (const float *src, long step, long p, long n, const float *w, int r)
{
  float sum = 0.0f;
  for (int k = -r; k <= r; k++)
    {
      long q = p + k;
      if (q < 0 || q >= n)
        q = lm_astro_reflect101 (q, n);
      float product = w[k < 0 ? -k : k] * src[q * step];
      sum += product;
    }
  return sum;
}

/* Whether a pixel of filtered residual VALUE is in the segmentation mask: above THRESHOLD
 * times its NOISE, the product rounded to float. A pixel without a usable noise estimate
 * (σ not above 0, or not a number: boxes of constant or blank values) is never in it, as
 * SExtractor leaves pixels without a valid weight out of detection. */
LM_ASTRO_INLINE int
lm_astro_above (float value, float noise, double threshold)
{
  return noise > 0.0f && value > (float) (threshold * (double) noise);
}

/* SExtractor's A, B, THETA from the second central moments X2, Y2, XY (px²). Moments of a
 * source one pixel wide are singular; as SExtractor (and sep) do, 1/12 px² (a pixel's own
 * variance) is added to X2 and Y2 when X2·Y2 − XY² < 1/144. THETA is atan2(2·XY, X2 − Y2)/2,
 * counter-clockwise from +x with y along the rows. */
LM_ASTRO_INLINE void
lm_astro_shape (double x2, double y2, double xy, double *a, double *b, double *theta)
{
  if (x2 * y2 - xy * xy < 0.00694)
    {
      x2 += 0.0833333;
      y2 += 0.0833333;
    }
  double half_sum = 0.5 * (x2 + y2);
  double diff = 0.5 * (x2 - y2);
  double root = sqrt (diff * diff + xy * xy);
  double a2 = half_sum + root;
  double b2 = half_sum - root;
  *a = a2 > 0.0 ? sqrt (a2) : 0.0;
  *b = b2 > 0.0 ? sqrt (b2) : 0.0;
  *theta = (xy != 0.0 || x2 != y2) ? 0.5 * atan2 (2.0 * xy, x2 - y2) : 0.0;
}

/* A Gaussian's FWHM from its axes: 2·sqrt(2 ln 2)·sqrt((a² + b²)/2). */
LM_ASTRO_INLINE double
lm_astro_fwhm (double a, double b)
{
  return 2.3548200450309493 * sqrt (0.5 * (a * a + b * b));
}
