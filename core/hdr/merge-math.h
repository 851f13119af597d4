/* The radiance merge's per-pixel arithmetic, shared by the CPU reference (debevec.c, gcc) and
 * the CUDA kernels (kernels/hdr-merge.cu, nvcc), both without FMA contraction: the weighted
 * sums are the same IEEE operations in the same order on both, so the two backends differ
 * only by their expf (and powf for the gamma correction), a few units in the last place. */
#pragma once

#include <math.h>

#include "../ops/pixel-math.h"

/* As in response.h: one table entry per 8-bit level. */
#define LM_HDR_MERGE_LEVELS 256

/* The triangle weight of an 8-bit value (response.h's lm_hdr_triangle_weight): trust
 * mid-tones, distrust the clipped ends. Integer-valued, hence exact on both compilers. */
LM_INLINE float
lm_hdr_triangle (int z)
{
  return z < 128 ? z + 1.0f : 256.0f - z;
}

/* ln f⁻¹ of each level (R, G, B planes of 256) from the response's values, computed on the
 * host by the same logf for both backends. Returns the first level that is not positive (no
 * camera's response), or -1. */
static inline int
lm_debevec_log_table (const float value[3][LM_HDR_MERGE_LEVELS], float log_value[3 * LM_HDR_MERGE_LEVELS])
{
  for (int c = 0; c < 3; c++)
    for (int z = 0; z < LM_HDR_MERGE_LEVELS; z++)
      {
        if (!(value[c][z] > 0.0f))
          return z;
        log_value[c * LM_HDR_MERGE_LEVELS + z] = logf (value[c][z]);
      }
  return -1;
}

/* ln t of an exposure time, as the merge uses it. */
static inline float
lm_hdr_log_time (double seconds)
{
  return (float) log (seconds);
}

/* One exposure's pixel P (RGBA8 word; a gray sample repeated in R, G and B) added to the
 * pixel's sums: one weight for the pixel, the mean of its channels' (as OpenCV's
 * MergeDebevec), times ln f⁻¹(z) − ln t per channel. */
LM_INLINE void
lm_debevec_add (const float *log_response, uint32_t p, float log_time, float sum[3], float *wsum)
{
  int z0 = (int) (p & 0xffu), z1 = (int) ((p >> 8) & 0xffu), z2 = (int) ((p >> 16) & 0xffu);
  float w = (lm_hdr_triangle (z0) + lm_hdr_triangle (z1) + lm_hdr_triangle (z2)) / 3.0f;
  sum[0] += w * (log_response[z0] - log_time);
  sum[1] += w * (log_response[LM_HDR_MERGE_LEVELS + z1] - log_time);
  sum[2] += w * (log_response[2 * LM_HDR_MERGE_LEVELS + z2] - log_time);
  *wsum += w;
}

/* The radiance of one channel from its sums. WSUM ≥ 1: every level has a weight ≥ 1. */
LM_INLINE float
lm_debevec_radiance (float sum, float wsum)
{
  return expf (sum / wsum);
}

/* A gray sample as the RGBA8 word the merge reads. */
LM_INLINE uint32_t
lm_hdr_gray_word (uint8_t v)
{
  return (uint32_t) v * 0x010101u;
}

/* The normalised gamma correction of one radiance sample: (x / max)^γ · max, negative
 * samples taken as 0. MAX is the largest colour sample of the image, > 0. */
LM_INLINE float
lm_hdr_gamma_correct (float v, float max, float gamma)
{
  return powf ((v > 0.0f ? v : 0.0f) / max, gamma) * max;
}

/* ---- The linear merge of 16-bit exposures (merge-linear.c, hdr-merge.cu) ----
 *
 * Debevec's calibration solves for one value of ln f⁻¹ per level: with 65536 levels and
 * OpenCV's 70 samples the system is under-determined a thousand times over, and a raw
 * converter's 16-bit output is linear (or is meant to be) anyway. So 16-bit exposures are
 * taken as linear data: each channel's radiance is the weighted mean of v / (65535 · t) over
 * the exposures (full scale at 1 s is 1), with a hat weight on the 16-bit value that is 0 for
 * the near-black values (below LO: noise and black level dominate) and the near-clipped ones
 * (above HI: a converter's highlight roll-off). A value v quantized from v' (|v − v'| ≤ ½)
 * then has a relative error ≤ ½ / LO = 0.2 % in every term, hence in the mean. A channel with
 * no exposure in LO..HI takes the longest exposure's value where that one is dark, else the
 * shortest's (clipped throughout: the best lower bound). Weights are whole numbers below
 * 2^24 and the sums run in exposure order with the same single operations on both backends:
 * the two agree bit for bit. */
#define LM_HDR_LINEAR_LO 256
#define LM_HDR_LINEAR_HI (65535 - 2048)

LM_INLINE float
lm_hdr_linear_weight (int v)
{
  if (v < LM_HDR_LINEAR_LO || v > LM_HDR_LINEAR_HI)
    return 0.0f;
  return v < 32768 ? (float) (v - LM_HDR_LINEAR_LO + 1) : (float) (LM_HDR_LINEAR_HI - v + 1);
}

/* 1 / (65535 · t): what a value of an exposure of T seconds is multiplied by, computed once
 * on the host for both backends. */
static inline float
lm_hdr_linear_scale (double seconds)
{
  return (float) (1.0 / (65535.0 * seconds));
}

/* The shortest and the longest of N exposures, from their scales (the largest scale is the
 * shortest time); the first of equals. */
LM_INLINE void
lm_hdr_linear_ends (const float *scale, unsigned n, unsigned *shortest, unsigned *longest)
{
  *shortest = *longest = 0;
  for (unsigned i = 1; i < n; i++)
    {
      if (scale[i] > scale[*shortest])
        *shortest = i;
      if (scale[i] < scale[*longest])
        *longest = i;
    }
}

/* One channel's sums over the exposures, and the two ends' own estimates. */
typedef struct {
  float num, den, shortest, longest;
  int longest_value;
} LmHdrLinearSums;

LM_INLINE void
lm_hdr_linear_add (LmHdrLinearSums *s, int v, float scale, int is_shortest, int is_longest)
{
  float r = (float) v * scale;
  float w = lm_hdr_linear_weight (v);
  s->num += w * r;
  s->den += w;
  if (is_shortest)
    s->shortest = r;
  if (is_longest)
    {
      s->longest = r;
      s->longest_value = v;
    }
}

LM_INLINE float
lm_hdr_linear_radiance (const LmHdrLinearSums *s)
{
  if (s->den > 0.0f)
    return s->num / s->den;
  return s->longest_value < LM_HDR_LINEAR_LO ? s->longest : s->shortest;
}
