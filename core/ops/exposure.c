/* Exposure: its parameter and its place in the fused point pass (exposure-math.h says what it
 * computes). */
#include <math.h>
#include <glib/gi18n.h>

#include "exposure-math.h"
#include "ops.h"
#include "point.h"

#define LM_PARAM_STRUCT LmExposureParams
static const LmParamSpec exposure_params[] = { LM_EXPOSURE_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* The photo's colour space is all that a render adds: its curve replaces sRGB's. */
static void
exposure_commit (void *params, const LmOpContext *context)
{
  ((LmExposureParams *) params)->color = context->color;
}

static float
exposure_channel (const void *params, int c, float v)
{
  const LmExposureParams *p = params;
  const LmOpColor *color = &p->color;
  if (color->space == NULL)
    return lm_exposure_channel (params, c, v);
  double l = color->to_linear (color->space, c, v / 255.0) * exp2 (p->ev);
  return (float) (255.0 * color->from_linear (color->space, c, l));
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

/* On scene light the exposure is the gain itself, with no curve around it. */
static void
exposure_scene_gain (const void *params, float gain[3])
{
  float g = exp2f (((const LmExposureParams *) params)->ev);
  gain[0] = gain[1] = gain[2] = g;
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
  .version = 1,
  .output_format = lm_point_output_format,
  .commit = exposure_commit,
  .point_prepare = exposure_point_prepare,
  .on_scene = TRUE,
  .scene_gain = exposure_scene_gain,
  .run_cpu = exposure_run_cpu,
};
