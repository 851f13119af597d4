// The raw development's first steps: core/ops/raw-prep-math.h on every site, as
// core/raw/prep.c does it. Built with --fmad=false: the same IEEE operations in the same order
// give the CPU's bits. The reconstruction's pre-pass sums 64-bit integers, whose sum does not
// depend on the order the blocks add in.
#include "kernels/cuda-check.h"
#include "kernels/grid-rows.cuh"
#include "kernels/raw-prep-kernels.h"

namespace {

constexpr unsigned kThreads = 256;

// The pre-pass: each thread its column's sites over the block's rows, then the block's sums
// in shared memory, then one atomic addition per sum that the block has something for.
__global__ void __launch_bounds__ (kThreads)
ratio_sums (const __grid_constant__ LmRawPrep prep, const unsigned char *data, size_t stride, unsigned width, unsigned height,
            LmRawRatioSums *sums)
{
  __shared__ long long part[6][kThreads];
  long long own[6] = { 0, 0, 0, 0, 0, 0 };
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < width)
    LM_FOR_ROWS (y, height)
      {
        int c;
        long long term;
        if (lm_raw_ratio_term (&prep, data, stride, (int) width, (int) height, (int) x, (int) y, &c, &term))
#pragma unroll
          for (int k = 0; k < 3; k++) // a constant index keeps OWN in registers
            if (k == c)
              own[k] += term, own[3 + k] += 1;
      }
  for (int k = 0; k < 6; k++)
    part[k][threadIdx.x] = own[k];
  __syncthreads ();
  for (unsigned half = kThreads / 2; half > 0; half /= 2)
    {
      if (threadIdx.x < half)
        for (int k = 0; k < 6; k++)
          part[k][threadIdx.x] += part[k][threadIdx.x + half];
      __syncthreads ();
    }
  if (threadIdx.x < 3 && part[3 + threadIdx.x][0] != 0)
    {
      atomicAdd (reinterpret_cast<unsigned long long *> (&sums->sum[threadIdx.x]),
                 static_cast<unsigned long long> (part[threadIdx.x][0]));
      atomicAdd (reinterpret_cast<unsigned long long *> (&sums->count[threadIdx.x]),
                 static_cast<unsigned long long> (part[3 + threadIdx.x][0]));
    }
}

__global__ void __launch_bounds__ (kThreads)
prep_sites (const __grid_constant__ LmRawPrep prep, const unsigned char *data, size_t stride, unsigned width, unsigned height,
            const LmRawRatioSums *sums, float *plane)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  float ratio[3] = { 1.0f, 1.0f, 1.0f };
  if (sums != nullptr)
    for (int c = 0; c < 3; c++)
      ratio[c] = lm_raw_ratio (sums, c);
  LM_FOR_ROWS (y, height)
    plane[y * width + x] = lm_raw_prep_site (&prep, data, stride, (int) width, (int) height, (int) x, (int) y, ratio);
}

__global__ void __launch_bounds__ (kThreads)
prep_pixels (const __grid_constant__ LmRawPrep prep, const unsigned char *data, size_t stride, int n, unsigned width, unsigned height,
             float *rgba, size_t rgba_stride)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      const uint16_t *in = reinterpret_cast<const uint16_t *> (data + y * stride);
      float v[3] = { (float) in[n == 1 ? x : 4 * (size_t) x], 0.0f, 0.0f };
      if (n == 3)
        v[1] = (float) in[4 * (size_t) x + 1], v[2] = (float) in[4 * (size_t) x + 2];
      float out[3];
      lm_raw_prep_pixel (&prep, v, n, lm_raw_black (&prep, (int) x, (int) y), out);
      reinterpret_cast<float4 *> (rgba + y * rgba_stride)[x] = make_float4 (out[0], out[1], out[2], 1.0f);
    }
}

} // namespace

extern "C" size_t
lm_k_raw_prep_scratch (int width, int height, int highlights)
{
  (void) width, (void) height;
  return highlights == LM_RAW_HIGHLIGHTS_RECONSTRUCT ? sizeof (LmRawRatioSums) : 0;
}

extern "C" cudaError_t
lm_k_raw_prep (const LmRawPrep *prep, const LmKImage *cfa16, float *plane, void *scratch, cudaStream_t stream)
{
  if (prep == nullptr || cfa16 == nullptr || cfa16->format != LM_K_CFA16 || plane == nullptr)
    return cudaErrorInvalidValue;
  if (cfa16->width == 0 || cfa16->height == 0)
    return cudaSuccess;
  const unsigned char *data = static_cast<const unsigned char *> (cfa16->data);
  dim3 grid = lm_rows_grid (lm_div_up (cfa16->width, kThreads), cfa16->height);
  LmRawRatioSums *sums = nullptr;
  if (prep->highlights == LM_RAW_HIGHLIGHTS_RECONSTRUCT)
    {
      if (scratch == nullptr)
        return cudaErrorInvalidValue;
      sums = static_cast<LmRawRatioSums *> (scratch);
      LM_CUDA_TRY (cudaMemsetAsync (sums, 0, sizeof *sums, stream));
      ratio_sums<<<grid, kThreads, 0, stream>>> (*prep, data, cfa16->stride, cfa16->width, cfa16->height, sums);
      LM_CUDA_LAUNCHED ();
    }
  prep_sites<<<grid, kThreads, 0, stream>>> (*prep, data, cfa16->stride, cfa16->width, cfa16->height, sums, plane);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_raw_prep_linear (const LmRawPrep *prep, const LmKImage *src, float *rgba, size_t rgba_stride,
                      cudaStream_t stream)
{
  if (prep == nullptr || src == nullptr || rgba == nullptr
      || (src->format != LM_K_RGBA16 && src->format != LM_K_GRAY16) || rgba_stride < 4 * (size_t) src->width)
    return cudaErrorInvalidValue;
  if (src->width == 0 || src->height == 0)
    return cudaSuccess;
  dim3 grid = lm_rows_grid (lm_div_up (src->width, kThreads), src->height);
  prep_pixels<<<grid, kThreads, 0, stream>>> (*prep, static_cast<const unsigned char *> (src->data), src->stride,
                                              src->format == LM_K_GRAY16 ? 1 : 3, src->width, src->height,
                                              rgba, rgba_stride);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
