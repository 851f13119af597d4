/* White balance: parameters and the channel function, shared by wb.c and the fused point
 * pass (point-math.h).
 *
 * The temperature (and tint) name the light the photo was taken under, in the sense of
 * Lightroom's and darktable's "as shot" white balance: wb.c turns them into one gain per
 * channel, in linear light, that makes that light's white neutral (6500 K, tint 0: every gain
 * 1). Applied as exposure is: decode the encoded value with the sRGB transfer function,
 * multiply, encode again; the pass clips at its end. Only the channel part runs per value:
 * the gains come from the illuminant's chromaticity once per render, on the host (wb.c), and
 * are all the table needs. */
#pragma once

#include "op-context.h"
#include "param-decl.h"
#include "srgb-math.h"

#define LM_WB_TEMPERATURE_MIN 2000.0f
#define LM_WB_TEMPERATURE_MAX 12000.0f
#define LM_WB_TEMPERATURE_NEUTRAL 6500.0f /* D65's place on the scale: no change */
#define LM_WB_TINT_MAX 100.0f

/* temperature: K of the light the photo was taken under; tint: positive towards magenta
 * (the green gain lowered). */
#define LM_WB_PARAMS(P)                                                                            \
  P (FLOAT, temperature, N_("Temperature (K)"), LM_WB_TEMPERATURE_MIN, LM_WB_TEMPERATURE_MAX,       \
     LM_WB_TEMPERATURE_NEUTRAL, 10, "K")                                                           \
  P (FLOAT, tint, N_("Tint"), -LM_WB_TINT_MAX, LM_WB_TINT_MAX, 0, 1, NULL)

typedef struct {
  LM_WB_PARAMS (LM_PARAM_FIELD)
  /* Not a parameter: the photo's colour space, from the render's commit (wb.c). Zero (every
   * pipeline the user edits) and sRGB: sRGB's matrix and curve, as below. Another profile:
   * the gains are computed in its RGB, normalised with its primaries' luminances, and applied
   * through its curve. */
  LmOpColor color;
} LmWbParams;

/* The gains that params make (wb.h, lm_wb_gains): linear R, G, B multipliers whose luminance
 * is 1 (BT.709's weights for sRGB, the primaries' own otherwise), so that balancing changes the colour of a gray, not its brightness. */
typedef struct {
  float gain[3];
} LmWbGains;

LM_INLINE float
lm_wb_channel (const LmWbGains *g, int c, float v)
{
  return 255.0f * lm_linear_to_srgb (lm_srgb_to_linear (v / 255.0f) * g->gain[c]);
}
