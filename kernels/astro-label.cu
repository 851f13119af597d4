/* Connected-component labelling on the device, numbered as scipy.ndimage.label (and
 * core/astro/label.c): a parallel union-find over the mask (Playne and Hawick's, "A New
 * Algorithm for Parallel Connected-Component Labelling on GPUs", 2018) in which every union
 * links the larger root under the smaller with atomicMin, so that each component's root ends
 * as its smallest raster index, its first pixel; the roots' flags summed in raster order (CUB's
 * exclusive scan) then number the components 1, 2, … in the order of their first pixels.
 * The minimum area drops and renumbers the same way: areas and bounding boxes by integer
 * atomics, then a prefix sum over the kept labels. */
#include <cub/device/device_scan.cuh>

#include "astro-common.cuh"
#include "astro-kernels.h"

#define NONE 0xFFFFFFFFu

static unsigned
grid_for (size_t n)
{
  unsigned blocks = lm_div_up (n, 256);
  return blocks < 65535u * 8 ? blocks : 65535u * 8;
}

#define FOR_EACH(i, n)                                                                            \
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < (n); i += (size_t) gridDim.x * blockDim.x)

__global__ static void
init_labels (const uint8_t *mask, size_t n, uint32_t *labels)
{
  FOR_EACH (i, n)
  labels[i] = mask[i] ? (uint32_t) i : NONE;
}

/* The root of X; others' unions may be moving roots meanwhile, hence the volatile reads. */
__device__ static inline uint32_t
find_root (const volatile uint32_t *labels, uint32_t x)
{
  uint32_t next;
  while ((next = labels[x]) != x)
    x = next;
  return x;
}

__device__ static inline void
unite (uint32_t *labels, uint32_t a, uint32_t b)
{
  for (;;)
    {
      a = find_root (labels, a);
      b = find_root (labels, b);
      if (a == b)
        return;
      uint32_t hi = a > b ? a : b, lo = a < b ? a : b;
      uint32_t old = atomicMin (&labels[hi], lo);
      if (old == hi)
        return;
      /* HI was no longer a root: try again from where it went. */
      a = old;
      b = lo;
    }
}

__global__ static void
merge (const uint8_t *mask, unsigned width, unsigned height, int connectivity, uint32_t *labels)
{
  size_t n = (size_t) width * height;
  FOR_EACH (i, n)
  {
    if (!mask[i])
      continue;
    unsigned x = (unsigned) (i % width), y = (unsigned) (i / width);
    if (x > 0 && mask[i - 1])
      unite (labels, (uint32_t) i, (uint32_t) (i - 1));
    if (y > 0)
      {
        size_t up = i - width;
        if (mask[up])
          unite (labels, (uint32_t) i, (uint32_t) up);
        if (connectivity == 8)
          {
            if (x > 0 && mask[up - 1])
              unite (labels, (uint32_t) i, (uint32_t) (up - 1));
            if (x + 1 < width && mask[up + 1])
              unite (labels, (uint32_t) i, (uint32_t) (up + 1));
          }
      }
  }
}

/* Every pixel to its root; FLAGS[i] = 1 where pixel i is a root (n + 1 entries, the last 0). */
__global__ static void
compress (size_t n, uint32_t *labels, uint32_t *flags)
{
  FOR_EACH (i, n + 1)
  {
    if (i == n)
      {
        flags[i] = 0;
        continue;
      }
    uint32_t l = labels[i];
    if (l != NONE)
      {
        l = find_root (labels, l);
        labels[i] = l;
      }
    flags[i] = l == (uint32_t) i;
  }
}

