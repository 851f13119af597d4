/* Saturation and vibrance: parameters and the pixel part, shared by saturation.c and the
 * fused point pass (point-math.h, kernels/point.cu).
 *
 * Each channel moves away from (or towards) the pixel's BT.709 luma Y of the encoded values:
 * c' = Y + (c - Y) · (1 + amount). Saturation's amount is the same for every pixel: -1 gives
 * Y itself, the gray op's luminosity mode. Vibrance's amount is v · (1 - S), S = (max - min)
 * / max the pixel's own saturation (HSV's; 0 for black), so that dull colours move more than
 * vivid ones, which (and skin tones) it spares, as Lightroom's vibrance does. Vibrance
 * first, then saturation; both leave Y unchanged (the weights sum to 1), so the two are one
 * product of factors about the one Y.
 *
 * As computed: k = (1 + v·(1 - S))·(1 + s) = A + B·(1 - S) with A = 1 + s and B = v·A made on
 * the host (saturation.c), and 1 - S = min/max: the same factor in real arithmetic, one
 * subtraction, one clamp and one multiplication fewer a pixel, rounded differently (by an
 * ulp or so of k; a level now and then in 8 bits). The max is read through ratio-math.h's
 * range: a max outside (2^-40, 2^64), black for any output or beyond any edit's values,
 * counts as colourless (S = 0, as 0 did), and a min of 2^-40 or less as fully saturated
 * (S = 1, as a min ≤ 0 did), so that the GPU's quotient is its fast path, bit for bit the
 * CPU's. Y is the pixel's luma, or the one the part before it says the pixel has. After the
 * luma curve, saturation runs in their pair instead (point-math.h). */
#pragma once

#include "param-decl.h"
#include "pixel-math.h"
#include "ratio-math.h"

#define LM_SATURATION_PARAMS(P)                                                                    \
  P (FLOAT, saturation, N_("Saturation"), -1, 1, 0, 0.01, NULL)                                    \
  P (FLOAT, vibrance, N_("Vibrance"), -1, 1, 0, 0.01, NULL)

typedef struct {
  LM_SATURATION_PARAMS (LM_PARAM_FIELD)
} LmSaturationParams;

/* The pixel part's parameters, made from the two numbers on the host: A and B above. */
typedef struct {
  float gain;          /* A = 1 + saturation */
  float vibrance_gain; /* B = vibrance · A */
} LmSaturationPixel;

/* The larger and the smaller of two values. On the GPU one instruction each; NaN is the only
 * value where they differ from the comparisons (the CPU's vectorized form), and a NaN channel
 * makes the pixel NaN either way: its luma is NaN, or all its channels are (point-math.h). */
LM_INLINE float
lm_saturation_max (float a, float b)
{
#ifdef __CUDA_ARCH__
  return fmaxf (a, b);
#else
  return a > b ? a : b;
#endif
}

LM_INLINE float
lm_saturation_min (float a, float b)
{
#ifdef __CUDA_ARCH__
  return fminf (a, b);
#else
  return a < b ? a : b;
#endif
}

/* The pixel part about Y, the pixel's luma. */
LM_INLINE void
lm_saturation_pixel_about (const LmSaturationPixel *p, float y, float *r, float *g, float *b)
{
  float hi = lm_saturation_max (lm_saturation_max (*r, *g), *b);
  float lo = lm_saturation_min (lm_saturation_min (*r, *g), *b);
  int coloured = lm_ratio_in_range (hi);
  float dullness = lm_ratio (coloured ? lm_ratio_numerator (lo) : 0.0f, coloured ? hi : 1.0f); /* 1 - S */
  float k = p->gain + p->vibrance_gain * (coloured ? dullness : 1.0f);
  *r = y + (*r - y) * k, *g = y + (*g - y) * k, *b = y + (*b - y) * k;
}

/* The pixel part. LUMA: the pixel's luma where the part before it knows it, NaN where not. */
LM_INLINE void
lm_saturation_pixel (const LmSaturationPixel *p, float luma, float *r, float *g, float *b)
{
  float y = luma == luma ? luma : lm_weighted_sum (*r, *g, *b, LM_BT709_R, LM_BT709_G, LM_BT709_B);
  lm_saturation_pixel_about (p, y, r, g, b);
}
