// The view resampler on the GPU: one thread per view pixel, lm_view_pixel as on the CPU
// (built with --fmad=false as the CPU side is with -ffp-contract=off).
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 128;

__global__ void
view_kernel (const uint8_t *src, size_t stride, unsigned width, unsigned height, int gray,
             LmViewRect rect, uint32_t *out, size_t out_stride)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
  if (i >= rect.out_w)
    return;
  reinterpret_cast<uint32_t *> (reinterpret_cast<uint8_t *> (out) + (size_t) j * out_stride)[i] =
    lm_view_pixel (src, stride, gray ? 1 : 4, (int) width, (int) height, &rect, i, j);
}

} // namespace

extern "C" cudaError_t
lm_k_view (const LmKImage *src, const LmViewRect *rect, const LmKImage *out, cudaStream_t stream)
{
  dim3 grid (lm_div_up (rect->out_w, kThreads), rect->out_h);
  view_kernel<<<grid, kThreads, 0, stream>>> (static_cast<const uint8_t *> (src->data), src->stride,
                                              src->width, src->height, src->format == LM_K_GRAY8,
                                              *rect, static_cast<uint32_t *> (out->data), out->stride);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
