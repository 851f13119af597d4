/* Helpers the CPU steps of source detection share (core/astro/<step>.c); not for other callers. */
#pragma once


#include "detect.h"

G_BEGIN_DECLS

/* κ-σ clipping as lm_clip_stats, on the N finite values at VALUES, which it reorders and
 * overwrites (what is kept ends up first). FALSE when N is 0. */
gboolean lm_clip_values (float *values, gsize n, double kappa, int max_iterations,
                         LmClipStats *stats);

/* The median of the N values at VALUES (reordered), as NumPy's: the middle value, or the
 * float mean of the two middle ones. N > 0. */
float lm_median_select (float *values, gsize n);

G_END_DECLS
