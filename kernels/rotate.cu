// Rotate on the GPU: the index move of core/ops/rotate-math.h. A quarter turn reads the
// source down its columns; through a 32 × 32 tile in shared memory both the reads and the
// writes are row-wise (coalesced). Each output tile's source is one 32 × 32 (or smaller)
// tile, since the map only permutes and mirrors the axes.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/grid-rows.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kRows = 8; // threads per tile column: each moves kTile / kRows pixels

template <typename T>
__global__ void
rotate_tiles (const uint8_t *src, size_t src_stride, unsigned src_w, unsigned src_h, uint8_t *dst,
              size_t dst_stride, unsigned dst_w, unsigned dst_h, LmRotateMap m)
{
  __shared__ T tile[kTile][kTile + 1]; // + 1: a column's elements fall in different banks
  // Rows of tiles beyond the grid's 65,535 (a 1 × 70000 strip turned): the block walks down.
  for (unsigned tile_row = blockIdx.y; tile_row < (dst_h + kTile - 1) / kTile; tile_row += gridDim.y)
    {
      int ox0 = blockIdx.x * kTile, oy0 = (int) tile_row * kTile;
      int ox1 = min (ox0 + kTile, (int) dst_w) - 1, oy1 = min (oy0 + kTile, (int) dst_h) - 1;
      // The source tile: the corners' images, in whichever order the map puts them.
      int ax = lm_rotate_src_x (&m, ox0, oy0), bx = lm_rotate_src_x (&m, ox1, oy1);
      int ay = lm_rotate_src_y (&m, ox0, oy0), by = lm_rotate_src_y (&m, ox1, oy1);
      int sx0 = min (ax, bx), sx1 = max (ax, bx), sy0 = min (ay, by), sy1 = max (ay, by);

      for (int r = threadIdx.y; r < kTile; r += kRows)
        {
          int sx = sx0 + (int) threadIdx.x, sy = sy0 + r;
          if (sx <= sx1 && sy <= sy1)
            tile[r][threadIdx.x] = reinterpret_cast<const T *> (src + (size_t) sy * src_stride)[sx];
        }
      __syncthreads ();
      for (int r = threadIdx.y; r < kTile; r += kRows)
        {
          int x = ox0 + (int) threadIdx.x, y = oy0 + r;
          if (x > ox1 || y > oy1)
            continue;
          int sx = lm_rotate_src_x (&m, x, y), sy = lm_rotate_src_y (&m, x, y);
          reinterpret_cast<T *> (dst + (size_t) y * dst_stride)[x] = tile[sy - sy0][sx - sx0];
        }
      __syncthreads (); // the next tile row reuses the shared tile
    }
}

template <typename T>
cudaError_t
launch (const LmKImage *src, const LmKImage *dst, LmRotateMap m, cudaStream_t stream)
{
  dim3 grid = lm_rows_grid (lm_div_up (dst->width, kTile), lm_div_up (dst->height, kTile));
  rotate_tiles<T><<<grid, dim3 (kTile, kRows), 0, stream>>> (
    static_cast<const uint8_t *> (src->data), src->stride, src->width, src->height,
    static_cast<uint8_t *> (dst->data), dst->stride, dst->width, dst->height, m);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

} // namespace

static cudaError_t
rotate_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
               cudaStream_t stream)
{
  const LmRotateParams *p = static_cast<const LmRotateParams *> (params);
  LmRotateMap m = lm_rotate_map (p, src->width, src->height);
  switch (src->format)
    {
    case LM_K_GRAY8: return launch<uint8_t> (src, dst, m, stream);
    case LM_K_GRAY16: return launch<uint16_t> (src, dst, m, stream);
    case LM_K_RGBA16: return launch<uint2> (src, dst, m, stream);
    case LM_K_RGBA_F32: return launch<uint4> (src, dst, m, stream);
    default: return launch<uint32_t> (src, dst, m, stream); // RGBA8, RGBE8
    }
}

/* An index move: no scratch. */
extern "C" const LmKOp lm_k_rotate_op = { NULL, NULL, rotate_launch };
