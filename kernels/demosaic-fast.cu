// The fast Bayer demosaics on the GPU: core/ops/demosaic-fast-math.h at every pixel, bit for bit
// the CPU's (core/raw/demosaic-fast.c). One pixel a thread; the 3 × 3 (bilinear) or 2 × 2
// (half size) reads of neighbouring threads share cache lines, each store is 16 bytes.
#include "kernels/cuda-check.h"
#include "kernels/demosaic-kernels.h"
#include "kernels/grid-rows.cuh"
#include "core/ops/demosaic-fast-math.h"

namespace {

constexpr unsigned kThreads = 128;

__global__ void __launch_bounds__ (kThreads)
bilinear_kernel (const float *__restrict__ plane, int width, int height, LmCfa cfa, float *__restrict__ rgba,
                 size_t rgba_stride)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      float r, g, b;
      lm_demosaic_bilinear_site (plane, width, height, &cfa, x, (int) y, &r, &g, &b);
      reinterpret_cast<float4 *> (rgba + y * rgba_stride)[x] = make_float4 (r, g, b, 1.0f);
    }
}

__global__ void __launch_bounds__ (kThreads)
half_kernel (const float *__restrict__ plane, int width, int height, LmCfa cfa, float *__restrict__ rgba,
             size_t rgba_stride, int out_w, int out_h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= out_w)
    return;
  LM_FOR_ROWS (y, out_h)
    {
      float r, g, b;
      lm_demosaic_half_site (plane, width, height, &cfa, x, (int) y, &r, &g, &b);
      reinterpret_cast<float4 *> (rgba + y * rgba_stride)[x] = make_float4 (r, g, b, 1.0f);
    }
}

} // namespace

extern "C" size_t
lm_k_demosaic_bilinear_scratch (int width, int height)
{
  return 0;
}

extern "C" size_t
lm_k_demosaic_half_scratch (int width, int height)
{
  return 0;
}

extern "C" cudaError_t
lm_k_demosaic_bilinear (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                        size_t rgba_stride, void *scratch, cudaStream_t stream)
{
  if (width < 1 || height < 1 || !lm_cfa_is_bayer (cfa) || rgba_stride < (size_t) width * 4)
    return cudaErrorInvalidValue;
  dim3 grid = lm_rows_grid (lm_div_up ((size_t) width, kThreads), (unsigned) height);
  bilinear_kernel<<<grid, kThreads, 0, stream>>> (plane, width, height, *cfa, rgba, rgba_stride);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_demosaic_half (const float *plane, int width, int height, const LmCfa *cfa, float *rgba, size_t rgba_stride,
                    void *scratch, cudaStream_t stream)
{
  int out_w = lm_demosaic_half_size (width), out_h = lm_demosaic_half_size (height);
  if (width < 1 || height < 1 || !lm_cfa_is_bayer (cfa) || rgba_stride < (size_t) out_w * 4)
    return cudaErrorInvalidValue;
  dim3 grid = lm_rows_grid (lm_div_up ((size_t) out_w, kThreads), (unsigned) out_h);
  half_kernel<<<grid, kThreads, 0, stream>>> (plane, width, height, *cfa, rgba, rgba_stride, out_w, out_h);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
