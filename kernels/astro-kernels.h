/* Source detection on the device (kernels/astro-*.cu), for core/backend/cuda-detect.c: the
 * steps of core/astro/detect.h on device buffers, queued on one stream, with no copy back to
 * the host but the label count. Plain C; every function returns the first CUDA error. */
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct LmKDetectJob_ {
  unsigned width, height;
  const float *data; /* device, PITCH floats a row */
  size_t pitch;
  double kappa;
  int max_iterations;
  double threshold;
  unsigned min_area;
  int connectivity; /* 4 or 8 */
  double filter_sigma;
  unsigned mesh;        /* 0: the global statistics everywhere */
  unsigned mesh_filter; /* odd, in boxes; 1: none */
} LmKDetectJob;

/* Clipped statistics as the device leaves them (LmClipStats, and whether any value was finite). */
typedef struct {
  double mean, median, std;
  unsigned long long count;
  int iterations;
  int finite; /* 0: no finite value at all */
} LmKClipStats;

/* One source's measurements (LmSource's fields, the same meaning). */
typedef struct {
  double x, y, flux, flux_raw, background, x2, y2, xy, a, b, theta, fwhm;
  float peak;
  uint32_t label, peak_x, peak_y, area, xmin, ymin, xmax, ymax;
} LmKSource;

#define LM_K_DETECT_SOURCES 65536

/* The device buffers of one run, carved from one allocation of lm_k_detect_size () bytes. */
typedef struct LmKDetectWork_ {
  float *background, *noise; /* the maps */
  float *filtered, *row_pass; /* the residual after the matched filter, and its row pass */
  uint8_t *mask;
  uint32_t *labels;
  uint32_t *scan;            /* width × height + 1: flags and their prefix sums */
  uint32_t *keys, *sorted;   /* width × height: the ordered float keys, and sorted */
  double *partials;          /* the clipping's per-tile sums */
  LmKClipStats *global;      /* the whole image's */
  double *clip_state;
  /* The mesh (MESH > 0): its boxes' offsets in the box-major key order, and its arrays
   * (astro-mesh.cu lays them out). */
  uint32_t *box_offsets;
  float *mesh_floats;
  double *mesh_doubles;
  /* Per label, before and after the minimum area (width × height / 2 + 2 each). */
  uint32_t *area, *xmin, *ymin, *xmax, *ymax, *renumber;
  uint32_t *counts; /* [0] labels found, [1] labels kept */
  float *weights;   /* the matched filter's taps, centre first (LM_BLUR_RADIUS_MAX + 1) */
  LmKSource *sources; /* room for LM_K_DETECT_SOURCES; more need a buffer of their own */
  void *sort_temp;
  size_t sort_temp_size;
} LmKDetectWork;

/* The bytes one run on a WIDTH × HEIGHT image with MESH needs, in *BYTES. */
cudaError_t lm_k_detect_size (unsigned width, unsigned height, unsigned mesh, size_t *bytes);
/* WORK's buffers inside MEMORY (lm_k_detect_size bytes). */
cudaError_t lm_k_detect_bind (unsigned width, unsigned height, unsigned mesh, void *memory, LmKDetectWork *work);

/* Step 1: κ-σ clipping of the whole image into WORK->global, then the background and noise
 * maps (the global median and σ, or the mesh's bicubic maps). */
cudaError_t lm_k_detect_background (const LmKDetectJob *job, LmKDetectWork *work, cudaStream_t stream);
/* Step 2: the residual (data − background) after the matched filter, into WORK->filtered. */
cudaError_t lm_k_detect_filter (const LmKDetectJob *job, const float *weights, int radius, LmKDetectWork *work,
                                cudaStream_t stream);
/* Step 3: the mask of pixels above the threshold. */
cudaError_t lm_k_detect_segment (const LmKDetectJob *job, LmKDetectWork *work, cudaStream_t stream);
/* Step 4: labels numbered as scipy.ndimage.label, then the minimum area; the two counts in
 * WORK->counts. */
cudaError_t lm_k_detect_label (const LmKDetectJob *job, LmKDetectWork *work, cudaStream_t stream);
/* Step 5: the N_SOURCES kept labels' measurements into SOURCES (device memory). */
cudaError_t lm_k_detect_measure (const LmKDetectJob *job, LmKDetectWork *work, unsigned n_sources,
                                 LmKSource *sources, cudaStream_t stream);

/* The clipping alone, on N floats at DATA (device): for the benchmark's per-pass figures and
 * the test. KEYS and SORTED hold N keys each. */
cudaError_t lm_k_clip_stats (const float *data, size_t n, double kappa, int max_iterations, LmKDetectWork *work,
                             cudaStream_t stream);

/* For the benchmark's memory floor: one read of the N floats at DATA (16-byte aligned) by GRID
 * blocks, each writing one float of PARTIALS. */
cudaError_t lm_k_astro_read_floor (const float *data, size_t n, float *partials, unsigned grid, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
