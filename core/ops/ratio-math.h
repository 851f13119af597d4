/* The quotients of the point pass's pixel parts (the luma curve's Y'/Y, vibrance's min/max),
 * shared by the CPU and kernels/point.cu.
 *
 * Why a range: CUDA's correctly rounded division is a reciprocal refined by fused
 * multiply-adds, then a check (FCHK) that sends operands the refinement cannot round
 * correctly (zero or tiny numerators, huge or tiny divisors, quotients near the ends of
 * float) to a slow routine behind a branch, which costs as much as the rest of the pixel's
 * divisions. Where the operands lie in RANGE below (or the numerator is 0), the refinement
 * alone gives the correctly rounded quotient, the CPU's `/` bit for bit (tests/gpu/
 * test-ratio.cu checks it on the device over the whole range), so the GPU writes the
 * refinement out and never checks. The pixel parts choose what a value outside the range
 * means; no edit's values leave it but by cancellation near black. */
#pragma once

#include "pixel-math.h"

/* The open range (2^-40, 2^64): quotients of two values in it, and of values in it by the
 * divisor's range, stay far inside float's normal numbers. */
#define LM_RATIO_MIN_BITS 0x2B800000u /* 2^-40 */
#define LM_RATIO_MAX_BITS 0x5F800000u /* 2^64 */

/* V within the range: not NaN, not ≤ 2^-40 (zero, negatives), not ≥ 2^64. One integer
 * comparison on the IEEE bits, as cheap as a float one. */
LM_INLINE int
lm_ratio_in_range (float v)
{
  return lm_float_bits (v) - (LM_RATIO_MIN_BITS + 1u) < LM_RATIO_MAX_BITS - (LM_RATIO_MIN_BITS + 1u);
}

/* A numerator for lm_ratio: V where it is within the range, 0 elsewhere. */
LM_INLINE float
lm_ratio_numerator (float v)
{
  return lm_ratio_in_range (v) ? v : 0.0f;
}

/* A / B correctly rounded, for A 0 or within the range and B within it. */
LM_INLINE float
lm_ratio (float a, float b)
{
#ifdef __CUDA_ARCH__
  float r;
  asm ("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(b));
  float e = __fmaf_rn (-b, r, 1.0f);
  r = __fmaf_rn (r, e, r);
  float q = __fmul_rn (a, r);
  float rem = __fmaf_rn (-b, q, a);
  return __fmaf_rn (r, rem, q);
#else
  return a / b;
#endif
}

/* 1 / B correctly rounded, for B within the range: lm_ratio (1, B) without its product by
 * 1. Where B is outside, both backends give a value of no use (the GPU's is not the CPU's),
 * which a caller must not keep. */
LM_INLINE float
lm_ratio_reciprocal (float b)
{
#ifdef __CUDA_ARCH__
  float r;
  asm ("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(b));
  float e = __fmaf_rn (-b, r, 1.0f);
  r = __fmaf_rn (r, e, r);
  float rem = __fmaf_rn (-b, r, 1.0f);
  return __fmaf_rn (r, rem, r);
#else
  return 1.0f / b;
#endif
}
