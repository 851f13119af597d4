/* Saturation and vibrance: the parameters and their place in the fused point pass
 * (saturation-math.h says what they compute). A pixel part alone: no channel part, and no
 * gray part (point-math.h): a gray image has no colour to saturate and stays as it is. */
#include <glib/gi18n.h>

#include "ops.h"
#include "point.h"
#include "saturation-math.h"

#define LM_PARAM_STRUCT LmSaturationParams
static const LmParamSpec saturation_params[] = { LM_SATURATION_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static void
saturation_point_prepare (const void *params, LmPointPass *pass)
{
  const LmSaturationParams *p = params;
  /* At 0, 0 the pixel part would change nothing: leave it out of the pass. */
  if (p->saturation == 0.0f && p->vibrance == 0.0f)
    return;
  float gain = 1.0f + p->saturation;
  pass->saturation = (LmSaturationPixel) { .gain = gain, .vibrance_gain = p->vibrance * gain };
  pass->pixel_ops |= LM_OP_BIT (SATURATION);
}

static gboolean
saturation_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_point_run_one_cpu (&lm_saturation_op, params, src, dst, error);
}

const LmOpInfo lm_saturation_op = {
  .id = LM_OP_SATURATION,
  .name = "saturation",
  .label = N_("Saturation"),
  .blurb = N_("Saturation, and vibrance: more on dull colours than on vivid ones"),
  .params = saturation_params,
  .n_params = G_N_ELEMENTS (saturation_params),
  .params_size = sizeof (LmSaturationParams),
  .version = 1,
  .output_format = lm_point_output_format,
  .point_prepare = saturation_point_prepare,
  .run_cpu = saturation_run_cpu,
};
