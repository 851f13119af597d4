// Crop on the GPU: a copy of the rectangle core/ops/crop-math.h computes on the host, so the
// bytes are the CPU's.
//
// cudaMemcpy2DAsync moves a crop at about half the memory's rate (its rows start at any
// byte). The kernel here writes each destination row 16 bytes a thread, aligned, and reads
// the source's bytes for them as the two aligned 16-byte blocks that hold them, shifted
// into place: every access is a full 16-byte one whatever the crop's offset.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

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

constexpr unsigned kPiecesX = 32, kRowsY = kThreads / kPiecesX;

// A thread a 16-byte piece of a destination row (PIECES whole ones a row), the block 32
// pieces of 8 rows, the grid over the rows in order: the blocks running at once touch
// neighbouring memory, which the DRAM serves faster than the far-apart shares that blocks
// walking their own share of the rows touched (on an H200, 73% of the memory's rate against 66%:
// 43 µs against 47 for a 24 MP crop).
// OFF: where the source's rows start within 16 bytes (the same for every row). The thread
// just past a row's last piece copies the row's last bytes beyond its whole pieces (TAIL).
__global__ void __launch_bounds__ (kThreads)
crop_copy (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned pieces, unsigned off,
           unsigned tail, unsigned height)
{
  unsigned p = blockIdx.x * kPiecesX + threadIdx.x % kPiecesX;
  const uint8_t *base = src - off; // 16-byte aligned: the blocks holding each piece's bytes
  for (unsigned y = blockIdx.y * kRowsY + threadIdx.x / kPiecesX; y < height; y += gridDim.y * kRowsY)
    {
      if (p < pieces)
        {
          uint4 v = load_shifted (reinterpret_cast<const uint4 *> (base + (size_t) y * src_stride) + p, off);
          __stcs (reinterpret_cast<uint4 *> (dst + (size_t) y * dst_stride) + p, v);
        }
      else if (p == pieces)
        for (unsigned b = 0; b < tail; b++)
          dst[(size_t) y * dst_stride + 16 * (size_t) p + b] = src[(size_t) y * src_stride + 16 * (size_t) p + b];
    }
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
  // 16-byte aligned (every image Lumen allocates; a view of one might not be).
  if ((reinterpret_cast<uintptr_t> (src->data) | reinterpret_cast<uintptr_t> (dst->data) | src->stride | dst->stride)
      & 15)
    return cudaMemcpy2DAsync (dst->data, dst->stride, from, src->stride, row_bytes, dst->height,
                              cudaMemcpyDeviceToDevice, stream);
  unsigned pieces = (unsigned) (row_bytes / 16), tail = (unsigned) (row_bytes % 16);
  size_t rows_of_blocks = lm_div_up (dst->height, kRowsY);
  dim3 grid (lm_div_up (pieces + (tail ? 1 : 0), kPiecesX), (unsigned) (rows_of_blocks < 65535 ? rows_of_blocks : 65535));
  crop_copy<<<grid, kThreads, 0, stream>>> (from, src->stride, static_cast<uint8_t *> (dst->data), dst->stride, pieces,
                                            (unsigned) (reinterpret_cast<uintptr_t> (from) & 15), tail,
                                            dst->height);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

/* A copy: no scratch. */
extern "C" const LmKOp lm_k_crop_op = { NULL, NULL, crop_launch };
