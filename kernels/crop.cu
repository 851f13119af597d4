// Crop on the GPU: a copy of the rectangle core/ops/crop-math.h computes on the host, so the
// bytes are the CPU's.
//
// cudaMemcpy2DAsync moves a crop at about half the memory's rate (its rows start at any
// byte). The kernel here writes each destination row 16 bytes a thread, aligned, and reads
// the source's bytes for them as the two aligned 16-byte blocks that hold them, shifted
// into place: every access is a full 16-byte one whatever the crop's offset. Each thread
// loads three pieces before it stores them, so that enough bytes are in flight to keep the
// memory busy, and the grid is what runs at once, each block walking its share.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/resident-blocks.h"

namespace {

constexpr unsigned kThreads = 256;

// The 16 bytes at FROM + OFF (OFF 0..15, the same for every thread; FROM 16-byte
// aligned), from the blocks at FROM and FROM + 16: the second is read only when OFF is not
// 0, and then it holds some of the row's bytes, so it lies within the row's stride (a
// multiple of 16).
__device__ __forceinline__ uint4
load_shifted (const uint4 *from, unsigned off)
{
  uint4 a = __ldcs (from);
  if (off == 0)
    return a;
  uint4 b = __ldcs (from + 1);
  unsigned r = 8 * (off % 4);
  switch (off / 4)
    {
    case 0:
      return make_uint4 (__funnelshift_r (a.x, a.y, r), __funnelshift_r (a.y, a.z, r), __funnelshift_r (a.z, a.w, r),
                         __funnelshift_r (a.w, b.x, r));
    case 1:
      return make_uint4 (__funnelshift_r (a.y, a.z, r), __funnelshift_r (a.z, a.w, r), __funnelshift_r (a.w, b.x, r),
                         __funnelshift_r (b.x, b.y, r));
    case 2:
      return make_uint4 (__funnelshift_r (a.z, a.w, r), __funnelshift_r (a.w, b.x, r), __funnelshift_r (b.x, b.y, r),
                         __funnelshift_r (b.y, b.z, r));
    default:
      return make_uint4 (__funnelshift_r (a.w, b.x, r), __funnelshift_r (b.x, b.y, r), __funnelshift_r (b.y, b.z, r),
                         __funnelshift_r (b.z, b.w, r));
    }
}

// (Y, P) moved N pieces on along rows of PIECES.
__device__ __forceinline__ void
advance (unsigned &y, unsigned &p, unsigned n, unsigned pieces)
{
  p += n;
  if (p < pieces)
    return;
  if (p < 2 * pieces)
    p -= pieces, y++;
  else
    y += p / pieces, p %= pieces;
}

constexpr int kInFlight = 3; // pieces a thread loads before it stores any

// The destination rows' whole 16-byte pieces, PIECES a row, numbered row after row (TOTAL in
// all): block b takes [b·TOTAL/B, (b+1)·TOTAL/B), its threads blockDim apart, kInFlight at a
// time. OFF: where the source's rows start within 16 bytes (the same for every row). Then the
// rows' last bytes beyond their whole pieces (TAIL of them), a row a thread.
// Eight blocks a multiprocessor: a copy needs every thread it can have in flight.
__global__ void __launch_bounds__ (kThreads, 8)
crop_copy (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned pieces, uint32_t total,
           unsigned off, unsigned tail, unsigned height)
{
  uint32_t begin = (uint32_t) ((uint64_t) total * blockIdx.x / gridDim.x);
  uint32_t end = (uint32_t) ((uint64_t) total * (blockIdx.x + 1) / gridDim.x);
  uint32_t i = begin + threadIdx.x;
  unsigned y = pieces ? i / pieces : 0, p = i - y * pieces, step = blockDim.x;
  const uint8_t *base = src - off; // 16-byte aligned: the blocks holding each piece's bytes
  for (; i < end; i += kInFlight * step)
    {
      uint4 v[kInFlight];
      uint8_t *to[kInFlight];
      unsigned yy = y, pp = p;
#pragma unroll
      for (int k = 0; k < kInFlight; k++)
        {
          to[k] = NULL;
          if (i + k * step < end)
            {
              const uint4 *from = reinterpret_cast<const uint4 *> (base + (size_t) yy * src_stride) + pp;
              v[k] = load_shifted (from, off);
              to[k] = dst + (size_t) yy * dst_stride + 16 * (size_t) pp;
            }
          advance (yy, pp, step, pieces);
        }
#pragma unroll
      for (int k = 0; k < kInFlight; k++)
        if (to[k])
          __stcs (reinterpret_cast<uint4 *> (to[k]), v[k]);
      y = yy, p = pp;
    }
  if (tail == 0)
    return;
  for (unsigned row = blockIdx.x * blockDim.x + threadIdx.x; row < height; row += gridDim.x * blockDim.x)
    for (unsigned b = 0; b < tail; b++)
      dst[(size_t) row * dst_stride + 16 * (size_t) pieces + b] = src[(size_t) row * src_stride + 16 * (size_t) pieces + b];
}

} // namespace

static cudaError_t
crop_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
             cudaStream_t stream)
{
  // A tile (tile-math.h) reads its input from its own place; DST has the tile's size.
  unsigned ox, oy;
  lm_crop_offset (static_cast<const LmCropParams *> (params), src->width, src->height, &ox, &oy);
  size_t bpp = lm_k_bytes_per_pixel (src->format);
  const uint8_t *from = static_cast<const uint8_t *> (src->data) + (size_t) oy * src->stride + (size_t) ox * bpp;
  size_t row_bytes = (size_t) dst->width * bpp;
  if (dst->width == 0 || dst->height == 0)
    return cudaSuccess;
  // The kernel's reads stay inside the source's rows only where rows and strides are
  // 16-byte aligned (every image Lumen allocates; a view of one might not be); it counts
  // pieces in 32 bits.
  if ((reinterpret_cast<uintptr_t> (src->data) | reinterpret_cast<uintptr_t> (dst->data) | src->stride | dst->stride)
      & 15
      || (uint64_t) (row_bytes / 16) * dst->height > UINT32_MAX)
    return cudaMemcpy2DAsync (dst->data, dst->stride, from, src->stride, row_bytes, dst->height,
                              cudaMemcpyDeviceToDevice, stream);
  unsigned pieces = (unsigned) (row_bytes / 16), tail = (unsigned) (row_bytes % 16);
  uint64_t total = (uint64_t) pieces * dst->height;
  unsigned cap;
  LM_CUDA_TRY (lm_k_resident_blocks ((const void *) crop_copy, kThreads, 0, &cap));
  // As many blocks as run at once: each walks its share (a small crop gets fewer).
  size_t blocks = lm_div_up ((total > dst->height ? total : dst->height), kThreads);
  crop_copy<<<(unsigned) (blocks < cap ? blocks : cap), kThreads, 0, stream>>> (
    from, src->stride, static_cast<uint8_t *> (dst->data), dst->stride, pieces, (uint32_t) total,
    (unsigned) (reinterpret_cast<uintptr_t> (from) & 15), tail, dst->height);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

/* A copy: no scratch. */
extern "C" const LmKOp lm_k_crop_op = { NULL, NULL, crop_launch };
