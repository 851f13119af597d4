/* The 8-bit gray image a detector reads, as cv2.cvtColor (COLOR_BGR2GRAY) makes it from a
 * photo that cv2.imread loads: Y = (9798 R + 19235 G + 3735 B + 2¹⁴) >> 15. */
#pragma once

#include <glib.h>

#include "core/image.h"

G_BEGIN_DECLS

/* IMAGE (RGBA8 or GRAY8 in host memory; alpha ignored) as packed gray, WIDTH bytes a row.
 * NULL with a message for other formats. */
guint8 *lm_cascade_gray8 (const LmImage *image, GError **error);

G_END_DECLS
