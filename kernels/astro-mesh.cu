/* The background mesh on the device, with core/astro/background.c's rules and detect-math.h's
 * arithmetic: each box's values sorted (CUB's segmented sort of the box-major keys) and κ-σ
 * clipped by one block exactly as the whole image is (a pass keeps a run of the sorted keys;
 * lm_astro_clip_pass), SExtractor's mode; boxes with too few finite pixels take their
 * nearest good neighbours' mean (lm_astro_nearest_in_column, lm_astro_fill_row); both meshes
 * median-filtered; then the natural cubic spline down each mesh column, and along each image
 * row through the column values at that row, the noise held at or above the boxes around
 * each pixel (lm_astro_noise_at). */
#include <cub/device/device_segmented_sort.cuh>

#include "astro-common.cuh"
#include "astro-kernels.h"

#define MAX_HALF 49 /* the widest median filter (99 boxes) on each side of its box */

static_assert (sizeof (LmAstroNearest) <= 4 * sizeof (double) && sizeof (int64_t) <= sizeof (double),
               "the fill's arrays fit in the splines' scratch");

typedef struct {
  unsigned width, height, mesh, nx, ny;
} Mesh;

/* Where the mesh's arrays lie in the run's float and double buffers; C is 0 for the
 * background, 1 for the noise. The bad boxes' fill is done before the splines begin, in their
 * scratch: its nearest boxes (3 doubles a box) in the columns' (4 a box), its rows' scratch
 * (3 integers a box) in the rows' (4 a box of each image row, and no mesh has more rows
 * than the image). */
typedef struct {
  float *boxes, *filtered, *d2y, *nodes, *d2x;
  double *column_scratch, *row_scratch;
  LmAstroNearest *near;
  int64_t *fill_scratch;
} MeshArrays;

static Mesh
mesh_of (unsigned width, unsigned height, unsigned mesh)
{
  return (Mesh) { width, height, mesh, (width + mesh - 1) / mesh, (height + mesh - 1) / mesh };
}

static MeshArrays
arrays_of (const Mesh *m, float *floats, double *doubles)
{
  size_t nb = (size_t) m->nx * m->ny, row = (size_t) 2 * m->height * m->nx;
  return (MeshArrays) { floats, floats + 2 * nb, floats + 4 * nb, floats + 6 * nb, floats + 6 * nb + row,
                        doubles, doubles + 4 * nb, (LmAstroNearest *) doubles, (int64_t *) (doubles + 4 * nb) };
}

extern "C" void
lm_k_mesh_sizes (unsigned width, unsigned height, unsigned mesh, size_t *floats, size_t *doubles)
{
  Mesh m = mesh_of (width, height, mesh);
  size_t nb = (size_t) m.nx * m.ny, row = (size_t) 2 * m.height * m.nx;
  *floats = 6 * nb + 2 * row;
  *doubles = 4 * nb + 2 * row;
}

__device__ static inline unsigned
box_size (unsigned i, unsigned n, unsigned mesh)
{
  return n - i * mesh < mesh ? n - i * mesh : mesh;
}

/* Where box (BX, BY) begins in the box-major order: the box rows above it, whole, then the
 * boxes before it in its row. */
__device__ static inline size_t
box_start (const Mesh *m, unsigned bx, unsigned by)
{
  return (size_t) by * m->mesh * m->width + (size_t) bx * m->mesh * box_size (by, m->height, m->mesh);
}

__global__ static void
box_offsets (Mesh m, uint32_t *offsets)
{
  unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned nb = m.nx * m.ny;
  if (b < nb)
    offsets[b] = (uint32_t) box_start (&m, b % m.nx, b / m.nx);
  if (b == nb)
    offsets[b] = m.width * m.height;
}

