/* The sigmoid display transform (LM_TONEMAP_SIGMOID): scene-referred linear light (a developed
 * raw, an HDR merge) to display-referred values, one pixel at a time, shared by the CPU
 * reference (tonemap.c) and the CUDA kernel (kernels/tonemap.cu). Built from exp2-math.h's
 * functions and the basic operations only, it gives the same bits on both backends.
 *
 * The curve is the log-logistic sigmoid that darktable's sigmoid module and Michaelis–Menten's
 * law of photoreceptors describe, y = x^c / (x^c + k): 0 at 0, rising as a power c from black,
 * reaching display white only as x grows without end, so highlights roll off instead of
 * clipping. Written on v = x · 2^EV / 0.18 (the scene relative to its middle grey) it is
 *   y = 1 / (1 + K · v^−c),  K = (1 − 0.18) / 0.18,
 * which sends scene middle grey (0.18 at exposure 0) to display middle grey (0.18, display
 * linear: 118 of 255 once encoded). Its slope on log axes there is c · (1 − 0.18): the
 * contrast parameter is that slope (1: middle grey's neighbourhood as the scene has it), so
 * c = contrast / 0.82.
 *
 * Applied to each channel alone, the curve shifts hues: of a bright orange (1, 0.3, 0.05),
 * red saturates first and green catches up, turning it yellow. Hue preservation restores the
 * scene's hue in the per-channel result: the largest and smallest channels keep their curve
 * values (the largest is the curve of max (R, G, B), a norm's curve), and the middle one is
 * put back where the scene's ratio (mid − min) / (max − min) puts it between them. The result
 * minus its grey is the scene minus its grey, scaled: its hue angle in any opponent space is
 * the scene's. Since the per-channel curve brings every channel towards 1, bright saturated
 * colours desaturate smoothly to white rather than clipping to a primary of another hue. The
 * amount blends from per-channel (0) to the scene's hue (1).
 *
 * Display linear is then encoded with the sRGB transfer function (IEC 61966-2-1). The primaries
 * are the input's: a raw's linear Rec. 2020 comes out as Rec. 2020 with sRGB's curve
 * (core/color/rec2020.h), which the caller tags. */
#pragma once

#include "../ops/exp2-math.h"

/* Scene middle grey at exposure 0, and display middle grey (display linear). */
#define LM_TM_SIGMOID_GREY 0.18f

/* Scene values held to ±2^100 (NaN counts as 0): beyond, the curve is 0 or 1 anyway, and the
 * products and differences below stay finite. */
#define LM_TM_SIGMOID_LIMIT 0x1p100f
/* Below this (after exposure) the curve is 0: v^c / K underflows any output level long
 * before, and lm_tm_log2 sees normal floats only. */
#define LM_TM_SIGMOID_FLOOR 0x1p-100f

typedef struct {
  float scale; /* 2^EV / grey: scene value to v */
  float power; /* c */
  float k;     /* K */
  float hue;   /* hue preservation, 0..1 */
} LmTmSigmoid;

LM_INLINE LmTmSigmoid
lm_tm_sigmoid_setup (float exposure, float contrast, float hue_preservation)
{
  LmTmSigmoid s;
  s.scale = lm_tm_exp2 (exposure) / LM_TM_SIGMOID_GREY;
  s.power = contrast / (1.0f - LM_TM_SIGMOID_GREY);
  s.k = (1.0f - LM_TM_SIGMOID_GREY) / LM_TM_SIGMOID_GREY;
  s.hue = hue_preservation;
  return s;
}

/* The curve of one scene value X (held to ±LM_TM_SIGMOID_LIMIT): display linear, 0..1. */
LM_INLINE float
lm_tm_sigmoid_curve (const LmTmSigmoid *s, float x)
{
  float v = x * s->scale;
  if (!(v > LM_TM_SIGMOID_FLOOR))
    return 0.0f;
  float t = -(s->power * lm_tm_log2 (v));
  return 1.0f / (1.0f + s->k * lm_tm_exp2 (t));
}

/* Display linear Y (0..1) to sRGB's encoding (0..1). */
LM_INLINE float
lm_tm_srgb_encode (float y)
{
  if (y <= 0.0031308f)
    return y * 12.92f;
  return 1.055f * lm_tm_exp2 (lm_tm_log2 (y) * (1.0f / 2.4f)) - 0.055f;
}

LM_INLINE float
lm_tm_sigmoid_sample (float v)
{
  v = v == v ? v : 0.0f;
  return v > -LM_TM_SIGMOID_LIMIT ? (v < LM_TM_SIGMOID_LIMIT ? v : LM_TM_SIGMOID_LIMIT) : -LM_TM_SIGMOID_LIMIT;
}

/* One pixel: scene R, G, B in Q to display linear, 0..1, in place. The channels are treated
 * alike, so that the result of swapped channels is the result swapped, bit for bit. */
LM_INLINE void
lm_tm_sigmoid_linear (const LmTmSigmoid *s, float q[3])
{
  float x[3], y[3];
  for (int c = 0; c < 3; c++)
    {
      x[c] = lm_tm_sigmoid_sample (q[c]);
      y[c] = lm_tm_sigmoid_curve (s, x[c]);
    }
  float hi = x[0] > x[1] ? x[0] : x[1];
  hi = hi > x[2] ? hi : x[2];
  float lo = x[0] < x[1] ? x[0] : x[1];
  lo = lo < x[2] ? lo : x[2];
  /* The curve's values at the largest and smallest samples, taken from the channels that
   * hold them: equal samples have equal curve values, whichever channel is found first. */
  float y_hi = x[0] == hi ? y[0] : x[1] == hi ? y[1] : y[2];
  float y_lo = x[0] == lo ? y[0] : x[1] == lo ? y[1] : y[2];
  if (s->hue > 0.0f && hi > lo)
    {
      float span = hi - lo;
      for (int c = 0; c < 3; c++)
        {
          /* 1 at the largest sample and 0 at the smallest, exactly: those keep their values. */
          float at = (x[c] - lo) / span;
          float kept = at * y_hi + (1.0f - at) * y_lo;
          y[c] = lm_blend (y[c], kept, s->hue);
        }
    }
  for (int c = 0; c < 3; c++)
    q[c] = y[c];
}

/* One pixel: scene R, G, B in Q to sRGB-encoded display values, 0..1, in place. */
LM_INLINE void
lm_tm_sigmoid (const LmTmSigmoid *s, float q[3])
{
  lm_tm_sigmoid_linear (s, q);
  for (int c = 0; c < 3; c++)
    q[c] = lm_tm_srgb_encode (q[c]);
}
