/* Objects found in a photo with a cascade (cascade.h), as cv2.CascadeClassifier's
 * detectMultiScale finds them in OpenCV 4.6: the same pyramid of levels, windows, grouping
 * and clipping, so the same boxes. The CPU reference; OpenMP over the rows of each level. */
#pragma once

#include <glib.h>

#include "cascade.h"
#include "group.h"

G_BEGIN_DECLS

#define LM_CASCADE_GROUP_EPS 0.2 /* detectMultiScale's */
#define LM_CASCADE_MAX_LEVELS 4096 /* a scale factor of 1.0001 over a 50 MP photo needs ~60,000 */

typedef struct {
  double scale_factor;       /* > 1: the step between pyramid levels (OpenCV's default 1.1) */
  int min_neighbors;         /* a group needs more candidates than this (default 3) */
  int min_width, min_height; /* the smallest box tried; 0: the model's window */
  int max_width, max_height; /* the largest; 0: the photo */
} LmCascadeParams;

void lm_cascade_params_init (LmCascadeParams *params);

/* The candidate windows (LmCascadeBox, neighbors 0) of GRAY (WIDTH × HEIGHT, STRIDE bytes a
 * row) before grouping, in the order level, y, x. NULL with ERROR for parameters out of range
 * (a scale factor ≤ 1 or not finite, negative sizes, too many levels) or too little memory. */
GArray *lm_cascade_candidates (const LmCascade *cascade, const guint8 *gray, gsize stride, guint width,
                               guint height, const LmCascadeParams *params, GError **error);

/* The boxes found (LmCascadeBox), grouped and clipped, sorted by y, x, width, height. */
GArray *lm_cascade_detect (const LmCascade *cascade, const guint8 *gray, gsize stride, guint width,
                           guint height, const LmCascadeParams *params, GError **error);

G_END_DECLS
