// AlignMTB on the GPU: median threshold bitmaps with the integer arithmetic of
// core/hdr/align-math.h, so that the shifts are the CPU's (and OpenCV's) exactly.
//
// The CPU's pyramid is a decimation (level l keeps pixel (x·2^l, y·2^l) of the full-size luma,
// (w >> l) × (h >> l) of them), so every level is read straight from the exposures:
//   histograms   one pass over each exposure: its luma, counted into the histogram of every
//                level the pixel belongs to (shared-memory counts, then integer atomics:
//                the same counts in any order);
//   medians      each level's median from its histogram;
//   bitmaps      each level's threshold and exclusion bits, 32 pixels to a pair of words (a
//                warp's ballot), zero past the level's width;
//   count, pick  per level, coarse to fine: for every exposure, the mismatches of the nine
//                candidates around twice the last level's shift (popcounts over the overlap;
//                bits outside it read as excluded), then the CPU's choice (x outer, y inner,
//                the first strict minimum, candidates without overlap skipped).
// The shifts stay on the device between levels; only the final ones are copied back.
#include "core/hdr/align-math.h"
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr int kMaxLevels = LM_K_MTB_MAX_LEVELS;
constexpr unsigned kThreads = 256, kWarps = kThreads / 32;
constexpr unsigned kHistogramBlocks = 128; // per exposure
constexpr int kCandidates = 9;

// Each level's size and where its bitmaps lie within an exposure's (in words of 32 pixels).
struct Levels {
  unsigned w[kMaxLevels], h[kMaxLevels], words[kMaxLevels]; // words: per row
  size_t offset[kMaxLevels + 1];                             // offset[levels]: one exposure's
};

struct Args {
  const uint8_t *images[LM_K_HDR_MAX_EXPOSURES];
  size_t stride;
  unsigned width, height, n, pivot;
  int levels, range, gray;
  Levels lv;
  unsigned long long *hist;   // [n][levels][256]
  int *median;                // [n][levels]
  uint2 *bits;                // [n][lv.offset[levels]]: (above, keep) of 32 pixels
  unsigned long long *counts; // [n][9]
  int2 *shift;                // [n]: the shift found so far
};
static_assert (sizeof (Args) <= 4096, "the arguments fit any launch");

// The workspace: what must start at zero first, then the rest.
struct Layout {
  size_t hist, counts, shift, zeroed, median, bits, bytes;
};

Layout
layout (const LmKStack *stack, int levels, const Levels &lv)
{
  Layout l;
  size_t at = 0;
  auto take = [&] (size_t bytes) {
    size_t here = at;
    at += (bytes + 255) & ~(size_t) 255;
    return here;
  };
  l.hist = take ((size_t) stack->n * levels * 256 * sizeof (unsigned long long));
  l.counts = take ((size_t) stack->n * kCandidates * sizeof (unsigned long long));
  l.shift = take ((size_t) stack->n * sizeof (int2));
  l.zeroed = at;
  l.median = take ((size_t) stack->n * levels * sizeof (int));
  l.bits = take ((size_t) stack->n * lv.offset[levels] * sizeof (uint2));
  l.bytes = at;
  return l;
}

Levels
levels_of (const LmKStack *stack, int levels)
{
  Levels lv = {};
  for (int l = 0; l < levels; l++)
    {
      lv.w[l] = stack->width >> l;
      lv.h[l] = stack->height >> l;
      lv.words[l] = (lv.w[l] + 31) / 32;
      lv.offset[l + 1] = lv.offset[l] + (size_t) lv.words[l] * lv.h[l];
    }
  return lv;
}

__device__ inline int
luma_at (const Args &a, unsigned e, unsigned x, unsigned y)
{
  const uint8_t *row = a.images[e] + (size_t) y * a.stride;
  if (a.gray)
    return __ldg (row + x);
  uint32_t p = __ldg (reinterpret_cast<const uint32_t *> (row) + x);
  return lm_mtb_gray (p & 0xffu, (p >> 8) & 0xffu, (p >> 16) & 0xffu);
}

