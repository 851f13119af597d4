/* log2 and exp2 in float from IEEE's basic operations alone (+, −, ×, ÷, floorf and the
 * float's bits), for the sigmoid display transform (core/hdr/sigmoid-math.h), the colour
 * mixer's powers and cube root (colormix-math.h) and local contrast's log luminance and gains
 * (localcontrast-math.h): glibc's and CUDA's powf, expf and logf differ in their last bits,
 * and a curve built on them could not give the same 16-bit output on both backends. Each
 * function is a fixed sequence of correctly rounded operations, compiled without FMA
 * contraction by gcc (-ffp-contract=off) and nvcc (--fmad=false), so both backends get the
 * same bits; the series below are accurate to a few units in the last place, far inside one
 * 16-bit output level. */
#pragma once

#include <math.h>
#include <stdint.h>

#include "../ops/pixel-math.h"

/* log2 of a positive normal float V (callers keep V within 2^-126..2^127): V = m · 2^e with
 * m in √½..√2, then log2 m = 2 atanh (z) / ln 2 with z = (m − 1) / (m + 1), |z| ≤ 0.172, whose
 * odd series to z⁹ leaves a relative error below 2e-9. */
LM_INLINE float
lm_tm_log2 (float v)
{
  uint32_t bits = lm_float_bits (v);
  int e = (int) (bits >> 23) - 127;
  float m = lm_bits_float ((bits & 0x007fffffu) | 0x3f800000u);
  if (m > 1.41421356f)
    {
      m = m * 0.5f;
      e = e + 1;
    }
  float z = (m - 1.0f) / (m + 1.0f);
  float z2 = z * z;
  float s = 1.0f / 9.0f;
  s = s * z2 + 1.0f / 7.0f;
  s = s * z2 + 1.0f / 5.0f;
  s = s * z2 + 1.0f / 3.0f;
  s = s * z2 + 1.0f;
  return (float) e + z * 2.88539008f * s; /* 2 / ln 2 */
}

/* 2^T for T held to −64..64 (NaN counts as −64), a normal float throughout: T = n + f with n
 * an integer and |f| ≤ ½, 2^f = e^(f ln 2) by its Taylor series to f⁷ (relative error below
 * 6e-9 there), and 2^n put in the exponent's bits. */
LM_INLINE float
lm_tm_exp2 (float t)
{
  t = t > -64.0f ? (t < 64.0f ? t : 64.0f) : -64.0f;
  float n = floorf (t + 0.5f);
  float f = t - n;
  /* (ln 2)^k / k!, k = 7 down to 1 */
  float p = 1.52527338e-5f;
  p = p * f + 1.54035304e-4f;
  p = p * f + 1.33335581e-3f;
  p = p * f + 9.61812911e-3f;
  p = p * f + 5.55041087e-2f;
  p = p * f + 2.40226507e-1f;
  p = p * f + 6.93147181e-1f;
  p = p * f + 1.0f;
  return p * lm_bits_float ((uint32_t) ((int) n + 127) << 23);
}
