/* A camera's response: for each 8-bit value of each colour channel, the (relative) exposure
 * that produces it, normalised so that value 128 maps to 1. Saved as text so that one
 * camera's curve, calibrated once, serves a whole batch. */
#pragma once

#include <glib.h>

#include "stack.h"

G_BEGIN_DECLS

#define LM_HDR_LEVELS 256

typedef struct {
  float value[3][LM_HDR_LEVELS]; /* R, G, B */
} LmResponse;

/* The triangle weight of an 8-bit value: trust mid-tones, distrust the clipped ends. */
static inline float
lm_hdr_triangle_weight (int z)
{
  return z < 128 ? z + 1.0f : 256.0f - z;
}

/* Debevec & Malik's least-squares recovery of the response from SAMPLES pixels on a grid
 * (OpenCV's CalibrateDebevec placement; at most LM_HDR_MAX_SAMPLES), smoothness LAMBDA. */
#define LM_HDR_MAX_SAMPLES 1024
gboolean lm_hdr_calibrate_debevec (const LmHdrStack *stack, int samples, float lambda,
                                   LmResponse *response, GError **error);

/* The grid's points for an image of WIDTH × HEIGHT: their count (at most MAX), and x, y
 * pairs in XY, in the order the samples are taken. */
guint lm_hdr_debevec_points (guint width, guint height, int samples, guint *xy, guint max);

/* The same recovery from the sampled pixels, wherever they were read: PIXELS holds, for
 * each of N_IMAGES exposures (times TIMES), its N_POINTS pixels as RGBA8 words (R in the
 * low byte; gray repeated in R, G and B). */
gboolean lm_hdr_calibrate_debevec_samples (guint n_images, guint n_points, const guint32 *pixels,
                                           const double *times, float lambda, LmResponse *response,
                                           GError **error);

/* Robertson et al. (2003): the response by alternating radiance and curve estimates over
 * every pixel, MAX_ITER iterations at most, stopping when the curve moves less than
 * THRESHOLD (OpenCV's CalibrateRobertson: 30, 0.01). */
gboolean lm_hdr_calibrate_robertson (const LmHdrStack *stack, int max_iter, float threshold,
                                     LmResponse *response, GError **error);

gboolean lm_response_save (const LmResponse *response, const char *path, GError **error);
gboolean lm_response_load (LmResponse *response, const char *path, GError **error);

G_END_DECLS
