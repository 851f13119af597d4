/* The windows of a group of levels through the cascade (cascade-kernels.h), with
 * core/detect/cascade-math.h's arithmetic, so that each window passes or fails as on the CPU.
 *
 * OpenCV's scan of a row skips the window after one rejected by the first stage. Whether a
 * window is looked at thus depends on the windows before it, but only through a simple rule:
 * after a window the first stage does not reject (or the row's start), the next is looked at,
 * and along a run of rejected ones every other is. So every window's first stage is evaluated
 * at once, a warp 32 windows of a row at a time, and whether each is looked at follows from its
 * distance to the last window not rejected before it (a ballot, carried along the row). */
#include "cascade-kernels.h"
#include "cuda-check.h"

#define WARP 32

__device__ static const LmKCascadeLevel &
level_at (const LmKCascadeGroup &g, unsigned row)
{
  int lo = 0, hi = g.n_levels - 1;
  while (lo < hi)
    {
      int mid = (lo + hi + 1) / 2;
      if (g.levels[mid].first_window_row <= row)
        lo = mid;
      else
        hi = mid - 1;
    }
  return g.levels[lo];
}

__device__ static LmCascadeIntegrals
integrals (const LmKCascadeGroup &g, const LmKCascadeLevel &L)
{
  return { g.sum + L.cells, g.sqsum ? g.sqsum + L.cells : NULL, g.tilted ? g.tilted + L.cells : NULL,
           (ptrdiff_t) L.width + 1 };
}

/* KEEP's lanes write W to OUT, one slot each from one atomic a warp. Every lane calls it. */
__device__ static void
append (bool keep, const LmKCascadeWindow &w, LmKCascadeWindow *out, unsigned capacity, unsigned *count)
{
  unsigned lanes = __ballot_sync (0xffffffffu, keep);
  if (lanes == 0)
    return;
  int lane = threadIdx.x % WARP, leader = __ffs (lanes) - 1;
  unsigned base = 0;
  if (lane == leader)
    base = atomicAdd (count, (unsigned) __popc (lanes));
  base = __shfl_sync (0xffffffffu, base, leader);
  unsigned at = base + __popc (lanes & ((1u << lane) - 1u));
  if (keep && at < capacity)
    out[at] = w;
}

__global__ static void
first_stage (LmCascade c, LmKCascadeGroup g, unsigned end, LmKCascadeWindow *out, unsigned capacity,
             unsigned *count)
{
  unsigned r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
  int lane = threadIdx.x % WARP;
  if (r >= g.window_rows)
    return; /* the whole warp: rows are a warp's */
  const LmKCascadeLevel &L = level_at (g, r);
  int level = (int) (&L - g.levels), y = (int) (r - L.first_window_row) * L.step;
  LmCascadeIntegrals in = integrals (g, L);
  /* The last window of the row not rejected by the first stage, before this chunk; −1: none. */
  int last = -1;
  for (int base = 0; base < L.columns; base += WARP)
    {
      int k = base + lane, x = k * L.step;
      bool valid = k < L.columns;
      float norm = 0.0f;
      int result = LM_CASCADE_FLAT;
      if (valid)
        {
          norm = lm_cascade_window_norm (&c, &in, x, y);
          if (norm != 0.0f)
            result = lm_cascade_window_stages (&c, &in, x, y, norm, 0, 1);
        }
      unsigned standing = __ballot_sync (0xffffffffu, !valid || result != 0);
      unsigned before = standing & ((1u << lane) - 1u);
      int previous = before ? base + 31 - __clz (before) : last;
      bool looked_at = (k - previous - 1) % 2 == 0;
      bool keep = valid && looked_at && result == 1;
      /* The stages after the first, for the windows kept, while they are still a row's
       * neighbours (their loads share cache lines). */
      if (keep && end > 1)
        keep = lm_cascade_window_stages (&c, &in, x, y, norm, 1, end) == 1;
      append (keep, LM_K_CASCADE_WINDOW (level, x, y), out, capacity, count);
      if (standing)
        last = base + 31 - __clz (standing);
    }
}

__global__ static void
stages (LmCascade c, LmKCascadeGroup g, const LmKCascadeWindow *in, const unsigned *in_count, unsigned capacity,
        unsigned first, unsigned end, LmKCascadeWindow *out, unsigned *out_count)
{
  unsigned n = min (*in_count, capacity);
  unsigned stride = gridDim.x * blockDim.x;
  /* Every lane of a warp takes the same number of turns, for append's ballot. */
  for (unsigned base = blockIdx.x * blockDim.x + threadIdx.x / WARP * WARP; base < n; base += stride)
    {
      unsigned i = base + threadIdx.x % WARP;
      bool pass = false;
      LmKCascadeWindow w = 0;
      if (i < n)
        {
          w = in[i];
          int x = LM_K_CASCADE_X (w), y = LM_K_CASCADE_Y (w);
          LmCascadeIntegrals sums = integrals (g, g.levels[LM_K_CASCADE_LEVEL (w)]);
          /* Not 0: the window passed the first stage. */
          float norm = lm_cascade_window_norm (&c, &sums, x, y);
          pass = lm_cascade_window_stages (&c, &sums, x, y, norm, first, end) == 1;
        }
      append (pass, w, out, capacity, out_count);
    }
}

