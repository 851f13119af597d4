/* Float RGB to Radiance RGBE (Ward's shared-exponent format), one pixel: the rule of
 * Radiance's setcolr and of stb_image_write, shared by the CPU writer (core/io/radiance.c)
 * and the CUDA kernel (kernels/rgbe.cu) so that both give the same bytes.
 *
 * The arithmetic is exact or correctly rounded on both compilers: frexpf is exact on the
 * normal floats it sees here (v >= 1e-32 > FLT_MIN), and the one division and the three
 * products are single IEEE operations (no FMA: -ffp-contract=off, --fmad=false; nvcc's
 * float division is IEEE-rounded unless -prec-div=false). frexpf of a float equals
 * stb's (float) frexp ((double) v), so the bytes are stb's wherever stb's are defined. */
#pragma once

#include <math.h>
#include <stdint.h>

#include "pixel-math.h"

/* The largest channel RGBE holds: mantissa 255 at exponent byte 255 (255 · 2^119). Brighter
 * values (up to FLT_MAX and infinity) saturate there; stb and Radiance let the exponent byte
 * wrap to 0 (black) from 2^127 on. */
#define LM_RGBE_MAX 0x1.FEp126f

/* A channel as RGBE can hold it: RGBE has no sign, so negatives (Mertens' fusion dips below
 * 0 at strong edges) and NaN (both comparisons fail) become 0 instead of wrapping into
 * bright pixels. */
LM_INLINE float
lm_rgbe_channel (float v)
{
  v = v > 0.0f ? v : 0.0f;
  return v < LM_RGBE_MAX ? v : LM_RGBE_MAX;
}

/* Truncation as stb's (unsigned char) cast, but held to 255: v · (m · 256 / v) may round up
 * to 256.0 by one ulp when the mantissa is just below 1, where the plain cast wraps to 0. */
LM_INLINE uint8_t
lm_rgbe_mantissa (float scaled)
{
  int m = (int) scaled;
  return (uint8_t) (m < 255 ? m : 255);
}

/* frexpf of a positive normal float V, from its bits: what frexpf returns there, but inline,
 * so that the CPU's loop vectorizes (a call to libm's frexpf per pixel was most of the
 * conversion's time). */
LM_INLINE float
lm_rgbe_frexp (float v, int *exponent)
{
  uint32_t bits = lm_float_bits (v);
  *exponent = (int) ((bits >> 23) & 0xffu) - 126;
  return lm_bits_float ((bits & 0x807fffffu) | (126u << 23));
}

/* R, G, B (linear radiance) to the 4 bytes R, G, B, E: a word with R in the low byte on these
 * little-endian machines, the order of the file. */
LM_INLINE uint32_t
lm_rgbe_encode (float r, float g, float b)
{
  r = lm_rgbe_channel (r);
  g = lm_rgbe_channel (g);
  b = lm_rgbe_channel (b);
  float v = r > g ? r : g;
  v = v > b ? v : b;
  if (v < 1e-32f)
    return 0;
  int exponent;
  float normalize = lm_rgbe_frexp (v, &exponent) * 256.0f / v;
  return (uint32_t) lm_rgbe_mantissa (r * normalize) | (uint32_t) lm_rgbe_mantissa (g * normalize) << 8
         | (uint32_t) lm_rgbe_mantissa (b * normalize) << 16 | (uint32_t) (exponent + 128) << 24;
}
