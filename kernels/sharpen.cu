// Sharpen on the GPU: the unsharp mask of core/ops/sharpen-math.h, bit-identical to the CPU's
// (the same float operations in the same order, no FMA contraction).
//
// Two passes through a float plane in the scratch: sharpen_rows makes each pixel's luminance
// from the source on the fly and sums the Gaussian along its row; sharpen_cols sums the plane
// down the columns, makes the centre's luminance again and writes the sharpened pixel.
// The Gaussian's weights follow the plane in the scratch: each launch reads its own, so two
// backends' streams sharpening at once with different radii cannot see each other's.
#include <string.h>

#include "kernels/cuda-check.h"
#include "kernels/grid-rows.cuh"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 128;

// Y of pixel X of ROW (FORMAT), as sharpen.c's luma_row.
__device__ inline float
luma_at (const uint8_t *row, unsigned x, int format, LmSharpenLuma l)
{
  switch (format)
    {
    case LM_K_RGBA8:
      {
        uchar4 p = reinterpret_cast<const uchar4 *> (row)[x];
        return lm_weighted_sum ((float) p.x, (float) p.y, (float) p.z, l.r, l.g, l.b);
      }
    case LM_K_RGBA16:
      {
        ushort4 p = reinterpret_cast<const ushort4 *> (row)[x];
        return lm_weighted_sum (lm_u16_value (p.x), lm_u16_value (p.y), lm_u16_value (p.z), l.r, l.g, l.b);
      }
    case LM_K_GRAY16:
      return lm_u16_value (reinterpret_cast<const uint16_t *> (row)[x]);
    default:
      return (float) row[x];
    }
}

__global__ void
sharpen_rows (const uint8_t *src, size_t src_stride, int format, float *plane, size_t pitch, unsigned width,
              unsigned height, const float *__restrict__ w, int radius, LmSharpenLuma l)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      const uint8_t *row = src + y * src_stride;
      float acc = w[0] * luma_at (row, x, format, l);
      for (int j = 1; j <= radius; j++)
        {
          float a = luma_at (row, (unsigned) lm_reflect101 ((int) x - j, (int) width), format, l);
          float b = luma_at (row, (unsigned) lm_reflect101 ((int) x + j, (int) width), format, l);
          acc += w[j] * (a + b);
        }
      plane[y * pitch + x] = acc;
    }
}

__global__ void
sharpen_cols (const uint8_t *src, size_t src_stride, int format, const float *plane, size_t pitch, uint8_t *dst,
              size_t dst_stride, unsigned width, unsigned height, const float *__restrict__ w, int radius,
              LmSharpenLuma l, float amount, float threshold)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      float b = w[0] * plane[y * pitch + x];
      for (int j = 1; j <= radius; j++)
        {
          size_t up = (size_t) lm_reflect101 ((int) y - j, (int) height);
          size_t down = (size_t) lm_reflect101 ((int) y + j, (int) height);
          b += w[j] * (plane[up * pitch + x] + plane[down * pitch + x]);
        }
      const uint8_t *in = src + y * src_stride;
      uint8_t *out = dst + y * dst_stride;
      float v = luma_at (in, x, format, l);
      float d = lm_sharpen_detail (v, b, threshold);
      switch (format)
        {
        case LM_K_RGBA8:
          {
            uchar4 p = reinterpret_cast<const uchar4 *> (in)[x];
            reinterpret_cast<uchar4 *> (out)[x]
              = make_uchar4 (lm_quantize_u8 (lm_sharpen_channel ((float) p.x, amount, d)),
                             lm_quantize_u8 (lm_sharpen_channel ((float) p.y, amount, d)),
                             lm_quantize_u8 (lm_sharpen_channel ((float) p.z, amount, d)), p.w);
          }
          break;
        case LM_K_RGBA16:
          {
            ushort4 p = reinterpret_cast<const ushort4 *> (in)[x];
            reinterpret_cast<ushort4 *> (out)[x]
              = make_ushort4 (lm_quantize_u16 (lm_sharpen_channel (lm_u16_value (p.x), amount, d)),
                              lm_quantize_u16 (lm_sharpen_channel (lm_u16_value (p.y), amount, d)),
                              lm_quantize_u16 (lm_sharpen_channel (lm_u16_value (p.z), amount, d)), p.w);
          }
          break;
        case LM_K_GRAY16:
          reinterpret_cast<uint16_t *> (out)[x] = lm_quantize_u16 (lm_sharpen_channel (v, amount, d));
          break;
        default:
          out[x] = lm_quantize_u8 (lm_sharpen_channel (v, amount, d));
          break;
        }
    }
}

