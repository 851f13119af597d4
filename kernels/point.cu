// The fused point pass on the GPU: core/ops/point-math.h on every pixel, four pixels per
// thread so that RGBA input is read and written with 16-byte accesses. What a kernel reads of
// the pass travels as a launch parameter (the host's recipe stays on the host): RGBA8 its
// table and pixel parts, GRAY8 its gray table, RGBA16 its pixel parts. Each block copies its
// table (3 KiB) into shared memory, where the data-dependent lookups of neighbouring threads
// do not serialize as they would in the parameter bank. A block then walks down many rows:
// with one row a block, the tables' copies moved more bytes than the image (24,000 blocks ×
// 3 KiB for 24 MP) and the pass ran at 2.5 times a plain copy.
#include <cstring>

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kPixelsPerThread = 4;

// What point_rgba reads: the table of the channel parts, then the pixel parts; 3,400 bytes
// with today's operations, within the 4 KiB of any launch. Launch parameters may take 32764
// bytes since CUDA 12.1 on Volta and newer (every device this build targets), room for
// pixel parts to come.
struct RgbaPass {
  float table[3][256];
  LmPointPixels px;
};
static_assert (sizeof (RgbaPass) <= 32764, "the RGBA8 pass must fit the launch parameters");

// What point_gray reads: the gray table alone.
struct GrayPass {
  float gray[256];
};

__device__ void
load_table (const RgbaPass &pass, float (*table)[256])
{
  for (unsigned i = threadIdx.x; i < 3 * 256; i += blockDim.x)
    table[i / 256][i % 256] = pass.table[i / 256][i % 256];
  __syncthreads ();
}

__global__ void
point_rgba (const __grid_constant__ RgbaPass pass, const uint8_t *src, size_t src_stride, uint8_t *dst,
            size_t dst_stride, unsigned width, unsigned height)
{
  __shared__ float table[3][256];
  load_table (pass, table);
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kPixelsPerThread;
  if (x0 >= width)
    return;
  for (size_t y = blockIdx.y; y < height; y += gridDim.y)
    {
      const uint32_t *in = reinterpret_cast<const uint32_t *> (src + y * src_stride);
      uint32_t *out = reinterpret_cast<uint32_t *> (dst + y * dst_stride);
      if (x0 + kPixelsPerThread <= width)
        {
          uint4 px = __ldcs (reinterpret_cast<const uint4 *> (in + x0));
          uint4 res = make_uint4 (lm_point_rgba (&pass.px, table, px.x), lm_point_rgba (&pass.px, table, px.y),
                                  lm_point_rgba (&pass.px, table, px.z), lm_point_rgba (&pass.px, table, px.w));
          __stcs (reinterpret_cast<uint4 *> (out + x0), res);
          continue;
        }
      for (unsigned x = x0; x < width; x++)
        out[x] = lm_point_rgba (&pass.px, table, in[x]);
    }
}

// A gray source stays gray: its own table, four pixels (one 32-bit word) per thread.
__global__ void
point_gray (const __grid_constant__ GrayPass pass, const uint8_t *src, size_t src_stride, uint8_t *dst,
            size_t dst_stride, unsigned width, unsigned height)
{
  __shared__ float gray[256];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x)
    gray[i] = pass.gray[i];
  __syncthreads ();
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kPixelsPerThread;
  if (x0 >= width)
    return;
  for (size_t y = blockIdx.y; y < height; y += gridDim.y)
    {
      const uint8_t *in = src + y * src_stride;
      uint8_t *out = dst + y * dst_stride;
      if (x0 + kPixelsPerThread <= width) // rows start LM_ROW_ALIGN-aligned: a word access
        {
          uchar4 px = *reinterpret_cast<const uchar4 *> (in + x0);
          *reinterpret_cast<uchar4 *> (out + x0)
            = make_uchar4 (lm_point_gray (gray, px.x), lm_point_gray (gray, px.y), lm_point_gray (gray, px.z),
                           lm_point_gray (gray, px.w));
          continue;
        }
      for (unsigned x = x0; x < width; x++)
        out[x] = lm_point_gray (gray, in[x]);
    }
}

