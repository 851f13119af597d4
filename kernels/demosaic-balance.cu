// The demosaic's channel balance (core/ops/demosaic-balance-math.h): the sums by integer atomics,
// so that their order cannot change them, then the gains on the host and a scaling pass.
#include "cuda-check.h"
#include "demosaic-balance-kernels.h"

namespace {

constexpr int kRowThreads = 256;
constexpr int kMaxRowBlocks = 4096;

__device__ unsigned long long
warp_sum (unsigned long long v)
{
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down_sync (0xffffffffu, v, d);
  return v;
}

// Each block takes rows BLOCK, BLOCK + GRID, …; each thread every 256th site of them.
__global__ void
measure_kernel (const float *plane, int width, int height, LmCfa cfa, LmBalanceSums *sums)
{
  unsigned long long s[3] = { 0, 0, 0 }, n[3] = { 0, 0, 0 };
  for (int y = blockIdx.x; y < height; y += gridDim.x)
    {
      const float *row = plane + (size_t) y * (size_t) width;
      for (int x = threadIdx.x; x < width; x += blockDim.x)
        {
          float v = row[x];
          if (lm_balance_counts (v))
            {
              int c = lm_cfa_color (&cfa, x, y);
              s[c] += lm_balance_units (v);
              n[c]++;
            }
        }
    }
  for (int c = 0; c < 3; c++)
    {
      unsigned long long ws = warp_sum (s[c]), wn = warp_sum (n[c]);
      if ((threadIdx.x & 31) == 0 && wn != 0)
        {
          atomicAdd (&sums->sum[c], ws);
          atomicAdd (&sums->count[c], wn);
        }
    }
}

struct Gain {
  float g[3];
};

__global__ void
apply_kernel (float *plane, int width, int height, LmCfa cfa, Gain gain)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float *p = plane + (size_t) y * (size_t) width + x;
  *p = *p * gain.g[lm_cfa_color (&cfa, x, y)];
}

} // namespace

extern "C" cudaError_t
lm_k_demosaic_balance_measure (const float *plane, int width, int height, const LmCfa *cfa, LmBalanceSums *sums,
                               cudaStream_t stream)
{
  *sums = LmBalanceSums {};
  if (width <= 0 || height <= 0)
    return cudaSuccess;
  LmBalanceSums *dev = nullptr;
  LM_CUDA_TRY (cudaMallocAsync ((void **) &dev, sizeof *dev, stream));
  cudaError_t err = cudaMemsetAsync (dev, 0, sizeof *dev, stream);
  if (err == cudaSuccess)
    {
      int blocks = height < kMaxRowBlocks ? height : kMaxRowBlocks;
      measure_kernel<<<blocks, kRowThreads, 0, stream>>> (plane, width, height, *cfa, dev);
      err = cudaGetLastError ();
    }
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (sums, dev, sizeof *sums, cudaMemcpyDeviceToHost, stream);
  cudaError_t freed = cudaFreeAsync (dev, stream);
  if (err == cudaSuccess)
    err = freed;
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  return err;
}

extern "C" cudaError_t
lm_k_demosaic_balance_apply (float *plane, int width, int height, const LmCfa *cfa, const float gain[3],
                             cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaSuccess;
  Gain g = { { gain[0], gain[1], gain[2] } };
  dim3 block (32, 8);
  dim3 grid (lm_div_up ((size_t) width, block.x), lm_div_up ((size_t) height, block.y));
  apply_kernel<<<grid, block, 0, stream>>> (plane, width, height, *cfa, g);
  return cudaGetLastError ();
}

extern "C" cudaError_t
lm_k_demosaic_balance (float *plane, int width, int height, const LmCfa *cfa, float matrix[3][3],
                       cudaStream_t stream)
{
  LmBalanceSums sums;
  float gain[3];
  LM_CUDA_TRY (lm_k_demosaic_balance_measure (plane, width, height, cfa, &sums, stream));
  lm_balance_gains (&sums, gain);
  if (gain[0] == 1.0f && gain[1] == 1.0f && gain[2] == 1.0f)
    return cudaSuccess;
  LM_CUDA_TRY (lm_k_demosaic_balance_apply (plane, width, height, cfa, gain, stream));
  lm_balance_fold (matrix, gain);
  return cudaSuccess;
}