/* The image's keys in box-major order, each box's rows one after the other. */
__global__ static void
gather_boxes (const float *data, size_t pitch, Mesh m, uint32_t *keys)
{
  size_t n = (size_t) m.width * m.height;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      unsigned y = (unsigned) (i / m.width), x = (unsigned) (i % m.width);
      unsigned bx = x / m.mesh, by = y / m.mesh;
      unsigned bw = box_size (bx, m.width, m.mesh);
      size_t at = box_start (&m, bx, by) + (size_t) (y - by * m.mesh) * bw + (x - bx * m.mesh);
      keys[at] = lm_astro_key (data[(size_t) y * pitch + x]);
    }
}

/* One box's background (SExtractor's mode) and σ, by one block; NaN for a bad box (under
 * half its pixels finite), which fill_rows fills. */
__global__ static void
box_clip (const uint32_t *sorted, const uint32_t *offsets, double kappa, int max_iterations, unsigned nb,
          float *boxes)
{
  __shared__ double shared[LM_ASTRO_BLOCK];
  __shared__ LmAstroClipRun run;
  __shared__ LmKClipStats stats;
  unsigned b = blockIdx.x;
  const uint32_t *keys = sorted + offsets[b];
  uint32_t n = offsets[b + 1] - offsets[b];
  if (threadIdx.x == 0)
    {
      uint32_t i0 = lm_astro_key_lower_bound (keys, 0, n, LM_KEY_FINITE_MIN);
      uint32_t end = lm_astro_key_lower_bound (keys, i0, n, LM_KEY_FINITE_MAX + 1u);
      run = (LmAstroClipRun) { i0, end - 1, 0, end == i0 || 2 * (end - i0) < n };
      stats.finite = 0;
    }
  __syncthreads ();
  while (!run.done)
    {
      LmAstroClipRun r = run;
      double median = lm_astro_run_median (keys, r);
      double s = 0.0, s2 = 0.0;
      for (uint32_t i = r.i0 + threadIdx.x; i <= r.i1; i += LM_ASTRO_BLOCK)
        {
          double d = (double) lm_astro_key_float (keys[i]) - median;
          s += d;
          s2 += d * d;
        }
      s = lm_astro_block_sum (s, shared);
      s2 = lm_astro_block_sum (s2, shared);
      if (threadIdx.x == 0)
        lm_astro_clip_pass (keys, &run, s, s2, kappa, max_iterations, &stats);
      __syncthreads ();
    }
  if (threadIdx.x == 0)
    {
      boxes[b] = stats.finite ? (float) lm_astro_box_mode (stats.mean, stats.median, stats.std) : NAN;
      boxes[nb + b] = stats.finite ? (float) stats.std : NAN;
    }
}

__device__ static inline LmAstroMesh
boxes_of (const Mesh *m, const MeshArrays *a)
{
  LmAstroMesh boxes = { a->boxes, a->boxes + (size_t) m->nx * m->ny, m->nx, m->ny };
  return boxes;
}

/* The bad boxes' fill, first pass (thread: mesh column). */
__global__ static void
nearest_in_columns (Mesh m, MeshArrays a)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= m.nx)
    return;
  LmAstroMesh boxes = boxes_of (&m, &a);
  lm_astro_nearest_in_column (&boxes, x, a.near);
}

/* Second pass (thread: mesh row): a bad box takes the mean of the nearest good ones; with no
 * good box at all, every box the whole image's median and σ. */
__global__ static void
fill_rows (Mesh m, MeshArrays a, const LmKClipStats *global)
{
  unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= m.ny)
    return;
  LmAstroMesh boxes = boxes_of (&m, &a);
  lm_astro_fill_row (&boxes, y, a.near, (float) global->median, (float) global->std,
                     a.fill_scratch + (size_t) 3 * m.nx * y);
}

/* The median filter of one box of one mesh (block (box, mesh)), its window narrowed
 * symmetrically near the edges; the median as lm_median_select: the middle value, or the
 * float mean of the two middle ones, found by counting ranks. */