/* Labels from 1 in raster order of the roots; the count, and the per-label tables cleared. */
__global__ static void
number (size_t n, const uint32_t *scan, uint32_t *labels, uint32_t *counts)
{
  FOR_EACH (i, n)
  {
    uint32_t l = labels[i];
    labels[i] = l == NONE ? 0 : scan[l] + 1;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    counts[0] = scan[n];
}

__global__ static void
clear_tables (const uint32_t *counts, uint32_t *area, uint32_t *xmin, uint32_t *ymin, uint32_t *xmax, uint32_t *ymax)
{
  FOR_EACH (l, counts[0])
  {
    area[l] = 0;
    xmin[l] = ymin[l] = NONE;
    xmax[l] = ymax[l] = 0;
  }
}

__global__ static void
tables (const uint32_t *labels, unsigned width, unsigned height, uint32_t *area, uint32_t *xmin, uint32_t *ymin,
        uint32_t *xmax, uint32_t *ymax)
{
  FOR_EACH (i, (size_t) width * height)
  {
    uint32_t l = labels[i];
    if (l == 0)
      continue;
    unsigned x = (unsigned) (i % width), y = (unsigned) (i / width);
    atomicAdd (&area[l - 1], 1u);
    atomicMin (&xmin[l - 1], x);
    atomicMin (&ymin[l - 1], y);
    atomicMax (&xmax[l - 1], x);
    atomicMax (&ymax[l - 1], y);
  }
}

/* KEEP[l] = 1 for labels of MIN_AREA pixels or more (the entries after the count are left). */
__global__ static void
keep_flags (const uint32_t *counts, const uint32_t *area, unsigned min_area, uint32_t *keep)
{
  FOR_EACH (l, counts[0] + 1)
  keep[l] = l < counts[0] && area[l] >= min_area;
}

/* Kept label K (0-based) ← the old label's row in the tables (OLD_OF), and the count kept. */
__global__ static void
kept_rows (uint32_t *counts, const uint32_t *area, unsigned min_area, const uint32_t *scan, uint32_t *old_of)
{
  FOR_EACH (l, counts[0])
  {
    if (area[l] >= min_area)
      old_of[scan[l]] = (uint32_t) l;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    counts[1] = scan[counts[0]];
}

__global__ static void
renumber (size_t n, const uint32_t *area, unsigned min_area, const uint32_t *scan, uint32_t *labels)
{
  FOR_EACH (i, n)
  {
    uint32_t l = labels[i];
    if (l != 0)
      labels[i] = area[l - 1] >= min_area ? scan[l - 1] + 1 : 0;
  }
}

/* Labels at most: one in two pixels (4-connectivity's checkerboard), and one. */
extern "C" size_t
lm_k_label_max (size_t n)
{
  return n / 2 + 2;
}

extern "C" cudaError_t
lm_k_label_scan_size (size_t n, size_t *bytes)
{
  *bytes = 0;
  return cub::DeviceScan::ExclusiveSum (NULL, *bytes, (uint32_t *) NULL, (uint32_t *) NULL, (int64_t) n + 1);
}

extern "C" cudaError_t
lm_k_detect_label (const LmKDetectJob *job, LmKDetectWork *work, cudaStream_t stream)
{
  size_t n = (size_t) job->width * job->height;
  unsigned grid = grid_for (n);
  size_t bytes = work->sort_temp_size;
  init_labels<<<grid, 256, 0, stream>>> (work->mask, n, work->labels);
  LM_CUDA_LAUNCHED ();
  merge<<<grid, 256, 0, stream>>> (work->mask, job->width, job->height, job->connectivity, work->labels);
  LM_CUDA_LAUNCHED ();
  compress<<<grid_for (n + 1), 256, 0, stream>>> (n, work->labels, work->scan);
  LM_CUDA_LAUNCHED ();
  LM_CUDA_TRY (cub::DeviceScan::ExclusiveSum (work->sort_temp, bytes, work->scan, work->scan, (int64_t) n + 1, stream));
  number<<<grid, 256, 0, stream>>> (n, work->scan, work->labels, work->counts);
  LM_CUDA_LAUNCHED ();

  /* The minimum area. The scan covers the largest possible count: the host does not wait
   * for the real one. */
  size_t max = lm_k_label_max (n);
  clear_tables<<<grid_for (max), 256, 0, stream>>> (work->counts, work->area, work->xmin, work->ymin, work->xmax,
                                                     work->ymax);
  LM_CUDA_LAUNCHED ();
  tables<<<grid, 256, 0, stream>>> (work->labels, job->width, job->height, work->area, work->xmin, work->ymin,
                                    work->xmax, work->ymax);
  LM_CUDA_LAUNCHED ();
  keep_flags<<<grid_for (max), 256, 0, stream>>> (work->counts, work->area, job->min_area, work->renumber);
  LM_CUDA_LAUNCHED ();
  bytes = work->sort_temp_size;
  LM_CUDA_TRY (cub::DeviceScan::ExclusiveSum (work->sort_temp, bytes, work->renumber, work->renumber,
                                              (int64_t) max, stream));
  /* SCAN's pixel flags are spent: it holds each kept label's row in the tables now. */
  kept_rows<<<grid_for (max), 256, 0, stream>>> (work->counts, work->area, job->min_area, work->renumber, work->scan);
  LM_CUDA_LAUNCHED ();
  renumber<<<grid, 256, 0, stream>>> (n, work->area, job->min_area, work->renumber, work->labels);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
