// Resize on the GPU: the two passes of core/ops/resize-math.h. The host builds both axes'
// weight tables (the CPU reference's own function) and copies them into the scratch beside
// the float intermediate; each thread then makes one output sample of a pass, running the
// span's weighted sum in the reference's order.
#include <stdlib.h>

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 128;

size_t
align256 (size_t n)
{
  return (n + 255) & ~(size_t) 255;
}

// Where each part lies in the scratch, and how large the tables are.
struct Layout {
  unsigned ow, oh, tw, th;
  int channels, vfirst;
  LmResizeAxis xa, ya; // the whole image's axes and the pixels computed (a tile's, or all)
  size_t tmp, xspans, yspans, xweights, yweights, total; // byte offsets; total: the size
  size_t xcap, ycap;                                      // weights of each axis (at most)
};

Layout
layout_of (const LmResizeParams *p, const LmKImage *src)
{
  Layout l;
  if (lm_tile_frame_active (&p->tile))
    l.ow = p->tile.out_w, l.oh = p->tile.out_h;
  else
    lm_resize_size (p, src->width, src->height, &l.ow, &l.oh);
  lm_resize_axes (p, src->width, src->height, l.ow, l.oh, &l.xa, &l.ya);
  l.channels = src->format == LM_K_GRAY8 || src->format == LM_K_GRAY16 ? 1 : 4;
  l.vfirst = lm_resize_vertical_first (l.xa.in, l.ya.in, l.xa.out, l.ya.out);
  l.tw = l.vfirst ? src->width : l.ow;
  l.th = l.vfirst ? l.oh : src->height;
  l.xcap = lm_resize_axis_capacity (l.xa.in, l.xa.out);
  l.ycap = lm_resize_axis_capacity (l.ya.in, l.ya.out);
  l.tmp = 0;
  l.xspans = align256 ((size_t) l.tw * l.th * l.channels * sizeof (float));
  l.yspans = l.xspans + align256 (l.ow * sizeof (LmResizeSpan));
  l.xweights = l.yspans + align256 (l.oh * sizeof (LmResizeSpan));
  l.yweights = l.xweights + align256 (l.xcap * sizeof (float));
  l.total = l.yweights + align256 (l.ycap * sizeof (float));
  return l;
}

// First pass: 8-bit source to the float intermediate (TW × TH). Vertical first: output row
// y of the intermediate sums source rows down each column; else source row y along x.
template <int C, int Deep>
__global__ void
first_pass (const uint8_t *src, size_t src_stride, unsigned w, unsigned h, float *tmp, unsigned tw, unsigned th,
            int vfirst,
            const LmResizeSpan *spans, const float *weights)
{
  for (unsigned y = blockIdx.y; y < th; y += gridDim.y)
  {
  float *trow = tmp + (size_t) y * tw * C;
  for (unsigned x = blockIdx.x * blockDim.x + threadIdx.x; x < tw; x += gridDim.x * blockDim.x)
    {
      float acc[4];
      if (Deep && vfirst)
        lm_resize_sum_u16 (src + (size_t) x * C * 2, src_stride, (int) h, spans[y], weights, C, acc);
      else if (Deep)
        lm_resize_sum_u16 (src + (size_t) y * src_stride, C * 2, (int) w, spans[x], weights, C, acc);
      else if (vfirst)
        lm_resize_sum_u8 (src + (size_t) x * C, src_stride, (int) h, spans[y], weights, C, acc);
      else
        lm_resize_sum_u8 (src + (size_t) y * src_stride, C, (int) w, spans[x], weights, C, acc);
      for (int c = 0; c < C; c++)
        trow[(size_t) x * C + c] = acc[c];
    }
  }
}

// Second pass: the other axis from the intermediate to the 8-bit output (OW × OH).
template <int C, int Deep>
__global__ void
second_pass (const float *tmp, unsigned tw, unsigned th, uint8_t *dst, size_t dst_stride, unsigned ow, unsigned oh,
             int vfirst, const LmResizeSpan *spans, const float *weights)
{
  for (unsigned y = blockIdx.y; y < oh; y += gridDim.y)
  {
  uint8_t *out = dst + (size_t) y * dst_stride;
  size_t tstride = (size_t) tw * C;
  for (unsigned x = blockIdx.x * blockDim.x + threadIdx.x; x < ow; x += gridDim.x * blockDim.x)
    {
      float acc[4];
      if (vfirst)
        lm_resize_sum_f32 (tmp + (size_t) y * tstride, C, (int) tw, spans[x], weights, C, acc);
      else
        lm_resize_sum_f32 (tmp + (size_t) x * C, tstride, (int) th, spans[y], weights, C, acc);
      for (int c = 0; c < C; c++)
        if (Deep)
          reinterpret_cast<uint16_t *> (out)[(size_t) x * C + c] = lm_quantize_u16 (acc[c]);
        else
          out[(size_t) x * C + c] = lm_quantize_u8 (acc[c]);
    }
  }
}