__global__ static void
median_filter (Mesh m, const float *in, unsigned size, float *out)
{
  __shared__ float window[(2 * MAX_HALF + 1) * (2 * MAX_HALF + 1)];
  __shared__ float middle[2];
  unsigned nb = m.nx * m.ny, box = blockIdx.x, c = blockIdx.y;
  int x = (int) (box % m.nx), y = (int) (box / m.nx), half = (int) size / 2;
  int hx = min (half, min (x, (int) m.nx - 1 - x)), hy = min (half, min (y, (int) m.ny - 1 - y));
  int w = 2 * hx + 1, n = w * (2 * hy + 1);
  for (int k = threadIdx.x; k < n; k += blockDim.x)
    window[k] = in[c * nb + (size_t) (y - hy + k / w) * m.nx + (x - hx + k % w)];
  __syncthreads ();
  int kth = n / 2;
  for (int k = threadIdx.x; k < n; k += blockDim.x)
    {
      float v = window[k];
      int below = 0, at_most = 0;
      for (int j = 0; j < n; j++)
        {
          below += window[j] < v;
          at_most += window[j] <= v;
        }
      /* V is the r-th smallest for every r in [below, at_most). */
      if (below <= kth && kth < at_most)
        middle[1] = v;
      if (below <= kth - 1 && kth - 1 < at_most)
        middle[0] = v;
    }
  __syncthreads ();
  if (threadIdx.x == 0)
    {
      float sum = middle[0] + middle[1];
      out[c * nb + box] = n % 2 == 1 ? middle[1] : sum * 0.5f;
    }
}

/* Second derivatives down each mesh column (thread: column, mesh). */
__global__ static void
column_splines (Mesh m, MeshArrays a)
{
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, nb = m.nx * m.ny;
  if (t >= 2 * m.nx)
    return;
  unsigned c = t / m.nx, x = t % m.nx;
  lm_astro_spline_d2 (a.filtered + c * nb + x, m.nx, (int) m.ny, a.d2y + c * nb + x,
                      a.column_scratch + (size_t) t * 2 * m.ny);
}

/* Each image row's nodes (the column splines at the row) and their second derivatives along
 * the row (thread: row, mesh). */
__global__ static void
row_splines (Mesh m, MeshArrays a)
{
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, nb = m.nx * m.ny;
  if (t >= 2 * m.height)
    return;
  unsigned c = t / m.height, y = t % m.height;
  const float *grid = a.filtered + c * nb, *d2y = a.d2y + c * nb;
  float *nodes = a.nodes + (size_t) t * m.nx, *d2x = a.d2x + (size_t) t * m.nx;
  if (m.ny > 1)
    {
      double f;
      int k = lm_astro_spline_interval (y, m.mesh, (int) m.ny, &f);
      for (unsigned x = 0; x < m.nx; x++)
        {
          size_t lo = (size_t) k * m.nx + x, hi = lo + m.nx;
          nodes[x] = (float) lm_astro_spline_eval (grid[lo], grid[hi], d2y[lo], d2y[hi], f);
        }
    }
  else
    for (unsigned x = 0; x < m.nx; x++)
      nodes[x] = grid[x];
  if (m.nx > 1)
    lm_astro_spline_d2 (nodes, 1, (int) m.nx, d2x, a.row_scratch + (size_t) t * 2 * m.nx);
}

__global__ static void
mesh_maps (Mesh m, MeshArrays a, float *background, float *noise)
{
  size_t n = (size_t) m.width * m.height;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      unsigned y = (unsigned) (i / m.width), x = (unsigned) (i % m.width);
      for (unsigned c = 0; c < 2; c++)
        {
          const float *nodes = a.nodes + ((size_t) c * m.height + y) * m.nx;
          const float *d2x = a.d2x + ((size_t) c * m.height + y) * m.nx;
          float v = nodes[0];
          int kx = 0, ky = 0;
          if (m.nx > 1)
            {
              double f;
              kx = lm_astro_spline_interval (x, m.mesh, (int) m.nx, &f);
              v = (float) lm_astro_spline_eval (nodes[kx], nodes[kx + 1], d2x[kx], d2x[kx + 1], f);
            }
          if (c == 0)
            {
              background[i] = v;
              continue;
            }
          if (m.ny > 1)
            {
              double f;
              ky = lm_astro_spline_interval (y, m.mesh, (int) m.ny, &f);
            }
          noise[i] = lm_astro_noise_at (v, lm_astro_noise_least (a.filtered + (size_t) m.nx * m.ny, m.nx, m.ny, kx, ky));
        }
    }
}

