// The display stretch of float data on the GPU: core/astro/stretch-math.h's level of each
// value, then the curve's byte from the table the host made (the same table the CPU reads),
// so that the view is byte for byte the CPU's. One pixel a thread: the map is bound by the
// float read and the word written.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/grid-rows.cuh"
#include "core/astro/stretch-math.h"

namespace {

constexpr unsigned kThreads = 256;

__global__ void
astro_stretch (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned width,
               unsigned height, float low, float inv_range, const uint8_t *__restrict__ table, int flip)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      float v = reinterpret_cast<const float *> (src + y * src_stride)[x];
      uint32_t g = __ldg (table + lm_stretch_level (v, low, inv_range));
      size_t out_row = flip ? (size_t) height - 1 - y : y;
      reinterpret_cast<uint32_t *> (dst + out_row * dst_stride)[x] = g | g << 8 | g << 16 | 0xFF000000u;
    }
}

} // namespace

extern "C" cudaError_t
lm_k_astro_stretch (const LmKImage *in, float low, float inv_range, const uint8_t *table, int flip,
                    const LmKImage *out, cudaStream_t stream)
{
  if (in->format != LM_K_GRAY_F32 || out->format != LM_K_RGBA8 || in->width != out->width
      || in->height != out->height)
    return cudaErrorInvalidValue;
  if (in->width == 0 || in->height == 0)
    return cudaSuccess;
  astro_stretch<<<lm_rows_grid (lm_div_up (in->width, kThreads), in->height), kThreads, 0, stream>>> (
    static_cast<const uint8_t *> (in->data), in->stride, static_cast<uint8_t *> (out->data), out->stride,
    in->width, in->height, low, inv_range, table, flip);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
