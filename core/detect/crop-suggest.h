/* A crop suggested from the objects found in a photo (people, faces): the largest crop of a
 * given aspect that keeps every box inside, with the subject (the centre of the rectangle
 * that holds every box) on a rule-of-thirds point where one allows it, else on a thirds line,
 * else as near a thirds line as the boxes and the photo let it be. A pure function of sizes
 * and rectangles: the window offers it (ui/window-objects.c) as the crop's parameters. */
#pragma once

#include <glib.h>

#include "group.h"

G_BEGIN_DECLS

typedef enum {
  LM_CROP_SUBJECT_POINT, /* on a crossing of two thirds lines */
  LM_CROP_SUBJECT_LINE,  /* on a vertical or a horizontal thirds line */
  LM_CROP_SUBJECT_NEAR,  /* as near a thirds line as the boxes and the photo allow */
  LM_CROP_SUBJECT_NONE,  /* the boxes do not fit in any crop of the aspect: centred on them */
} LmCropPlacement;

typedef struct {
  double x, y, width, height; /* in the photo's pixels; width / height is the aspect asked */
  LmCropPlacement placement;
  double subject_x, subject_y; /* the point placed */
} LmCropSuggestion;

/* The crop of a WIDTH × HEIGHT photo for the N BOXES (in its pixels; N ≥ 1) at ASPECT (width
 * over height; ≤ 0: the photo's own). Among the crossings of the thirds lines, the one that
 * allows the largest crop; where none can hold the boxes inside the photo, a thirds line
 * (vertical lines first, on equal sizes); where none can, the largest crop of the aspect,
 * moved to bring the subject nearest a thirds line; where even that cannot hold the boxes,
 * that crop centred on them (NONE). Sizes are exact (not rounded): lm_crop_suggest_pixels
 * rounds. */
void lm_crop_suggest (guint width, guint height, const LmCascadeBox *boxes, guint n, double aspect,
                      LmCropSuggestion *out);

/* S in whole pixels within the photo: the edges rounded outwards where a box's edge would be
 * cut by rounding in, and held inside WIDTH × HEIGHT. */
void lm_crop_suggest_pixels (const LmCropSuggestion *s, guint width, guint height, const LmCascadeBox *boxes, guint n,
                             int *x, int *y, int *w, int *h);

G_END_DECLS
