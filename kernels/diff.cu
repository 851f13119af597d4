// Diff on the GPU: integer sums per block in shared memory, then one atomic per block into
// the global sums; integer arithmetic makes them exact, equal to the CPU's. 8-bit and 16-bit
// images (DEEP), compared in their own units.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/grid-rows.cuh"

namespace {

constexpr unsigned kThreads = 256;

__device__ inline unsigned
abs_diff (unsigned a, unsigned b)
{
  return a > b ? a - b : b - a;
}

__global__ void
diff_kernel (const uint8_t *a, size_t a_stride, const uint8_t *b, size_t b_stride, uint32_t *heat,
             size_t heat_stride, unsigned width, unsigned height, int gray, int deep, float gain, LmDiffSums *sums)
{
  __shared__ unsigned long long s_abs, s_sq, s_diff;
  __shared__ unsigned s_max;
  if (threadIdx.x == 0)
    s_abs = s_sq = s_diff = 0, s_max = 0;
  __syncthreads ();

  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long t_abs = 0, t_sq = 0, t_diff = 0;
  unsigned worst = 0;
  // The sums are integers: the same whichever rows a block visits.
  LM_FOR_ROWS (y, x < width ? height : 0)
    {
      const uint8_t *p = a + y * a_stride, *q = b + y * b_stride;
      unsigned here = 0;
      if (gray)
        {
          here = abs_diff (lm_diff_sample (p, deep, x), lm_diff_sample (q, deep, x));
          t_abs += here, t_sq += (unsigned long long) here * here;
        }
      else if (deep)
        {
          uint64_t u = reinterpret_cast<const uint64_t *> (p)[x], v = reinterpret_cast<const uint64_t *> (q)[x];
          for (int c = 0; c < 3; c++)
            {
              unsigned d = abs_diff ((unsigned) (u >> (16 * c)) & 0xffff, (unsigned) (v >> (16 * c)) & 0xffff);
              t_abs += d, t_sq += (unsigned long long) d * d;
              here = max (here, d);
            }
        }
      else
        {
          uint32_t u = reinterpret_cast<const uint32_t *> (p)[x], v = reinterpret_cast<const uint32_t *> (q)[x];
          for (int c = 0; c < 3; c++)
            {
              unsigned d = abs_diff ((u >> (8 * c)) & 0xff, (v >> (8 * c)) & 0xff);
              t_abs += d, t_sq += d * d;
              here = max (here, d);
            }
        }
      t_diff += here != 0;
      worst = max (worst, here);
      if (heat)
        reinterpret_cast<uint32_t *> (reinterpret_cast<uint8_t *> (heat) + y * heat_stride)[x]
          = lm_heat_rgba_depth (here, deep, gain);
    }
  // Few pixels differ in a parity check; skip the shared atomics when this one did not.
  if (worst)
    {
      atomicAdd (&s_abs, t_abs);
      atomicAdd (&s_sq, t_sq);
      atomicAdd (&s_diff, t_diff);
      atomicMax (&s_max, worst);
    }
  __syncthreads ();
  if (threadIdx.x == 0 && s_diff)
    {
      atomicAdd (reinterpret_cast<unsigned long long *> (&sums->sum_abs), s_abs);
      atomicAdd (reinterpret_cast<unsigned long long *> (&sums->sum_sq), s_sq);
      atomicAdd (reinterpret_cast<unsigned long long *> (&sums->differing), s_diff);
      atomicMax (&sums->max_abs, s_max);
    }
}

} // namespace

extern "C" cudaError_t
lm_k_diff (const LmKImage *a, const LmKImage *b, float gain, const LmKImage *heat,
           LmDiffSums *sums, cudaStream_t stream)
{
  LM_CUDA_TRY (cudaMemsetAsync (sums, 0, sizeof *sums, stream));
  dim3 grid = lm_rows_grid (lm_div_up (a->width, kThreads), a->height);
  diff_kernel<<<grid, kThreads, 0, stream>>> (static_cast<const uint8_t *> (a->data), a->stride,
                                              static_cast<const uint8_t *> (b->data), b->stride,
                                              heat ? static_cast<uint32_t *> (heat->data) : nullptr,
                                              heat ? heat->stride : 0, a->width, a->height,
                                              a->format == LM_K_GRAY8 || a->format == LM_K_GRAY16,
                                              a->format == LM_K_RGBA16 || a->format == LM_K_GRAY16, gain, sums);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
