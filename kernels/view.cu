// The view resampler on the GPU: one thread per view pixel, the same operations in the same
// order as core/view.c (built with --fmad=false like it is with -ffp-contract=off).
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
  double sx = rect.rw / rect.out_w, sy = rect.rh / rect.out_h;
  int bpp = gray ? 1 : 4;
  int x0, x1, y0, y1;
  float wx0, wx1, wy0, wy1;
  lm_view_span (rect.ry, sy, j, (int) height, &y0, &y1, &wy0, &wy1);
  lm_view_span (rect.rx, sx, i, (int) width, &x0, &x1, &wx0, &wx1);
  float acc[3] = { 0.0f, 0.0f, 0.0f }, wsum_x = 0.0f, wsum_y = 0.0f;
  for (int y = y0; y <= y1; y++)
    {
      float wy = y == y0 ? wy0 : (y == y1 ? wy1 : 1.0f);
      const uint8_t *row = src + (size_t) y * stride;
      float line[3] = { 0.0f, 0.0f, 0.0f };
      wsum_x = 0.0f;
      for (int x = x0; x <= x1; x++)
        {
          float wx = x == x0 ? wx0 : (x == x1 ? wx1 : 1.0f);
          const uint8_t *p = row + x * bpp;
          for (int c = 0; c < 3; c++)
            line[c] = line[c] + wx * (float) p[gray ? 0 : c];
          wsum_x = wsum_x + wx;
        }
      for (int c = 0; c < 3; c++)
        acc[c] = acc[c] + wy * line[c];
      wsum_y = wsum_y + wy;
    }
  float norm = wsum_x * wsum_y;
  reinterpret_cast<uint32_t *> (reinterpret_cast<uint8_t *> (out) + (size_t) j * out_stride)[i] =
    lm_cairo_rgb24 (lm_quantize_u8 (acc[0] / norm), lm_quantize_u8 (acc[1] / norm), lm_quantize_u8 (acc[2] / norm));
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
