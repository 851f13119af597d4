/* Between 16-bit and 8-bit storage, with the project's one rounding (core/ops/pixel-math.h):
 * what an 8-bit-only writer (JPEG) gets of a 16-bit image, and what a 16-bit export of an
 * 8-bit photo renders from. */
#pragma once

#include "../image.h"

G_BEGIN_DECLS

/* The 8-bit twin of a 16-bit (RGBA16, GRAY16) image: each sample v becomes
 * lm_quantize_u8 (v / 257), that is round (v / 257), which maps v·257 back to v; the
 * metadata and opacity come along. For an image that is not 16-bit, a new reference to
 * SRC. */
LmImage *lm_image_to_depth8 (const LmImage *src, GError **error);

/* The 16-bit twin of an 8-bit (RGBA8, GRAY8) image, each sample v becoming v·257 (the same
 * value on 0..1, which lm_image_to_depth8 maps back to v), in ALLOCATOR's memory (NULL: the
 * host's): what a 16-bit export of an 8-bit photo renders from, so that the edits' gradations
 * are not rounded to 256 levels. The metadata and opacity come along. For an image of any
 * other format, a new reference to SRC. */
LmImage *lm_image_to_depth16 (const LmImage *src, const LmAllocator *allocator, GError **error);

G_END_DECLS
