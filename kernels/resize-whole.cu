// Resize by a whole factor of 2 or 4 on each axis (core/ops/resize-math.h,
// lm_resize_axis_whole_factor): each output pixel is the rounded mean of a K_x × K_y cell,
// which the reference's float sums give exactly, so integer sums give its bytes.
//
// The tables and the float sums cost more than the bytes here (a shrink by 2 reads 4 bytes
// of source for each byte it writes): a thread reads 16 bytes of each of its cell rows at
// once and adds the bytes two to a 32-bit word (16-bit lanes: at most 16 × 255 + 8, no carry
// into the next lane), so a pixel takes a few integer operations and no conversion.
#include "kernels/cuda-check.h"
#include "kernels/resize-whole.h"

namespace {

constexpr unsigned kGroupsX = 32, kRowsY = 8; // a block: 32 threads across, 8 output rows

constexpr uint32_t kLanes = 0x00ff00ffu;

// The bytes of W summed two by two: bytes 0 + 1 in the low 16-bit lane, 2 + 3 in the high.
__device__ __forceinline__ uint32_t
pair_sums (uint32_t w)
{
  return (w & kLanes) + ((w >> 8) & kLanes);
}

template <unsigned N> constexpr unsigned kShift = N == 4 ? 2 : N == 8 ? 3 : 4;

// Two lanes of sums of N bytes each, rounded half up to their means (the reference's
// lm_quantize_u8 of an exact S / N): bytes 0 and 2 of the result.
template <unsigned N>
__device__ __forceinline__ uint32_t
round_lanes (uint32_t s)
{
  return ((s + (N / 2) * 0x00010001u) >> kShift<N>) & kLanes;
}

// The source words of a group's cell row R: V[r], four 32-bit words.
__device__ __forceinline__ uint32_t
word (const uint4 &v, unsigned k)
{
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}

// A thread's group: G = 16 / (C × KX) output pixels of row Y from X0 on, whose cells are 16
// source bytes across. The last group of a row may be cut short: its pixels go one by one.
template <int C, unsigned KX, unsigned KY>
__global__ void __launch_bounds__ (kGroupsX * kRowsY)
resize_whole (const uint8_t *src, size_t src_stride, unsigned sx0, unsigned sy0, uint8_t *dst, size_t dst_stride,
              unsigned ow, unsigned oh)
{
  constexpr unsigned G = 16 / (C * KX), N = KX * KY;
  unsigned x0 = (blockIdx.x * kGroupsX + threadIdx.x) * G, y = blockIdx.y * kRowsY + threadIdx.y;
  if (x0 >= ow || y >= oh)
    return;
  const uint8_t *at = src + (size_t) (sy0 + y * KY) * src_stride + (size_t) (sx0 + x0 * KX) * C;
  uint8_t *out = dst + (size_t) y * dst_stride + (size_t) x0 * C;
  if (x0 + G > ow)
    {
      for (unsigned i = 0; i < ow - x0; i++)
        for (int c = 0; c < C; c++)
          {
            unsigned s = 0;
            for (unsigned r = 0; r < KY; r++)
              for (unsigned j = 0; j < KX; j++)
                s += at[r * src_stride + (i * KX + j) * C + c];
            out[i * C + c] = (uint8_t) ((s + N / 2) >> kShift<N>);
          }
      return;
    }
  uint4 v[KY];
#pragma unroll
  for (unsigned r = 0; r < KY; r++)
    v[r] = __ldcs (reinterpret_cast<const uint4 *> (at + r * src_stride));
  if constexpr (C == 4)
    {
      // A pixel's channels 0 and 2 in one word's lanes, 1 and 3 in another's.
      uint32_t even[G] = {}, odd[G] = {};
#pragma unroll
      for (unsigned r = 0; r < KY; r++)
#pragma unroll
        for (unsigned k = 0; k < 4; k++)
          {
            uint32_t w = word (v[r], k);
            even[k / KX] += w & kLanes, odd[k / KX] += (w >> 8) & kLanes;
          }
      uint32_t px[G];
#pragma unroll
      for (unsigned p = 0; p < G; p++)
        px[p] = round_lanes<N> (even[p]) | round_lanes<N> (odd[p]) << 8;
      if constexpr (G == 2)
        __stcs (reinterpret_cast<uint2 *> (out), make_uint2 (px[0], px[1]));
      else
        __stcs (reinterpret_cast<unsigned *> (out), px[0]);
    }
  else if constexpr (KX == 2)
    {
      // Word k of a row holds the cells of pixels 2k and 2k + 1, one a lane.
      uint32_t s[4] = {};
#pragma unroll
      for (unsigned r = 0; r < KY; r++)
#pragma unroll
        for (unsigned k = 0; k < 4; k++)
          s[k] += pair_sums (word (v[r], k));
#pragma unroll
      for (unsigned k = 0; k < 4; k++)
        s[k] = round_lanes<N> (s[k]);
      __stcs (reinterpret_cast<uint2 *> (out),
              make_uint2 (__byte_perm (s[0], s[1], 0x6420), __byte_perm (s[2], s[3], 0x6420)));
    }
  else
    {
      // Word k of a row is pixel k's cell row.
      uint32_t s[4] = {};
#pragma unroll
      for (unsigned r = 0; r < KY; r++)
#pragma unroll
        for (unsigned k = 0; k < 4; k++)
          {
            uint32_t t = pair_sums (word (v[r], k));
            s[k] += (t & 0xffffu) + (t >> 16);
          }
      uint32_t packed = 0;
#pragma unroll
      for (unsigned k = 0; k < 4; k++)
        packed |= ((s[k] + N / 2) >> kShift<N>) << (8 * k);
      __stcs (reinterpret_cast<unsigned *> (out), packed);
    }
}

template <int C, unsigned KX, unsigned KY>
void
launch (const LmKImage *src, const LmKImage *dst, unsigned sx0, unsigned sy0, cudaStream_t stream)
{
  constexpr unsigned G = 16 / (C * KX);
  dim3 grid (lm_div_up (lm_div_up (dst->width, G), kGroupsX), lm_div_up (dst->height, kRowsY));
  resize_whole<C, KX, KY><<<grid, dim3 (kGroupsX, kRowsY), 0, stream>>> (
    static_cast<const uint8_t *> (src->data), src->stride, sx0, sy0, static_cast<uint8_t *> (dst->data), dst->stride,
    dst->width, dst->height);
}

template <int C>
void
launch_factors (const LmKImage *src, const LmKImage *dst, unsigned kx, unsigned ky, unsigned sx0, unsigned sy0,
                cudaStream_t stream)
{
  if (kx == 2)
    ky == 2 ? launch<C, 2, 2> (src, dst, sx0, sy0, stream) : launch<C, 2, 4> (src, dst, sx0, sy0, stream);
  else
    ky == 2 ? launch<C, 4, 2> (src, dst, sx0, sy0, stream) : launch<C, 4, 4> (src, dst, sx0, sy0, stream);
}

} // namespace

