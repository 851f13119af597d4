/* A source's ICC profile as every loader takes it. lcms2 reads the profile wherever Lumen
 * uses it (core/color): one it cannot read, or one of a colour space the decoded pixels are
 * not in (a CMYK profile once the pixels are RGB), is left off the image, so that no export
 * embeds it, and a note says so and that the colours are taken as sRGB. */
#pragma once

#include "../image.h"

G_BEGIN_DECLS

/* Keeps ICC (LEN bytes; LEN 0: none) as IMAGE's profile, or notes why it is not used: IMAGE's
 * format must be the decoded one (a gray profile for gray pixels, RGB for RGB and RGBA). */
void lm_io_take_profile (LmImage *image, const void *icc, gsize len);

/* The note for a profile a library refused before Lumen saw it: WHY says what happened, as a
 * sentence about the file ("its ICC profile was refused by libpng"). */
void lm_io_note_profile_unused (LmImage *image, const char *why);

G_END_DECLS
