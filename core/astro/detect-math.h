/* Per-pixel and per-source math of source detection, shared by the CPU reference
 * (core/astro/<step>.c) and the CUDA kernels (kernels/astro-<step>.cu): plain C, no GLib, compiled by
 * gcc and nvcc alike, so that the two backends compute each value the same way.
 *
 * - The mesh background: SExtractor's mode estimate of one box, the fill of its bad boxes, the
 *   natural cubic spline through the box centres (its second derivatives and its evaluation).
 * - The matched filter: the taps of Lumen's Gaussian blur (core/ops/blur-math.h: round(6σ+1)|1
 *   taps, exp(−x²/2σ²) normalised), applied with reflect-101 edges (OpenCV's default,
 *   `dcb|abcdefgh|gfe`), summed in float in tap order from −r to +r, rows first.
 * - The shape of a source from its second moments, as SExtractor and sep compute it. */
#pragma once

#include <math.h>
#include <stddef.h>
#include <stdint.h>

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

/* The mesh: each box's background and σ, NX × NY row-major. A bad box (under half its pixels
 * finite) has a NaN background until lm_astro_fill_row fills it. */
typedef struct {
  float *back, *sigma;
  unsigned nx, ny;
} LmAstroMesh;

/* The good boxes nearest to a box within its column of the mesh: how far (LM_ASTRO_NO_BOX: the
 * column has none), how many (one, or one above and one below at the same distance), and the
 * sums of their values. */
typedef struct {
  unsigned distance, count;
  double back, sigma;
} LmAstroNearest;

#define LM_ASTRO_NO_BOX 0xFFFFFFFFu

/* The first pass of the fill: NEAR[y·NX + X] for every box y of column X. */
LM_ASTRO_INLINE void
lm_astro_nearest_in_column (const LmAstroMesh *mesh, unsigned x, LmAstroNearest *near)
{
  unsigned nx = mesh->nx, ny = mesh->ny;
  unsigned above = LM_ASTRO_NO_BOX;
  for (unsigned y = 0; y < ny; y++)
    {
      size_t i = (size_t) y * nx + x;
      if (!isnan (mesh->back[i]))
        above = y;
      LmAstroNearest *n = &near[i];
      if (above == LM_ASTRO_NO_BOX)
        {
          n->distance = LM_ASTRO_NO_BOX;
          n->count = 0;
          n->back = n->sigma = 0.0;
          continue;
        }
      size_t j = (size_t) above * nx + x;
      n->distance = y - above;
      n->count = 1;
      n->back = mesh->back[j];
      n->sigma = mesh->sigma[j];
    }
  unsigned below = LM_ASTRO_NO_BOX;
  for (unsigned y = ny; y-- > 0;)
    {
      size_t i = (size_t) y * nx + x;
      if (!isnan (mesh->back[i]))
        below = y;
      LmAstroNearest *n = &near[i];
      if (below == LM_ASTRO_NO_BOX || below == y || below - y > n->distance)
        continue;
      size_t j = (size_t) below * nx + x;
      if (below - y < n->distance)
        {
          n->distance = below - y;
          n->count = 0;
          n->back = n->sigma = 0.0;
        }
      n->count++;
      n->back += mesh->back[j];
      n->sigma += mesh->sigma[j];
    }
}

/* ⌊N / D⌋ and ⌈N / D⌉ for D > 0. */
LM_ASTRO_INLINE int64_t
lm_astro_floor_div (int64_t n, int64_t d)
{
  return n / d - (n % d != 0 && n < 0);
}

LM_ASTRO_INLINE int64_t
lm_astro_ceil_div (int64_t n, int64_t d)
{
  return n / d + (n % d != 0 && n > 0);
}

/* Over a row, box x's squared distance to the nearest good box of column u is
 * (x − u)² + near[u]²: a parabola in x for each column that has a good box. The last x at
 * which column A's parabola is at or below that of column B > A, and the first. */
LM_ASTRO_INLINE int64_t
lm_astro_last_at_or_below (int64_t a, int64_t b, const LmAstroNearest *row)
{
  int64_t ha = (int64_t) row[a].distance * row[a].distance, hb = (int64_t) row[b].distance * row[b].distance;
  return lm_astro_floor_div (b * b + hb - a * a - ha, 2 * (b - a));
}

LM_ASTRO_INLINE int64_t
lm_astro_first_at_or_below (int64_t a, int64_t b, const LmAstroNearest *row)
{
  int64_t ha = (int64_t) row[a].distance * row[a].distance, hb = (int64_t) row[b].distance * row[b].distance;
  return lm_astro_ceil_div (b * b + hb - a * a - ha, 2 * (b - a));
}

/* The second pass: row Y's bad boxes from the lower envelope of the columns' parabolas
 * (Felzenszwalb and Huttenlocher's distance transform), kept with its ties: each parabola
 * holds the whole numbers x where it is lowest, two or more sharing an x where they tie, so
 * that a box takes the mean of every good box at its least distance (squared, in boxes), as
 * SExtractor's bad meshes do; where the mesh has no good box at all, BACK_NONE and
 * SIGMA_NONE. NEAR is the first pass's, for every column; SCRATCH has room for 3·NX. Linear
 * in the row's boxes. */
LM_ASTRO_INLINE void
lm_astro_fill_row (LmAstroMesh *mesh, unsigned y, const LmAstroNearest *near, float back_none, float sigma_none,
                   int64_t *scratch)
{
  int64_t nx = mesh->nx, top = 0;
  const LmAstroNearest *row = near + (size_t) y * mesh->nx;
  int64_t *column = scratch, *first = scratch + nx, *last = scratch + 2 * nx;
  for (int64_t u = 0; u < nx; u++)
    {
      if (row[u].distance == LM_ASTRO_NO_BOX)
        continue;
      while (top > 0 && lm_astro_last_at_or_below (column[top - 1], u, row) < first[top - 1])
        top--; /* lowest nowhere any more */
      int64_t from = top > 0 ? lm_astro_first_at_or_below (column[top - 1], u, row) : 0;
      if (from >= nx)
        continue;
      column[top] = u;
      first[top++] = from;
    }
  for (int64_t k = 0; k < top; k++)
    last[k] = k + 1 < top ? lm_astro_last_at_or_below (column[k], column[k + 1], row) : nx - 1;
  int64_t k = 0;
  for (int64_t x = 0; x < nx; x++)
    {
      while (k < top && last[k] < x)
        k++;
      size_t i = (size_t) y * mesh->nx + (size_t) x;
      if (!isnan (mesh->back[i]))
        continue;
      double back = 0.0, sigma = 0.0;
      unsigned count = 0;
      for (int64_t j = k; j < top && first[j] <= x; j++)
        {
          back += row[column[j]].back;
          sigma += row[column[j]].sigma;
          count += row[column[j]].count;
        }
      mesh->back[i] = count ? (float) (back / count) : back_none;
      mesh->sigma[i] = count ? (float) (sigma / count) : sigma_none;
    }
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
