// Histogram equalization on the GPU, without a round trip to the host: histogram kernel,
// then the lookup tables built on the device by the same code as the CPU's
// (lm_equalize_lut), then the mapping.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;

// One thread per channel: 256 steps each, negligible next to the image passes.
__global__ void
build_luts (const uint32_t *bins, uint64_t total, uint8_t *luts)
{
  unsigned c = threadIdx.x;
  lm_equalize_lut (bins + c * LM_HIST_BINS, total, luts + c * LM_HIST_BINS);
}

__global__ void
apply_gray (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
            unsigned width, const uint8_t *luts, float amount)
{
  __shared__ uint8_t lut[LM_HIST_BINS];
  for (unsigned i = threadIdx.x; i < LM_HIST_BINS; i += blockDim.x)
    lut[i] = luts[3 * LM_HIST_BINS + i];
  __syncthreads ();
  unsigned y = blockIdx.y;
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  uint8_t v = src[y * src_stride + x];
  dst[y * dst_stride + x] = lm_equalize_channel (v, lut[v], amount);
}

__global__ void
apply_rgba (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
            unsigned width, const uint8_t *luts, int luma, float amount)
{
  __shared__ uint8_t lut[4 * LM_HIST_BINS];
  for (unsigned i = threadIdx.x; i < 4 * LM_HIST_BINS; i += blockDim.x)
    lut[i] = luts[i];
  __syncthreads ();
  unsigned y = blockIdx.y;
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  uint32_t p = reinterpret_cast<const uint32_t *> (src + y * src_stride)[x];
  uint32_t out;
  if (luma)
    {
      uint8_t l = lm_luma_u8 (p);
      out = lm_equalize_shift_rgba (p, lm_equalize_luma_shift (l, lut[3 * LM_HIST_BINS + l], amount));
    }
  else
    {
      uint8_t r = p & 0xff, g = (p >> 8) & 0xff, b = (p >> 16) & 0xff;
      out = lm_px_pack (lm_equalize_channel (r, lut[r], amount),
                        lm_equalize_channel (g, lut[LM_HIST_BINS + g], amount),
                        lm_equalize_channel (b, lut[2 * LM_HIST_BINS + b], amount), p);
    }
  reinterpret_cast<uint32_t *> (dst + y * dst_stride)[x] = out;
}

} // namespace

extern "C" cudaError_t
lm_k_equalize (const LmEqualizeParams *p, const LmKImage *src, const LmKImage *dst,
               const LmKWorkspace *ws, cudaStream_t stream)
{
  int gray = src->format == LM_K_GRAY8;
  int luma = gray || p->mode == LM_EQUALIZE_LUMA;
  LM_CUDA_TRY (lm_k_histogram (src, luma ? 2 : 1, ws->bins, stream));
  build_luts<<<1, 4, 0, stream>>> (ws->bins, (uint64_t) src->width * src->height, ws->luts);
  LM_CUDA_LAUNCHED ();

  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  dim3 grid (lm_div_up (src->width, kThreads), src->height);
  if (gray)
    apply_gray<<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride, src->width,
                                               ws->luts, p->amount);
  else
    apply_rgba<<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride, src->width,
                                               ws->luts, luma, p->amount);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
