/* Source detection in astronomical images: κ-σ background, segmentation, labelling and
 * measurements, on a float image (LM_FORMAT_GRAY_F32, NaN for blank pixels).
 *
 * The CPU reference defines every step (core/astro/, a file a step); the CUDA backend computes the same
 * steps on the device (core/backend/cuda-detect.c, kernels/astro-*.cu). The contract between
 * them: the same label image, bit for bit; every measurement and statistic within 1e-5
 * relative. Labels follow scipy.ndimage.label: 0 is background, sources are numbered from 1 in
 * raster order (row by row, top row of the array first) of their first pixel.
 *
 * Coordinates are 0-based array positions, x along a row, y down the rows, as SciPy and sep
 * give them; catalogues add 1 for FITS's convention where they say so. */
#pragma once

#include <gio/gio.h>
#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

typedef struct {
  double kappa;          /* clipping bound in standard deviations (3) */
  int max_iterations;    /* clipping passes at most (10) */
  double threshold;      /* detection threshold over the background, in σ of the noise (5) */
  guint min_area;        /* sources of fewer pixels are dropped (5) */
  int connectivity;      /* 4 (scipy.ndimage.label's default) or 8 */
  double filter_sigma;   /* matched filter: Gaussian σ in px before thresholding; 0: none */
  guint mesh;            /* background mesh box side in px (64); 0: one global background */
  guint mesh_filter;     /* median filter of the mesh, in boxes (3); 1: none */
} LmDetectParams;

/* The defaults above. */
void lm_detect_params_init (LmDetectParams *params);
/* FALSE with a message naming the parameter and its range when PARAMS cannot run. */
gboolean lm_detect_params_check (const LmDetectParams *params, GError **error);

/* What iterative κ-σ clipping leaves (astropy.stats.sigma_clipped_stats with
 * cenfunc='median', stdfunc='std'): bounds median ± κ·std of the values still kept, until a
 * pass clips nothing or MAX_ITERATIONS passes ran; then the statistics of what remains. */
typedef struct {
  double mean;
  double median;
  double std;     /* population standard deviation (ddof 0), as NumPy's std */
  guint64 count;  /* values kept */
  int iterations; /* passes run */
} LmClipStats;

typedef struct {
  guint label;              /* its number in the label image */
  double x, y;              /* flux-weighted centroid over its pixels, background subtracted
                             * (scipy.ndimage.center_of_mass of data − background) */
  double flux;              /* Σ (data − background) over its pixels */
  double flux_raw;          /* Σ data over its pixels (scipy.ndimage.sum_labels) */
  double background;        /* Σ background over its pixels */
  float peak;               /* largest data − background */
  guint peak_x, peak_y;     /* where (the first such pixel in raster order) */
  guint area;               /* pixels */
  guint xmin, ymin, xmax, ymax; /* bounding box, inclusive */
  double x2, y2, xy;        /* flux-weighted second central moments, px² */
  double a, b, theta;       /* semi-major and semi-minor axes (px) and the major axis' angle,
                             * radians counter-clockwise from +x, as SExtractor's A, B, THETA */
  double fwhm;              /* 2·sqrt(2 ln 2)·sqrt((a² + b²) / 2): a Gaussian's FWHM */
} LmSource;

/* Milliseconds each step took, on the backend's clock; the same names as --timings. */
typedef struct {
  double background;
  double filter;
  double segment;
  double label;
  double measure;
  double total;
} LmDetectTimings;

typedef struct {
  guint width, height;
  LmClipStats global;   /* of the whole image (the background when MESH is 0) */
  float *background;    /* width × height host floats: the background map */
  float *noise;         /* width × height host floats: the noise (σ) map */
  guint32 *labels;      /* width × height host labels after the minimum area, renumbered in
                         * raster order; 0: background */
  LmSource *sources;    /* N_SOURCES, in label order */
  guint n_sources;
  LmDetectTimings timings;
} LmDetectResult;

void lm_detect_result_free (LmDetectResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmDetectResult, lm_detect_result_free)

/* FALSE with the reason when IMAGE (GRAY_F32, not empty) or PARAMS cannot be detected in. */
gboolean lm_detect_check_input (const LmImage *image, const LmDetectParams *params, GError **error);

/* The whole pipeline on IMAGE (host memory) on the CPU, the reference of every backend's.
 * Cancellable between steps. */
LmDetectResult *lm_detect_cpu (const LmImage *image, const LmDetectParams *params,
                               GCancellable *cancellable, GError **error);

/* The CPU reference, step by step (core/astro/<step>.c); arrays are WIDTH × HEIGHT, packed
 * (stride = WIDTH), NaN in DATA for blank pixels, which no step counts. */

/* κ-σ clipping of the N values at DATA (NaN skipped). FALSE when no value is finite. */
gboolean lm_clip_stats (const float *data, gsize n, double kappa, int max_iterations,
                        LmClipStats *stats);

/* The background and noise maps: one clipped median and σ (MESH 0), or SExtractor's mesh:
 * κ-σ clipped statistics per MESH × MESH box, the mesh median-filtered over MESH_FILTER boxes,
 * and a bicubic spline through the box centres. */
gboolean lm_background_map (const float *data, guint width, guint height, const LmDetectParams *params,
                            float *background, float *noise, LmClipStats *global, GError **error);

/* MASK[i] = 1 where (DATA − BACKGROUND), after the matched filter of FILTER_SIGMA (0: none), is
 * above THRESHOLD × NOISE; else 0 (and 0 for blank pixels). */
gboolean lm_segment (const float *data, const float *background, const float *noise, guint width,
                     guint height, double threshold, double filter_sigma, guint8 *mask,
                     GError **error);

/* Connected components of MASK, CONNECTIVITY 4 or 8, numbered as scipy.ndimage.label does.
 * Returns the number of components. */
guint lm_label (const guint8 *mask, guint width, guint height, int connectivity, guint32 *labels);

/* Drops components of fewer than MIN_AREA pixels (label 0 there) and renumbers the rest
 * 1, 2, … in the same order. Returns the number kept. */
guint lm_label_min_area (guint32 *labels, guint width, guint height, guint n_labels, guint min_area);

/* The measurements of labels 1 … N_LABELS into SOURCES (N_LABELS of them). */
void lm_measure (const float *data, const float *background, const guint32 *labels, guint width,
                 guint height, guint n_labels, LmSource *sources);

G_END_DECLS
