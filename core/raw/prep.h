/* The raw development's first steps on the CPU: black, white, white balance and highlights
 * (core/ops/raw-prep-math.h says what each computes), from the loaded sensor data into one
 * float plane for the demosaic, or into camera RGB for layouts without a colour filter
 * array. The reference that kernels/raw-prep.cu matches bit for bit. */
#pragma once

#include <glib.h>

#include "core/image.h"
#include "core/ops/raw-prep-math.h"
#include "core/raw-info.h"

G_BEGIN_DECLS

/* PREP for INFO's sensor with the white balance MUL (multipliers per colour index, green 1;
 * a fourth of 0 takes the first green's) and HIGHLIGHTS. Levels a damaged file could give
 * are made usable: a white level at or below the black is taken as one above it, and
 * multipliers that are not positive and finite as 1. */
void lm_raw_prep_init (LmRawPrep *prep, const LmRawInfo *info, const float mul[4], LmRawHighlights highlights);

/* CFA16 (LM_FORMAT_CFA16) into PLANE (width × height floats, rows packed). */
gboolean lm_raw_prep_cpu (const LmRawPrep *prep, const LmImage *cfa16, float *plane, GError **error);

/* SRC, RGBA16 camera RGB (LM_RAW_LINEAR) or GRAY16 (LM_RAW_MONO), into RGBA (RGBA_F32 rows of
 * RGBA_STRIDE floats, as the demosaic's; SRC's size): balanced camera RGB, a gray's three
 * channels equal, alpha 1. */
gboolean lm_raw_prep_linear_cpu (const LmRawPrep *prep, const LmImage *src, float *rgba, size_t rgba_stride,
                                 GError **error);

G_END_DECLS