// Blocks (·, exposure): rows in turn; each pixel counted at level 0 and at every coarser level
// that keeps it. Levels nest: a pixel outside level l is outside every coarser one.
__global__ void __launch_bounds__ (kThreads)
histograms (const __grid_constant__ Args a)
{
  extern __shared__ unsigned counts[]; // [levels][256]
  unsigned e = blockIdx.y, bins = (unsigned) a.levels * 256;
  for (unsigned i = threadIdx.x; i < bins; i += kThreads)
    counts[i] = 0;
  __syncthreads ();
  for (unsigned y = blockIdx.x; y < a.height; y += gridDim.x)
    for (unsigned x = threadIdx.x; x < a.width; x += kThreads)
      {
        int v = luma_at (a, e, x, y);
        for (int l = 0; l < a.levels; l++)
          {
            unsigned below = (1u << l) - 1;
            if (((x | y) & below) != 0 || (x >> l) >= a.lv.w[l] || (y >> l) >= a.lv.h[l])
              break;
            atomicAdd (&counts[l * 256 + v], 1u);
          }
      }
  __syncthreads ();
  unsigned long long *hist = a.hist + (size_t) e * bins;
  for (unsigned i = threadIdx.x; i < bins; i += kThreads)
    if (counts[i] != 0)
      atomicAdd (&hist[i], (unsigned long long) counts[i]);
}

// One thread per exposure and level.
__global__ void
medians (const __grid_constant__ Args a)
{
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= a.n * (unsigned) a.levels)
    return;
  int l = (int) (t % (unsigned) a.levels);
  const uint64_t *hist = reinterpret_cast<const uint64_t *> (a.hist) + (size_t) t * 256;
  a.median[t] = lm_mtb_median (hist, (uint64_t) a.lv.w[l] * a.lv.h[l]);
}

// A warp per word of 32 pixels, all levels of exposure blockIdx.y in one flat range of words.
__global__ void __launch_bounds__ (kThreads)
bitmaps (const __grid_constant__ Args a)
{
  unsigned e = blockIdx.y, lane = threadIdx.x % 32;
  size_t word = (size_t) blockIdx.x * kWarps + threadIdx.x / 32;
  if (word >= a.lv.offset[a.levels])
    return; // the whole warp
  int l = 0;
  while (word >= a.lv.offset[l + 1])
    l++;
  size_t local = word - a.lv.offset[l];
  unsigned y = (unsigned) (local / a.lv.words[l]), x = (unsigned) (local % a.lv.words[l]) * 32 + lane;
  uint8_t b = 0;
  if (x < a.lv.w[l])
    b = lm_mtb_bits (luma_at (a, e, x << l, y << l), a.median[e * a.levels + l], a.range);
  unsigned above = __ballot_sync (0xffffffffu, b & LM_MTB_ABOVE);
  unsigned keep = __ballot_sync (0xffffffffu, b & LM_MTB_KEEP);
  if (lane == 0)
    a.bits[(size_t) e * a.lv.offset[a.levels] + word] = make_uint2 (above, keep);
}

// The 32 pixels of a bitmap row from position S on (S may be negative); words outside the row
// read as 0, that is excluded.
__device__ inline uint2
bits_from (const uint2 *row, int words, int s)
{
  int q = s >= 0 ? s / 32 : -((31 - s) / 32);
  unsigned r = (unsigned) (s - 32 * q);
  uint2 lo = q >= 0 && q < words ? __ldg (row + q) : make_uint2 (0u, 0u);
  uint2 hi = q + 1 >= 0 && q + 1 < words ? __ldg (row + q + 1) : make_uint2 (0u, 0u);
  return make_uint2 (__funnelshift_r (lo.x, hi.x, r), __funnelshift_r (lo.y, hi.y, r));
}

// Level L, blocks (·, exposure): a thread per word of the pivot's bitmap counts the nine
// candidates; the block's sums go to the exposure's counts by integer atomics.
__global__ void __launch_bounds__ (kThreads)
count (const __grid_constant__ Args a, int l)
{
  unsigned e = blockIdx.y;
  if (e == a.pivot)
    return; // the whole block
  int words = (int) a.lv.words[l], h = (int) a.lv.h[l];
  size_t i = (size_t) blockIdx.x * kThreads + threadIdx.x;
  unsigned n[kCandidates] = {};
  if (i < (size_t) words * h)
    {
      int y = (int) (i / words), k = (int) (i % words);
      size_t level = a.lv.offset[l], per_exposure = a.lv.offset[a.levels];
      uint2 p = a.bits[(size_t) a.pivot * per_exposure + level + i];
      const uint2 *other = a.bits + (size_t) e * per_exposure + level;
      int2 s = a.shift[e];
      int bx = 2 * s.x, by = 2 * s.y;
      for (int dy = 0; dy < 3 && p.y != 0; dy++)
        {
          int oy = y - (by + dy - 1);
          if (oy < 0 || oy >= h)
            continue;
#pragma unroll
          for (int dx = 0; dx < 3; dx++)
            {
              uint2 q = bits_from (other + (size_t) oy * words, words, 32 * k - (bx + dx - 1));
              n[dx * 3 + dy] += __popc ((p.x ^ q.x) & p.y & q.y);
            }
        }
    }
  __shared__ unsigned partial[kWarps][kCandidates];
#pragma unroll
  for (int c = 0; c < kCandidates; c++)
    {
      unsigned v = n[c];
      for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync (0xffffffffu, v, offset);
      if (threadIdx.x % 32 == 0)
        partial[threadIdx.x / 32][c] = v;
    }
  __syncthreads ();
  if (threadIdx.x < kCandidates)
    {
      unsigned long long sum = 0;
      for (unsigned w = 0; w < kWarps; w++)
        sum += partial[w][threadIdx.x];
      if (sum != 0)
        atomicAdd (&a.counts[e * kCandidates + threadIdx.x], sum);
    }
}

