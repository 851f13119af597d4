/* Measurements per source on the device, as core/astro/measure.c: one block a source, over
 * its bounding box (from the labelling's tables) in raster order, each thread a fixed set of
 * the box's pixels, the sums in double added by a tree of fixed shape: no float atomics, the
 * same sums whatever the grid. Coordinates are summed relative to the box's corner, which
 * keeps the second moments from cancelling. The peak: the largest residual, the first in
 * raster order among equals. */
#include "astro-common.cuh"
#include "astro-kernels.h"

#define SUMS 8

__global__ static void
measure (LmKDetectJob job, const float *background, const uint32_t *labels, const uint32_t *old_of,
         const uint32_t *area, const uint32_t *xmin, const uint32_t *ymin, const uint32_t *xmax, const uint32_t *ymax,
         LmKSource *sources)
{
  __shared__ double shared[LM_ASTRO_BLOCK];
  __shared__ float peak_v[LM_ASTRO_BLOCK];
  __shared__ uint32_t peak_i[LM_ASTRO_BLOCK];
  unsigned s = blockIdx.x, t = threadIdx.x;
  uint32_t row = old_of[s], label = s + 1;
  uint32_t x0 = xmin[row], y0 = ymin[row], bw = xmax[row] - x0 + 1, bh = ymax[row] - y0 + 1;
  double sum[SUMS] = { 0 };
  float best = -INFINITY;
  uint32_t best_at = 0xFFFFFFFFu;
  size_t box = (size_t) bw * bh;
  for (size_t k = t; k < box; k += LM_ASTRO_BLOCK)
    {
      uint32_t dx = (uint32_t) (k % bw), dy = (uint32_t) (k / bw);
      size_t i = (size_t) (y0 + dy) * job.width + x0 + dx;
      if (labels[i] != label)
        continue;
      float data = job.data[(size_t) (y0 + dy) * job.pitch + x0 + dx];
      float bg = background[i];
      float v = data - bg;
      double w = v;
      sum[0] += w;
      sum[1] += w * dx;
      sum[2] += w * dy;
      sum[3] += w * dx * dx;
      sum[4] += w * dy * dy;
      sum[5] += w * dx * dy;
      sum[6] += data;
      sum[7] += bg;
      /* K grows in raster order within the box: the first of equals stays. */
      if (v > best)
        best = v, best_at = (uint32_t) k;
    }
  for (int j = 0; j < SUMS; j++)
    sum[j] = lm_astro_block_sum (sum[j], shared);
  peak_v[t] = best;
  peak_i[t] = best_at;
  __syncthreads ();
  for (unsigned half = LM_ASTRO_BLOCK / 2; half > 0; half /= 2)
    {
      if (t < half)
        {
          float v = peak_v[t + half];
          uint32_t at = peak_i[t + half];
          if (v > peak_v[t] || (v == peak_v[t] && at < peak_i[t]))
            peak_v[t] = v, peak_i[t] = at;
        }
      __syncthreads ();
    }
  if (t != 0)
    return;
  LmKSource o;
  double f = sum[0];
  double cx = sum[1] / f, cy = sum[2] / f;
  o.label = label;
  o.x = x0 + cx;
  o.y = y0 + cy;
  o.flux = f;
  o.flux_raw = sum[6];
  o.background = sum[7];
  o.x2 = sum[3] / f - cx * cx;
  o.y2 = sum[4] / f - cy * cy;
  o.xy = sum[5] / f - cx * cy;
  lm_astro_shape (o.x2, o.y2, o.xy, &o.a, &o.b, &o.theta);
  o.fwhm = lm_astro_fwhm (o.a, o.b);
  o.peak = peak_v[0];
  o.peak_x = x0 + peak_i[0] % bw;
  o.peak_y = y0 + peak_i[0] / bw;
  o.area = area[row];
  o.xmin = x0;
  o.ymin = y0;
  o.xmax = x0 + bw - 1;
  o.ymax = y0 + bh - 1;
  sources[s] = o;
}

extern "C" cudaError_t
lm_k_detect_measure (const LmKDetectJob *job, LmKDetectWork *work, unsigned n_sources, LmKSource *sources,
                     cudaStream_t stream)
{
  if (n_sources == 0)
    return cudaSuccess;
  measure<<<n_sources, LM_ASTRO_BLOCK, 0, stream>>> (*job, work->background, work->labels, work->scan, work->area,
                                                     work->xmin, work->ymin, work->xmax, work->ymax, sources);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
