// An 8-bit pixel's channels as floats in shared memory: a float4 for RGBA (one 16-byte
// access), a float for gray. Straighten and resize stage their sources so, converting each
// byte once instead of once per tap that reads it.
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

// Pixel X of ROW (C channels of 8 bits) as floats: the reference's (float) of each byte.
template <int C>
__device__ __forceinline__ LmFloatPx<C>
lm_float_px (const uint8_t *row, int x)
{
  LmFloatPx<C> p;
  if constexpr (C == 4)
    {
      uint32_t w = reinterpret_cast<const uint32_t *> (row)[x];
      p.v = make_float4 (lm_px_channel (w, 0), lm_px_channel (w, 1), lm_px_channel (w, 2), lm_px_channel (w, 3));
    }
  else
    p.v = (float) row[x];
  return p;
}
