/* The demosaic's refinement on the CPU (core/ops/demosaic-refine-math.h says what it does): the
 * reference of kernels/demosaic-refine.cu, which gives the same bits
 * (tests/gpu/test-demosaic-refine-parity.c). PLANE is the mosaic the demosaic read (core/raw/
 * demosaic.h: WIDTH × HEIGHT floats, packed rows), CFA its pattern (Bayer or X-Trans); RGBA the
 * demosaic's output (RGBA_F32 rows of RGBA_STRIDE floats), refined in place: every sample of
 * every pixel written but green at red and blue sites, which is the demosaic's refined (so its
 * input must be finite there); the sampled colours are the mosaic's, alpha 1. Deterministic:
 * each site's result depends on the image alone, not on the thread count. */
#pragma once

#include <stddef.h>

#include "../ops/cfa-math.h"

void lm_demosaic_refine_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                             size_t rgba_stride);
