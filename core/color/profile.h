/* What a photo's ICC profile says about its RGB: the primaries (an RGB → XYZ matrix), the
 * white, the transfer curve of each channel and a description. Operations that need
 * primaries or linear light (grayscale's luminosity, white balance, exposure) read it; all
 * others compute on the encoded values and never ask.
 *
 * A photo without a profile is sRGB, and so is one whose profile is not a usable RGB
 * matrix-shaper (a gray or CMYK profile, a LUT-only one, a damaged one): then a note says
 * why, for the caller to show. A profile that describes sRGB (its primaries and curve those
 * of IEC 61966-2-1, whoever wrote it) is reported as sRGB, so that sRGB photos keep the exact
 * constants and code paths they had before profiles were read. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _LmColorProfile LmColorProfile;

/* sRGB (IEC 61966-2-1): what a photo without a profile is. */
LmColorProfile *lm_color_profile_new_srgb (void);

/* The profile in ICC (the bytes of LmImage's icc_profile; NULL: none). Never NULL: where
 * ICC is not a usable RGB profile the result is sRGB and *NOTE (when NOTE is not NULL) a
 * translated sentence saying why, to be freed; otherwise *NOTE is NULL. */
LmColorProfile *lm_color_profile_new (GBytes *icc, char **note);

LmColorProfile *lm_color_profile_ref (LmColorProfile *profile);
void lm_color_profile_unref (LmColorProfile *profile);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmColorProfile, lm_color_profile_unref)

/* Whether the photo's RGB is sRGB's (no profile, or one that describes sRGB). */
gboolean lm_color_profile_is_srgb (const LmColorProfile *profile);

/* The profile's description (its 'desc' tag), or "sRGB". */
const char *lm_color_profile_description (const LmColorProfile *profile);

/* Linear RGB (0..1) to CIE XYZ under the profile's own white, Y of white 1: the colorants of
 * the profile with its chromatic adaptation to ICC's D50 undone (the 'chad' tag, or a
 * Bradford adaptation to 'wtpt' where a version 2 profile has no 'chad'). Adobe RGB's white
 * is D65, ProPhoto's D50. M[row][column]; row 1 is the luminance of each primary. */
void lm_color_profile_rgb_to_xyz (const LmColorProfile *profile, double m[3][3]);
void lm_color_profile_xyz_to_rgb (const LmColorProfile *profile, double m[3][3]);

/* The white's XYZ (Y = 1): the sum of the matrix's columns. */
void lm_color_profile_white (const LmColorProfile *profile, double xyz[3]);

/* The luminance of each primary (row Y of the matrix), normalised to sum to 1: what
 * "luminosity" weighs R, G and B with. sRGB: BT.709's 0.2126, 0.7152, 0.0722. */
void lm_color_profile_luminance (const LmColorProfile *profile, double w[3]);

/* Channel C's (0 R, 1 G, 2 B) transfer curve: encoded V (0..1) to linear light, and back.
 * Extended outside 0..1 as lm_srgb_to_linear is (srgb-math.h): by symmetry below 0, the
 * curve's own formula above 1 (a sampled curve holds its end value). */
double lm_color_profile_to_linear (const LmColorProfile *profile, int c, double v);
double lm_color_profile_from_linear (const LmColorProfile *profile, int c, double l);

/* TABLE[i] = channel C's linear value of encoded i / (N - 1), for i < N: N = 256 for 8-bit
 * sources, 65536 for 16-bit ones. */
void lm_color_profile_linear_table (const LmColorProfile *profile, int c, float *table, guint n);

G_END_DECLS
