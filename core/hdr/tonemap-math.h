/* Tone mapping's per-pixel arithmetic and the constants each operator derives from the image's
 * sums, shared by the CPU reference (tonemap.c, gcc) and the CUDA kernels (kernels/tonemap.cu,
 * nvcc), both without FMA contraction. What differs between the two is confined to the
 * library functions (logf, expf, powf: a few units in the last place) and to the order in
 * which the double sums are added (the CPU adds per-row sums in row order; the GPU per-row
 * sums in a fixed tree), so the 8-bit results agree within 1.
 *
 * Every operator is a chain of the same stages: the samples stretched to 0..1 by the image's
 * range, the operator, its result stretched again, the gamma, × 255 and rounded. */
#pragma once

#include <float.h>
#include <math.h>

#include "../ops/pixel-math.h"

/* OpenCV's floor: luminances below it count as 1e-4 in the log means. */
#define LM_TONEMAP_LOG_FLOOR 1e-4f

/* The luminance that the operators adapt to (OpenCV's RGB2GRAY). */
LM_INLINE float
lm_tm_luminance (float r, float g, float b)
{
  return lm_weighted_sum (r, g, b, LM_BT601_R, LM_BT601_G, LM_BT601_B);
}

LM_INLINE float
lm_tm_log_luminance (float luminance)
{
  return logf (luminance > LM_TONEMAP_LOG_FLOOR ? luminance : LM_TONEMAP_LOG_FLOOR);
}

/* (x − lo) / span, from the smallest and largest colour sample (as doubles holding floats);
 * an image of one value is left as it is (OpenCV's Tonemap). */
typedef struct {
  float lo, span;
  int stretch;
} LmTmStretch;

LM_INLINE LmTmStretch
lm_tm_stretch_of (double min, double max)
{
  LmTmStretch s;
  s.lo = (float) min;
  s.span = (float) (max - min);
  s.stretch = max - min > DBL_EPSILON;
  return s;
}

LM_INLINE float
lm_tm_stretch (float v, LmTmStretch s)
{
  return s.stretch ? (v - s.lo) / s.span : v;
}

LM_INLINE float
lm_tm_gamma (float v, float inv_gamma)
{
  return inv_gamma == 1.0f ? v : powf (v, inv_gamma);
}

/* The operator's 0..1 value to 8 bits. */
LM_INLINE uint8_t
lm_tm_quantize (float v)
{
  return lm_quantize_u8 (v * 255.0f);
}

/* The same to 16 bits (lumen-cli --depth 16): on the 0..255 scale, then the 16-bit rounding,
 * so that a 16-bit result rounded to 8 bits is the 8-bit result give or take the one value
 * where the two roundings meet. */
LM_INLINE uint16_t
lm_tm_quantize16 (float v)
{
  return lm_quantize_u16 (v * 255.0f);
}

/* Sums over the stretched image that Reinhard and Drago need: the log luminance's sum and
 * range, the channels' and the luminance's sums, the largest luminance. */
typedef struct {
  double log_sum, log_min, log_max;
  double sum[3], gray_sum;
  double max_luminance;
} LmTmStats;

/* Reinhard & Devlin (2005), OpenCV's TonemapReinhard: the constants from the image's sums. */
typedef struct {
  float intensity, light_adapt, color_adapt, map_key;
  float global[3];
} LmTmReinhard;

LM_INLINE LmTmReinhard
lm_tm_reinhard_setup (float intensity, float light_adapt, float color_adapt, const LmTmStats *s,
                      double n)
{
  LmTmReinhard r;
  double log_mean = s->log_sum / n;
  float key = s->log_max > s->log_min ? (float) ((s->log_max - log_mean) / (s->log_max - s->log_min)) : 0.0f;
  r.map_key = 0.3f + 0.7f * powf (key, 1.4f);
  r.intensity = expf (-intensity);
  r.light_adapt = light_adapt;
  r.color_adapt = color_adapt;
  float gray_mean = (float) (s->gray_sum / n);
  for (int c = 0; c < 3; c++)
    r.global[c] = color_adapt * (float) (s->sum[c] / n) + (1.0f - color_adapt) * gray_mean;
  return r;
}

/* One pixel (stretched R, G, B in Q) in place. A black pixel with nothing to adapt to would
 * be 0 / 0: it is 0, the limit, rather than a NaN that would poison the range after it. */
LM_INLINE void
lm_tm_reinhard (const LmTmReinhard *r, float q[3])
{
  float g = lm_tm_luminance (q[0], q[1], q[2]);
  for (int c = 0; c < 3; c++)
    {
      float adapt = r->color_adapt * q[c] + (1.0f - r->color_adapt) * g;
      adapt = r->light_adapt * adapt + (1.0f - r->light_adapt) * r->global[c];
      adapt = powf (r->intensity * adapt, r->map_key);
      float d = adapt + q[c];
      q[c] = d > 0.0f ? q[c] / d : 0.0f;
    }
}

/* Drago et al. (2003), OpenCV's TonemapDrago: the log-mean luminance, the largest
 * luminance (of the stretched image) over that mean, the bias exponent. */
typedef struct {
  float mean, max, exponent, saturation;
} LmTmDrago;

/* The largest luminance over the mean is the largest luminance divided once: float division
 * by a positive number keeps order. */
LM_INLINE LmTmDrago
lm_tm_drago_setup (float bias, float saturation, const LmTmStats *s, double n)
{
  LmTmDrago d;
  d.mean = expf ((float) (s->log_sum / n));
  float max_luminance = (float) s->max_luminance;
  d.max = (max_luminance > 0.0f ? max_luminance : 0.0f) / d.mean;
  d.exponent = logf (bias) / logf (0.5f);
  d.saturation = saturation;
  return d;
}

LM_INLINE void
lm_tm_drago (const LmTmDrago *d, float q[3])
{
  float g = lm_tm_luminance (q[0], q[1], q[2]) / d->mean;
  float map = logf (g + 1.0f) / logf (2.0f + 8.0f * powf (g / d->max, d->exponent));
  for (int c = 0; c < 3; c++)
    q[c] = g > 0.0f ? powf (q[c] / g, d->saturation) * map : 0.0f;
}