__global__ static void
flat_maps (size_t n, const LmKClipStats *global, float *background, float *noise)
{
  float bg = (float) global->median, sg = (float) global->std;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      background[i] = bg;
      noise[i] = sg;
    }
}

static unsigned
grid_for (size_t n)
{
  unsigned blocks = lm_div_up (n, 256);
  return blocks < 65535u * 8 ? blocks : 65535u * 8;
}

extern "C" cudaError_t
lm_k_mesh_sort_size (unsigned width, unsigned height, unsigned mesh, size_t *bytes)
{
  Mesh m = mesh_of (width, height, mesh);
  *bytes = 0;
  return cub::DeviceSegmentedSort::SortKeys (NULL, *bytes, (const uint32_t *) NULL, (uint32_t *) NULL,
                                             (int64_t) width * height, (int64_t) m.nx * m.ny,
                                             (const uint32_t *) NULL, (const uint32_t *) NULL);
}

extern "C" cudaError_t
lm_k_mesh_background (const LmKDetectJob *job, LmKDetectWork *work, cudaStream_t stream)
{
  size_t n = (size_t) job->width * job->height;
  if (job->mesh == 0)
    {
      flat_maps<<<grid_for (n), 256, 0, stream>>> (n, work->global, work->background, work->noise);
      LM_CUDA_LAUNCHED ();
      return cudaSuccess;
    }
  if (job->mesh_filter > 2 * MAX_HALF + 1)
    return cudaErrorInvalidValue;
  Mesh m = mesh_of (job->width, job->height, job->mesh);
  MeshArrays a = arrays_of (&m, work->mesh_floats, work->mesh_doubles);
  unsigned nb = m.nx * m.ny;
  box_offsets<<<lm_div_up (nb + 1, 256), 256, 0, stream>>> (m, work->box_offsets);
  LM_CUDA_LAUNCHED ();
  gather_boxes<<<grid_for (n), 256, 0, stream>>> (job->data, job->pitch, m, work->keys);
  LM_CUDA_LAUNCHED ();
  size_t bytes = work->sort_temp_size;
  LM_CUDA_TRY (cub::DeviceSegmentedSort::SortKeys (work->sort_temp, bytes, work->keys, work->sorted, (int64_t) n,
                                                   (int64_t) nb, work->box_offsets, work->box_offsets + 1, stream));
  box_clip<<<nb, LM_ASTRO_BLOCK, 0, stream>>> (work->sorted, work->box_offsets, job->kappa, job->max_iterations, nb,
                                               a.boxes);
  LM_CUDA_LAUNCHED ();
  nearest_in_columns<<<lm_div_up (m.nx, 64), 64, 0, stream>>> (m, a);
  LM_CUDA_LAUNCHED ();
  fill_rows<<<lm_div_up (m.ny, 64), 64, 0, stream>>> (m, a, work->global);
  LM_CUDA_LAUNCHED ();
  median_filter<<<dim3 (nb, 2), 128, 0, stream>>> (m, a.boxes, job->mesh_filter, a.filtered);
  LM_CUDA_LAUNCHED ();
  column_splines<<<lm_div_up (2 * m.nx, 64), 64, 0, stream>>> (m, a);
  LM_CUDA_LAUNCHED ();
  row_splines<<<lm_div_up (2 * (size_t) m.height, 64), 64, 0, stream>>> (m, a);
  LM_CUDA_LAUNCHED ();
  mesh_maps<<<grid_for (n), 256, 0, stream>>> (m, a, work->background, work->noise);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}
