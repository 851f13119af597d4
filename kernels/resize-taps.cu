// Lanczos-3 on both axes by strips whose sums run a fixed number of taps.
//
// A span of an axis resampled by Lanczos-3 has at most 2 ⌈3 f⌉ taps (f the shrink factor,
// at least 1; lm_resize_axis_entry keeps the taps strictly inside a window of radius 3 f),
// so every sum here runs T = 2 ⌈3 f⌉ taps, unrolled, each thread's weights held in
// registers, where resize.cu's generic tiles loop over each span's own count and read its
// weights from shared memory a tap at a time. A span's taps past its own count weigh 0:
// adding 0 × a finite value leaves a float sum as it was, so the sums are the reference's,
// term by term. The source read reaches the T-th tap of every span, the pixels past the
// image's edge repeated as the reference's clamp repeats them: every value read is finite.
//
// A block of 512 threads owns a strip of 32 output pixels across and kStripLength along the
// second axis, and walks along it 32 output pixels a step (16 where the shared memory of 32
// would not let two blocks share a multiprocessor). The first axis's sums (the
// intermediate) stay in a ring in shared memory as long as a later step reads them: each is
// computed once, where square tiles recomputed the ones their neighbours share along the
// second axis (1.6 intermediate rows an output row for 32 × 32 tiles at 0.75×, 1.34 here).
// A step stages only the source lines that its new intermediate lines read. A strip down
// stages RGBA as its bytes, a word a pixel: its first sums' lanes read pixels 4/3 or more
// apart, which in floats (16 bytes a pixel) took twice the shared memory's cycles of a
// contiguous read, and shared memory, not arithmetic, bounded the kernel; a word's bytes
// become floats in two instructions each. A strip across reads its staged columns
// contiguously, and stages floats, converting each byte once. An opaque photo's alpha is not
// summed (K = 3, lm_store_px).
//
// Horizontal first (the intermediate at output columns, source rows), the strip goes down:
// lanes are output columns everywhere. Vertical first (the intermediate at output rows,
// source columns), it goes across: lanes are source columns for the first sums and output
// columns for the second, warps the strip's 32 output rows.
#include <type_traits>

#include "kernels/cuda-check.h"
#include "kernels/resize-sums.cuh"
#include "kernels/resize-taps.h"

namespace {

constexpr unsigned kLanes = 32, kWarps = 16, kThreads = kLanes * kWarps;
constexpr unsigned kStripLength = 256;  // output pixels along a strip: blocks enough to fill a GPU
constexpr size_t kSmemMax = 112 * 1024; // two blocks a multiprocessor of 228 KiB (Hopper)
constexpr unsigned kBoxChunks = 3;      // a strip down stages rows of up to 96 pixels
constexpr size_t kStaticSmem = 256;     // both kernels' bounds and a line's starts (160 bytes)

template <typename N>
__device__ __forceinline__ N
least (N a, N b)
{
  return a < b ? a : b;
}

template <typename N>
__device__ __forceinline__ N
most (N a, N b)
{
  return a > b ? a : b;
}

// The T weights of SPAN from WEIGHTS: resize.cu's axis_tables writes zeros past a span's
// own, and a span's T weights lie within its table's stride (13, T at most 12).
template <int T>
__device__ __forceinline__ void
load_weights (LmResizeSpan span, const float *weights, float (&w)[T])
{
#pragma unroll
  for (int t = 0; t < T; t++)
    w[t] = weights[span.offset + t];
}

// How a strip down stages a pixel: an RGBA8 word, or a gray byte as a float.
template <int C> using DownPx = std::conditional_t<C == 4, uint32_t, LmFloatPx<1>>;

// Pixel X of ROW as a box of Px holds it: the word, or the first K channels as floats.
template <typename Px, int C, int K>
__device__ __forceinline__ Px
staged_px (const uint8_t *row, int x)
{
  if constexpr (std::is_same_v<Px, uint32_t>)
    return reinterpret_cast<const uint32_t *> (row)[x];
  else
    return lm_float_px<C, K> (row, x);
}

// A staged pixel as floats.
template <int K>
__device__ __forceinline__ LmFloatPx<4>
as_floats (uint32_t word)
{
  return lm_word_floats<K> (word);
}

template <int K, int C>
__device__ __forceinline__ LmFloatPx<C>
as_floats (LmFloatPx<C> p)
{
  return p;
}

// The source's pixels [X0, X0 + COLS) × [Y0, Y0 + ROWS) (indices clamped to the image as the
// reference's sums clamp them) into BOX (staged_px), row after row: a warp a row, lane l
// taking columns l, l + 32, … (COLS at most 32 × Chunks). Each lane's columns are clamped
// once, and its loads of two rows are issued before it converts any: the rows' bytes are
// then in flight together.
template <int C, int K, int Chunks, typename Px>
__device__ __forceinline__ void
stage_lines (Px *box, const uint8_t *src, size_t src_stride, unsigned w, unsigned h, int x0, int y0, int cols,
             int rows)
{
  int lane = threadIdx.x % kLanes, x[Chunks];
#pragma unroll
  for (int q = 0; q < Chunks; q++)
    x[q] = least (most (x0 + lane + q * (int) kLanes, 0), (int) w - 1);
#pragma unroll 2
  for (int r = threadIdx.x / kLanes; r < rows; r += kWarps)
    {
      const uint8_t *row = src + (size_t) least (most (y0 + r, 0), (int) h - 1) * src_stride;
      Px *to = box + r * cols + lane;
#pragma unroll
      for (int q = 0; q < Chunks; q++)
        if (lane + q * (int) kLanes < cols)
          to[q * kLanes] = staged_px<Px, C, K> (row, x[q]);
    }
}

// Σ W[t] × P (t) over the T taps in order, from 0 (lm_resize_sum_*'s terms and order), of the
// first K of the C channels (the others 0).
template <int C, int K, int T, typename Px>
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
      for (int c = 0; c < K; c++)
        a.v[c] = a.v[c] + w[t] * v[c];
    }
  return a;
}

