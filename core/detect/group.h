/* OpenCV's groupRectangles as CascadeClassifier::detectMultiScale calls it (eps 0.2): the
 * candidates partitioned by similarity, each class averaged, classes of at most
 * min_neighbors members dropped, and a class dropped when it lies inside a larger one that
 * has more members; then, as detectMultiScale does, the boxes clipped to the image. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  int x, y, width, height;
  int neighbors; /* the candidates grouped into it (OpenCV's numDetections) */
} LmCascadeBox;

/* CANDIDATES (of LmCascadeBox, neighbors unused) grouped into a new array of LmCascadeBox,
 * sorted by y, x, width, height. Their order does not change the result. */
GArray *lm_cascade_group (const GArray *candidates, int min_neighbors, double eps, int image_width,
                         int image_height);

G_END_DECLS
