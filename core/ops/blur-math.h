/* Gaussian blur: parameters, kernel size rule, border rule and the large-σ method, shared by
 * blur.c and kernels/blur.cu.
 *
 * Kernel radius rule: the kernel has round(6σ + 1) | 1 taps (radius ≈ 3σ), the size OpenCV
 * picks for 8-bit images; the tails beyond 3σ hold under 0.3 % of the weight, well below one
 * 8-bit level of the result. Weights are exp(-x²/2σ²) normalised to sum 1.
 *
 * Up to σ = 16 the blur is a direct separable convolution. Above, its cost would grow with σ
 * although the result holds ever less detail, so it is computed exactly (the same kernel, the
 * same border) only on a grid of every D-th row and column, D = ⌊σ/8⌋, and interpolated
 * between with Catmull-Rom cubics. With at least 8 grid steps per σ the blurred image has no
 * detail the grid cannot carry; the tests measure the distance to the direct convolution and
 * to OpenCV. Both backends use this same method.
 *
 * 16-bit sources: the first pass sums the raw u16 samples (a pair's sum is exact in
 * integers, each product exact to float's 24 bits) and brings the sum to the 0..255 scale
 * once (lm_blur_u16_scale); blur is linear, so this equals scaling each sample up to float
 * rounding, far below the half u16 step of the final lm_quantize_u16. */
#pragma once

#include <math.h>

#include "param-decl.h"
#include "pixel-math.h"
#include "tile-math.h"

#define LM_BLUR_SIGMA_MAX 200.0f
#define LM_BLUR_RADIUS_MAX 600
#define LM_BLUR_DIRECT_SIGMA_MAX 16.0f
#define LM_BLUR_STEPS_PER_SIGMA 8.0f

/* sigma: 0 leaves the image as it is. A length: the window's slider for it snaps to 0.1, 0.5
 * or 5 by where it is (ui/op-panel.c), 0.1 the finest. */
#define LM_BLUR_PARAMS(P)                                                                          \
  P (FLOAT, sigma, N_("Radius (σ)"), 0, LM_BLUR_SIGMA_MAX, 2.0, 0.1, "px", .in_pixels = 1)

typedef struct {
  LM_BLUR_PARAMS (LM_PARAM_FIELD)
  /* Not a parameter: the tile a tiled render computes (tile-math.h). The direct method needs
   * none (a tile's input holds its halo, and its kept pixels sum the same taps in the same
   * order); the grid method anchors its nodes at the whole image's origin with it. */
  LmTileFrame tile;
} LmBlurParams;

/* Taps on each side of the centre for SIGMA. */
static inline int
lm_blur_radius (float sigma)
{
  if (!(sigma > 0.0f))
    return 0;
  int taps = (int) nearbyint ((double) sigma * 6.0 + 1.0) | 1;
  return taps / 2;
}

/* WEIGHTS[0..RADIUS]: the centre tap, then each distance; the kernel is symmetric. */
static inline void
lm_blur_weights (float sigma, int radius, float *weights)
{
  double scale = -0.5 / ((double) sigma * sigma);
  double w[LM_BLUR_RADIUS_MAX + 1];
  double sum = 0.0;
  for (int i = 0; i <= radius; i++)
    {
      w[i] = exp (scale * i * i);
      sum += i == 0 ? w[i] : 2.0 * w[i];
    }
  for (int i = 0; i <= radius; i++)
    weights[i] = (float) (w[i] / sum);
}

/* The grid step D for SIGMA: 1 means the direct convolution. */
LM_INLINE int
lm_blur_decimation (float sigma)
{
  return sigma > LM_BLUR_DIRECT_SIGMA_MAX ? (int) (sigma / LM_BLUR_STEPS_PER_SIGMA) : 1;
}

/* Grid nodes along a side of N pixels with step D: node k sits at pixel (k − 1)·D, so that
 * every pixel has the two nodes before and the two after that its cubic needs. */
LM_INLINE int
lm_blur_grid_count (int n, int d)
{
  return (n - 1) / d + 4;
}

/* The grid nodes a piece of N pixels that starts at pixel ORIGIN of its axis needs: from
 * node ⌊ORIGIN/D⌋ on (node k sits at pixel (k − 1)·D of the whole axis), this many. */
LM_INLINE int
lm_blur_grid_count_at (int origin, int n, int d)
{
  return (origin + n - 1) / d - origin / d + 4;
}

/* Catmull-Rom weights of the four nodes around a pixel at fraction T (0 ≤ T < 1) of a step. */
LM_INLINE void
lm_blur_cubic_weights (float t, float w[4])
{
  float t2 = t * t, t3 = t2 * t;
  w[0] = 0.5f * (-t3 + 2.0f * t2 - t);
  w[1] = 0.5f * (3.0f * t3 - 5.0f * t2 + 2.0f);
  w[2] = 0.5f * (-3.0f * t3 + 4.0f * t2 + t);
  w[3] = 0.5f * (t3 - t2);
}

/* Border reflect-101 (…c b | a b c d | c b…, OpenCV's default border), repeated as often
 * as needed when the kernel is wider than the image. */
LM_INLINE int
lm_reflect101 (int i, int n)
{
  if (n == 1)
    return 0;
  int period = 2 * (n - 1);
  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - i;
}

/* The part of an axis of N pixels that pixels A..B-1 of a filter's output read, its taps
 * RADIUS each side reflected as lm_reflect101 reflects them: a tile's input span. */
LM_INLINE void
lm_reflect101_span (int n, int a, int b, int radius, int *lo, int *count)
{
  int mn = n, mx = -1;
  for (int t = a - radius; t <= b - 1 + radius; t++)
    {
      int r = lm_reflect101 (t, n);
      mn = r < mn ? r : mn;
      mx = r > mx ? r : mx;
    }
  *lo = mn, *count = mx - mn + 1;
}

/* A first-pass sum of raw 16-bit samples on the 0..255 scale that every operation computes
 * on: a division, as lm_u16_value does, so that a flat area comes back as itself. */
LM_INLINE float
lm_blur_u16_scale (float raw_sum)
{
  return raw_sum / 257.0f;
}
