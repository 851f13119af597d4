/* The X-Trans demosaic's CPU reference (Markesteijn's method, core/ops/demosaic-xtrans-math.h)
 * and the third-size preview. The CUDA kernels (kernels/demosaic-xtrans.cu) give the same
 * bits. */
#pragma once

#include <stddef.h>

#include "core/ops/cfa-math.h"

/* PLANE: WIDTH × HEIGHT floats, packed rows, the prepared mosaic of CFA (6 × 6): black
 * subtracted, white-balanced, 1.0 = white (values above 1 and 0 are fine). PASSES: 1 (four
 * candidates) or 3 (eight; anything else counts as 3). CAM_TO_XYZ maps that camera RGB to
 * XYZ for the Lab homogeneity test (its rows are normalised to the white). Writes R, G, B
 * and A = 1 of every pixel of RGBA (RGBA_F32 rows of RGBA_STRIDE floats). An image under 6
 * sites on a side (some pattern phases work from 4), or a pattern that is no X-Trans, gets
 * the bilinear-class demosaic below. OpenMP over tiles; the result does not depend on the
 * tiles nor on the thread count. */
void lm_demosaic_markesteijn_cpu (const float *plane, int width, int height, const LmCfa *cfa, int passes,
                                  const float cam_to_xyz[3][3], float *rgba, size_t rgba_stride);

/* The same with output tiles of TILE × TILE sites (the tests' check that tiles do not
 * show). */
void lm_demosaic_markesteijn_cpu_tiled (const float *plane, int width, int height, const LmCfa *cfa, int passes,
                                        const float cam_to_xyz[3][3], float *rgba, size_t rgba_stride, int tile);

/* The third-size preview: pixel (X, Y) of RGBA, ⌈WIDTH / 3⌉ × ⌈HEIGHT / 3⌉, holds each
 * colour's mean over the 3 × 3 sites from (3X, 3Y); the last column and row of blocks end at
 * the image's edge, overlapping the one before when a side is no multiple of 3. */
void lm_demosaic_xtrans_third_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                                   size_t rgba_stride);

/* The bilinear-class demosaic (the benchmarks' and tests' baseline, and the fallback above):
 * each site keeps its colour and takes the others as their mean over the smallest square
 * around it, of radius 1 to 3, that holds them (radius 1 always does in an X-Trans mosaic
 * of 3 × 3 sites or more). */
void lm_demosaic_xtrans_bilinear_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                                      size_t rgba_stride);
