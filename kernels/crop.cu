// Crop on the GPU: one 2-D device-to-device copy of the rectangle core/ops/crop-math.h
// computes on the host, so the bytes are the CPU's.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

static cudaError_t
crop_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
             cudaStream_t stream)
{
  // A tile (tile-math.h) reads its input from its own place; DST has the tile's size.
  unsigned ox, oy;
  lm_crop_offset (static_cast<const LmCropParams *> (params), src->width, src->height, &ox, &oy);
  size_t bpp = lm_k_bytes_per_pixel (src->format);
  const uint8_t *from = static_cast<const uint8_t *> (src->data) + (size_t) oy * src->stride + (size_t) ox * bpp;
  return cudaMemcpy2DAsync (dst->data, dst->stride, from, src->stride, (size_t) dst->width * bpp, dst->height,
                            cudaMemcpyDeviceToDevice, stream);
}

/* A copy: no scratch. */
extern "C" const LmKOp lm_k_crop_op = { NULL, NULL, crop_launch };