bool
lm_k_resize_whole_usable (const LmKImage *src, const LmKImage *dst, unsigned kx, unsigned ky, unsigned sx0,
                          unsigned sy0)
{
  unsigned c = src->format == LM_K_RGBA8 ? 4 : src->format == LM_K_GRAY8 ? 1 : 0;
  bool factors = (kx == 2 || kx == 4) && (ky == 2 || ky == 4);
  // Loads of 16 bytes; stores of 4 or 8 at multiples of their size.
  bool aligned = ((reinterpret_cast<uintptr_t> (src->data) | src->stride | (size_t) sx0 * c) & 15) == 0
                 && ((reinterpret_cast<uintptr_t> (dst->data) | dst->stride) & 7) == 0;
  return c != 0 && factors && aligned && dst->format == src->format
         && (uint64_t) sx0 + (uint64_t) dst->width * kx <= src->width
         && (uint64_t) sy0 + (uint64_t) dst->height * ky <= src->height;
}

cudaError_t
lm_k_resize_whole (const LmKImage *src, const LmKImage *dst, unsigned kx, unsigned ky, unsigned sx0, unsigned sy0,
                   cudaStream_t stream)
{
  if (!lm_k_resize_whole_usable (src, dst, kx, ky, sx0, sy0))
    return cudaErrorInvalidValue;
  if (dst->width == 0 || dst->height == 0)
    return cudaSuccess;
  if (src->format == LM_K_RGBA8)
    launch_factors<4> (src, dst, kx, ky, sx0, sy0, stream);
  else
    launch_factors<1> (src, dst, kx, ky, sx0, sy0, stream);
  return cudaGetLastError ();
}
