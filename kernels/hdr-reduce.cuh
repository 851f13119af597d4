// Deterministic reductions of the HDR kernels (hdr-merge.cu, tonemap.cu). An image pass runs
// one block per row and leaves that row's partial results (doubles for sums, floats for
// extremes); one block then folds the rows: each thread a fixed run of rows in row order,
// then the threads in a fixed tree. No float atomics, no dependence on the device's size:
// the same image gives the same bits on any GPU, and sums within rounding of the CPU's
// per-row sums added in row order. The folded results go to one State in device memory,
// which the next kernel reads: no round trip to the host between passes.
#pragma once

#include "kernels/kernels.h"

namespace lm_hdr {

constexpr unsigned kRowThreads = 256;     // one block per image row
constexpr unsigned kFoldThreads = 1024;   // the block that folds the rows

struct RangeRow {
  float min, max;
};

struct StatsRow {
  double log_sum, sum[3], gray_sum;
  float log_min, log_max, max_luminance;
};

// What one pass leaves for the next.
struct State {
  float merge_max;       // largest colour sample of a merge (gamma correction)
  LmTmStretch first;     // the radiance stretched to 0..1
  LmTmReinhard reinhard;
  LmTmDrago drago;
  LmTmStretch second;    // the operator's result stretched to 0..1
};

struct Sum {
  template <class T> __device__ T operator() (T a, T b) const { return a + b; }
};
struct Min {
  __device__ float operator() (float a, float b) const { return fminf (a, b); }
};
struct Max {
  __device__ float operator() (float a, float b) const { return fmaxf (a, b); }
};

// V of every thread of the block combined in a fixed order; the result is valid in thread 0.
// Every thread must call it. SCRATCH holds one value per warp.
template <class T, class Op>
__device__ inline T
block_reduce (T v, Op op, T *scratch)
{
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v = op (v, __shfl_down_sync (0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0)
    scratch[threadIdx.x / 32] = v;
  __syncthreads ();
  if (threadIdx.x == 0)
    for (unsigned w = 1; w < blockDim.x / 32; w++)
      v = op (v, scratch[w]);
  __syncthreads ();
  return v;
}

// The rows [first, last) that thread T of the folding block takes, in row order.
__device__ inline void
fold_span (unsigned height, unsigned *first, unsigned *last)
{
  unsigned per = (height + kFoldThreads - 1) / kFoldThreads;
  *first = min (height, threadIdx.x * per);
  *last = min (height, *first + per);
}

// Smallest and largest of the rows' extremes; valid in thread 0.
__device__ inline RangeRow
fold_range (const RangeRow *rows, unsigned height)
{
  __shared__ float scratch[kFoldThreads / 32];
  unsigned first, last;
  fold_span (height, &first, &last);
  float lo = INFINITY, hi = -INFINITY;
  for (unsigned y = first; y < last; y++)
    lo = fminf (lo, rows[y].min), hi = fmaxf (hi, rows[y].max);
  RangeRow r;
  r.min = block_reduce (lo, Min (), scratch);
  r.max = block_reduce (hi, Max (), scratch);
  return r;
}

} // namespace lm_hdr
