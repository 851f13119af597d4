/* An object model of OpenCV's cascade classifiers, as Debian's opencv-data ships them
 * (/usr/share/opencv4/haarcascades, lbpcascades): boosted stages of stumps over Haar or LBP
 * features in a fixed window. The values are kept with the types and the rounding that
 * OpenCV 4 gives them when it loads the same file, so that an evaluation can match
 * cv2.CascadeClassifier window for window. */
#pragma once

#include <glib.h>

#include "cascade-types.h"

G_BEGIN_DECLS

/* The cascade in PATH (a regular file of at most LM_CASCADE_MAX_FILE bytes). NULL with a
 * one-line message that begins with PATH and says what is wrong: not XML, not a cascade, a
 * kind OpenCV has but Lumen does not evaluate (trees deeper than a stump, HOG), a count that
 * disagrees with what follows, an index or a rectangle out of range, a number that is not
 * finite. */
LmCascade *lm_cascade_load (const char *path, GError **error);

/* The same from TEXT of LENGTH bytes; NAME is what messages begin with. */
LmCascade *lm_cascade_parse (const char *name, const char *text, gsize length, GError **error);

void lm_cascade_free (LmCascade *cascade);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmCascade, lm_cascade_free)

G_END_DECLS
