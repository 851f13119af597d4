// Resize on the GPU: the two passes of core/ops/resize-math.h.
//
// Both axes' tables are computed on the device, one thread a pixel with the reference's own
// function (lm_resize_axis_entry), a fixed number of weights apart: built on the host they
// took longer than the resize (a sine per tap) and travelled as four uploads.
//
// 8-bit images shrunk by exactly 2 or 4 on both axes take integer sums (resize-whole.cu).
// Other 8-bit images shrunk by area averaging by up to 3 are summed straight from the
// source, a thread an output pixel: each source byte is read about once, and the few sums
// are cheaper than staging it. Lanczos on both axes goes by resize-taps.cu's strips, whose
// sums run a fixed number of taps. Other 8-bit resizes go by tiles of 32 × 16 output
// pixels: a block copies the source pixels its spans reach into shared memory as floats,
// sums them along the first axis into an intermediate there, then along the second into the
// output. The intermediate never goes to device memory (it was 288 MB of float for a 24 MP
// photo at 0.75×), and each source byte is converted once. The sums are the reference's,
// term by term and in its order, so the bytes are the CPU's wherever the weights are (the
// device's sine may differ from the host's in the last bit of a double). 16-bit images, and
// shrinks too steep for a tile's box to fit, take the two passes through a float
// intermediate in device memory. A tile's shared memory stays within what the device lets a
// block ask for (kernels/shared-optin.h).
#include <climits>
#include <stdlib.h>

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/resize-sums.cuh"
#include "kernels/resize-taps.h"
#include "kernels/resize-whole.h"
#include "kernels/shared-optin.h"

namespace {

constexpr unsigned kThreads = 128;
constexpr unsigned kTileW = 32, kTileH = 16; // the tiled kernel's output pixels a block
constexpr size_t kTileSmemMax = 96 * 1024;   // what a tile's source box and intermediate may take

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
  unsigned xstride, ystride;                              // weights a pixel in each table
  size_t tmp, xspans, yspans, xweights, yweights, total; // byte offsets; total: the size
  bool direct;                                            // 8-bit, short spans: straight from the source
  bool tiled;                                             // 8-bit by tiles (no intermediate)
  bool taps;                                              // 8-bit Lanczos: by resize-taps.cu's tiles
  LmResizeTapsPlan taps_plan;
  unsigned box_cap, mid_cap;                              // a tile's source box and intermediate
  size_t smem;                                            // the tiled kernel's shared memory
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
  l.xstride = lm_resize_axis_stride (l.xa.in, l.xa.out);
  l.ystride = lm_resize_axis_stride (l.ya.in, l.ya.out);
  // In 64 bits: a steep shrink's box (65535 to 1) overflows 32.
  size_t bw = tile_reach (l.xa.in, l.xa.out, kTileW), bh = tile_reach (l.ya.in, l.ya.out, kTileH);
  size_t box = bw * bh, mid = l.vfirst ? kTileH * bw : bh * kTileW;
  l.smem = (box + mid) * l.channels * sizeof (float)
           + ((size_t) kTileW * l.xstride + kTileH * l.ystride) * sizeof (float);
  l.box_cap = (unsigned) (box < UINT_MAX ? box : UINT_MAX);
  l.mid_cap = (unsigned) (mid < UINT_MAX ? mid : UINT_MAX);
  bool bytes = src->format == LM_K_GRAY8 || src->format == LM_K_RGBA8;
  // Within the device's opt-in limit (48 KiB, what every device allows, if it cannot be asked).
  size_t optin;
  if (lm_k_shared_optin (&optin) != cudaSuccess)
    optin = 48 * 1024;
  // Area averaging by up to 3 on both axes: at most 4 × 4 terms a pixel.
  l.direct = bytes && lm_resize_axis_area (l.xa.in, l.xa.out) && lm_resize_axis_area (l.ya.in, l.ya.out)
             && l.xa.in <= 3.0 * l.xa.out && l.ya.in <= 3.0 * l.ya.out;
  l.taps = bytes && !l.direct && lm_k_resize_taps_plan (&l.xa, &l.ya, l.channels, l.vfirst, optin, &l.taps_plan);
  l.tiled = bytes && !l.direct && !l.taps && l.smem <= kTileSmemMax && l.smem <= optin;
  l.tmp = 0;
  l.xspans = l.tiled || l.direct || l.taps ? 0 : align256 ((size_t) l.tw * l.th * l.channels * sizeof (float));
  l.yspans = l.xspans + align256 (l.ow * sizeof (LmResizeSpan));
  l.xweights = l.yspans + align256 (l.oh * sizeof (LmResizeSpan));
  l.yweights = l.xweights + align256 ((size_t) l.ow * l.xstride * sizeof (float));
  l.total = l.yweights + align256 ((size_t) l.oh * l.ystride * sizeof (float));
  return l;
}

