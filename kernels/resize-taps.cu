// Lanczos-3 on both axes by tiles whose sums run a fixed number of taps.
//
// A span of an axis resampled by Lanczos-3 has at most 2 ⌈3 f⌉ taps (f the shrink factor,
// at least 1; lm_resize_axis_entry keeps the taps strictly inside a window of radius 3 f),
// so every sum here runs T = 2 ⌈3 f⌉ taps, unrolled, each thread's weights held in
// registers, where resize.cu's generic tiles loop over each span's own count and read its
// weights from shared memory a tap at a time. A span's taps past its own count weigh 0:
// adding 0 × a finite value leaves a float sum as it was, so the sums are the reference's,
// term by term. The source box reaches the T-th tap of every span, the pixels past the
// image's edge repeated as the reference's clamp repeats them: every value read is finite.
//
// A block of 512 threads computes 32 × TileH output pixels: it copies its box into shared
// memory as floats, sums it along the first axis into an intermediate there, then along the
// second into the output (as resize.cu's tiles). Taller tiles recompute fewer first-axis
// sums for the rows their neighbours share: 32 rows where the box and intermediate fit
// twice in a Hopper multiprocessor's shared memory (and within the device's limit), else 16.
#include "kernels/cuda-check.h"
#include "kernels/resize-sums.cuh"
#include "kernels/resize-taps.h"

