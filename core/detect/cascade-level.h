/* A cascade laid out for one pyramid level, as OpenCV's evaluators hold it (HaarEvaluator's
 * and LBPEvaluator's OptFeature): each stump with its feature's corners as offsets from the
 * window's top-left cell, so that a window costs loads and adds rather than index arithmetic,
 * read in one pass over an array in stump order. Beyond OpenCV: a stage is decided as soon as
 * the leaves still to come cannot change its outcome, and a leaf is picked without a branch.
 * lm_cascade_level_window gives what lm_cascade_window (cascade-math.h) gives for every
 * window: the same integer sums, the same float and double steps, the same outcomes. */
#pragma once

#include <glib.h>

#include "cascade.h"
#include "cascade-math.h"

G_BEGIN_DECLS

typedef struct LmCascadeLevel LmCascadeLevel;

/* Offsets are 32-bit, as OpenCV's: FALSE where integrals of STEP × (HEIGHT + 1) cells (the
 * tilted ones after the sums) are too large for them; lm_cascade_window serves there. */
gboolean lm_cascade_level_fits (gsize step, guint height);

/* IN->tilted, where the cascade has tilted features, lies in the same allocation as IN->sum. */
LmCascadeLevel *lm_cascade_level_new (const LmCascade *cascade);
void lm_cascade_level_set (LmCascadeLevel *level, const LmCascadeIntegrals *in);
void lm_cascade_level_free (LmCascadeLevel *level);

/* As lm_cascade_window (cascade-math.h) for the integrals of the last lm_cascade_level_set. */
int lm_cascade_level_window (const LmCascadeLevel *level, int x, int y);

/* The windows at X, X + DX, … (N of them, at most 4) of row Y into RESULTS, as
 * lm_cascade_level_window gives them, except those that OpenCV's scan skips: a window after
 * one rejected by the first stage (the first of them where SKIP_FIRST), which gives 0 here
 * and is not evaluated. LBP's first stage is evaluated four windows at a time. */
void lm_cascade_level_windows (const LmCascadeLevel *level, int x, int y, int dx, int n, gboolean skip_first,
                               int *results);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmCascadeLevel, lm_cascade_level_free)

G_END_DECLS
