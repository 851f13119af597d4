/* Saturation and vibrance: parameters and the pixel part, shared by saturation.c and the
 * fused point pass (point-math.h, kernels/point.cu).
 *
 * Each channel moves away from (or towards) the pixel's BT.709 luma Y of the encoded values:
 * c' = Y + (c - Y) · (1 + amount). Saturation's amount is the same for every pixel: -1 gives
 * Y itself, the gray op's luminosity mode. Vibrance's amount is v · (1 - S), S = (max - min)
 * / max the pixel's own saturation (HSV's; 0 for black), so that dull colours move more than
 * vivid ones, which (and skin tones) it spares, as Lightroom's vibrance does. Vibrance
 * first, then saturation; both leave Y unchanged (the weights sum to 1), so the two are one
 * product of factors about the one Y. */
#pragma once

#include "param-decl.h"
#include "pixel-math.h"

#define LM_SATURATION_PARAMS(P)                                                                    \
  P (FLOAT, saturation, N_("Saturation"), -1, 1, 0, 0.01, NULL)                                    \
  P (FLOAT, vibrance, N_("Vibrance"), -1, 1, 0, 0.01, NULL)

typedef struct {
  LM_SATURATION_PARAMS (LM_PARAM_FIELD)
} LmSaturationParams;

/* The pixel part's parameters: the same two numbers. */
typedef struct {
  float saturation;
  float vibrance;
} LmSaturationPixel;

LM_INLINE void
lm_saturation_pixel (const LmSaturationPixel *p, float *r, float *g, float *b)
{
  float y = lm_weighted_sum (*r, *g, *b, LM_BT709_R, LM_BT709_G, LM_BT709_B);
  float hi = *r > *g ? *r : *g, lo = *r < *g ? *r : *g;
  hi = hi > *b ? hi : *b, lo = lo < *b ? lo : *b;
  /* Values an earlier operation left out of 0..255 can make (max - min) / max leave 0..1. */
  float s = hi > 0.0f ? (hi - lo) / hi : 0.0f;
  s = s < 1.0f ? (s > 0.0f ? s : 0.0f) : 1.0f;
  float k = (1.0f + p->vibrance * (1.0f - s)) * (1.0f + p->saturation);
  *r = y + (*r - y) * k, *g = y + (*g - y) * k, *b = y + (*b - y) * k;
}
