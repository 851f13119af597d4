#pragma once

#include "../image.h"

G_BEGIN_DECLS

/* A copy of SRC turned upright according to EXIF ORIENTATION (1..8); a new reference to
 * SRC when ORIENTATION is 1. */
LmImage *lm_image_orient (LmImage *src, int orientation, GError **error);

G_END_DECLS
