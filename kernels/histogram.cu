// Histograms on the GPU: each block counts into its own shared-memory bins (privatized),
// then adds them to the global bins once; integer atomics make the result exact and
// independent of the launch shape.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kRowsPerBlock = 16;

__global__ void
histogram_kernel (const uint8_t *src, size_t stride, unsigned width, unsigned height, int format,
                  int want, uint32_t *bins)
{
  __shared__ uint32_t local[4 * LM_HIST_BINS];
  for (unsigned i = threadIdx.x; i < 4 * LM_HIST_BINS; i += blockDim.x)
    local[i] = 0;
  __syncthreads ();

  unsigned y0 = blockIdx.x * kRowsPerBlock;
  unsigned y1 = min (y0 + kRowsPerBlock, height);
  for (unsigned y = y0; y < y1; y++)
    {
      const uint8_t *row = src + y * stride;
      if (format == LM_K_GRAY8)
        {
          for (unsigned x = threadIdx.x; x < width; x += blockDim.x)
            atomicAdd (&local[3 * LM_HIST_BINS + row[x]], 1u);
          continue;
        }
      for (unsigned x = threadIdx.x; x < width; x += blockDim.x)
        {
          uint32_t p = reinterpret_cast<const uint32_t *> (row)[x];
          if (want & 1)
            {
              atomicAdd (&local[0 * LM_HIST_BINS + (p & 0xff)], 1u);
              atomicAdd (&local[1 * LM_HIST_BINS + ((p >> 8) & 0xff)], 1u);
              atomicAdd (&local[2 * LM_HIST_BINS + ((p >> 16) & 0xff)], 1u);
            }
          if (want & 2)
            atomicAdd (&local[3 * LM_HIST_BINS + lm_luma_u8 (p)], 1u);
        }
    }
  __syncthreads ();
  for (unsigned i = threadIdx.x; i < 4 * LM_HIST_BINS; i += blockDim.x)
    if (local[i] != 0)
      atomicAdd (&bins[i], local[i]);
}

// A gray image has one set of counts; the R, G and B curves are copies of it.
__global__ void
copy_gray_bins (uint32_t *bins)
{
  unsigned i = threadIdx.x;
  uint32_t v = bins[3 * LM_HIST_BINS + i];
  bins[i] = v;
  bins[LM_HIST_BINS + i] = v;
  bins[2 * LM_HIST_BINS + i] = v;
}

} // namespace

extern "C" cudaError_t
lm_k_histogram (const LmKImage *src, int want, uint32_t *bins, cudaStream_t stream)
{
  LM_CUDA_TRY (cudaMemsetAsync (bins, 0, 4 * LM_HIST_BINS * sizeof (uint32_t), stream));
  unsigned blocks = lm_div_up (src->height, kRowsPerBlock);
  histogram_kernel<<<blocks, kThreads, 0, stream>>> (static_cast<const uint8_t *> (src->data),
                                                     src->stride, src->width, src->height,
                                                     src->format, want, bins);
  LM_CUDA_LAUNCHED ();
  if (src->format == LM_K_GRAY8)
    {
      copy_gray_bins<<<1, LM_HIST_BINS, 0, stream>>> (bins);
      LM_CUDA_LAUNCHED ();
    }
  return cudaSuccess;
}
