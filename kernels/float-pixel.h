// An 8-bit pixel's channels as floats in shared memory: a float4 for RGBA (one 16-byte
// access), a float for gray. Straighten and resize stage their sources so, converting each
// byte once instead of once per tap that reads it, and round their sums back to bytes with
// the same store.
#pragma once

#include "core/ops/pixel-math.h"

template <int C> struct LmFloatPx;
template <> struct LmFloatPx<4> {
  float4 v;
  __device__ float operator[] (int c) const { return reinterpret_cast<const float *> (&v)[c]; }
};
template <> struct LmFloatPx<1> {
  float v;
  __device__ float operator[] (int) const { return v; }
};

// Byte C of W as a float: the bits of 2^23 + the byte, laid out by one byte permutation, less
// 2^23 (exact). Two instructions, where a shift, a mask and a conversion took three: staging
// converts every byte a kernel reads.
__device__ __forceinline__ float
lm_byte_float (uint32_t w, int c)
{
  return __uint_as_float (__byte_perm (w, 0x4b000000u, (unsigned) c | 0x7540u)) - 8388608.0f;
}

// RGBA8 word W's first K channels as floats (the others 0: an opaque RGBA's alpha, K = 3, is
// not summed).
template <int K>
__device__ __forceinline__ LmFloatPx<4>
lm_word_floats (uint32_t w)
{
  LmFloatPx<4> p;
  p.v = make_float4 (lm_byte_float (w, 0), lm_byte_float (w, 1), lm_byte_float (w, 2),
                     K == 4 ? lm_byte_float (w, 3) : 0.0f);
  return p;
}

// Pixel X of ROW (C channels of 8 bits) as floats: the reference's (float) of each byte, of
// the first K channels.
template <int C, int K = C>
__device__ __forceinline__ LmFloatPx<C>
lm_float_px (const uint8_t *row, int x)
{
  if constexpr (C == 4)
    return lm_word_floats<K> (reinterpret_cast<const uint32_t *> (row)[x]);
  else
    {
      LmFloatPx<C> p;
      p.v = (float) row[x];
      return p;
    }
}

// ACC (C sums on the 0..255 scale, the first K of them made) rounded once, as the reference
// does, into pixel X of ROW. An opaque RGBA's alpha (K = 3) is not summed: its sums, of 255
// times weights that add up to 1 (resize-math.h), give 255 within 10^-3, which the rounding
// makes 255.
template <int C, int K = C>
__device__ __forceinline__ void
lm_store_px (uint8_t *row, unsigned x, const float acc[C])
{
  if constexpr (C == 4)
    reinterpret_cast<uint32_t *> (row)[x] = (uint32_t) lm_quantize_u8 (acc[0]) | (uint32_t) lm_quantize_u8 (acc[1]) << 8
                                            | (uint32_t) lm_quantize_u8 (acc[2]) << 16
                                            | (K == 4 ? (uint32_t) lm_quantize_u8 (acc[3]) : 255u) << 24;
  else
    row[x] = lm_quantize_u8 (acc[0]);
}

// The row of entry K of a box staged row after row, INV = 1 / its width: a float
// multiplication instead of an integer division, exact while (k + 0.5) / width stays far
// from an integer, as it does for k < 2^16 (every box here is smaller).
__device__ __forceinline__ int
lm_box_row (int k, float inv)
{
  return (int) (((float) k + 0.5f) * inv);
}
