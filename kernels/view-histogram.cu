// The "as seen" histogram on the GPU: every source pixel as the view shows it at 100 %
// (lm_view_source_seen, core/ops/view-math.h: the same operations as the CPU's
// core/color/seen-histogram.c), counted per warp in shared memory and added to the global
// bins once per block. Integer counts: exact, whatever the launch shape.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kWarps = kThreads / 32;

__global__ void
seen_histogram_kernel (LmViewSource src, LmLut3d lut, int has_lut, unsigned rows_per_block,
                       uint32_t *bins)
{
  __shared__ uint32_t local[kWarps * 4 * LM_HIST_BINS]; // 32 KiB
  for (unsigned i = threadIdx.x; i < kWarps * 4 * LM_HIST_BINS; i += blockDim.x)
    local[i] = 0;
  __syncthreads ();

  uint32_t *mine = local + (threadIdx.x / 32) * 4 * LM_HIST_BINS;
  const LmLut3d *l = has_lut ? &lut : nullptr;
  unsigned y0 = blockIdx.x * rows_per_block, y1 = min (y0 + rows_per_block, (unsigned) src.height);
  for (unsigned y = y0; y < y1; y++)
    for (unsigned x = threadIdx.x; x < (unsigned) src.width; x += blockDim.x)
      {
        uint32_t p = lm_view_source_seen (&src, l, (int) x, (int) y);
        atomicAdd (&mine[0 * LM_HIST_BINS + (p & 0xff)], 1u);
        atomicAdd (&mine[1 * LM_HIST_BINS + ((p >> 8) & 0xff)], 1u);
        atomicAdd (&mine[2 * LM_HIST_BINS + ((p >> 16) & 0xff)], 1u);
        atomicAdd (&mine[3 * LM_HIST_BINS + lm_luma_u8 (p)], 1u);
      }
  __syncthreads ();

  for (unsigned i = threadIdx.x; i < 4 * LM_HIST_BINS; i += blockDim.x)
    {
      uint32_t sum = 0;
      for (unsigned w = 0; w < kWarps; w++)
        sum += local[w * 4 * LM_HIST_BINS + i];
      if (sum != 0)
        atomicAdd (&bins[i], sum);
    }
}

} // namespace

extern "C" cudaError_t
lm_k_view_histogram (const LmViewSource *src, const LmLut3d *lut, uint32_t *bins, cudaStream_t stream)
{
  LM_CUDA_TRY (cudaMemsetAsync (bins, 0, 4 * LM_HIST_BINS * sizeof (uint32_t), stream));
  if (src->width <= 0 || src->height <= 0)
    return cudaSuccess;
  // About eight blocks per multiprocessor, as kernels/histogram.cu.
  int device = 0, sms = 132;
  LM_CUDA_TRY (cudaGetDevice (&device));
  LM_CUDA_TRY (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device));
  unsigned height = (unsigned) src->height;
  unsigned blocks = (unsigned) sms * 8 < height ? (unsigned) sms * 8 : height;
  unsigned rows_per_block = lm_div_up (height, blocks);
  blocks = lm_div_up (height, rows_per_block);
  LmLut3d none = { nullptr, 0 };
  seen_histogram_kernel<<<blocks, kThreads, 0, stream>>> (*src, lut ? *lut : none, lut != nullptr,
                                                          rows_per_block, bins);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
