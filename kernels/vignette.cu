// Vignette on the GPU: the gain of core/ops/vignette-math.h at each pixel, with the host's
// tables (the gain's steps, each channel's decoding and rounding points) in the scratch, so
// that the bits are the CPU's. One thread a pixel; the tables stay in L1 and L2.
#include <string.h>

#include "kernels/cuda-check.h"
#include "kernels/grid-rows.cuh"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 128;

// Scratch: the gain's steps, then for each of R, G and B its decoding and rounding points of
// N + 1 floats each (lm_vignette_curve).
size_t
tables_floats (unsigned n)
{
  return (LM_VIGNETTE_GAIN_STEPS + 1) + 6 * ((size_t) n + 1);
}

unsigned
codes_of (int format)
{
  return format == LM_K_RGBA16 || format == LM_K_GRAY16 ? 65535u : 255u;
}

template <typename S, int C>
__global__ void
vignette_kernel (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned width,
                 unsigned height, LmVignetteShape shape, const float *tables, unsigned n)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  const float *gain = tables, *curves = tables + LM_VIGNETTE_GAIN_STEPS + 1;
  size_t size = (size_t) n + 1;
  LM_FOR_ROWS (y, height)
    {
      const S *in = reinterpret_cast<const S *> (src + y * src_stride) + (size_t) x * C;
      S *out = reinterpret_cast<S *> (dst + y * dst_stride) + (size_t) x * C;
      float g = lm_vignette_gain (&shape, gain, shape.ox + x, shape.oy + (unsigned) y);
      if constexpr (C == 1)
        {
          const float *decode = curves + 2 * size, *up = decode + size; // green's
          out[0] = (S) lm_vignette_encode (up, n, decode[in[0]] * g);
        }
      else
        {
          for (int c = 0; c < 3; c++)
            {
              const float *decode = curves + 2 * c * size, *up = decode + size;
              out[c] = (S) lm_vignette_encode (up, n, decode[in[c]] * g);
            }
          out[3] = in[3];
        }
    }
}

} // namespace

static size_t
vignette_workspace (const void *params, const LmKImage *src)
{
  if (static_cast<const LmVignetteParams *> (params)->amount == 0.0f)
    return 0;
  return tables_floats (codes_of (src->format)) * sizeof (float);
}

/* Any amount but 0 needs the tables of SRC's depth. */
static size_t
vignette_workspace_max (const LmKImage *src)
{
  return tables_floats (codes_of (src->format)) * sizeof (float);
}

static cudaError_t
vignette_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
                 cudaStream_t stream)
{
  const LmVignetteParams *p = static_cast<const LmVignetteParams *> (params);
  int format = src->format;
  if (format != LM_K_RGBA8 && format != LM_K_RGBA16 && format != LM_K_GRAY8 && format != LM_K_GRAY16)
    return cudaErrorInvalidValue;
  size_t bpp = format == LM_K_GRAY8 ? 1 : format == LM_K_GRAY16 ? 2 : format == LM_K_RGBA16 ? 8 : 4;
  if (p->amount == 0.0f)
    return cudaMemcpy2DAsync (dst->data, dst->stride, src->data, src->stride, (size_t) src->width * bpp,
                              src->height, cudaMemcpyDeviceToDevice, stream);
  if (scratch->size < vignette_workspace (p, src))
    return cudaErrorInvalidValue;

  unsigned n = codes_of (format);
  size_t floats = tables_floats (n), size = (size_t) n + 1;
  float *host = static_cast<float *> (malloc (floats * sizeof (float)));
  if (host == NULL)
    return cudaErrorMemoryAllocation;
  lm_vignette_gains (p, host);
  float *curves = host + LM_VIGNETTE_GAIN_STEPS + 1;
  for (int c = 0; c < 3; c++)
    {
      if (c > 0 && p->color.space == NULL) // sRGB: one curve for all, as vignette.c
        memcpy (curves + 2 * c * size, curves, 2 * size * sizeof (float));
      else
        lm_vignette_curve (&p->color, c, n, curves + 2 * c * size, curves + (2 * c + 1) * size);
    }
  // From pageable memory: staged before the call returns, so HOST can go at once.
  cudaError_t err = cudaMemcpyAsync (scratch->data, host, floats * sizeof (float), cudaMemcpyHostToDevice, stream);
  free (host);
  LM_CUDA_TRY (err);

  LmVignetteShape shape = lm_vignette_shape (p, src->width, src->height);
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  const float *tables = static_cast<const float *> (scratch->data);
  dim3 grid = lm_rows_grid (lm_div_up (src->width, kThreads), src->height);
  switch (format)
    {
    case LM_K_RGBA8:
      vignette_kernel<uint8_t, 4><<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride, src->width,
                                                                  src->height, shape, tables, n);
      break;
    case LM_K_RGBA16:
      vignette_kernel<uint16_t, 4><<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride, src->width,
                                                                   src->height, shape, tables, n);
      break;
    case LM_K_GRAY16:
      vignette_kernel<uint16_t, 1><<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride, src->width,
                                                                   src->height, shape, tables, n);
      break;
    default:
      vignette_kernel<uint8_t, 1><<<grid, kThreads, 0, stream>>> (in, src->stride, out, dst->stride, src->width,
                                                                  src->height, shape, tables, n);
      break;
    }
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" const LmKOp lm_k_vignette_op = { vignette_workspace, vignette_workspace_max, vignette_launch };
