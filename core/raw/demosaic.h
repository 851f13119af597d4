/* Bayer demosaicing on the CPU: the references of kernels/demosaic-*.cu, which give the same
 * bits (tests/gpu/test-demosaic-parity.c).
 *
 * PLANE is the prepared mosaic: WIDTH × HEIGHT floats in packed rows, black subtracted,
 * white-balanced, 1.0 = white (values above 1 are kept; negative ones and NaN read as 0 in
 * RCD). CFA is a 2 × 2 Bayer array (any phase; LM_CFA_G2 is green). RGBA receives RGBA_F32
 * rows of RGBA_STRIDE floats: camera RGB, white-balanced, alpha 1, every pixel written.
 * Out-of-image sites are read through reflect-101, which keeps the Bayer phase, so the border
 * runs the same code as the interior. */
#pragma once

#include <stddef.h>

#include "../ops/cfa-math.h"

/* Ratio Corrected Demosaicing (core/ops/demosaic-rcd-math.h), the export's method. An image
 * one site wide or high, where no phase-keeping reflection exists, is demosaiced bilinearly. */
void lm_demosaic_rcd_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                          size_t rgba_stride);

/* Bilinear: each missing colour the mean of its nearest sites. */
void lm_demosaic_bilinear_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                               size_t rgba_stride);

/* Half size (superpixel): ⌈WIDTH / 2⌉ × ⌈HEIGHT / 2⌉ pixels (lm_demosaic_half_size), each from
 * one 2 × 2 quad, for previews. */
void lm_demosaic_half_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                           size_t rgba_stride);
