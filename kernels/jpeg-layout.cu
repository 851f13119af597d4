// Between nvJPEG's pixel layout (interleaved RGB, 3 bytes a pixel) and Lumen's (RGBA8, rows on
// 64-byte boundaries), on the device, so that decoded exposures go to the merge and tone-mapped
// results to the encoder without a trip through host memory; and the few pixels that the
// response's calibration samples, gathered for the host.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;

// Grid-stride over rows and pixels: any height, not only the 65,535 rows a grid's y allows.
__global__ void __launch_bounds__ (kThreads)
rgb_to_rgba (const uint8_t *rgb, size_t rgb_pitch, uint8_t *rgba, size_t rgba_stride, unsigned width, unsigned height)
{
  for (unsigned y = blockIdx.y; y < height; y += gridDim.y)
    {
      const uint8_t *s = rgb + (size_t) y * rgb_pitch;
      uint32_t *o = reinterpret_cast<uint32_t *> (rgba + (size_t) y * rgba_stride);
      for (unsigned x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += gridDim.x * blockDim.x)
        o[x] = s[3 * x] | (uint32_t) s[3 * x + 1] << 8 | (uint32_t) s[3 * x + 2] << 16 | 0xff000000u;
    }
}

__global__ void __launch_bounds__ (kThreads)
rgba_to_rgb (const uint8_t *rgba, size_t rgba_stride, uint8_t *rgb, size_t rgb_pitch, unsigned width, unsigned height)
{
  for (unsigned y = blockIdx.y; y < height; y += gridDim.y)
    {
      const uint32_t *s = reinterpret_cast<const uint32_t *> (rgba + (size_t) y * rgba_stride);
      uint8_t *o = rgb + (size_t) y * rgb_pitch;
      for (unsigned x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += gridDim.x * blockDim.x)
        {
          uint32_t p = s[x];
          o[3 * x] = p & 0xff;
          o[3 * x + 1] = (p >> 8) & 0xff;
          o[3 * x + 2] = (p >> 16) & 0xff;
        }
    }
}

// A 16-bit result's samples to JPEG's 8 bits as the CPU's writer rounds them
// (core/io/depth.c: lm_quantize_u8 (v / 257)).
__global__ void __launch_bounds__ (kThreads)
rgba16_to_rgb (const uint8_t *rgba, size_t rgba_stride, uint8_t *rgb, size_t rgb_pitch, unsigned width, unsigned height)
{
  for (unsigned y = blockIdx.y; y < height; y += gridDim.y)
    {
      const ushort4 *s = reinterpret_cast<const ushort4 *> (rgba + (size_t) y * rgba_stride);
      uint8_t *o = rgb + (size_t) y * rgb_pitch;
      for (unsigned x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += gridDim.x * blockDim.x)
        {
          ushort4 p = s[x];
          o[3 * x] = lm_quantize_u8 ((float) p.x / 257.0f);
          o[3 * x + 1] = lm_quantize_u8 ((float) p.y / 257.0f);
          o[3 * x + 2] = lm_quantize_u8 ((float) p.z / 257.0f);
        }
    }
}

__global__ void
gather (const uint8_t *image, size_t stride, const unsigned *xy, unsigned n, uint32_t *out)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = reinterpret_cast<const uint32_t *> (image + (size_t) xy[2 * i + 1] * stride)[xy[2 * i]];
}

dim3
rows_grid (unsigned width, unsigned height)
{
  return dim3 (lm_div_up (width, kThreads), height < 65535u ? height : 65535u);
}

} // namespace

extern "C" cudaError_t
lm_k_rgb_to_rgba8 (const uint8_t *rgb, size_t rgb_pitch, const LmKImage *out, cudaStream_t stream)
{
  if (out->format != LM_K_RGBA8 || rgb_pitch < 3 * (size_t) out->width)
    return cudaErrorInvalidValue;
  rgb_to_rgba<<<rows_grid (out->width, out->height), kThreads, 0, stream>>> (
      rgb, rgb_pitch, static_cast<uint8_t *> (out->data), out->stride, out->width, out->height);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_rgba8_to_rgb (const LmKImage *in, uint8_t *rgb, size_t rgb_pitch, cudaStream_t stream)
{
  if ((in->format != LM_K_RGBA8 && in->format != LM_K_RGBA16) || rgb_pitch < 3 * (size_t) in->width)
    return cudaErrorInvalidValue;
  if (in->format == LM_K_RGBA16)
    {
      rgba16_to_rgb<<<rows_grid (in->width, in->height), kThreads, 0, stream>>> (
          static_cast<const uint8_t *> (in->data), in->stride, rgb, rgb_pitch, in->width, in->height);
      LM_CUDA_LAUNCHED ();
      return cudaSuccess;
    }
  rgba_to_rgb<<<rows_grid (in->width, in->height), kThreads, 0, stream>>> (
      static_cast<const uint8_t *> (in->data), in->stride, rgb, rgb_pitch, in->width, in->height);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_gather_words (const LmKImage *image, const unsigned *xy, unsigned n, uint32_t *out, cudaStream_t stream)
{
  if (image->format != LM_K_RGBA8)
    return cudaErrorInvalidValue;
  if (n == 0)
    return cudaSuccess;
  gather<<<lm_div_up (n, kThreads), kThreads, 0, stream>>> (static_cast<const uint8_t *> (image->data),
                                                            image->stride, xy, n, out);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