// The plane's row pitch in floats: rows start on 128-byte boundaries.
size_t
plane_pitch (unsigned width)
{
  return ((size_t) width + 31) / 32 * 32;
}

// Bytes of the plane, a multiple of 128: the weights after it are aligned.
size_t
plane_bytes (const LmKImage *src)
{
  return plane_pitch (src->width) * src->height * sizeof (float);
}

// Room for the weights of the largest radius, so that any parameters need the same bytes.
constexpr size_t kWeightsBytes = (LM_BLUR_RADIUS_MAX + 1) * sizeof (float);

} // namespace

static size_t
sharpen_workspace (const void *params, const LmKImage *src)
{
  if (!lm_sharpen_active (static_cast<const LmSharpenParams *> (params)))
    return 0;
  return plane_bytes (src) + kWeightsBytes;
}

/* Any parameters need the same plane and room for weights, or none. */
static size_t
sharpen_workspace_max (const LmKImage *src)
{
  return plane_bytes (src) + kWeightsBytes;
}

static cudaError_t
sharpen_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
                cudaStream_t stream)
{
  const LmSharpenParams *p = static_cast<const LmSharpenParams *> (params);
  if (src->format != LM_K_RGBA8 && src->format != LM_K_RGBA16 && src->format != LM_K_GRAY8
      && src->format != LM_K_GRAY16)
    return cudaErrorInvalidValue;
  if (!lm_sharpen_active (p))
    return cudaMemcpy2DAsync (dst->data, dst->stride, src->data, src->stride,
                              (size_t) src->width * lm_k_bytes_per_pixel (src->format), src->height,
                              cudaMemcpyDeviceToDevice, stream);
  if (scratch->size < sharpen_workspace (p, src))
    return cudaErrorInvalidValue;

  int radius = lm_sharpen_radius (p);
  float w[LM_BLUR_RADIUS_MAX + 1];
  lm_blur_weights (p->radius, radius, w);
  float *plane = static_cast<float *> (scratch->data);
  float *weights = reinterpret_cast<float *> (static_cast<uint8_t *> (scratch->data) + plane_bytes (src));
  // From pageable memory: staged before the call returns (W can go), and ordered on STREAM
  // after the previous launch's kernels, which read the scratch's last weights.
  LM_CUDA_TRY (cudaMemcpyAsync (weights, w, sizeof (float) * (radius + 1), cudaMemcpyHostToDevice, stream));

  LmSharpenLuma l = lm_sharpen_luma (p);
  size_t pitch = plane_pitch (src->width);
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  dim3 grid = lm_rows_grid (lm_div_up (src->width, kThreads), src->height);
  sharpen_rows<<<grid, kThreads, 0, stream>>> (in, src->stride, src->format, plane, pitch, src->width, src->height,
                                               weights, radius, l);
  LM_CUDA_LAUNCHED ();
  sharpen_cols<<<grid, kThreads, 0, stream>>> (in, src->stride, src->format, plane, pitch,
                                               static_cast<uint8_t *> (dst->data), dst->stride, src->width,
                                               src->height, weights, radius, l, p->amount, p->threshold);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" const LmKOp lm_k_sharpen_op = { sharpen_workspace, sharpen_workspace_max, sharpen_launch };
