/* Noise reduction's CPU side beyond its registration: the noise estimate by pieces (for a
 * tiled render's first pass) and the transform's bands (for the tests). */
#pragma once

#include "denoise-math.h"
#include "op.h"

G_BEGIN_DECLS

/* Adds to HIST (LM_DENOISE_HIST_SIZE counts, e bin major) the estimate's counts of the pixels
 * of SRC inside OWN (SRC's coordinates). Each pixel reads SRC up to LM_DENOISE_EST_HALO pixels
 * around it, reflected at SRC's edges: a piece of the whole input that holds that halo beyond
 * OWN wherever OWN is not at the input's edge counts what the whole input counts there, so the
 * pieces' counts add up to the whole one's. FALSE (ERROR set) when memory runs out. */
#define LM_DENOISE_EST_HALO 10
gboolean lm_denoise_histogram_cpu (const LmImage *src, const LmRect *own, guint32 *hist, GError **error);

/* σ from counts made by lm_denoise_histogram_cpu (lm_denoise_flat_last, then
 * lm_denoise_median_sigma). */
double lm_denoise_sigma_from_histogram (const guint32 *hist);

/* SRC's estimated noise σ on the 0..255 scale (0 when no pixel is flat and unclipped enough). */
gboolean lm_denoise_estimate_cpu (const LmImage *src, double *sigma, GError **error);

/* The band J (0 ≤ J < LM_DENOISE_LEVELS) of the transform of one plane IN (WIDTH × HEIGHT
 * floats) into OUT, J = LM_DENOISE_LEVELS giving the coarse remainder: what the tests
 * measure the band gains on. */
void lm_denoise_band (const float *in, int width, int height, int j, float *out);

G_END_DECLS