// What a block's threads agree on before they sum, of some spans of one axis: the first pixel
// they read (FIRST) and the last (LAST, the last one's T-th tap); whether any has more than T
// taps (none should have: then each pixel sums the source itself).
struct StripBounds {
  int first, last, longer;
};

// The bounds of the spans [A0, A0 + N) of one axis, their starts at STARTS when not NULL.
template <int T>
__device__ void
strip_bounds (const LmResizeSpan *spans, unsigned a0, unsigned n, int *starts, StripBounds *b)
{
  if (threadIdx.x == 0)
    b->first = INT_MAX, b->last = INT_MIN, b->longer = 0;
  __syncthreads ();
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    {
      LmResizeSpan sp = spans[a0 + i];
      if (starts)
        starts[i] = sp.start;
      atomicMin (&b->first, sp.start), atomicMax (&b->last, sp.start + T - 1);
      if (sp.count > (uint32_t) T)
        b->longer = 1;
    }
  __syncthreads ();
}

// Horizontal first: the strip of output columns [X0, X0 + 32) from row Y0 down, STEP rows a
// step. Shared memory: the staged source rows of a round (BOX_ROWS × BOX_W of DownPx) and the
// ring of intermediate rows (RING_MASK + 1 rows of 32, and T more), row r at r & RING_MASK,
// from the next 16 bytes on.
template <int C, int K, int T, unsigned Step>
__global__ void __launch_bounds__ (kThreads, 2)
strip_down (const uint8_t *src, size_t src_stride, unsigned w, unsigned h, uint8_t *dst, size_t dst_stride,
            unsigned ow, unsigned oh, const LmResizeSpan *xs, const float *xw, const LmResizeSpan *ys,
            const float *yw, unsigned box_w, unsigned box_rows, unsigned ring_mask)
{
  extern __shared__ float4 smem4[];
  DownPx<C> *box = reinterpret_cast<DownPx<C> *> (smem4);
  Acc<C> *ring = reinterpret_cast<Acc<C> *> (smem4 + ((size_t) box_rows * box_w * sizeof (DownPx<C>) + 15) / 16);
  __shared__ StripBounds across, down;
  __shared__ int xstart[kLanes];
  unsigned x0 = blockIdx.x * kLanes, y0 = blockIdx.y * kStripLength;
  unsigned tx = least (ow - x0, kLanes), y1 = least (oh, y0 + kStripLength);
  unsigned warp = threadIdx.x / kLanes, c = threadIdx.x % kLanes; // c: this thread's output column
  strip_bounds<T> (xs, x0, tx, xstart, &across);
  strip_bounds<T> (ys, y0, y1 - y0, NULL, &down);
  int bx = across.first, bw = across.last - bx + 1;
  if (across.longer || down.longer || (unsigned) bw > box_w)
    {
      // Not as planned: each pixel sums the source itself, the same terms.
      for (unsigned r = y0 + warp; c < tx && r < y1; r += kWarps)
        {
          float acc[C];
          direct_sum<C, false> (src, src_stride, w, h, xs[x0 + c], xw, ys[r], yw, acc);
          lm_store_px<C, K> (dst + (size_t) r * dst_stride, x0 + c, acc);
        }
      return;
    }
  // A step's rows' starts and weights, read by a warp a row: copied once a step into shared
  // memory, where a warp's lanes read them together, in two halves so that a step's copy
  // never overwrites what a slower warp still reads of the step before.
  __shared__ int ystart[2][Step];
  __shared__ float yweight[2][Step][T];
  float wx[T], wy[T];
  if (c < tx)
    load_weights<T> (xs[x0 + c], xw, wx);
  int next = down.first; // the next intermediate row to compute (a source row, unclamped)
  for (unsigned a = y0, half = 0; a < y1; a += Step, half ^= 1)
    {
      unsigned n = least (a + Step, y1) - a;
      int need = ys[a + n - 1].start + T; // the rows this step's sums read end here
      for (unsigned i = threadIdx.x; i < n * T; i += kThreads)
        {
          LmResizeSpan sp = ys[a + i / T];
          yweight[half][i / T][i % T] = yw[sp.offset + i % T];
          if (i % T == 0)
            ystart[half][i / T] = sp.start;
        }
      while (next < need)
        {
          int k = least (need - next, (int) box_rows);
          stage_lines<C, K, kBoxChunks> (box, src, src_stride, w, h, bx, next, bw, k);
          __syncthreads ();
          for (int i = warp; c < tx && i < k; i += kWarps)
            {
              const DownPx<C> *left = box + i * bw + (xstart[c] - bx);
              Acc<C> m = taps_sum<C, K, T> (wx, [&] (int t) { return as_floats<K> (left[t]); });
              // The first T rows of the ring again past its end: T rows from any slot on are
              // then consecutive.
              unsigned slot = (next + i) & ring_mask;
              ring[slot * kLanes + c] = m;
              if (slot < T)
                ring[(slot + ring_mask + 1) * kLanes + c] = m;
            }
          __syncthreads ();
          next += k;
        }
      // The ring's rows are overwritten only after the next step's staging, which every
      // warp reaches once it has summed here.
      __syncthreads ();
      for (unsigned r = warp; c < tx && r < n; r += kWarps)
        {
#pragma unroll
          for (int t = 0; t < T; t++)
            wy[t] = yweight[half][r][t];
          const Acc<C> *top = ring + (ystart[half][r] & ring_mask) * kLanes + c;
          Acc<C> s = taps_sum<C, K, T> (wy, [&] (int t) { return top[t * kLanes]; });
          lm_store_px<C, K> (dst + (size_t) (a + r) * dst_stride, x0 + c, s.v);
        }
    }
}

