// Grayscale on the GPU: the per-pixel math of core/ops/gray-math.h, four pixels per thread
// so that RGBA input is read with 16-byte loads.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/grid-rows.cuh"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kPixelsPerThread = 4;

// RGBA8 in, one channel out (full gray of an opaque image).
__global__ void
gray_rgba_to_gray (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                   unsigned width, unsigned height, LmGrayWeights w)
{
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kPixelsPerThread;
  if (x0 >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      const uint32_t *in = reinterpret_cast<const uint32_t *> (src + y * src_stride);
      uint8_t *out = dst + y * dst_stride;
      if (x0 + kPixelsPerThread <= width)
        {
          uint4 px = *reinterpret_cast<const uint4 *> (in + x0);
          uchar4 g = make_uchar4 (lm_gray_of_rgba (px.x, w), lm_gray_of_rgba (px.y, w),
                                  lm_gray_of_rgba (px.z, w), lm_gray_of_rgba (px.w, w));
          *reinterpret_cast<uchar4 *> (out + x0) = g;
          continue;
        }
      for (unsigned x = x0; x < width; x++)
        out[x] = lm_gray_of_rgba (in[x], w);
    }
}

__global__ void
gray_rgba_to_rgba (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                   unsigned width, unsigned height, LmGrayWeights w, float amount)
{
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kPixelsPerThread;
  if (x0 >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      const uint32_t *in = reinterpret_cast<const uint32_t *> (src + y * src_stride);
      uint32_t *out = reinterpret_cast<uint32_t *> (dst + y * dst_stride);
      if (x0 + kPixelsPerThread <= width)
        {
          uint4 px = *reinterpret_cast<const uint4 *> (in + x0);
          uint4 res = make_uint4 (lm_gray_rgba (px.x, w, amount), lm_gray_rgba (px.y, w, amount),
                                  lm_gray_rgba (px.z, w, amount), lm_gray_rgba (px.w, w, amount));
          *reinterpret_cast<uint4 *> (out + x0) = res;
          continue;
        }
      for (unsigned x = x0; x < width; x++)
        out[x] = lm_gray_rgba (in[x], w, amount);
    }
}

__global__ void
gray_gray_to_gray (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                   unsigned width, unsigned height, LmGrayWeights w, float amount)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      float v = src[y * src_stride + x];
      dst[y * dst_stride + x] = lm_quantize_u8 (lm_blend (v, lm_quantize_clamp (lm_gray_value (v, v, v, w)), amount));
    }
}

// 16-bit sources: two RGBA16 pixels per thread (16-byte loads).
__global__ void
gray_rgba16 (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned width,
             unsigned height, LmGrayWeights w, float amount, int to_gray)
{
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  if (x0 >= width)
    return;
  unsigned n = x0 + 2 <= width ? 2 : 1;
  LM_FOR_ROWS (y, height)
    {
      const unsigned long long *in = reinterpret_cast<const unsigned long long *> (src + y * src_stride);
      uint8_t *row = dst + y * dst_stride;
      unsigned long long px[2];
      if (n == 2)
        {
          ulonglong2 q = *reinterpret_cast<const ulonglong2 *> (in + x0);
          px[0] = q.x, px[1] = q.y;
        }
      else
        px[0] = in[x0];
      if (to_gray)
        {
          uint16_t *out = reinterpret_cast<uint16_t *> (row);
          for (unsigned i = 0; i < n; i++)
            out[x0 + i] = lm_gray_of_rgba16 (px[i], w);
          continue;
        }
      unsigned long long *out = reinterpret_cast<unsigned long long *> (row);
      if (n == 2)
        *reinterpret_cast<ulonglong2 *> (out + x0) = make_ulonglong2 (lm_gray_rgba16 (px[0], w, amount),
                                                                      lm_gray_rgba16 (px[1], w, amount));
      else
        out[x0] = lm_gray_rgba16 (px[0], w, amount);
    }
}

__global__ void
gray_gray16 (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned width,
             unsigned height, LmGrayWeights w, float amount)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    reinterpret_cast<uint16_t *> (dst + y * dst_stride)[x]
      = lm_gray_gray16 (reinterpret_cast<const uint16_t *> (src + y * src_stride)[x], w, amount);
}

} // namespace

static cudaError_t
gray_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
             cudaStream_t stream)
{
  const LmGrayParams *p = static_cast<const LmGrayParams *> (params);
  LmGrayWeights w = lm_gray_weights (p);
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  if (src->format == LM_K_GRAY16)
    {
      dim3 grid = lm_rows_grid (lm_div_up (src->width, kThreads), src->height);
      gray_gray16<<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride, src->width, src->height, w, p->amount);
    }
  else if (src->format == LM_K_RGBA16)
    {
      dim3 grid = lm_rows_grid (lm_div_up (src->width, kThreads * 2), src->height);
      gray_rgba16<<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride, src->width, src->height, w,
                                                  p->amount, dst->format == LM_K_GRAY16);
    }
  else if (src->format == LM_K_GRAY8)
    {
      dim3 grid = lm_rows_grid (lm_div_up (src->width, kThreads), src->height);
      gray_gray_to_gray<<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride,
                                                        src->width, src->height, w, p->amount);
    }
  else
    {
      dim3 grid = lm_rows_grid (lm_div_up (src->width, kThreads * kPixelsPerThread), src->height);
      if (dst->format == LM_K_GRAY8)
        gray_rgba_to_gray<<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride,
                                                          src->width, src->height, w);
      else
        gray_rgba_to_rgba<<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride,
                                                          src->width, src->height, w, p->amount);
    }
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

/* A point operation: no scratch. */
extern "C" const LmKOp lm_k_gray_op = { NULL, NULL, gray_launch };

extern "C" cudaError_t
lm_k_probe (void)
{
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes (&attr, gray_gray_to_gray);
}
