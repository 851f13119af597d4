/* Converting a photo's pixels from its ICC profile to sRGB, for the web: what export's
 * "Convert to sRGB" and lumen-cli --to-srgb do (LmSaveOptions.to_srgb). */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

/* The sRGB profile that converted images carry (lcms2's built-in sRGB, serialized). */
GBytes *lm_color_srgb_icc (void);

/* A copy of IMAGE (host memory; RGBA8, RGBA16, GRAY8 or GRAY16) in sRGB: converted from its
 * ICC profile with lcms2's perceptual intent (for matrix-shaper profiles, which have no
 * perceptual tables, lcms2 falls back to relative colorimetric, as every ICC engine does),
 * alpha kept, gray kept gray, depth kept; its metadata copied, the profile replaced by
 * lm_color_srgb_icc (). An image without a profile is taken as sRGB already: its pixels are
 * copied unchanged. NULL and ERROR (LUMEN_ERROR) when the profile cannot be used. */
LmImage *lm_color_convert_to_srgb (const LmImage *image, GError **error);

G_END_DECLS