// Vertical first: the strip of output rows [Y0, Y0 + 32) from column X0 across, STEP columns
// a step. Shared memory: the staged source columns of a step (BOX_H rows of STEP, as floats)
// and the ring of intermediate columns (32 rows of RING_MASK + 1 + T), column x at
// x & RING_MASK. Warp w sums output rows w and w + 16.
template <int C, int K, int T, unsigned Step>
__global__ void __launch_bounds__ (kThreads, 2)
strip_across (const uint8_t *src, size_t src_stride, unsigned w, unsigned h, uint8_t *dst, size_t dst_stride,
              unsigned ow, unsigned oh, const LmResizeSpan *xs, const float *xw, const LmResizeSpan *ys,
              const float *yw, unsigned box_h, unsigned, unsigned ring_mask)
{
  extern __shared__ float4 smem4[];
  LmFloatPx<C> *box = reinterpret_cast<LmFloatPx<C> *> (smem4);
  Acc<C> *ring = reinterpret_cast<Acc<C> *> (box + (size_t) box_h * Step);
  unsigned ring_len = ring_mask + 1 + T;
  __shared__ StripBounds across, down;
  __shared__ int ystart[kLanes];
  unsigned y0 = blockIdx.y * kLanes, x0 = blockIdx.x * kStripLength;
  unsigned ty = least (oh - y0, kLanes), x1 = least (ow, x0 + kStripLength);
  unsigned warp = threadIdx.x / kLanes, c = threadIdx.x % kLanes;
  strip_bounds<T> (ys, y0, ty, ystart, &down);
  strip_bounds<T> (xs, x0, x1 - x0, NULL, &across);
  int by = down.first, bh = down.last - by + 1;
  if (across.longer || down.longer || (unsigned) bh > box_h)
    {
      for (unsigned r = warp; r < ty; r += kWarps)
        for (unsigned x = x0 + c; x < x1; x += kLanes)
          {
            float acc[C];
            direct_sum<C, true> (src, src_stride, w, h, xs[x], xw, ys[y0 + r], yw, acc);
            lm_store_px<C, K> (dst + (size_t) (y0 + r) * dst_stride, x, acc);
          }
      return;
    }
  // This warp's two output rows (the second may lie past the image: its sums go unused).
  unsigned r0 = warp, r1 = warp + kWarps;
  float wy0[T], wy1[T], wx[T];
  load_weights<T> (ys[y0 + least (r0, ty - 1)], yw, wy0);
  load_weights<T> (ys[y0 + least (r1, ty - 1)], yw, wy1);
  int top0 = ystart[least (r0, ty - 1)] - by, top1 = ystart[least (r1, ty - 1)] - by;
  int next = across.first; // the next intermediate column to compute (a source column)
  for (unsigned a = x0; a < x1; a += Step)
    {
      unsigned n = least (a + Step, x1) - a;
      int need = xs[a + n - 1].start + T;
      while (next < need)
        {
          int k = least (need - next, (int) Step);
          stage_lines<C, K, 1> (box, src, src_stride, w, h, next, by, k, bh);
          __syncthreads ();
          if ((int) c < k)
            {
              Acc<C> m0 = taps_sum<C, K, T> (wy0, [&] (int t) { return box[(top0 + t) * k + c]; });
              Acc<C> m1 = taps_sum<C, K, T> (wy1, [&] (int t) { return box[(top1 + t) * k + c]; });
              // The first T columns again past the ring's end: T columns from any slot on
              // are then consecutive.
              unsigned slot = (next + c) & ring_mask;
              ring[r0 * ring_len + slot] = m0, ring[r1 * ring_len + slot] = m1;
              if (slot < T)
                ring[r0 * ring_len + slot + ring_mask + 1] = m0, ring[r1 * ring_len + slot + ring_mask + 1] = m1;
            }
          __syncthreads ();
          next += k;
        }
      if (c < n)
        {
          LmResizeSpan sp = xs[a + c];
          load_weights<T> (sp, xw, wx);
          for (unsigned r = r0; r < ty; r += kWarps)
            {
              const Acc<C> *left = ring + r * ring_len + (sp.start & ring_mask);
              Acc<C> s = taps_sum<C, K, T> (wx, [&] (int t) { return left[t]; });
              lm_store_px<C, K> (dst + (size_t) (y0 + r) * dst_stride, a + c, s.v);
            }
        }
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

unsigned
power_of_two_at_least (unsigned n)
{
  unsigned p = 1;
  while (p < n)
    p *= 2;
  return p;
}

template <int C, int K, bool VFirst, int T, unsigned Step>
cudaError_t
launch (const LmKImage *src, const LmKImage *dst, const LmResizeTapsPlan *plan, const LmResizeSpan *xs,
        const float *xw, const LmResizeSpan *ys, const float *yw, cudaStream_t stream)
{
  auto kernel = VFirst ? strip_across<C, K, T, Step> : strip_down<C, K, T, Step>;
  // Above 48 KiB a kernel's shared memory must be asked for, on each device it runs on.
  LM_CUDA_TRY (cudaFuncSetAttribute (kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) plan->smem));
  dim3 strips = VFirst ? dim3 (lm_div_up (dst->width, kStripLength), lm_div_up (dst->height, kLanes))
                       : dim3 (lm_div_up (dst->width, kLanes), lm_div_up (dst->height, kStripLength));
  kernel<<<strips, kThreads, plan->smem, stream>>> (
    static_cast<const uint8_t *> (src->data), src->stride, src->width, src->height, static_cast<uint8_t *> (dst->data),
    dst->stride, dst->width, dst->height, xs, xw, ys, yw, plan->box_len, plan->box_lines, plan->ring_len - 1);
  return cudaGetLastError ();
}

template <int C, int K, bool VFirst, int T>
cudaError_t
launch_s (const LmKImage *src, const LmKImage *dst, const LmResizeTapsPlan *plan, const LmResizeSpan *xs,
          const float *xw, const LmResizeSpan *ys, const float *yw, cudaStream_t stream)
{
  return plan->step == 32 ? launch<C, K, VFirst, T, 32> (src, dst, plan, xs, xw, ys, yw, stream)
                          : launch<C, K, VFirst, T, 16> (src, dst, plan, xs, xw, ys, yw, stream);
}

template <int C, int K, bool VFirst>
cudaError_t
launch_t (const LmKImage *src, const LmKImage *dst, const LmResizeTapsPlan *plan, const LmResizeSpan *xs,
          const float *xw, const LmResizeSpan *ys, const float *yw, cudaStream_t stream)
{
  switch (plan->taps)
    {
    case 6:
      return launch_s<C, K, VFirst, 6> (src, dst, plan, xs, xw, ys, yw, stream);
    case 8:
      return launch_s<C, K, VFirst, 8> (src, dst, plan, xs, xw, ys, yw, stream);
    case 10:
      return launch_s<C, K, VFirst, 10> (src, dst, plan, xs, xw, ys, yw, stream);
    case 12:
      return launch_s<C, K, VFirst, 12> (src, dst, plan, xs, xw, ys, yw, stream);
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
  // The staged lines reach across the strip's 32 output pixels; the ring holds the
  // intermediate lines one step's sums read, a power of two of them, and its first T again.
  // Steps of 32 pixels, or of 16 where those take more shared memory than two blocks a
  // multiprocessor have (besides a strip down's copies of its rows' weights).
  const LmResizeAxis *cross = vfirst ? ya : xa, *along = vfirst ? xa : ya;
  plan->box_len = taps_reach (cross->in, cross->out, kLanes, plan->taps);
  if (!vfirst && plan->box_len > kBoxChunks * kLanes)
    return false;
  for (plan->step = 32; plan->step >= 16; plan->step /= 2)
    {
      plan->ring_len = power_of_two_at_least (taps_reach (along->in, along->out, plan->step, plan->taps));
      // A strip down stages the rows a step's new sums read in one round where it can (each
      // round waits twice on the whole block); a strip across a step's columns, a lane each.
      plan->box_lines = vfirst ? plan->step : taps_reach (along->in, along->out, plan->step, 0);
      // A strip down stages 4 bytes a pixel (a word or a float), a strip across floats; the
      // ring starts at the next 16 bytes.
      size_t box = (size_t) plan->box_len * plan->box_lines * (vfirst ? channels : 1) * sizeof (float);
      plan->smem = (box + 15) / 16 * 16 + (size_t) (plan->ring_len + plan->taps) * kLanes * channels * sizeof (float);
      // The kernels' own shared arrays count against the same limits: a strip down's copies
      // of a step's weights and starts, and both kernels' bounds and starts (kStaticSmem).
      // Past the device's limit the launch would fail where the generic tiles would run.
      size_t fixed = (vfirst ? 0 : 2 * plan->step * (plan->taps + 1) * sizeof (float)) + kStaticSmem;
      if (plan->smem + fixed <= kSmemMax && plan->smem + fixed <= optin)
        return true;
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
    return vfirst ? launch_t<1, 1, true> (src, dst, plan, xs, xw, ys, yw, stream)
                  : launch_t<1, 1, false> (src, dst, plan, xs, xw, ys, yw, stream);
  if (src->format == LM_K_RGBA8 && src->opaque)
    return vfirst ? launch_t<4, 3, true> (src, dst, plan, xs, xw, ys, yw, stream)
                  : launch_t<4, 3, false> (src, dst, plan, xs, xw, ys, yw, stream);
  if (src->format == LM_K_RGBA8)
    return vfirst ? launch_t<4, 4, true> (src, dst, plan, xs, xw, ys, yw, stream)
                  : launch_t<4, 4, false> (src, dst, plan, xs, xw, ys, yw, stream);
  return cudaErrorInvalidValue;
}
