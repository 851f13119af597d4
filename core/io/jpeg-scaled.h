/* A JPEG decoded small: what thumbnails need of a photo of many megapixels. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

/* The JPEG of LEN bytes at DATA decoded by libjpeg-turbo's IDCT scaling at the largest
 * reduction (1/8, 1/4, 1/2 or none) that keeps its longest side at least MIN_SIDE, as
 * RGBA8 in host memory, upright by its EXIF orientation, its EXIF block and ICC profile
 * kept; the same refusals of hostile files as lm_io_load (scan count, sizes, truncation),
 * messages naming PATH. A CMYK file is decoded whole, as lm_io_load gives it. */
LmImage *lm_jpeg_load_scaled (const char *path, const guint8 *data, gsize len, guint min_side, GError **error);

G_END_DECLS
