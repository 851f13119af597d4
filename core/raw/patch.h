/* What the white balance picker reads of a raw: a patch's mean in camera RGB, black subtracted
 * and scaled by each channel's white, before any white balance (camera-color.h's
 * lm_raw_wb_from_gray turns it into the multipliers that make it neutral). */
#pragma once

#include "../image.h"
#include "../raw-info.h"

G_BEGIN_DECLS

/* The mean of SRC's sites in X0..X1 × Y0..Y1 (inclusive, clamped to SRC) per colour, clipped
 * sites left out: FALSE where a colour has no unclipped site there, or SRC is monochrome. SRC
 * is CFA16 (Bayer, X-Trans) or RGBA16 (LINEAR) of INFO, in host memory. */
gboolean lm_raw_patch_camera_rgb (const LmRawInfo *info, const LmImage *src, int x0, int y0, int x1, int y1,
                                  float rgb[3]);

G_END_DECLS