// Both axes' tables in one launch, the first BLOCKS_X blocks the horizontal axis's: each
// thread's sines take microseconds, so two launches one after the other took twice as long.
// Output pixel FIRST + i's span at SPANS[i], its weights STRIDE apart.
__global__ void
axis_tables (unsigned blocks_x, LmResizeAxis xa, unsigned xstride, LmResizeSpan *xspans, float *xweights,
             LmResizeAxis ya, unsigned ystride, LmResizeSpan *yspans, float *yweights)
{
  bool across = blockIdx.x < blocks_x;
  const LmResizeAxis &a = across ? xa : ya;
  unsigned stride = across ? xstride : ystride;
  unsigned i = (blockIdx.x - (across ? 0 : blocks_x)) * blockDim.x + threadIdx.x;
  if (i >= a.count)
    return;
  float *weights = across ? xweights : yweights;
  LmResizeSpan span = lm_resize_axis_entry (a.in, a.out, a.first + i, a.origin, weights + (size_t) i * stride);
  // Zeros past the span's own weights: resize-taps.cu reads a fixed number of them.
  for (uint32_t k = span.count; k < stride; k++)
    weights[(size_t) i * stride + k] = 0.0f;
  span.offset = i * stride;
  (across ? xspans : yspans)[i] = span;
}

// 8-bit sources whose spans are short (area averaging by up to 3): a thread an output pixel,
// summed straight from the source. Each source pixel is read by about one output pixel, so
// staging it in shared memory only costs: the sums are few, the bytes are what counts.
template <int C, bool VFirst>
__global__ void __launch_bounds__ (kTileW * 8)
resize_direct (const uint8_t *src, size_t src_stride, unsigned w, unsigned h, uint8_t *dst, size_t dst_stride,
               unsigned ow, unsigned oh, const LmResizeSpan *xs, const float *xw, const LmResizeSpan *ys,
               const float *yw)
{
  unsigned x = blockIdx.x * kTileW + threadIdx.x % kTileW, y = blockIdx.y * 8 + threadIdx.x / kTileW;
  if (x >= ow || y >= oh)
    return;
  float acc[C];
  direct_sum<C, VFirst> (src, src_stride, w, h, xs[x], xw, ys[y], yw, acc);
  lm_store_px<C> (dst + (size_t) y * dst_stride, x, acc);
}

