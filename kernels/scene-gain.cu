// Scene light scaled per channel on the device (core/ops/scene-gain-math.h): the exposure and
// white balance of a scene-referred source, folded into one gain per channel.
#include "cuda-check.h"
#include "kernels.h"
#include "core/ops/scene-gain-math.h"

namespace {

struct Gain {
  float g[3];
};

__global__ void
gain_kernel (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, int width, int height,
             Gain gain)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float4 v = reinterpret_cast<const float4 *> (src + (size_t) y * src_stride)[x];
  float in[4] = { v.x, v.y, v.z, v.w }, out[4];
  lm_scene_gain_pixel (gain.g, in, out);
  reinterpret_cast<float4 *> (dst + (size_t) y * dst_stride)[x] = make_float4 (out[0], out[1], out[2], out[3]);
}

} // namespace

extern "C" cudaError_t
lm_k_scene_gain (const float gain[3], const LmKImage *in, const LmKImage *out, cudaStream_t stream)
{
  if (in->width == 0 || in->height == 0)
    return cudaSuccess;
  Gain g = { { gain[0], gain[1], gain[2] } };
  dim3 block (32, 8);
  dim3 grid ((in->width + block.x - 1) / block.x, (in->height + block.y - 1) / block.y);
  gain_kernel<<<grid, block, 0, stream>>> (static_cast<const uint8_t *> (in->data), in->stride,
                                           static_cast<uint8_t *> (out->data), out->stride, (int) in->width,
                                           (int) in->height, g);
  return cudaGetLastError ();
}
