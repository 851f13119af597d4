// The demosaic's refinement (core/ops/demosaic-refine-math.h): its two steps as two launches, a
// thread a site, in place as on the CPU (neither step writes what another site of it reads).
#include "cuda-check.h"
#include "demosaic-refine-kernels.h"
#include "core/ops/demosaic-refine-math.h"

namespace {

__global__ void
green_kernel (const float *plane, int width, int height, LmCfa cfa, float *rgba, size_t stride)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  int c = lm_cfa_color (&cfa, x, y);
  if (c == LM_CFA_G)
    return;
  float *px = rgba + (size_t) y * stride + 4 * (size_t) x;
  const float *m = plane + (size_t) y * (size_t) width + x;
  px[1] = lm_refine_green (px, (ptrdiff_t) stride, m, width, &cfa, x, y, width, height, c);
}

__global__ void
pixel_kernel (const float *plane, int width, int height, LmCfa cfa, float *rgba, size_t stride)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float *px = rgba + (size_t) y * stride + 4 * (size_t) x;
  const float *m = plane + (size_t) y * (size_t) width + x;
  lm_refine_pixel (px, (ptrdiff_t) stride, m, width, &cfa, x, y, width, height);
}

} // namespace

extern "C" cudaError_t
lm_k_demosaic_refine (const float *plane, int width, int height, const LmCfa *cfa, float *rgba, size_t rgba_stride,
                      cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaSuccess;
  dim3 block (32, 8);
  dim3 grid (lm_div_up ((size_t) width, block.x), lm_div_up ((size_t) height, block.y));
  green_kernel<<<grid, block, 0, stream>>> (plane, width, height, *cfa, rgba, rgba_stride);
  LM_CUDA_LAUNCHED ();
  pixel_kernel<<<grid, block, 0, stream>>> (plane, width, height, *cfa, rgba, rgba_stride);
  return cudaGetLastError ();
}
