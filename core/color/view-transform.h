/* The view transform: the photo's colours (its ICC profile; sRGB without one) as the monitor
 * (its profile; sRGB without one) should show them, as a 3-D LUT that lcms2 fills once per
 * photo and monitor profile and that the view samples (core/ops/view-math.h) on the CPU
 * and the GPU alike. Relative colorimetric intent with black-point compensation, darktable's
 * display default (for matrix-shaper profiles perceptual gives the same). */
#pragma once

#include <glib.h>

#include "../ops/lut3d-math.h"

G_BEGIN_DECLS

/* Nodes per axis. Between matrix-shaper profiles the 3-D LUT holds a matrix (lut3d-math.h)
 * and any grid reproduces it: on colord's profiles (tests/unit/test-view-lut.c) the tables
 * stay within 0.02 levels (of 255) of lcms2's exact transform. 33 serves the profiles made of
 * LUTs, which go through the 3-D LUT whole. A transform whose tables measure above
 * LM_VIEW_LUT_MAX_ERROR when made is rebuilt without shapers, the closer kept. */
#define LM_VIEW_LUT_GRID 33u
#define LM_VIEW_LUT_MAX_ERROR 0.5

typedef struct _LmViewTransform LmViewTransform;

/* From SOURCE_ICC (the photo's profile; NULL: sRGB) to MONITOR_ICC (NULL: sRGB), with GRID
 * nodes per axis (2 .. LM_LUT3D_MAX_N). A source profile that lcms2 rejects or that is not
 * RGB is replaced by sRGB and lm_view_transform_note says why; a monitor profile that cannot
 * serve fails with LM_ERROR_INVALID and the cause. */
LmViewTransform *lm_view_transform_new (GBytes *source_icc, GBytes *monitor_icc, guint grid,
                                        GError **error);
LmViewTransform *lm_view_transform_ref (LmViewTransform *xf);
void lm_view_transform_unref (LmViewTransform *xf);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmViewTransform, lm_view_transform_unref)

/* The table to sample, in host memory; NULL where both profiles are sRGB's (within 2 levels
 * of lcms2's own sRGB: files of sRGB differ by that much in their rounding), so that such a
 * view keeps the bytes it had without colour management. */
const LmLut3d *lm_view_transform_lut (const LmViewTransform *xf);
/* The largest distance, in 8-bit levels, from the tables to lcms2's exact transform, as
 * measured when they were made (on 8-bit inputs a step of 15 apart and 4096 16-bit ones). */
double lm_view_transform_error (const LmViewTransform *xf);
/* Different for every transform made in this process: what a backend's uploaded copy of the
 * table is known by. */
guint64 lm_view_transform_id (const LmViewTransform *xf);
/* Why the photo's profile was not used (translated), or NULL. */
const char *lm_view_transform_note (const LmViewTransform *xf);
/* The profiles' descriptions, for people ("Adobe RGB (1998)", "sRGB"). */
const char *lm_view_transform_source_name (const LmViewTransform *xf);
const char *lm_view_transform_monitor_name (const LmViewTransform *xf);

/* lcms2's exact transform (no LUT, floating point) of N RGB triples on 0..1 from SOURCE_ICC
 * to MONITOR_ICC with the view's intent: what the LUT is measured against. */
gboolean lm_view_transform_exact (GBytes *source_icc, GBytes *monitor_icc, const float *in,
                                  float *out, gsize n, GError **error);

/* Whether ICC, the monitor profile read from PATH (core/io/monitor-profile.h), is an RGB
 * profile lcms2 reads and can transform into; fails with the file's name and the cause. */
gboolean lm_monitor_profile_check (GBytes *icc, const char *path, GError **error);

G_END_DECLS
