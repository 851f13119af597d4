// Radiance RGBE on the GPU: core/ops/rgbe-math.h on every pixel, so that a batch writing .hdr
// downloads 4 bytes a pixel instead of 16 and the host only run-length encodes. Built with
// --fmad=false like the other kernels: the bytes equal the CPU writer's (tests/gpu parity).
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/grid-rows.cuh"
#include "core/ops/rgbe-math.h"

namespace {

constexpr unsigned kThreads = 256;

// One pixel a thread: a 16-byte load and a 4-byte store, both coalesced across the warp.
__global__ void __launch_bounds__ (kThreads)
rgbe_encode (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned width,
             unsigned height)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      float4 p = __ldg (reinterpret_cast<const float4 *> (src + y * src_stride) + x);
      reinterpret_cast<uint32_t *> (dst + y * dst_stride)[x] = lm_rgbe_encode (p.x, p.y, p.z);
    }
}

} // namespace

extern "C" cudaError_t
lm_k_rgbe_encode (const LmKImage *radiance, const LmKImage *out, cudaStream_t stream)
{
  if (radiance->format != LM_K_RGBA_F32 || out->format != LM_K_RGBE8 || radiance->width != out->width
      || radiance->height != out->height)
    return cudaErrorInvalidValue;
  dim3 grid = lm_rows_grid (lm_div_up (radiance->width, kThreads), radiance->height);
  rgbe_encode<<<grid, kThreads, 0, stream>>> (static_cast<const uint8_t *> (radiance->data), radiance->stride,
                                              static_cast<uint8_t *> (out->data), out->stride, radiance->width,
                                              radiance->height);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