namespace {

constexpr unsigned kTileW = 32, kWarps = 16, kThreads = kTileW * kWarps;
constexpr size_t kSmemMax = 112 * 1024; // two blocks a multiprocessor of 228 KiB (Hopper)

// The T weights of SPAN from WEIGHTS, the ones past its count 0.
template <int T>
__device__ __forceinline__ void
load_weights (LmResizeSpan span, const float *weights, float (&w)[T])
{
#pragma unroll
  for (int t = 0; t < T; t++)
    w[t] = (uint32_t) t < span.count ? weights[span.offset + t] : 0.0f;
}

// Σ W[t] × P (t) over the T taps in order, from 0 (lm_resize_sum_*'s terms and order).
template <int C, int T, typename Px>
__device__ __forceinline__ Acc<C>
taps_sum (const float (&w)[T], Px p)
{
  Acc<C> a;
#pragma unroll
  for (int c = 0; c < C; c++)
    a.v[c] = 0.0f;
#pragma unroll
  for (int t = 0; t < T; t++)
    {
      auto v = p (t);
#pragma unroll
      for (int c = 0; c < C; c++)
        a.v[c] = a.v[c] + w[t] * v[c];
    }
  return a;
}

// 512 threads a block, each computing TileH / 16 output pixels down a column; two blocks a
// multiprocessor (their shared memory's plan), so up to 64 registers a thread.
template <int C, bool VFirst, int T, unsigned TileH>
__global__ void __launch_bounds__ (kThreads, 2)
resize_taps (const uint8_t *src, size_t src_stride, unsigned w, unsigned h, uint8_t *dst, size_t dst_stride,
             unsigned ow, unsigned oh, const LmResizeSpan *xs, const float *xw, const LmResizeSpan *ys,
             const float *yw, unsigned box_cap, unsigned mid_cap)
{
  extern __shared__ float4 smem4[];
  LmFloatPx<C> *box = reinterpret_cast<LmFloatPx<C> *> (smem4);
  Acc<C> *mid = reinterpret_cast<Acc<C> *> (box + box_cap);
  __shared__ int bounds[4]; // the box: first column, first row, last column, last row
  __shared__ int longer;    // a span with more than T taps (none should have): no box
  __shared__ int xstart[kTileW], ystart[TileH];
  unsigned x0 = blockIdx.x * kTileW, y0 = blockIdx.y * TileH;
  unsigned tx = ow - x0 < kTileW ? ow - x0 : kTileW, ty = oh - y0 < TileH ? oh - y0 : TileH;
  unsigned warp = threadIdx.x / kTileW, c = threadIdx.x % kTileW; // c: this thread's output column
  if (threadIdx.x == 0)
    bounds[0] = bounds[1] = INT_MAX, bounds[2] = bounds[3] = INT_MIN, longer = 0;
  __syncthreads ();
  if (threadIdx.x < tx)
    {
      LmResizeSpan sp = xs[x0 + threadIdx.x];
      xstart[threadIdx.x] = sp.start;
      atomicMin (&bounds[0], sp.start), atomicMax (&bounds[2], sp.start + T - 1);
      if (sp.count > (uint32_t) T)
        longer = 1;
    }
  else if (threadIdx.x >= kTileW && threadIdx.x - kTileW < ty)
    {
      unsigned e = threadIdx.x - kTileW;
      LmResizeSpan sp = ys[y0 + e];
      ystart[e] = sp.start;
      atomicMin (&bounds[1], sp.start), atomicMax (&bounds[3], sp.start + T - 1);
      if (sp.count > (uint32_t) T)
        longer = 1;
    }
  __syncthreads ();
  int bx = bounds[0], by = bounds[1], bw = bounds[2] - bx + 1, bh = bounds[3] - by + 1;
  if (longer || (size_t) bw * bh > box_cap || (size_t) (VFirst ? TileH : kTileW) * (VFirst ? bw : bh) > mid_cap)
    {
      // Not as planned: each pixel sums the source itself, the same terms.
      for (unsigned r = warp; c < tx && r < ty; r += kWarps)
        {
          float acc[C];
          direct_sum<C, VFirst> (src, src_stride, w, h, xs[x0 + c], xw, ys[y0 + r], yw, acc);
          lm_store_px<C> (dst + (size_t) (y0 + r) * dst_stride, x0 + c, acc);
        }
      return;
    }
  stage_box<C> (box, src, src_stride, w, h, bx, by, bw, bh);
  __syncthreads ();
  float wt[T];
  if (VFirst)
    {
      // Down the box's columns at the tile's output rows, a warp a row.
      for (unsigned r = warp; r < ty; r += kWarps)
        {
          load_weights<T> (ys[y0 + r], yw, wt);
          const LmFloatPx<C> *top = box + (ystart[r] - by) * bw;
          for (int ec = c; ec < bw; ec += kTileW)
            mid[r * bw + ec] = taps_sum<C, T> (wt, [&] (int t) { return top[t * bw + ec]; });
        }
      __syncthreads ();
      if (c >= tx)
        return;
      load_weights<T> (xs[x0 + c], xw, wt);
      for (unsigned r = warp; r < ty; r += kWarps)
        {
          const Acc<C> *left = mid + r * bw + (xstart[c] - bx);
          Acc<C> a = taps_sum<C, T> (wt, [&] (int t) { return left[t]; });
          lm_store_px<C> (dst + (size_t) (y0 + r) * dst_stride, x0 + c, a.v);
        }
      return;
    }
  // Along the box's rows at the lanes' output columns, a warp every 16th row.
  if (c < tx)
    {
      load_weights<T> (xs[x0 + c], xw, wt);
      const LmFloatPx<C> *left = box + (xstart[c] - bx);
      for (int er = warp; er < bh; er += kWarps)
        mid[er * kTileW + c] = taps_sum<C, T> (wt, [&] (int t) { return left[er * bw + t]; });
    }
  __syncthreads ();
  if (c >= tx)
    return;
  for (unsigned r = warp; r < ty; r += kWarps)
    {
      load_weights<T> (ys[y0 + r], yw, wt);
      const Acc<C> *top = mid + (ystart[r] - by) * kTileW + c;
      Acc<C> a = taps_sum<C, T> (wt, [&] (int t) { return top[t * kTileW]; });
      lm_store_px<C> (dst + (size_t) (y0 + r) * dst_stride, x0 + c, a.v);
    }
}

// The most source pixels the T-tap spans of N neighbouring output pixels reach along an axis
// from IN to OUT pixels: their starts, floor (centre - radius) + 1, lie within ⌈(N - 1) f⌉
// + 1 of each other (f = IN / OUT, the centres' step), and each span reaches T pixels from its
// start; a pixel to spare for the rounding of the centres.
unsigned
taps_reach (unsigned in, unsigned out, unsigned n, int taps)
{
  return (unsigned) ceil ((n - 1) * ((double) in / (double) out)) + 2u + (unsigned) taps;
}

// 2 ⌈3 f⌉ for an axis from IN to OUT pixels (f at least 1): the most taps a span has.
int
taps_of (const LmResizeAxis *a)
{
  double factor = (double) a->in / (double) a->out;
  return 2 * (int) ceil (LM_RESIZE_LANCZOS_A * (factor > 1.0 ? factor : 1.0));
}

template <int C, bool VFirst, int T, unsigned TileH>
cudaError_t
launch (const LmKImage *src, const LmKImage *dst, const LmResizeTapsPlan *plan, const LmResizeSpan *xs,
        const float *xw, const LmResizeSpan *ys, const float *yw, cudaStream_t stream)
{
  auto kernel = resize_taps<C, VFirst, T, TileH>;
  // Above 48 KiB a kernel's shared memory must be asked for, on each device it runs on.
  LM_CUDA_TRY (cudaFuncSetAttribute (kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) plan->smem));
  dim3 tiles (lm_div_up (dst->width, kTileW), lm_div_up (dst->height, TileH));
  kernel<<<tiles, kThreads, plan->smem, stream>>> (
    static_cast<const uint8_t *> (src->data), src->stride, src->width, src->height, static_cast<uint8_t *> (dst->data),
    dst->stride, dst->width, dst->height, xs, xw, ys, yw, plan->box_cap, plan->mid_cap);
  return cudaGetLastError ();
}

