/* Exposure: parameters and the channel function, shared by exposure.c and the fused point
 * pass (point-math.h).
 *
 * EV stops in linear light, as a camera's exposure: each encoded value is decoded with the
 * transfer function of the photo's profile (sRGB's below), multiplied by 2^EV and encoded again. darktable's exposure module
 * multiplies scene-referred linear RGB by 2^EV in the same way; Lumen's values are the file's
 * display-referred sRGB ones, so +1 EV doubles the light of a mid-tone (118 → 162) and
 * pushes what was above 188 past white, where the pass clips it at its end. */
#pragma once

#include "op-context.h"
#include "param-decl.h"
#include "srgb-math.h"

#define LM_EXPOSURE_EV_MAX 5.0f

#define LM_EXPOSURE_PARAMS(P) \
  P (FLOAT, ev, N_("Exposure (EV)"), -LM_EXPOSURE_EV_MAX, LM_EXPOSURE_EV_MAX, 0, 0.01, "EV")

typedef struct {
  LM_EXPOSURE_PARAMS (LM_PARAM_FIELD)
  /* Not a parameter: the photo's colour space, from the render's commit (exposure.c). Zero
   * (every pipeline the user edits) and sRGB take the sRGB curve below; another profile's
   * own curve decodes and encodes instead: the host builds the pass's table, so kernels never
   * see it. */
  LmOpColor color;
} LmExposureParams;

LM_INLINE float
lm_exposure_channel (const LmExposureParams *p, int c, float v)
{
  (void) c;
  return 255.0f * lm_linear_to_srgb (lm_srgb_to_linear (v / 255.0f) * exp2f (p->ev));
}
