/* The display stretch of float data (FITS, LM_FORMAT_GRAY_F32) into the 8-bit view: limits
 * by percentile or IRAF's zscale, then a linear, square root, log or asinh curve, as
 * astropy.visualization defines them (its defaults: LogStretch a = 1000, AsinhStretch a = 0.1).
 * The CPU computes the limits and the curve's table; the map itself runs on either backend
 * (stretch-math.h, kernels/astro-stretch.cu) with identical bytes: lm_stretch_run
 * (core/render/astro-run.h) picks the backend's. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "../ops/histogram.h"
#include "stretch-math.h"

G_BEGIN_DECLS

typedef enum {
  LM_STRETCH_LINEAR,
  LM_STRETCH_SQRT,
  LM_STRETCH_LOG,
  LM_STRETCH_ASINH,
  LM_STRETCH_N_KINDS
} LmStretchKind;

typedef enum {
  LM_LIMITS_PERCENTILE, /* LOW_PERCENT and HIGH_PERCENT of the finite values */
  LM_LIMITS_ZSCALE,     /* astropy.visualization.ZScaleInterval with its defaults */
} LmLimitsKind;

typedef struct {
  LmStretchKind kind;
  LmLimitsKind limits;
  double low_percent, high_percent; /* 0.5 and 99.5 by default */
} LmStretchParams;

void lm_stretch_params_init (LmStretchParams *params);

/* The stretch's names as the CLI and the settings say them ("linear", "sqrt", "log",
 * "asinh"); NULL for a kind out of range. */
const char *lm_stretch_kind_name (LmStretchKind kind);

/* Percentile P (0 … 100) of the N values at DATA, NaN skipped, interpolated linearly between
 * the two nearest ranks as numpy.percentile does. FALSE when no value is finite. */
gboolean lm_percentile (const float *data, gsize n, double p, double *value);
/* Both percentiles at once (one copy of the data). */
gboolean lm_percentiles (const float *data, gsize n, double p_low, double p_high, double *low,
                         double *high);

/* IRAF's zscale as astropy.visualization.ZScaleInterval computes it (n_samples 1000, contrast
 * 0.25, max_reject 0.5, min_npixels 5, krej 2.5, max_iterations 5). FALSE when no value is
 * finite. */
gboolean lm_zscale (const float *data, gsize n, double *z1, double *z2);

/* The display limits of IMAGE (GRAY_F32, host) under PARAMS; HIGH > LOW always (a flat image
 * gets a range of 1 around its value). FALSE when no pixel is finite. */
gboolean lm_stretch_limits (const LmImage *image, const LmStretchParams *params, double *low,
                            double *high, GError **error);

/* The curve KIND as a table of LM_STRETCH_LEVELS bytes. */
void lm_stretch_table (LmStretchKind kind, guint8 *table);

/* The single-precision factor both backends scale with: 1 / (HIGH − LOW). */
float lm_stretch_inv_range (double low, double high);

/* IMAGE (GRAY_F32) through the limits and TABLE into OUT (RGBA8 of the same size, opaque
 * gray), the last row first where FLIP. */
gboolean lm_stretch_cpu (const LmImage *image, double low, double high, const guint8 *table,
                         gboolean flip, LmImage *out, GError **error);

/* The histogram of the data values, not of the display: LM_HIST_BINS bins from LOW to HIGH,
 * values outside in the end bins, NaN not counted; the same counts in every channel. */
void lm_stretch_histogram (const LmImage *image, double low, double high, LmHistogram *hist);

G_END_DECLS
