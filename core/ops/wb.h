/* White balance on the host: the gains of a temperature and tint, and the inverse the
 * window's picker needs (the params that make a picked patch neutral). GLib-free. */
#pragma once

#include "wb-math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The chromaticity of light at T kelvin (wb.c says which locus): what a temperature names,
 * here and in the raw development's white balance (core/raw/camera-color.c). */
void lm_wb_illuminant_xy (double t, double *x, double *y);

/* The linear-light gains of P (wb-math.h says what they mean). */
void lm_wb_gains (const LmWbParams *p, LmWbGains *gains);

/* The temperature and tint that make the patch R, G, B (encoded values 0..255, a patch's
 * mean, not rounded) neutral, clamped to their ranges: the white-balance picker. Returns 0,
 * with 6500 K and tint 0, when a channel is 0 (a black or fully saturated patch says nothing
 * about the light); 1 otherwise. */
int lm_wb_from_gray (float r, float g, float b, float *temperature, float *tint);

/* lm_wb_from_gray in the photo's colour space COLOR (as a render's commit gets it,
 * op-context.h; NULL: sRGB): its curve decodes the patch and the gains are those of
 * lm_wb_gains with that colour space. */
int lm_wb_from_gray_in (const LmOpColor *color, float r, float g, float b, float *temperature,
                        float *tint);

#ifdef __cplusplus
}
#endif
