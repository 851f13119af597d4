// Histograms on the GPU: each warp counts into its own shared-memory bins (privatized, so
// that threads rarely collide), each block adds its bins to the global ones once; integer
// atomics make the result exact and independent of the launch shape. Threads read 16 bytes
// at a time.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kWarps = kThreads / 32;

__device__ inline void
count_gray (uint32_t *bins, uint32_t word)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    atomicAdd (&bins[(word >> (8 * i)) & 0xff], 1u);
}

__device__ inline void
count_rgba (uint32_t *bins, uint32_t p, int want)
{
  if (want & 1)
    {
      atomicAdd (&bins[0 * LM_HIST_BINS + (p & 0xff)], 1u);
      atomicAdd (&bins[1 * LM_HIST_BINS + ((p >> 8) & 0xff)], 1u);
      atomicAdd (&bins[2 * LM_HIST_BINS + ((p >> 16) & 0xff)], 1u);
    }
  if (want & 2)
    atomicAdd (&bins[3 * LM_HIST_BINS + lm_luma_u8 (p)], 1u);
}

// Rows y0 … y1 of the image; gray images use only the luma bins.
__global__ void
histogram_kernel (const uint8_t *src, size_t stride, unsigned width, unsigned height,
                  unsigned rows_per_block, int format, int want, uint32_t *bins)
{
  extern __shared__ uint32_t local[]; // kWarps × channels × 256
  int channels = format == LM_K_GRAY8 ? 1 : 4;
  for (unsigned i = threadIdx.x; i < kWarps * channels * LM_HIST_BINS; i += blockDim.x)
    local[i] = 0;
  __syncthreads ();

  uint32_t *mine = local + (threadIdx.x / 32) * channels * LM_HIST_BINS;
  unsigned y0 = blockIdx.x * rows_per_block, y1 = min (y0 + rows_per_block, height);
  size_t bytes = (size_t) width * (unsigned) channels; // 2³² at 2³⁰ RGBA pixels a row
  for (unsigned y = y0; y < y1; y++)
    {
      const uint8_t *row = src + (size_t) y * stride;
      unsigned full = (unsigned) (bytes / 16);
      for (unsigned v = threadIdx.x; v < full; v += blockDim.x)
        {
          uint4 q = reinterpret_cast<const uint4 *> (row)[v];
          if (channels == 1)
            count_gray (mine, q.x), count_gray (mine, q.y), count_gray (mine, q.z), count_gray (mine, q.w);
          else
            count_rgba (mine, q.x, want), count_rgba (mine, q.y, want), count_rgba (mine, q.z, want),
              count_rgba (mine, q.w, want);
        }
      for (size_t b = (size_t) full * 16 + threadIdx.x * channels; b < bytes; b += blockDim.x * channels)
        {
          if (channels == 1)
            atomicAdd (&mine[row[b]], 1u);
          else
            count_rgba (mine, *reinterpret_cast<const uint32_t *> (row + b), want);
        }
    }
  __syncthreads ();

  // Gray counts belong in the luma bins (3).
  int first = channels == 1 ? 3 : 0;
  for (unsigned i = threadIdx.x; i < (unsigned) channels * LM_HIST_BINS; i += blockDim.x)
    {
      uint32_t sum = 0;
      for (unsigned w = 0; w < kWarps; w++)
        sum += local[w * channels * LM_HIST_BINS + i];
      if (sum != 0)
        atomicAdd (&bins[first * LM_HIST_BINS + i], sum);
    }
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

// 16-bit sources into the 256 bins (lm_u16_bin8, lm_luma_u8_of16): one set of shared bins a
// block, a pixel a thread.
__global__ void
histogram16_kernel (const uint8_t *src, size_t stride, unsigned width, unsigned height, unsigned rows_per_block,
                    int format, int want, uint32_t *bins)
{
  __shared__ uint32_t local[4 * LM_HIST_BINS];
  for (unsigned i = threadIdx.x; i < 4 * LM_HIST_BINS; i += blockDim.x)
    local[i] = 0;
  __syncthreads ();
  unsigned y0 = blockIdx.x * rows_per_block, y1 = min (y0 + rows_per_block, height);
  for (unsigned y = y0; y < y1; y++)
    {
      const uint8_t *row = src + (size_t) y * stride;
      for (unsigned x = threadIdx.x; x < width; x += blockDim.x)
        {
          if (format == LM_K_GRAY16)
            {
              atomicAdd (&local[3 * LM_HIST_BINS + lm_u16_bin8 (reinterpret_cast<const uint16_t *> (row)[x])], 1u);
              continue;
            }
          unsigned long long p = reinterpret_cast<const unsigned long long *> (row)[x];
          if (want & 1)
            for (int c = 0; c < 3; c++)
              atomicAdd (&local[c * LM_HIST_BINS + lm_u16_bin8 ((p >> (16 * c)) & 0xffff)], 1u);
          if (want & 2)
            atomicAdd (&local[3 * LM_HIST_BINS + lm_luma_u8_of16 (p)], 1u);
        }
    }
  __syncthreads ();
  for (unsigned i = threadIdx.x; i < 4 * LM_HIST_BINS; i += blockDim.x)
    if (local[i] != 0)
      atomicAdd (&bins[i], local[i]);
}

// 16-bit equalize's 65536 bins a channel: too many for shared memory, counted in global
// memory (integer atomics: exact whatever the order).
__global__ void
histogram65536_kernel (const uint8_t *src, size_t stride, unsigned width, unsigned height, int format, int want,
                       uint32_t *bins)
{
  size_t n = (size_t) width * height;
  for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      size_t y = i / width, x = i % width;
      const uint8_t *row = src + y * stride;
      if (format == LM_K_GRAY16)
        {
          atomicAdd (&bins[3 * LM_HIST16_BINS + reinterpret_cast<const uint16_t *> (row)[x]], 1u);
          continue;
        }
      unsigned long long p = reinterpret_cast<const unsigned long long *> (row)[x];
      if (want & 1)
        for (int c = 0; c < 3; c++)
          atomicAdd (&bins[c * LM_HIST16_BINS + ((p >> (16 * c)) & 0xffff)], 1u);
      if (want & 2)
        atomicAdd (&bins[3 * LM_HIST16_BINS + lm_luma_u16 (p)], 1u);
    }
}

