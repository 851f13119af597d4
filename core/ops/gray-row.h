/* The weighted sum of R, G and B quantized to 8 bits (lm_quantize_u8 (lm_weighted_sum (…))),
 * over a row of RGBA8 pixels, in GCC's vector types: gray's conversion and equalize's luma.
 *
 * The same multiplications and additions in the same order as the scalar function (the
 * including files are built with -ffp-contract=off), then simd.h's quantization. The bytes
 * are those of lm_gray_of_rgba: test-gray checks all 2^24 colours. */
#pragma once

#include "pixel-math.h"
#include "simd.h"

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
