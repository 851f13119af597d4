// The view resampler on the GPU: one thread per view pixel, lm_view_pixel_seen as on the CPU
// (core/ops/view-math.h, built with --fmad=false as the CPU side is with
// -ffp-contract=off; the LUT's sampling is integer arithmetic).
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/grid-rows.cuh"

namespace {

constexpr unsigned kThreads = 128;

__global__ void
view_kernel (LmViewSource src, LmViewRect rect, LmLut3d lut, int has_lut, uint32_t *out,
             size_t out_stride)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rect.out_w)
    return;
  LM_FOR_ROWS (j, rect.out_h)
    reinterpret_cast<uint32_t *> (reinterpret_cast<uint8_t *> (out) + j * out_stride)[i] =
      lm_view_pixel_seen (&src, &rect, has_lut ? &lut : nullptr, i, (int) j);
}

} // namespace

extern "C" cudaError_t
lm_k_view (const LmViewSource *src, const LmViewRect *rect, const LmLut3d *lut, const LmKImage *out,
           cudaStream_t stream)
{
  dim3 grid = lm_rows_grid (lm_div_up (rect->out_w, kThreads), rect->out_h);
  LmLut3d none = { nullptr, 0 };
  view_kernel<<<grid, kThreads, 0, stream>>> (*src, *rect, lut ? *lut : none, lut != nullptr,
                                              static_cast<uint32_t *> (out->data), out->stride);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