__device__ static double
warp_sum (double v)
{
  for (int d = WARP / 2; d > 0; d /= 2)
    v += __shfl_xor_sync (0xffffffffu, v, d);
  return v;
}

__global__ static void
stages_wide (LmCascade c, LmKCascadeGroup g, const double *__restrict__ rest_max, const double *__restrict__ rest_min,
             const LmKCascadeWindow *in, const unsigned *in_count, unsigned capacity, unsigned first, unsigned end,
             LmKCascadeWindow *out, unsigned *out_count)
{
  unsigned n = min (*in_count, capacity);
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / WARP, warps = gridDim.x * blockDim.x / WARP;
  unsigned lane = threadIdx.x % WARP;
  for (unsigned i = warp; i < n; i += warps)
    {
      LmKCascadeWindow w = in[i];
      int x = LM_K_CASCADE_X (w), y = LM_K_CASCADE_Y (w);
      LmCascadeIntegrals sums = integrals (g, g.levels[LM_K_CASCADE_LEVEL (w)]);
      float norm = lm_cascade_window_norm (&c, &sums, x, y);
      bool pass = true;
      for (unsigned si = first; si < end && pass; si++)
        {
          const LmCascadeStage stage = c.stages[si];
          double sum = 0.0, threshold = (double) stage.threshold;
          for (unsigned k = 0; k < stage.n_stumps; k += WARP)
            {
              double leaf = k + lane < stage.n_stumps
                              ? (double) lm_cascade_stump_leaf (&c, &sums, x, y, norm, stage.first + k + lane)
                              : 0.0;
              sum += warp_sum (leaf);
              /* Exact (cascade-sums.h), so each test gives what the whole sum would. */
              unsigned last = stage.first + min (k + WARP, stage.n_stumps) - 1;
              if (sum + rest_max[last] < threshold)
                {
                  pass = false;
                  break;
                }
              if (sum + rest_min[last] >= threshold)
                break;
            }
        }
      if (pass && lane == 0)
        {
          unsigned at = atomicAdd (out_count, 1u);
          if (at < capacity)
            out[at] = w;
        }
    }
}

extern "C" cudaError_t
lm_k_cascade_first_stage (cudaStream_t stream, LmCascade cascade, const LmKCascadeGroup *g, unsigned end,
                          LmKCascadeWindow *out, unsigned capacity, unsigned *count)
{
  if (g->window_rows == 0)
    return cudaSuccess;
  first_stage<<<lm_div_up ((size_t) g->window_rows * WARP, 128), 128, 0, stream>>> (cascade, *g, end, out,
                                                                                     capacity, count);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_cascade_stages (cudaStream_t stream, LmCascade cascade, const LmKCascadeGroup *g, const LmKCascadeWindow *in,
                     const unsigned *in_count, unsigned capacity, unsigned first, unsigned end,
                     LmKCascadeWindow *out, unsigned *out_count)
{
  int device, sms;
  LM_CUDA_TRY (cudaGetDevice (&device));
  LM_CUDA_TRY (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device));
  /* The count is on the device: a grid that fills it, each thread taking windows in turn. */
  unsigned blocks = (unsigned) sms * 8;
  blocks = min (blocks, lm_div_up (capacity, 128));
  stages<<<max (blocks, 1u), 128, 0, stream>>> (cascade, *g, in, in_count, capacity, first, end, out, out_count);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_cascade_stages_wide (cudaStream_t stream, LmCascade cascade, const LmKCascadeGroup *g, const double *rest_max,
                          const double *rest_min, const LmKCascadeWindow *in, const unsigned *in_count,
                          unsigned capacity, unsigned first, unsigned end, LmKCascadeWindow *out, unsigned *out_count)
{
  int device, sms;
  LM_CUDA_TRY (cudaGetDevice (&device));
  LM_CUDA_TRY (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device));
  unsigned blocks = min ((unsigned) sms * 8, lm_div_up (capacity, 256 / WARP));
  stages_wide<<<max (blocks, 1u), 256, 0, stream>>> (cascade, *g, rest_max, rest_min, in, in_count, capacity, first,
                                                     end, out, out_count);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
