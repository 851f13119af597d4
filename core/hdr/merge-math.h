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
