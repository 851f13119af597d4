/* What the source-detection kernels (kernels/astro-*.cu) share: float keys that sort as the
 * floats do, searches in sorted keys, block reductions of a fixed shape (every sum added in
 * one order whatever the grid), and one clipping pass on a sorted run with core/astro/clip.c's
 * exact rules. */
#pragma once

#include <stdint.h>

#include "astro-kernels.h"
#include "core/astro/detect-math.h"
#include "cuda-check.h"

#define LM_ASTRO_BLOCK 256 /* every reducing kernel runs this many threads */

/* An unsigned key ordered as the floats are (−inf < … < −0 < +0 < … < +inf); every NaN gets
 * the largest key, after +inf, so that sorted keys hold the finite values together. */
__host__ __device__ static inline uint32_t
lm_astro_key (float v)
{
  union { float f; uint32_t u; } c;
  c.f = v;
  if (v != v)
    return 0xFFFFFFFFu;
  return (c.u & 0x80000000u) ? ~c.u : c.u | 0x80000000u;
}

__host__ __device__ static inline float
lm_astro_key_float (uint32_t k)
{
  union { float f; uint32_t u; } c;
  c.u = (k & 0x80000000u) ? k & 0x7FFFFFFFu : ~k;
  return c.f;
}

/* The keys of the finite floats: −FLT_MAX … FLT_MAX. */
#define LM_KEY_FINITE_MIN 0x00800000u
#define LM_KEY_FINITE_MAX 0xFF7FFFFFu

/* The first index in [LO, HI) whose float is ≥ BOUND (HI when none); float comparisons, as
 * clip.c's (−0 and +0 are equal there and adjacent here). */
__device__ static inline uint32_t
lm_astro_first_at_least (const uint32_t *sorted, uint32_t lo, uint32_t hi, float bound)
{
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (lm_astro_key_float (sorted[mid]) >= bound)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* The first index in [LO, HI) whose float is > BOUND (HI when none). */
__device__ static inline uint32_t
lm_astro_first_above (const uint32_t *sorted, uint32_t lo, uint32_t hi, float bound)
{
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (lm_astro_key_float (sorted[mid]) > bound)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* The first index in [LO, HI) whose key is ≥ KEY. */
__device__ static inline uint32_t
lm_astro_key_lower_bound (const uint32_t *sorted, uint32_t lo, uint32_t hi, uint32_t key)
{
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (sorted[mid] >= key)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* The sum of every thread's V over a block of LM_ASTRO_BLOCK threads, a tree of fixed shape;
 * the result in every thread. SHARED holds LM_ASTRO_BLOCK doubles. */
__device__ static inline double
lm_astro_block_sum (double v, double *shared)
{
  unsigned t = threadIdx.x;
  __syncthreads ();
  shared[t] = v;
  __syncthreads ();
  for (unsigned half = LM_ASTRO_BLOCK / 2; half > 0; half /= 2)
    {
      if (t < half)
        shared[t] += shared[t + half];
      __syncthreads ();
    }
  double sum = shared[0];
  __syncthreads ();
  return sum;
}

/* What a clipping has kept: the sorted run [I0, I1] (inclusive), after ROUND passes. */
typedef struct {
  uint32_t i0, i1;
  int round, done;
} LmAstroClipRun;

/* The run's median as lm_median_select gives it: the middle value, or the float mean of the
 * two middle ones. */
__device__ static inline float
lm_astro_run_median (const uint32_t *sorted, LmAstroClipRun run)
{
  uint32_t n = run.i1 - run.i0 + 1, k = n / 2;
  float upper = lm_astro_key_float (sorted[run.i0 + k]);
  if (n % 2 == 1)
    return upper;
  float sum = lm_astro_key_float (sorted[run.i0 + k - 1]) + upper;
  return sum * 0.5f;
}

/* One pass of lm_clip_values on the run, from the sums of (v − median) and (v − median)² over
 * it: its statistics into STATS, and the next run into *RUN (done when this pass is the last:
 * MAX_ITERATIONS passes ran, or the next would keep the same values). */
__device__ static inline void
lm_astro_clip_pass (const uint32_t *sorted, LmAstroClipRun *run, double s, double s2, double kappa,
                    int max_iterations, LmKClipStats *stats)
{
  LmAstroClipRun r = *run;
  double count = (double) (r.i1 - r.i0 + 1);
  float median = lm_astro_run_median (sorted, r);
  double m = s / count, var = s2 / count - m * m;
  double std = var > 0.0 ? sqrt (var) : 0.0;
  *stats = (LmKClipStats) { median + m, median, std, r.i1 - r.i0 + 1ull, r.round, 1 };
  if (r.round >= max_iterations)
    {
      run->done = 1;
      return;
    }
  float std_f = (float) std;
  float lo = (float) ((double) median - (double) std_f * kappa);
  float hi = (float) ((double) median + (double) std_f * kappa);
  uint32_t i0 = lm_astro_first_at_least (sorted, r.i0, r.i1 + 1, lo);
  uint32_t end = lm_astro_first_above (sorted, i0, r.i1 + 1, hi);
  stats->iterations = r.round + 1;
  if ((i0 == r.i0 && end == r.i1 + 1) || end == i0)
    run->done = 1; /* nothing clipped (clip.c's last pass); the second cannot happen */
  else
    *run = (LmAstroClipRun) { i0, end - 1, r.round + 1, 0 };
}

/* Between the astro-*.cu files (see each for what it does). */
extern "C" {
cudaError_t lm_k_clip_sort_size (size_t n, size_t *bytes);
size_t lm_k_clip_partials_size (size_t n);
cudaError_t lm_k_clip_make_keys (const float *data, unsigned width, unsigned height, size_t pitch, uint32_t *keys,
                                 cudaStream_t stream);
cudaError_t lm_k_clip_keys (size_t n, double kappa, int max_iterations, LmKDetectWork *work, cudaStream_t stream);
cudaError_t lm_k_mesh_sort_size (unsigned width, unsigned height, unsigned mesh, size_t *bytes);
void lm_k_mesh_sizes (unsigned width, unsigned height, unsigned mesh, size_t *floats, size_t *doubles);
cudaError_t lm_k_mesh_background (const LmKDetectJob *job, LmKDetectWork *work, cudaStream_t stream);
size_t lm_k_label_max (size_t n);
cudaError_t lm_k_label_scan_size (size_t n, size_t *bytes);
}
