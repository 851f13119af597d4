/* Object detection's candidate windows on the device (kernels/cascade*.cu), for
 * core/backend/cuda-cascade.c: a group of pyramid levels resized from the photo and integrated
 * in one launch each, then every window's first stage, OpenCV's skip rule and the later stages
 * over the windows still standing, compacted between passes. Plain C; every function returns
 * the first CUDA error. */
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "core/detect/cascade-math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One level of a group: its pixels, its windows, and where its buffers start. */
typedef struct {
  int width, height;     /* the level's pixels */
  float scale;           /* the photo's size over the level's */
  int step;              /* windows step by this many pixels */
  int columns, rows;     /* windows a row, rows of windows */
  size_t gray;           /* the level's first byte in the group's gray buffer (WIDTH a row) */
  size_t cells;          /* its first cell in each integral buffer (WIDTH + 1 a row) */
  unsigned first_row;    /* the group's pixel rows before this level's */
  unsigned first_window_row; /* the group's rows of windows before this level's */
  unsigned first_column; /* the group's integral columns (WIDTH + 1 each) before this level's */
} LmKCascadeLevel;

/* The group: LEVELS (device) and the sums over them. */
typedef struct {
  const LmKCascadeLevel *levels;
  int n_levels;
  unsigned pixel_rows, window_rows, columns; /* totals over the levels */
  uint8_t *gray;                             /* the levels' pixels */
  uint32_t *sum, *sqsum, *tilted;            /* the integrals; SQSUM: Haar only; TILTED: NULL unless used */
} LmKCascadeGroup;

/* A window still standing: its level (in the group) and top-left, packed in 64 bits (12, 26
 * and 26), so that the lists take half the memory; its Haar normalisation is made again. */
typedef uint64_t LmKCascadeWindow;
#define LM_K_CASCADE_WINDOW(level, x, y) (((uint64_t) (level) << 52) | ((uint64_t) (y) << 26) | (uint64_t) (x))
#define LM_K_CASCADE_LEVEL(w)            ((int) ((w) >> 52))
#define LM_K_CASCADE_Y(w)                ((int) (((w) >> 26) & 0x3FFFFFFu))
#define LM_K_CASCADE_X(w)                ((int) ((w) & 0x3FFFFFFu))

/* The group's levels resized from GRAY (WIDTH × HEIGHT, PITCH bytes a row, on the device) as
 * core/detect/resize-linear.c resizes, and their integrals as core/detect/integral.c makes
 * them. */
cudaError_t lm_k_cascade_levels (cudaStream_t stream, const uint8_t *gray, size_t pitch, unsigned width,
                                 unsigned height, const LmKCascadeGroup *group);

/* The first stage of every window of the group, and OpenCV's scan: a window after one that
 * the first stage rejected is not looked at (nor its result used). The windows looked at that
 * pass it, and stages 1 … END − 1 after it, go to OUT (CAPACITY of them; *COUNT, zeroed before,
 * counts them all, so that more than CAPACITY shows). CASCADE's arrays are in device memory. */
cudaError_t lm_k_cascade_first_stage (cudaStream_t stream, LmCascade cascade, const LmKCascadeGroup *group,
                                      unsigned end, LmKCascadeWindow *out, unsigned capacity, unsigned *count);

/* Stages FIRST … END − 1 of the *IN_COUNT windows of IN (at most CAPACITY are read); those
 * that pass every one go to OUT, counted in *OUT_COUNT (zeroed before), as above. */
cudaError_t lm_k_cascade_stages (cudaStream_t stream, LmCascade cascade, const LmKCascadeGroup *group,
                                 const LmKCascadeWindow *in, const unsigned *in_count, unsigned capacity,
                                 unsigned first, unsigned end, LmKCascadeWindow *out, unsigned *out_count);

/* The same, a warp a window: its lanes share each stage's stumps and add their leaves in
 * another order than the CPU's, for cascades whose sums are exact in any order
 * (core/detect/cascade-sums.h). For long stages, where a thread a window would leave most of
 * a warp waiting on the few windows still standing. After each 32 stumps a stage is decided
 * where the rest cannot change its outcome: REST_MAX[i] and REST_MIN[i] (device) are the most
 * and the least that the stumps after stump i in its stage can add (exact, as the sums). */
cudaError_t lm_k_cascade_stages_wide (cudaStream_t stream, LmCascade cascade, const LmKCascadeGroup *group,
                                      const double *rest_max, const double *rest_min, const LmKCascadeWindow *in,
                                      const unsigned *in_count, unsigned capacity, unsigned first, unsigned end,
                                      LmKCascadeWindow *out, unsigned *out_count);

#ifdef __cplusplus
}
#endif
