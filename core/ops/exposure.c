/* Exposure: its parameter and its place in the fused point pass (exposure-math.h says what it
 * computes). */
#include <math.h>
#include <glib/gi18n.h>

#include "../color/profile.h"

#include "exposure-math.h"
#include "ops.h"
#include "point.h"

static const LmParamSpec exposure_params[] = {
  { "ev", N_("Exposure (EV)"), LM_PARAM_FLOAT, G_STRUCT_OFFSET (LmExposureParams, ev), -LM_EXPOSURE_EV_MAX,
    LM_EXPOSURE_EV_MAX, 0 },
};

static float
exposure_channel (const void *params, int c, float v)
{
  const LmExposureParams *p = params;
  if (p->profile == NULL || lm_color_profile_is_srgb (p->profile))
    return lm_exposure_channel (params, c, v);
  double l = lm_color_profile_to_linear (p->profile, c, v / 255.0) * exp2 (p->ev);
  return (float) (255.0 * lm_color_profile_from_linear (p->profile, c, l));
}

/* A gray image's one channel: green's curve (the same as the others' in the RGB profiles
 * photographs carry; a gray profile is read as sRGB, core/color/profile.h). */
static float
exposure_gray (const void *params, float v)
{
  return exposure_channel (params, 1, v);
}

static void
exposure_point_prepare (const void *params, LmPointPass *pass)
{
  lm_point_pass_map (pass, exposure_channel, params);
  lm_point_pass_map_gray (pass, exposure_gray, params);
}

static gboolean
exposure_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_point_run_one_cpu (&lm_exposure_op, params, src, dst, error);
}

const LmOpInfo lm_exposure_op = {
  .id = LM_OP_EXPOSURE,
  .name = "exposure",
  .label = N_("Exposure"),
  .blurb = N_("Exposure in stops (EV), in linear light"),
  .params = exposure_params,
  .n_params = G_N_ELEMENTS (exposure_params),
  .params_size = sizeof (LmExposureParams),
  .output_format = lm_point_output_format,
  .point_prepare = exposure_point_prepare,
  .run_cpu = exposure_run_cpu,
};