// 8-bit sources (C channels): the tile of output pixels at (blockIdx.x, blockIdx.y) × 32 × 16.
// Shared memory holds the source box the tile's spans reach (BOX_CAP pixels at most, as
// floats) and the intermediate (MID_CAP entries): the first axis's sums at the tile's
// output pixels of that axis, for every source line of the other axis in the box.
template <int C, bool VFirst>
__global__ void __launch_bounds__ (kTileW * kTileH)
resize_tiles (const uint8_t *src, size_t src_stride, unsigned w, unsigned h, uint8_t *dst, size_t dst_stride,
              unsigned ow, unsigned oh, const LmResizeSpan *xs, const float *xw, const LmResizeSpan *ys,
              const float *yw, unsigned xstride, unsigned ystride, unsigned box_cap, unsigned mid_cap)
{
  extern __shared__ float4 smem4[];
  LmFloatPx<C> *box = reinterpret_cast<LmFloatPx<C> *> (smem4);
  Acc<C> *mid = reinterpret_cast<Acc<C> *> (box + box_cap);
  float *sxw = reinterpret_cast<float *> (mid + mid_cap), *syw = sxw + kTileW * xstride;
  __shared__ int bounds[4]; // the box: first column, first row, last column, last row
  __shared__ LmResizeSpan sxs[kTileW], sys[kTileH];
  unsigned x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
  unsigned tx = ow - x0 < kTileW ? ow - x0 : kTileW, ty = oh - y0 < kTileH ? oh - y0 : kTileH;
  if (threadIdx.x == 0)
    bounds[0] = bounds[1] = INT_MAX, bounds[2] = bounds[3] = INT_MIN;
  __syncthreads ();
  if (threadIdx.x < tx)
    {
      LmResizeSpan sp = xs[x0 + threadIdx.x];
      atomicMin (&bounds[0], sp.start), atomicMax (&bounds[2], sp.start + (int) sp.count - 1);
    }
  else if (threadIdx.x >= kTileW && threadIdx.x - kTileW < ty)
    {
      LmResizeSpan sp = ys[y0 + threadIdx.x - kTileW];
      atomicMin (&bounds[1], sp.start), atomicMax (&bounds[3], sp.start + (int) sp.count - 1);
    }
  __syncthreads ();
  int bx = bounds[0], by = bounds[1], bw = bounds[2] - bx + 1, bh = bounds[3] - by + 1;
  unsigned r = threadIdx.x / kTileW, c = threadIdx.x % kTileW; // this thread's output pixel
  bool mine = r < ty && c < tx;
  uint8_t *out = dst + (size_t) (y0 + r) * dst_stride;
  if (bw <= 0 || bh <= 0 || (unsigned) (bw * bh) > box_cap
      || (unsigned) (VFirst ? kTileH * bw : bh * kTileW) > mid_cap)
    {
      // A box larger than planned: each pixel sums the source itself, the same terms.
      if (!mine)
        return;
      float acc[C];
      direct_sum<C, VFirst> (src, src_stride, w, h, xs[x0 + c], xw, ys[y0 + r], yw, acc);
      lm_store_px<C> (out, x0 + c, acc);
      return;
    }
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  stage_box<C> (box, src, src_stride, w, h, bx, by, bw, bh);
  // The tile's spans with their weights, kept beside the box (read once a tap).
  for (unsigned k = threadIdx.x; k < tx * xstride; k += blockDim.x)
    {
      LmResizeSpan sp = xs[x0 + k / xstride];
      if (k % xstride < sp.count)
        sxw[k] = xw[sp.offset + k % xstride];
    }
  for (unsigned k = threadIdx.x; k < ty * ystride; k += blockDim.x)
    {
      LmResizeSpan sp = ys[y0 + k / ystride];
      if (k % ystride < sp.count)
        syw[k] = yw[sp.offset + k % ystride];
    }
  if (threadIdx.x < tx)
    sxs[threadIdx.x] = LmResizeSpan { xs[x0 + threadIdx.x].start, xs[x0 + threadIdx.x].count, threadIdx.x * xstride };
  else if (threadIdx.x >= kTileW && threadIdx.x - kTileW < ty)
    {
      unsigned e = threadIdx.x - kTileW;
      sys[e] = LmResizeSpan { ys[y0 + e].start, ys[y0 + e].count, e * ystride };
    }
  __syncthreads ();
  // The first axis: VFIRST, columns down the box at the tile's output rows (TY × BW);
  // otherwise rows of the box at the tile's output columns (BH × TX, kTileW apart).
  if (VFirst)
    for (unsigned er = warp; er < ty; er += warps)
      for (int ec = lane; ec < bw; ec += 32)
        {
          Acc<C> a;
          span_sum<C> (sys[er], syw, [&] (int y) { return box[(y - by) * bw + ec]; }, a.v);
          mid[er * bw + ec] = a;
        }
  else if (lane < tx)
    for (int er = warp; er < bh; er += warps)
      {
        Acc<C> a;
        span_sum<C> (sxs[lane], sxw, [&] (int x) { return box[er * bw + x - bx]; }, a.v);
        mid[er * kTileW + lane] = a;
      }
  __syncthreads ();
  if (!mine)
    return;
  float acc[C];
  if (VFirst)
    span_sum<C> (sxs[c], sxw, [&] (int x) { return mid[r * bw + x - bx]; }, acc);
  else
    span_sum<C> (sys[r], syw, [&] (int y) { return mid[(y - by) * kTileW + c]; }, acc);
  lm_store_px<C> (out, x0 + c, acc);
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

template <int C, bool VFirst>
cudaError_t
launch_tiles (const LmKImage *src, const LmKImage *dst, const Layout &l, uint8_t *s, cudaStream_t stream)
{
  auto kernel = resize_tiles<C, VFirst>;
  // Above 48 KiB a kernel's shared memory must be asked for, on each device it runs on.
  LM_CUDA_TRY (cudaFuncSetAttribute (kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) l.smem));
  dim3 tiles (lm_div_up (l.ow, kTileW), lm_div_up (l.oh, kTileH));
  kernel<<<tiles, kTileW * kTileH, l.smem, stream>>> (
    static_cast<const uint8_t *> (src->data), src->stride, src->width, src->height, static_cast<uint8_t *> (dst->data),
    dst->stride, l.ow, l.oh, reinterpret_cast<const LmResizeSpan *> (s + l.xspans),
    reinterpret_cast<const float *> (s + l.xweights), reinterpret_cast<const LmResizeSpan *> (s + l.yspans),
    reinterpret_cast<const float *> (s + l.yweights), l.xstride, l.ystride, l.box_cap, l.mid_cap);
  return cudaGetLastError ();
}

} // namespace