// Level L: each exposure's best candidate becomes its shift; the counts start over.
__global__ void
pick (const __grid_constant__ Args a, int l)
{
  unsigned e = threadIdx.x;
  if (e >= a.n || e == a.pivot)
    return;
  int w = (int) a.lv.w[l], h = (int) a.lv.h[l];
  int2 s = a.shift[e];
  s.x *= 2, s.y *= 2;
  unsigned long long best = (unsigned long long) w * h, *counts = a.counts + e * kCandidates;
  int2 next = s;
  for (int dx = 0; dx < 3; dx++)
    for (int dy = 0; dy < 3; dy++)
      {
        int sx = s.x + dx - 1, sy = s.y + dy - 1;
        bool overlap = max (sx, 0) < w + min (sx, 0) && max (sy, 0) < h + min (sy, 0);
        if (overlap && counts[dx * 3 + dy] < best)
          {
            best = counts[dx * 3 + dy];
            next = make_int2 (sx, sy);
          }
      }
  a.shift[e] = next;
  for (int c = 0; c < kCandidates; c++)
    counts[c] = 0;
}

} // namespace

extern "C" size_t
lm_k_mtb_workspace_size (const LmKStack *stack, int levels)
{
  levels = levels < 1 ? 1 : levels > kMaxLevels ? kMaxLevels : levels;
  return layout (stack, levels, levels_of (stack, levels)).bytes;
}

extern "C" cudaError_t
lm_k_mtb (const LmKStack *stack, int levels, int exclude_range, unsigned pivot, void *workspace, int *shifts,
          cudaStream_t stream)
{
  if (stack->n < 1 || stack->n > LM_K_HDR_MAX_EXPOSURES || pivot >= stack->n || levels < 1 || levels > kMaxLevels
      || stack->width == 0 || stack->height == 0)
    return cudaErrorInvalidValue;
  Args a;
  for (unsigned i = 0; i < stack->n; i++)
    a.images[i] = static_cast<const uint8_t *> (stack->images[i]);
  a.stride = stack->stride, a.width = stack->width, a.height = stack->height;
  a.n = stack->n, a.pivot = pivot, a.levels = levels, a.range = exclude_range;
  a.gray = stack->format == LM_K_GRAY8;
  a.lv = levels_of (stack, levels);
  Layout lay = layout (stack, levels, a.lv);
  char *base = static_cast<char *> (workspace);
  a.hist = reinterpret_cast<unsigned long long *> (base + lay.hist);
  a.counts = reinterpret_cast<unsigned long long *> (base + lay.counts);
  a.shift = reinterpret_cast<int2 *> (base + lay.shift);
  a.median = reinterpret_cast<int *> (base + lay.median);
  a.bits = reinterpret_cast<uint2 *> (base + lay.bits);

  LM_CUDA_TRY (cudaMemsetAsync (base, 0, lay.zeroed, stream));
  dim3 hist_grid (stack->height < kHistogramBlocks ? stack->height : kHistogramBlocks, stack->n);
  histograms<<<hist_grid, kThreads, (size_t) levels * 256 * sizeof (unsigned), stream>>> (a);
  LM_CUDA_LAUNCHED ();
  medians<<<lm_div_up ((size_t) stack->n * levels, 64), 64, 0, stream>>> (a);
  LM_CUDA_LAUNCHED ();
  bitmaps<<<dim3 (lm_div_up (a.lv.offset[levels], kWarps), stack->n), kThreads, 0, stream>>> (a);
  LM_CUDA_LAUNCHED ();
  for (int l = levels - 1; l >= 0; l--)
    {
      size_t words = (size_t) a.lv.words[l] * a.lv.h[l];
      if (words > 0)
        {
          count<<<dim3 (lm_div_up (words, kThreads), stack->n), kThreads, 0, stream>>> (a, l);
          LM_CUDA_LAUNCHED ();
        }
      pick<<<1, LM_K_HDR_MAX_EXPOSURES, 0, stream>>> (a, l);
      LM_CUDA_LAUNCHED ();
    }
  return cudaMemcpyAsync (shifts, a.shift, stack->n * sizeof (int2), cudaMemcpyDeviceToHost, stream);
}
