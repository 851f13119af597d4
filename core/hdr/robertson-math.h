/* Robertson, Borman & Stevenson (2003), as OpenCV's MergeRobertson and CalibrateRobertson:
 * per-pixel math shared by the CPU reference (robertson.c) and the CUDA kernels. */
#pragma once

#include <math.h>

#include "merge-math.h"

/* OpenCV's Robertson weight of the 8-bit value Z: a Gaussian bump exp(−(z/q − 2)²) with
 * q = 255/4, shifted and scaled so that it is exactly 0 at 0 and 255 (the clipped values
 * say nothing) and 1 in the middle. expf differs between libm and CUDA in the last bit,
 * so the host computes the 256 weights once and hands the table to the kernels. */
LM_INLINE float
lm_robertson_weight (int z)
{
  const float q = 255.0f / 4.0f;
  const float e4 = expf (4.0f);
  float v = (float) z / q - 2.0f;
  return e4 / (e4 - 1.0f) * expf (-v * v) + 1.0f / (1.0f - e4);
}

/* The merge's weight: OpenCV's, but 0 for a sample that bounds the radiance (merge-math.h's
 * lm_hdr_clipped); the calibration keeps OpenCV's. */
LM_INLINE float
lm_robertson_merge_weight (int z)
{
  return lm_hdr_clipped (z) ? 0.0f : lm_robertson_weight (z);
}

/* Robertson's maximum-likelihood radiance: each exposure I of time T adds T·w(z)·f⁻¹(z) to
 * NUM and T²·w(z) to DEN. */
LM_INLINE void
lm_robertson_add (float t, float w, float response, float *num, float *den)
{
  *num += t * (w * response);
  *den += t * t * w;
}

/* NUM / DEN; 0 where every exposure of the pixel was clipped (OpenCV divides by
 * DEN + DBL_EPSILON, which gives the same 0). The calibration's estimate, as OpenCV's. */
LM_INLINE float
lm_robertson_radiance (float num, float den)
{
  return den > 0.0f ? num / den : 0.0f;
}

/* The merge's of channel C: where every sample of it was clipped (weight 0), not 0, a black
 * dot in a light, but lm_hdr_clip_value. LONGEST_Z: the longest exposure's sample. */
LM_INLINE float
lm_robertson_merged (float num, float den, const LmHdrClipEnds *e, int c, int longest_z)
{
  return den > 0.0f ? num / den : lm_hdr_clip_value (e, c, longest_z);
}
