/* Contrast, black and white levels: the parameters and their place in the fused point pass
 * (contrast-math.h says what they compute). */
#include <glib/gi18n.h>

#include "contrast-math.h"
#include "ops.h"
#include "point.h"

#define LM_PARAM_STRUCT LmContrastParams
static const LmParamSpec contrast_params[] = { LM_CONTRAST_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static float
contrast_channel (const void *params, int c, float v)
{
  return lm_contrast_channel (params, c, v);
}

/* The same on a gray image's one channel. */
static float
contrast_gray (const void *params, float v)
{
  return lm_contrast_channel (params, 0, v);
}

static void
contrast_point_prepare (const void *params, LmPointPass *pass)
{
  lm_point_pass_map (pass, contrast_channel, params);
  lm_point_pass_map_gray (pass, contrast_gray, params);
}

static gboolean
contrast_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_point_run_one_cpu (&lm_contrast_op, params, src, dst, error);
}

const LmOpInfo lm_contrast_op = {
  .id = LM_OP_CONTRAST,
  .name = "contrast",
  .label = N_("Contrast"),
  .blurb = N_("Black and white levels, then contrast about mid-gray"),
  .params = contrast_params,
  .n_params = G_N_ELEMENTS (contrast_params),
  .params_size = sizeof (LmContrastParams),
  .version = 1,
  .output_format = lm_point_output_format,
  .point_prepare = contrast_point_prepare,
  .run_cpu = contrast_run_cpu,
};