template <int C, bool VFirst, int T>
cudaError_t
launch_h (const LmKImage *src, const LmKImage *dst, const LmResizeTapsPlan *plan, const LmResizeSpan *xs,
          const float *xw, const LmResizeSpan *ys, const float *yw, cudaStream_t stream)
{
  return plan->tile_h == 32 ? launch<C, VFirst, T, 32> (src, dst, plan, xs, xw, ys, yw, stream)
                            : launch<C, VFirst, T, 16> (src, dst, plan, xs, xw, ys, yw, stream);
}

template <int C, bool VFirst>
cudaError_t
launch_t (const LmKImage *src, const LmKImage *dst, const LmResizeTapsPlan *plan, const LmResizeSpan *xs,
          const float *xw, const LmResizeSpan *ys, const float *yw, cudaStream_t stream)
{
  switch (plan->taps)
    {
    case 6:
      return launch_h<C, VFirst, 6> (src, dst, plan, xs, xw, ys, yw, stream);
    case 8:
      return launch_h<C, VFirst, 8> (src, dst, plan, xs, xw, ys, yw, stream);
    case 10:
      return launch_h<C, VFirst, 10> (src, dst, plan, xs, xw, ys, yw, stream);
    case 12:
      return launch_h<C, VFirst, 12> (src, dst, plan, xs, xw, ys, yw, stream);
    default:
      return cudaErrorInvalidValue;
    }
}

} // namespace

bool
lm_k_resize_taps_plan (const LmResizeAxis *xa, const LmResizeAxis *ya, int channels, bool vfirst, size_t optin,
                       LmResizeTapsPlan *plan)
{
  if (lm_resize_axis_area (xa->in, xa->out) || lm_resize_axis_area (ya->in, ya->out))
    return false;
  int tx = taps_of (xa), ty = taps_of (ya);
  plan->taps = tx > ty ? tx : ty;
  if (plan->taps < 6 || plan->taps > 12)
    return false;
  for (unsigned tile_h = 32; tile_h >= 16; tile_h /= 2)
    {
      size_t bw = taps_reach (xa->in, xa->out, kTileW, plan->taps);
      size_t bh = taps_reach (ya->in, ya->out, tile_h, plan->taps);
      size_t box = bw * bh, mid = vfirst ? tile_h * bw : bh * kTileW;
      size_t smem = (box + mid) * channels * sizeof (float);
      if (smem <= kSmemMax && smem <= optin)
        {
          plan->tile_h = tile_h, plan->box_cap = (unsigned) box, plan->mid_cap = (unsigned) mid, plan->smem = smem;
          return true;
        }
    }
  return false;
}

cudaError_t
lm_k_resize_taps (const LmKImage *src, const LmKImage *dst, const LmResizeTapsPlan *plan, bool vfirst,
                  const LmResizeSpan *xs, const float *xw, const LmResizeSpan *ys, const float *yw,
                  cudaStream_t stream)
{
  if (dst->width == 0 || dst->height == 0)
    return cudaSuccess;
  if (src->format == LM_K_GRAY8)
    return vfirst ? launch_t<1, true> (src, dst, plan, xs, xw, ys, yw, stream)
                  : launch_t<1, false> (src, dst, plan, xs, xw, ys, yw, stream);
  if (src->format == LM_K_RGBA8)
    return vfirst ? launch_t<4, true> (src, dst, plan, xs, xw, ys, yw, stream)
                  : launch_t<4, false> (src, dst, plan, xs, xw, ys, yw, stream);
  return cudaErrorInvalidValue;
}
