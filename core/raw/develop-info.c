/* The raw stage's description (develop.h): its parameters' table from LM_RAW_PARAMS, where the
 * names of its choices are known. */
#include "develop.h"

#include <glib/gi18n.h>

#include "camera-color.h"

static const LmEnumValue raw_wb_modes[] = {
  { "as-shot", N_("As shot") },
  { "daylight", N_("Daylight") },
  { "temperature", N_("Temperature and tint") },
  { "custom", N_("Custom (gray picker)") },
  { NULL, NULL },
};

static const LmEnumValue raw_highlight_modes[] = {
  { "clip", N_("Clip") },
  { "reconstruct", N_("Reconstruct") },
  { NULL, NULL },
};

static const LmEnumValue raw_demosaic_methods[] = {
  { "auto", N_("Best for the sensor") },
  { "rcd", N_("RCD (Bayer)") },
  { "markesteijn3", N_("Markesteijn, 3 passes (X-Trans)") },
  { "markesteijn1", N_("Markesteijn, 1 pass (X-Trans)") },
  { "bilinear", N_("Bilinear (Bayer, for comparison)") },
  { NULL, NULL },
};

/* The choices' order is the enums' (camera-color.h, raw-prep-math.h, develop.h). */
G_STATIC_ASSERT (LM_RAW_WB_AS_SHOT == 0 && LM_RAW_WB_DAYLIGHT == 1 && LM_RAW_WB_TEMPERATURE == 2
                 && LM_RAW_WB_CUSTOM == 3);
G_STATIC_ASSERT (LM_RAW_HIGHLIGHTS_CLIP == 0 && LM_RAW_HIGHLIGHTS_RECONSTRUCT == 1);
G_STATIC_ASSERT (sizeof (LmRawParams) <= LM_OP_PARAMS_MAX);

#define LM_PARAM_STRUCT LmRawParams
static const LmParamSpec raw_params[] = { LM_RAW_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static LmFormat
raw_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return LM_FORMAT_RGBA_F32;
}

static gboolean
raw_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_raw_develop_cpu (params, src->raw, src, dst, error);
}

static const LmOpInfo raw_info = {
  .id = LM_N_OPS + 1,
  .name = "raw",
  .label = N_("Raw Development"),
  .blurb = N_("A camera's sensor data to scene light"),
  .params = raw_params,
  .n_params = G_N_ELEMENTS (raw_params),
  .params_size = sizeof (LmRawParams),
  .version = 1,
  .output_format = raw_output_format,
  .run_cpu = raw_run_cpu,
};

const LmOpInfo *
lm_raw_op_info (void)
{
  return &raw_info;
}
