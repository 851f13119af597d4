// Straighten on the GPU: one thread per output pixel, the bicubic sample of
// core/ops/straighten-math.h at its inverse image. Neighbouring threads read neighbouring
// source pixels (a small turn keeps rows nearly rows), which the caches serve.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 128;

// Rows by a grid-stride loop (any height: no grid row per image row), 64-bit offsets; a
// tile's pixels are its place in the whole output (OX, OY) plus (I, J).
template <int Gray>
__global__ void
straighten (const uint8_t *src, size_t src_stride, LmStraightenSource s, uint8_t *dst, size_t dst_stride,
            unsigned out_w, unsigned out_h, unsigned ox, unsigned oy, LmStraightenMap m)
{
  for (unsigned j = blockIdx.y; j < out_h; j += gridDim.y)
    {
      uint8_t *out = dst + (size_t) j * dst_stride;
      for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < out_w; i += gridDim.x * blockDim.x)
        {
          float sx = lm_straighten_src_x (&m, ox + i, oy + j), sy = lm_straighten_src_y (&m, ox + i, oy + j);
          if (Gray)
            out[i] = lm_straighten_gray (src, src_stride, &s, sx, sy);
          else
            reinterpret_cast<uint32_t *> (out)[i] = lm_straighten_rgba (src, src_stride, &s, sx, sy);
        }
    }
}

// 16-bit sources, CH channels (4 or 1).
__global__ void
straighten16 (const uint8_t *src, size_t src_stride, LmStraightenSource s, int ch, uint8_t *dst, size_t dst_stride,
              unsigned out_w, unsigned out_h, unsigned ox, unsigned oy, LmStraightenMap m)
{
  for (unsigned j = blockIdx.y; j < out_h; j += gridDim.y)
    {
      uint16_t *out = reinterpret_cast<uint16_t *> (dst + (size_t) j * dst_stride);
      for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < out_w; i += gridDim.x * blockDim.x)
        lm_straighten16 (src, src_stride, &s, ch, lm_straighten_src_x (&m, ox + i, oy + j),
                         lm_straighten_src_y (&m, ox + i, oy + j), out + (size_t) i * ch);
    }
}

} // namespace

static cudaError_t
straighten_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
                   cudaStream_t stream)
{
  const LmStraightenParams *p = static_cast<const LmStraightenParams *> (params);
  int deep = src->format == LM_K_RGBA16 || src->format == LM_K_GRAY16;
  if (src->format != LM_K_GRAY8 && src->format != LM_K_RGBA8 && !deep)
    return cudaErrorInvalidValue;
  LmStraightenSource s;
  unsigned ox, oy;
  LmStraightenMap m = lm_straighten_setup (p, src->width, src->height, dst->width, dst->height, &s, &ox, &oy);
  dim3 grid (lm_div_up (dst->width, kThreads) < 65535u ? lm_div_up (dst->width, kThreads) : 65535u,
             dst->height < 65535u ? dst->height : 65535u);
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  if (deep)
    straighten16<<<grid, kThreads, 0, stream>>> (in, src->stride, s, src->format == LM_K_GRAY16 ? 1 : 4, out,
                                                 dst->stride, dst->width, dst->height, ox, oy, m);
  else if (src->format == LM_K_GRAY8)
    straighten<1><<<grid, kThreads, 0, stream>>> (in, src->stride, s, out, dst->stride, dst->width, dst->height,
                                                  ox, oy, m);
  else
    straighten<0><<<grid, kThreads, 0, stream>>> (in, src->stride, s, out, dst->stride, dst->width, dst->height,
                                                  ox, oy, m);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

/* Reads the source directly: no scratch. */
extern "C" const LmKOp lm_k_straighten_op = { NULL, NULL, straighten_launch };
