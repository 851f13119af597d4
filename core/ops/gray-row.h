/* The weighted sum of R, G and B quantized to 8 bits (lm_quantize_u8 (lm_weighted_sum (…))),
 * over a row of RGBA8 pixels, in GCC's vector types: gray's conversion and equalize's luma.
 *
 * Written out because GCC's own vectorization of lm_quantize_u8 turned the clamp into
 * compares and integer blends on the converted result, some 40 instructions for 8 pixels;
 * here it is max, min, add, truncate, as the scalar function's IEEE operations are: the same
 * multiplications and additions in the same order (the file is built with -ffp-contract=off),
 * `v > 0 ? v : 0` and `v < 255 ? v : 255` as masks (NaN gives 0 in both), then + 0.5 and a
 * truncating conversion. The bytes are those of lm_gray_of_rgba: test-gray checks all 2^24
 * colours. Include it only in functions built with LM_SIMD_CLONES, so that each clone compiles
 * it for its own vector width. */
#pragma once

#include <string.h>
#include <glib.h>

#include "pixel-math.h"

/* Inlined into each clone of its caller: an outlined copy is compiled for the baseline only. */
#define LM_ROW_INLINE static inline __attribute__ ((always_inline))

typedef float LmF32x8 __attribute__ ((vector_size (32)));
typedef gint32 LmI32x8 __attribute__ ((vector_size (32)));
typedef guint32 LmU32x8 __attribute__ ((vector_size (32)));
typedef guint8 LmU8x32 __attribute__ ((vector_size (32)));

LM_ROW_INLINE LmF32x8
lm_f32x8_clamp_255 (LmF32x8 v)
{
  const LmF32x8 zero = { 0 }, top = { 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f };
  v = (LmF32x8) ((LmI32x8) v & (v > zero));
  LmI32x8 below = v < top;
  return (LmF32x8) (((LmI32x8) v & below) | ((LmI32x8) top & ~below));
}

/* lm_quantize_u8 of eight floats, as 32-bit integers (0..255). */
LM_ROW_INLINE LmI32x8
lm_f32x8_quantize_u8 (LmF32x8 v)
{
  const LmF32x8 half = { 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f };
  return __builtin_convertvector (lm_f32x8_clamp_255 (v) + half, LmI32x8);
}

/* The low bytes of four vectors of 0..255, in order, into 32 bytes: byte shuffles (two
 * instructions a vector on AVX2), where a conversion to bytes went one lane at a time. */
LM_ROW_INLINE void
lm_i32x8_store_u8 (LmI32x8 a, LmI32x8 b, LmI32x8 c, LmI32x8 d, guint8 *out)
{
  const LmU8x32 low = { 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
                        0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60 };
  const LmU8x32 halves = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                           32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47 };
  LmU8x32 ab = __builtin_shuffle ((LmU8x32) a, (LmU8x32) b, low);
  LmU8x32 cd = __builtin_shuffle ((LmU8x32) c, (LmU8x32) d, low);
  LmU8x32 all = __builtin_shuffle (ab, cd, halves);
  memcpy (out, &all, sizeof all);
}

/* Eight pixels of P weighed and quantized. */
LM_ROW_INLINE LmI32x8
lm_weighted_u8x8 (LmU32x8 p, float wr, float wg, float wb)
{
  const LmU32x8 byte = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
  LmF32x8 r = __builtin_convertvector ((LmI32x8) (p & byte), LmF32x8);
  LmF32x8 g = __builtin_convertvector ((LmI32x8) ((p >> 8) & byte), LmF32x8);
  LmF32x8 b = __builtin_convertvector ((LmI32x8) ((p >> 16) & byte), LmF32x8);
  return lm_f32x8_quantize_u8 ((wr * r + wg * g) + wb * b);
}

LM_ROW_INLINE void
lm_weighted_row_u8 (const guint32 *restrict in, guint8 *restrict out, gsize n, float wr, float wg, float wb)
{
  gsize x = 0;
  for (; x + 32 <= n; x += 32)
    {
      LmU32x8 p0, p1, p2, p3;
      memcpy (&p0, in + x, sizeof p0);
      memcpy (&p1, in + x + 8, sizeof p1);
      memcpy (&p2, in + x + 16, sizeof p2);
      memcpy (&p3, in + x + 24, sizeof p3);
      lm_i32x8_store_u8 (lm_weighted_u8x8 (p0, wr, wg, wb), lm_weighted_u8x8 (p1, wr, wg, wb),
                         lm_weighted_u8x8 (p2, wr, wg, wb), lm_weighted_u8x8 (p3, wr, wg, wb), out + x);
    }
  for (; x < n; x++)
    out[x] = lm_quantize_u8 (lm_weighted_sum (lm_px_channel (in[x], 0), lm_px_channel (in[x], 1),
                                              lm_px_channel (in[x], 2), wr, wg, wb));
}