unsigned
blocks_for (size_t items)
{
  size_t blocks = (items + kThreads - 1) / kThreads;
  return blocks < 4096 ? (unsigned) (blocks ? blocks : 1) : 4096u;
}

} // namespace

extern "C" cudaError_t
lm_k_histogram16 (const LmKImage *src, int want, uint32_t *bins, cudaStream_t stream)
{
  LM_CUDA_TRY (cudaMemsetAsync (bins, 0, 4 * LM_HIST16_BINS * sizeof (uint32_t), stream));
  if (src->width == 0 || src->height == 0)
    return cudaSuccess;
  histogram65536_kernel<<<blocks_for ((size_t) src->width * src->height), kThreads, 0, stream>>> (
    static_cast<const uint8_t *> (src->data), src->stride, src->width, src->height, src->format, want, bins);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_histogram (const LmKImage *src, int want, uint32_t *bins, cudaStream_t stream)
{
  LM_CUDA_TRY (cudaMemsetAsync (bins, 0, 4 * LM_HIST_BINS * sizeof (uint32_t), stream));
  if (src->format == LM_K_RGBA16 || src->format == LM_K_GRAY16)
    {
      unsigned blocks = src->height < 1024 ? src->height : 1024;
      unsigned rows_per_block = lm_div_up (src->height, blocks ? blocks : 1);
      blocks = rows_per_block ? lm_div_up (src->height, rows_per_block) : 0;
      if (blocks == 0)
        return cudaSuccess;
      histogram16_kernel<<<blocks, kThreads, 0, stream>>> (static_cast<const uint8_t *> (src->data), src->stride,
                                                          src->width, src->height, rows_per_block, src->format,
                                                          want, bins);
      LM_CUDA_LAUNCHED ();
      if (src->format == LM_K_GRAY16)
        {
          copy_gray_bins<<<1, LM_HIST_BINS, 0, stream>>> (bins);
          LM_CUDA_LAUNCHED ();
        }
      return cudaSuccess;
    }
  // About eight blocks per multiprocessor: enough to fill the GPU, few global merges.
  int device = 0, sms = 132;
  LM_CUDA_TRY (cudaGetDevice (&device));
  LM_CUDA_TRY (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device));
  unsigned blocks = (unsigned) sms * 8 < src->height ? (unsigned) sms * 8 : src->height;
  unsigned rows_per_block = lm_div_up (src->height, blocks);
  blocks = lm_div_up (src->height, rows_per_block);
  int channels = src->format == LM_K_GRAY8 ? 1 : 4;
  size_t shared = kWarps * channels * LM_HIST_BINS * sizeof (uint32_t);
  histogram_kernel<<<blocks, kThreads, shared, stream>>> (static_cast<const uint8_t *> (src->data),
                                                          src->stride, src->width, src->height,
                                                          rows_per_block, src->format, want, bins);
  LM_CUDA_LAUNCHED ();
  if (src->format == LM_K_GRAY8)
    {
      copy_gray_bins<<<1, LM_HIST_BINS, 0, stream>>> (bins);
      LM_CUDA_LAUNCHED ();
    }
  return cudaSuccess;
}