static size_t
resize_workspace (const void *params, const LmKImage *src)
{
  return layout_of (static_cast<const LmResizeParams *> (params), src).total;
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
  uint8_t *s = static_cast<uint8_t *> (scratch->data);

  // Shrinks by 2 or 4 on both axes: integer sums, no tables (resize-whole.cu).
  unsigned kx = lm_resize_axis_whole_factor (l.xa.in, l.xa.out), ky = lm_resize_axis_whole_factor (l.ya.in, l.ya.out);
  int64_t sx0 = (int64_t) l.xa.first * kx - l.xa.origin, sy0 = (int64_t) l.ya.first * ky - l.ya.origin;
  if (kx && ky && sx0 >= 0 && sy0 >= 0 && sx0 <= UINT_MAX && sy0 <= UINT_MAX
      && lm_k_resize_whole_usable (src, dst, kx, ky, (unsigned) sx0, (unsigned) sy0))
    return lm_k_resize_whole (src, dst, kx, ky, (unsigned) sx0, (unsigned) sy0, stream);

  // Both axes' tables, on the device.
  unsigned blocks_x = (unsigned) lm_div_up (l.xa.count, kThreads);
  axis_tables<<<blocks_x + (unsigned) lm_div_up (l.ya.count, kThreads), kThreads, 0, stream>>> (
    blocks_x, l.xa, l.xstride, reinterpret_cast<LmResizeSpan *> (s + l.xspans),
    reinterpret_cast<float *> (s + l.xweights), l.ya, l.ystride, reinterpret_cast<LmResizeSpan *> (s + l.yspans),
    reinterpret_cast<float *> (s + l.yweights));
  LM_CUDA_LAUNCHED ();
  const LmResizeSpan *xs = reinterpret_cast<const LmResizeSpan *> (s + l.xspans);
  const LmResizeSpan *ys = reinterpret_cast<const LmResizeSpan *> (s + l.yspans);
  const float *xw = reinterpret_cast<const float *> (s + l.xweights);
  const float *yw = reinterpret_cast<const float *> (s + l.yweights);

  if (l.direct)
    {
      dim3 grid (lm_div_up (l.ow, kTileW), lm_div_up (l.oh, 8));
      auto launch = [&] (auto kernel) {
        kernel<<<grid, kTileW * 8, 0, stream>>> (static_cast<const uint8_t *> (src->data), src->stride, src->width,
                                                 src->height, static_cast<uint8_t *> (dst->data), dst->stride, l.ow,
                                                 l.oh, xs, xw, ys, yw);
      };
      if (l.channels == 1)
        l.vfirst ? launch (resize_direct<1, true>) : launch (resize_direct<1, false>);
      else
        l.vfirst ? launch (resize_direct<4, true>) : launch (resize_direct<4, false>);
      return cudaGetLastError ();
    }
  if (l.taps)
    return lm_k_resize_taps (src, dst, &l.taps_plan, l.vfirst, xs, xw, ys, yw, stream);
  if (l.tiled)
    {
      if (l.channels == 1)
        return l.vfirst ? launch_tiles<1, true> (src, dst, l, s, stream) : launch_tiles<1, false> (src, dst, l, s, stream);
      return l.vfirst ? launch_tiles<4, true> (src, dst, l, s, stream) : launch_tiles<4, false> (src, dst, l, s, stream);
    }
  if (l.channels == 1)
    deep ? launch_passes<1, 1> (src, dst, l, s, stream) : launch_passes<1, 0> (src, dst, l, s, stream);
  else
    deep ? launch_passes<4, 1> (src, dst, l, s, stream) : launch_passes<4, 0> (src, dst, l, s, stream);
  return cudaGetLastError ();
}

/* The tables and, for the two passes, the intermediate: what these parameters need (an
 * export resizes once, so nothing is reserved ahead for other sizes). */
extern "C" const LmKOp lm_k_resize_op = { resize_workspace, NULL, resize_launch };
