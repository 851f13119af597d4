/* Objects found in a photo with a cascade (cascade.h), as cv2.CascadeClassifier's
 * detectMultiScale finds them in OpenCV 4.6: the same pyramid of levels, windows, grouping
 * and clipping, so the same boxes. The CPU reference; OpenMP over the rows of each level. */
#pragma once

#include <gio/gio.h>

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
 * (a scale factor ≤ 1 or not finite, negative sizes, too many levels) or too little memory;
 * CANCELLABLE (may be NULL) is looked at between levels. */
GArray *lm_cascade_candidates (const LmCascade *cascade, const guint8 *gray, gsize stride, guint width,
                               guint height, const LmCascadeParams *params, GCancellable *cancellable,
                               GError **error);

/* The boxes found (LmCascadeBox), grouped and clipped, sorted by y, x, width, height. */
GArray *lm_cascade_detect (const LmCascade *cascade, const guint8 *gray, gsize stride, guint width,
                           guint height, const LmCascadeParams *params, GCancellable *cancellable,
                           GError **error);

/* The scales of the pyramid's levels that PARAMS tries on a WIDTH × HEIGHT photo (floats, as
 * OpenCV's), smallest first; NULL with ERROR for parameters out of range. */
GArray *lm_cascade_scales (const LmCascade *cascade, guint width, guint height, const LmCascadeParams *params,
                           GError **error);

/* A level's size: the photo's divided by SCALE, rounded. */
void lm_cascade_level_size (guint width, guint height, float scale, int *level_width, int *level_height);

/* The rows of windows that OpenCV scans on a level of LEVEL_HEIGHT rows at SCALE, where
 * STRIPES stripes cut the first level (lm_cascade_stripes); with the windows a row holds
 * (both in steps of lm_cascade_step). */
int lm_cascade_step (float scale);
int lm_cascade_stripes (const LmCascade *cascade, guint width, guint height, float first_scale);
void lm_cascade_windows (const LmCascade *cascade, int level_width, int level_height, float scale, int stripes,
                         int *columns, int *rows);

/* The box in the photo's pixels of the window at (X, Y) of the level at SCALE, rounded from
 * float products as OpenCV rounds them. */
LmCascadeBox lm_cascade_window_box (const LmCascade *cascade, float scale, int x, int y);

/* lm_cascade_group with detectMultiScale's ε, on the candidates of a WIDTH × HEIGHT photo. */
GArray *lm_cascade_group_candidates (GArray *candidates, const LmCascadeParams *params, guint width, guint height);

G_END_DECLS