// 16-bit sources: the table (3 × 65536 floats, 768 KiB) is too large for shared memory and
// is read from global memory, where it stays in L2; two RGBA16 pixels per thread, so that
// loads and stores are 16 bytes as for RGBA8.
__global__ void
point_rgba16 (const __grid_constant__ LmPointPixels px, const float *__restrict__ table16, const uint8_t *src,
              size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned width, unsigned height)
{
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  if (x0 >= width)
    return;
  for (size_t y = blockIdx.y; y < height; y += gridDim.y)
    {
      const unsigned long long *in = reinterpret_cast<const unsigned long long *> (src + y * src_stride);
      unsigned long long *out = reinterpret_cast<unsigned long long *> (dst + y * dst_stride);
      if (x0 + 2 <= width)
        {
          ulonglong2 p = __ldcs (reinterpret_cast<const ulonglong2 *> (in + x0));
          ulonglong2 res = make_ulonglong2 (lm_point_rgba16 (&px, table16, p.x),
                                            lm_point_rgba16 (&px, table16, p.y));
          __stcs (reinterpret_cast<ulonglong2 *> (out + x0), res);
          continue;
        }
      out[x0] = lm_point_rgba16 (&px, table16, in[x0]);
    }
}

// GRAY16: TABLE16 is the gray source's (LM_POINT_TABLE16_SIZE floats); gray out.
__global__ void
point_gray16 (const float *__restrict__ table16, const uint8_t *src, size_t src_stride, uint8_t *dst,
              size_t dst_stride, unsigned width, unsigned height)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  for (size_t y = blockIdx.y; y < height; y += gridDim.y)
    reinterpret_cast<uint16_t *> (dst + y * dst_stride)[x]
      = lm_point_gray16 (table16, reinterpret_cast<const uint16_t *> (src + y * src_stride)[x]);
}

// Rows per block: enough blocks to fill the GPU several times over (4,096), each walking
// down its share of the rows.
dim3
grid_of (unsigned columns_of_blocks, unsigned height)
{
  unsigned rows = columns_of_blocks >= 4096 ? 1 : 4096 / columns_of_blocks;
  return dim3 (columns_of_blocks, rows < height ? rows : height);
}

} // namespace

extern "C" cudaError_t
lm_k_point (const float (*table)[256], const float *gray, const LmPointPixels *px, const LmKImage *src,
            const LmKImage *dst, cudaStream_t stream)
{
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  if (src->width == 0 || src->height == 0)
    return cudaSuccess;
  dim3 grid = grid_of (lm_div_up (src->width, kThreads * kPixelsPerThread), src->height);
  if (src->format == LM_K_GRAY8)
    {
      GrayPass pass;
      memcpy (pass.gray, gray, sizeof pass.gray);
      point_gray<<<grid, kThreads, 0, stream>>> (pass, in, src->stride, out, dst->stride, src->width, src->height);
    }
  else
    {
      RgbaPass pass;
      memcpy (pass.table, table, sizeof pass.table);
      pass.px = *px;
      point_rgba<<<grid, kThreads, 0, stream>>> (pass, in, src->stride, out, dst->stride, src->width, src->height);
    }
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_point16 (const float *table16, const LmPointPixels *px, const LmKImage *src, const LmKImage *dst,
              cudaStream_t stream)
{
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  if (src->width == 0 || src->height == 0)
    return cudaSuccess;
  if (src->format == LM_K_GRAY16)
    {
      dim3 grid = grid_of (lm_div_up (src->width, kThreads), src->height);
      point_gray16<<<grid, kThreads, 0, stream>>> (table16, in, src->stride, out, dst->stride, src->width,
                                                   src->height);
    }
  else
    {
      dim3 grid = grid_of (lm_div_up (src->width, kThreads * 2), src->height);
      point_rgba16<<<grid, kThreads, 0, stream>>> (*px, table16, in, src->stride, out, dst->stride, src->width,
                                                   src->height);
    }
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
