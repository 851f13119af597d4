/* Source detection's device buffers (one allocation, carved here) and its first step, the
 * background: the whole image's clipping (astro-clip.cu), then the maps (astro-mesh.cu). */
#include <cub/device/device_radix_sort.cuh>

#include "astro-common.cuh"
#include "astro-kernels.h"
#include "core/ops/blur-math.h"

#define ALIGN 256

/* Lays the buffers out from BASE (NULL: only counts), returning the bytes. */
static cudaError_t
layout (unsigned width, unsigned height, unsigned mesh, char *base, LmKDetectWork *w, size_t *bytes)
{
  size_t n = (size_t) width * height, at = 0;
  size_t max_labels = lm_k_label_max (n);
#define CARVE(field, type, count)                                                                   \
  do                                                                                                \
    {                                                                                               \
      w->field = base ? (type *) (base + at) : NULL;                                                \
      at += (((count) * sizeof (type) + ALIGN - 1) / ALIGN) * ALIGN;                                \
    }                                                                                               \
  while (0)
  CARVE (background, float, n);
  CARVE (noise, float, n);
  CARVE (filtered, float, n);
  CARVE (row_pass, float, n);
  CARVE (mask, uint8_t, n);
  CARVE (labels, uint32_t, n);
  CARVE (scan, uint32_t, n + 1);
  CARVE (keys, uint32_t, n);
  CARVE (sorted, uint32_t, n);
  CARVE (partials, double, lm_k_clip_partials_size (n) / sizeof (double));
  CARVE (global, LmKClipStats, 1);
  CARVE (clip_state, double, 32);
  size_t floats = 0, doubles = 0;
  unsigned nb = 0;
  if (mesh > 0)
    {
      lm_k_mesh_sizes (width, height, mesh, &floats, &doubles);
      nb = ((width + mesh - 1) / mesh) * ((height + mesh - 1) / mesh);
    }
  CARVE (box_offsets, uint32_t, nb + 1);
  CARVE (mesh_floats, float, floats);
  CARVE (mesh_doubles, double, doubles);
  CARVE (area, uint32_t, max_labels);
  CARVE (xmin, uint32_t, max_labels);
  CARVE (ymin, uint32_t, max_labels);
  CARVE (xmax, uint32_t, max_labels);
  CARVE (ymax, uint32_t, max_labels);
  CARVE (renumber, uint32_t, max_labels);
  CARVE (counts, uint32_t, 4);
  CARVE (weights, float, LM_BLUR_RADIUS_MAX + 1);
  CARVE (sources, LmKSource, LM_K_DETECT_SOURCES);
#undef CARVE
  /* CUB's scratch: the most any of the sorts and scans asks. */
  size_t temp = 0, need = 0;
  LM_CUDA_TRY (lm_k_clip_sort_size (n, &need));
  temp = need > temp ? need : temp;
  if (mesh > 0)
    {
      LM_CUDA_TRY (lm_k_mesh_sort_size (width, height, mesh, &need));
      temp = need > temp ? need : temp;
    }
  LM_CUDA_TRY (lm_k_label_scan_size (n, &need));
  temp = need > temp ? need : temp;
  w->sort_temp = base ? base + at : NULL;
  w->sort_temp_size = temp;
  at += ((temp + ALIGN - 1) / ALIGN) * ALIGN;
  *bytes = at;
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_detect_size (unsigned width, unsigned height, unsigned mesh, size_t *bytes)
{
  LmKDetectWork w;
  return layout (width, height, mesh, NULL, &w, bytes);
}

extern "C" cudaError_t
lm_k_detect_bind (unsigned width, unsigned height, unsigned mesh, void *memory, LmKDetectWork *work)
{
  size_t bytes;
  return layout (width, height, mesh, (char *) memory, work, &bytes);
}

extern "C" cudaError_t
lm_k_detect_background (const LmKDetectJob *job, LmKDetectWork *work, cudaStream_t stream)
{
  LM_CUDA_TRY (lm_k_clip_make_keys (job->data, job->width, job->height, job->pitch, work->keys, stream));
  LM_CUDA_TRY (lm_k_clip_keys ((size_t) job->width * job->height, job->kappa, job->max_iterations, work, stream));
  return lm_k_mesh_background (job, work, stream);
}