template <int C, int Deep>
void
launch_passes (const LmKImage *src, const LmKImage *dst, const Layout &l, uint8_t *s, cudaStream_t stream)
{
  float *tmp = reinterpret_cast<float *> (s + l.tmp);
  const LmResizeSpan *xs = reinterpret_cast<const LmResizeSpan *> (s + l.xspans);
  const LmResizeSpan *ys = reinterpret_cast<const LmResizeSpan *> (s + l.yspans);
  const float *xw = reinterpret_cast<const float *> (s + l.xweights);
  const float *yw = reinterpret_cast<const float *> (s + l.yweights);
  // Rows by grid-stride loops: any height (a grid's y is at most 65535).
  dim3 grid1 (lm_div_up (l.tw, kThreads), l.th < 65535u ? l.th : 65535u);
  first_pass<C, Deep><<<grid1, kThreads, 0, stream>>> (static_cast<const uint8_t *> (src->data), src->stride, src->width,
                                                 src->height, tmp, l.tw, l.th, l.vfirst, l.vfirst ? ys : xs,
                                                 l.vfirst ? yw : xw);
  dim3 grid2 (lm_div_up (l.ow, kThreads), l.oh < 65535u ? l.oh : 65535u);
  second_pass<C, Deep><<<grid2, kThreads, 0, stream>>> (tmp, l.tw, l.th, static_cast<uint8_t *> (dst->data), dst->stride,
                                                  l.ow, l.oh, l.vfirst, l.vfirst ? xs : ys, l.vfirst ? xw : yw);
}

} // namespace

static size_t
resize_workspace (const void *params, const LmKImage *src)
{
  return layout_of (static_cast<const LmResizeParams *> (params), src).total;
}

/* Copies N bytes of host memory at FROM to the device at TO. From pageable memory the call
 * returns once the bytes are staged, so FROM may be freed at once; the stream orders the
 * copy after the kernels before it. */
static cudaError_t
upload (void *to, const void *from, size_t n, cudaStream_t stream)
{
  return cudaMemcpyAsync (to, from, n, cudaMemcpyHostToDevice, stream);
}

static cudaError_t
resize_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
               cudaStream_t stream)
{
  const LmResizeParams *p = static_cast<const LmResizeParams *> (params);
  int deep = src->format == LM_K_RGBA16 || src->format == LM_K_GRAY16;
  if (src->format != LM_K_GRAY8 && src->format != LM_K_RGBA8 && !deep)
    return cudaErrorInvalidValue;
  Layout l = layout_of (p, src);
  if (scratch->size < l.total || l.ow != dst->width || l.oh != dst->height)
    return cudaErrorInvalidValue;

  // Both axes' tables, built on the host as the CPU reference builds them.
  LmResizeSpan *xs = static_cast<LmResizeSpan *> (malloc (l.ow * sizeof (LmResizeSpan)));
  LmResizeSpan *ys = static_cast<LmResizeSpan *> (malloc (l.oh * sizeof (LmResizeSpan)));
  float *xw = static_cast<float *> (malloc (l.xcap * sizeof (float)));
  float *yw = static_cast<float *> (malloc (l.ycap * sizeof (float)));
  cudaError_t err = cudaErrorMemoryAllocation;
  if (xs && ys && xw && yw)
    {
      size_t nx = lm_resize_axis_table_part (l.xa.in, l.xa.out, l.xa.first, l.xa.count, l.xa.origin, xs, xw);
      size_t ny = lm_resize_axis_table_part (l.ya.in, l.ya.out, l.ya.first, l.ya.count, l.ya.origin, ys, yw);
      uint8_t *s = static_cast<uint8_t *> (scratch->data);
      err = upload (s + l.xspans, xs, l.ow * sizeof (LmResizeSpan), stream);
      if (err == cudaSuccess)
        err = upload (s + l.yspans, ys, l.oh * sizeof (LmResizeSpan), stream);
      if (err == cudaSuccess)
        err = upload (s + l.xweights, xw, nx * sizeof (float), stream);
      if (err == cudaSuccess)
        err = upload (s + l.yweights, yw, ny * sizeof (float), stream);
      if (err == cudaSuccess)
        {
          if (l.channels == 1)
            deep ? launch_passes<1, 1> (src, dst, l, s, stream) : launch_passes<1, 0> (src, dst, l, s, stream);
          else
            deep ? launch_passes<4, 1> (src, dst, l, s, stream) : launch_passes<4, 0> (src, dst, l, s, stream);
          err = cudaGetLastError ();
        }
    }
  free (xs);
  free (ys);
  free (xw);
  free (yw);
  return err;
}

/* The intermediate and the tables: what these parameters need (an export resizes once, so
 * nothing is reserved ahead for other sizes). */
extern "C" const LmKOp lm_k_resize_op = { resize_workspace, NULL, resize_launch };
