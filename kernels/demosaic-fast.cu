// The fast Bayer demosaics on the GPU: core/ops/demosaic-fast-math.h at every pixel, bit for bit
// the CPU's (core/raw/demosaic-fast.c). One pixel a thread; the 3 × 3 (bilinear) or 2 × 2
// (half size) reads of neighbouring threads share cache lines, each store is 16 bytes. A mosaic
// one site wide or high (at most a line of pixels) takes the general rule in a kernel of its own.
#include "kernels/cuda-check.h"
#include "kernels/demosaic-kernels.h"
#include "kernels/grid-rows.cuh"
#include "core/ops/demosaic-fast-math.h"

namespace {

constexpr unsigned kThreads = 128;

// The pattern's four colours, by the parities of a site's column and row.
struct Pattern {
  int c00, c01, c10, c11;
};

__global__ void __launch_bounds__ (kThreads)
bilinear_kernel (const float *__restrict__ plane, int width, int height, Pattern p, float *__restrict__ rgba,
                 size_t rgba_stride)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      int py = (int) (y & 1);
      int site = lm_bayer_pick (x & 1, py, p.c00, p.c01, p.c10, p.c11);
      int row_ng = lm_bayer_pick ((x + 1) & 1, py, p.c00, p.c01, p.c10, p.c11);
      float r, g, b;
      lm_demosaic_bilinear_bayer (plane, width, height, x, (int) y, site, row_ng, &r, &g, &b);
      reinterpret_cast<float4 *> (rgba + y * rgba_stride)[x] = make_float4 (r, g, b, 1.0f);
    }
}

__global__ void __launch_bounds__ (kThreads)
half_kernel (const float *__restrict__ plane, int width, int height, Pattern p, float *__restrict__ rgba,
             size_t rgba_stride, int out_w, int out_h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= out_w)
    return;
  LM_FOR_ROWS (y, out_h)
    {
      float r, g, b;
      lm_demosaic_half_bayer (plane, width, height, x, (int) y, p.c00, p.c01, p.c10, p.c11, &r, &g, &b);
      reinterpret_cast<float4 *> (rgba + y * rgba_stride)[x] = make_float4 (r, g, b, 1.0f);
    }
}

// A mosaic one site wide or high: few pixels, the general rule.
__global__ void __launch_bounds__ (kThreads)
line_kernel (const float *__restrict__ plane, int width, int height, LmCfa cfa, float *__restrict__ rgba,
             size_t rgba_stride, int half)
{
  int out_w = half ? lm_demosaic_half_size (width) : width, out_h = half ? lm_demosaic_half_size (height) : height;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out_w * out_h)
    return;
  int x = i % out_w, y = i / out_w;
  float r, g, b;
  if (half)
    lm_demosaic_half_line (plane, width, height, &cfa, x, y, &r, &g, &b);
  else
    lm_demosaic_bilinear_line (plane, width, height, &cfa, x, y, &r, &g, &b);
  reinterpret_cast<float4 *> (rgba + (size_t) y * rgba_stride)[x] = make_float4 (r, g, b, 1.0f);
}

Pattern
pattern_of (const LmCfa *cfa)
{
  return Pattern { lm_bayer_color (cfa, 0, 0), lm_bayer_color (cfa, 1, 0), lm_bayer_color (cfa, 0, 1),
                   lm_bayer_color (cfa, 1, 1) };
}

cudaError_t
launch_line (const float *plane, int width, int height, const LmCfa *cfa, float *rgba, size_t rgba_stride, int half,
             cudaStream_t stream)
{
  int n = half ? lm_demosaic_half_size (width) * lm_demosaic_half_size (height) : width * height;
  line_kernel<<<lm_div_up ((size_t) n, kThreads), kThreads, 0, stream>>> (plane, width, height, *cfa, rgba,
                                                                          rgba_stride, half);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
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
  if (width < 2 || height < 2)
    return launch_line (plane, width, height, cfa, rgba, rgba_stride, 0, stream);
  dim3 grid = lm_rows_grid (lm_div_up ((size_t) width, kThreads), (unsigned) height);
  bilinear_kernel<<<grid, kThreads, 0, stream>>> (plane, width, height, pattern_of (cfa), rgba, rgba_stride);
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
  if (width < 2 || height < 2)
    return launch_line (plane, width, height, cfa, rgba, rgba_stride, 1, stream);
  dim3 grid = lm_rows_grid (lm_div_up ((size_t) out_w, kThreads), (unsigned) out_h);
  half_kernel<<<grid, kThreads, 0, stream>>> (plane, width, height, pattern_of (cfa), rgba, rgba_stride, out_w,
                                              out_h);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
