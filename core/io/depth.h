/* Between 16-bit and 8-bit storage, with the project's one rounding (core/ops/pixel-math.h):
 * what an 8-bit-only writer (JPEG) gets of a 16-bit image. */
#pragma once

#include "../image.h"

G_BEGIN_DECLS

/* The 8-bit twin of a 16-bit (RGBA16, GRAY16) image: each sample v becomes
 * lm_quantize_u8 (v / 257), that is round (v / 257), which maps v·257 back to v; the
 * metadata and opacity come along. For an image that is not 16-bit, a new reference to
 * SRC. */
LmImage *lm_image_to_depth8 (const LmImage *src, GError **error);

G_END_DECLS
