// The sums of core/ops/resize-math.h as the resize kernels run them (resize.cu,
// resize-taps.cu): a span's weighted sum, a source pixel as floats with the reference's
// clamp, one output pixel straight from the source, and how far a tile's spans reach.
#pragma once

#include <climits>
#include <math.h>

#include "kernels/float-pixel.h"
#include "kernels/kernels.h"

// The most source pixels a tile's spans reach along an axis from IN to OUT pixels with N
// output pixels a tile: N steps of the factor and the kernel's reach on both sides, with a
// pixel to spare for rounding. A block whose box is larger still computes without it.
inline unsigned
tile_reach (unsigned in, unsigned out, unsigned n)
{
  double factor = (double) in / (double) out;
  double reach = lm_resize_axis_area (in, out) ? 1.0 : LM_RESIZE_LANCZOS_A * (factor > 1.0 ? factor : 1.0);
  return (unsigned) ceil (n * factor + 2.0 * reach) + 4u;
}

// The tiled kernel's sums: ACC (C channels) + each weight of SPAN times the pixel it reads,
// P (TAP) giving tap TAP's pixel, in the reference's order (lm_resize_sum_*).
template <int C, typename Px>
__device__ __forceinline__ void
span_sum (LmResizeSpan span, const float *weights, Px p, float acc[C])
{
  for (int c = 0; c < C; c++)
    acc[c] = 0.0f;
  for (uint32_t t = 0; t < span.count; t++)
    {
      float w = weights[span.offset + t];
      auto v = p (span.start + (int) t);
      for (int c = 0; c < C; c++)
        acc[c] = acc[c] + w * v[c];
    }
}

template <int C> struct alignas (C == 4 ? 16 : 4) Acc {
  float v[C];
  __device__ float operator[] (int c) const { return v[c]; }
};

// Source pixel (X, Y) as floats, its indices clamped to the W × H source as the reference's
// sums clamp them.
template <int C>
__device__ __forceinline__ LmFloatPx<C>
source_px (const uint8_t *src, size_t src_stride, unsigned w, unsigned h, int y, int x)
{
  y = y < 0 ? 0 : y >= (int) h ? (int) h - 1 : y;
  x = x < 0 ? 0 : x >= (int) w ? (int) w - 1 : x;
  return lm_float_px<C> (src + (size_t) y * src_stride, x);
}

// The source box of BW × BH pixels from (BX, BY) staged into BOX as floats, row after row,
// the block's threads taking every pixel in turn (a box's rows are shorter than a block).
template <int C>
__device__ __forceinline__ void
stage_box (LmFloatPx<C> *box, const uint8_t *src, size_t src_stride, unsigned w, unsigned h, int bx, int by, int bw,
           int bh)
{
  float inv = 1.0f / (float) bw;
  for (int k = threadIdx.x; k < bw * bh; k += blockDim.x)
    {
      int br = lm_box_row (k, inv);
      box[k] = source_px<C> (src, src_stride, w, h, by + br, bx + (k - br * bw));
    }
}

// One output pixel of spans SX, SY summed straight from the source: the first axis's sums
// (the intermediate's values) and then the second's, the same terms in the same order.
template <int C, bool VFirst>
__device__ __forceinline__ void
direct_sum (const uint8_t *src, size_t src_stride, unsigned w, unsigned h, LmResizeSpan sx, const float *xw,
            LmResizeSpan sy, const float *yw, float acc[C])
{
  if (VFirst)
    span_sum<C> (sx, xw, [&] (int x) {
      Acc<C> a;
      span_sum<C> (sy, yw, [&] (int y) { return source_px<C> (src, src_stride, w, h, y, x); }, a.v);
      return a;
    }, acc);
  else
    span_sum<C> (sy, yw, [&] (int y) {
      Acc<C> a;
      span_sum<C> (sx, xw, [&] (int x) { return source_px<C> (src, src_stride, w, h, y, x); }, a.v);
      return a;
    }, acc);
}
