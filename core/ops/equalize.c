/* Histogram equalization, CPU reference: a histogram pass, the lookup table of
 * equalize-math.h, then a mapping pass. */
#include <glib/gi18n.h>

#include "equalize-math.h"
#include "histogram.h"
#include "ops.h"

static const LmEnumValue equalize_modes[] = {
  { "luma", N_("Luma (keeps colours)") },
  { "rgb", N_("Each channel (R, G, B)") },
  { NULL, NULL },
};

static const LmParamSpec equalize_params[] = {
  { "mode", N_("Mode"), LM_PARAM_ENUM, G_STRUCT_OFFSET (LmEqualizeParams, mode), 0, 1,
    LM_EQUALIZE_LUMA, equalize_modes },
  { "amount", N_("Amount"), LM_PARAM_FLOAT, G_STRUCT_OFFSET (LmEqualizeParams, amount), 0, 1, 1 },
};

static LmFormat
equalize_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static gboolean
equalize_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  const LmEqualizeParams *p = params;
  gboolean luma = p->mode == LM_EQUALIZE_LUMA || src->format == LM_FORMAT_GRAY8;

  LmHistogram hist;
  lm_histogram_cpu (src, luma ? LM_HIST_WANT_LUMA : LM_HIST_WANT_RGB, &hist);
  guint8 lut[LM_HIST_N_CHANNELS][LM_HIST_BINS];
  for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
    lm_equalize_lut (hist.bins[c], hist.total, lut[c]);

  float amount = p->amount;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      if (src->format == LM_FORMAT_GRAY8)
        for (guint x = 0; x < src->width; x++)
          out[x] = lm_equalize_channel (in[x], lut[LM_HIST_LUMA][in[x]], amount);
      else if (luma)
        for (guint x = 0; x < src->width; x++)
          lm_equalize_luma_rgba (in + 4 * x, out + 4 * x, lut[LM_HIST_LUMA], amount);
      else
        for (guint x = 0; x < src->width; x++)
          {
            const guint8 *i = in + 4 * x;
            guint8 *o = out + 4 * x;
            o[0] = lm_equalize_channel (i[0], lut[LM_HIST_R][i[0]], amount);
            o[1] = lm_equalize_channel (i[1], lut[LM_HIST_G][i[1]], amount);
            o[2] = lm_equalize_channel (i[2], lut[LM_HIST_B][i[2]], amount);
            o[3] = i[3];
          }
    }
  return TRUE;
}

const LmOpInfo lm_equalize_op = {
  .id = LM_OP_EQUALIZE,
  .name = "equalize",
  .label = N_("Equalize"),
  .blurb = N_("Histogram equalization: luma or rgb"),
  .params = equalize_params,
  .n_params = G_N_ELEMENTS (equalize_params),
  .params_size = sizeof (LmEqualizeParams),
  .output_format = equalize_output_format,
  .run_cpu = equalize_run_cpu,
};
G_STATIC_ASSERT (sizeof (LmEqualizeParams) <= LM_OP_PARAMS_MAX);
