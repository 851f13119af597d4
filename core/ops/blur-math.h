/* Gaussian blur: parameters, kernel size rule and border rule, shared by blur.c and
 * kernels/blur.cu.
 *
 * Kernel radius rule: the kernel has round(6σ + 1) | 1 taps (radius ≈ 3σ), the size OpenCV
 * picks for 8-bit images; the tails beyond 3σ hold under 0.3 % of the weight, well below one
 * 8-bit level of the result. Weights are exp(-x²/2σ²) normalised to sum 1. */
#pragma once

#include <math.h>

#include "pixel-math.h"

#define LM_BLUR_SIGMA_MAX 200.0f
#define LM_BLUR_RADIUS_MAX 600

typedef struct {
  float sigma; /* pixels, 0..200; 0 leaves the image as it is */
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
