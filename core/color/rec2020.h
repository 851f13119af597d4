/* ITU-R BT.2020's RGB as ICC profiles, built with lcms2: the linear working space of
 * scene-referred light (a developed raw), and the same primaries with sRGB's transfer curve,
 * in which the sigmoid display transform (core/hdr/sigmoid-math.h) encodes its output.
 * Images carry them as their icc_profile, so that exports and the view know their colours. */
#pragma once

#include <glib.h>

#include "profile.h"

G_BEGIN_DECLS

/* BT.2020's primaries and white (D65), CIE 1931 xy. */
#define LM_REC2020_RED_X 0.708
#define LM_REC2020_RED_Y 0.292
#define LM_REC2020_GREEN_X 0.170
#define LM_REC2020_GREEN_Y 0.797
#define LM_REC2020_BLUE_X 0.131
#define LM_REC2020_BLUE_Y 0.046
#define LM_REC2020_WHITE_X 0.3127
#define LM_REC2020_WHITE_Y 0.3290

/* The profiles' ICC bytes (version 4, a fixed creation date: the same bytes on every run),
 * one copy each for the process; a new reference for the caller. */
GBytes *lm_color_rec2020_linear_icc (void);
GBytes *lm_color_rec2020_display_icc (void);

/* The same as LmColorProfile. */
LmColorProfile *lm_color_profile_new_rec2020_linear (void);
LmColorProfile *lm_color_profile_new_rec2020_display (void);

G_END_DECLS
