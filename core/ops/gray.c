/* Grayscale, CPU reference. */
#include <glib/gi18n.h>

#include "gray-math.h"
#include "gray-row.h"
#include "ops.h"
#include "simd.h"

static const LmEnumValue lm_gray_modes[] = {
  { "luminosity", N_("Luminosity (the photo's primaries)") },
  { "bt601", N_("BT.601 (video, OpenCV)") },
  { "average", N_("Average") },
  { "mix", N_("Channel mix") },
  { NULL, NULL },
};

#define LM_PARAM_STRUCT LmGrayParams
static const LmParamSpec gray_params[] = { LM_GRAY_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* "luminosity" weighs with the photo's own primaries: their luminances, where it has a
 * profile that is not sRGB (0: BT.709's, gray-math.h). */
static void
gray_commit (void *params, const LmOpContext *context)
{
  LmGrayParams *p = params;
  const LmOpColor *color = &context->color;
  p->luminosity = (LmGrayWeights) { 0.0f, 0.0f, 0.0f };
  if (color->space != NULL)
    p->luminosity = (LmGrayWeights) { (float) color->luminance[0], (float) color->luminance[1],
                                      (float) color->luminance[2] };
}

static LmFormat
gray_output_format (const void *params, LmFormat in, gboolean opaque)
{
  /* The source's depth is kept: 16 bits in, 16 bits out. */
  if (in == LM_FORMAT_GRAY8 || in == LM_FORMAT_GRAY16 || lm_gray_stores_one_channel (params, opaque))
    return lm_format_gray_of (in);
  return lm_format_rgba_of (in);
}

/* Row loops over whole 32-bit pixels, so that they vectorize (see simd.h). */
LM_SIMD_CLONES static void
row_rgba_to_gray (const guint32 *restrict in, guint8 *restrict out, guint width, LmGrayWeights w)
{
  lm_weighted_row_u8 (in, out, width, w.r, w.g, w.b);
}

LM_SIMD_CLONES static void
row_rgba_to_rgba (const guint32 *restrict in, guint32 *restrict out, guint width, LmGrayWeights w,
                  float amount)
{
  for (guint x = 0; x < width; x++)
    out[x] = lm_gray_rgba (in[x], w, amount);
}

LM_SIMD_CLONES static void
row_gray_to_gray (const guint8 *restrict in, guint8 *restrict out, guint width, LmGrayWeights w,
                  float amount)
{
  for (guint x = 0; x < width; x++)
    {
      float v = in[x];
      out[x] = lm_quantize_u8 (lm_blend (v, lm_quantize_clamp (lm_gray_value (v, v, v, w)), amount));
    }
}

LM_SIMD_CLONES static void
row_rgba16_to_gray16 (const guint64 *restrict in, guint16 *restrict out, guint width, LmGrayWeights w)
{
  for (guint x = 0; x < width; x++)
    out[x] = lm_gray_of_rgba16 (in[x], w);
}

LM_SIMD_CLONES static void
row_rgba16_to_rgba16 (const guint64 *restrict in, guint64 *restrict out, guint width, LmGrayWeights w,
                      float amount)
{
  for (guint x = 0; x < width; x++)
    out[x] = lm_gray_rgba16 (in[x], w, amount);
}

static void
run16 (const LmGrayParams *p, LmGrayWeights w, const LmImage *src, LmImage *dst)
{
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      if (src->format == LM_FORMAT_GRAY16)
        for (guint x = 0; x < src->width; x++)
          ((guint16 *) out)[x] = lm_gray_gray16 (((const guint16 *) in)[x], w, p->amount);
      else if (dst->format == LM_FORMAT_GRAY16)
        row_rgba16_to_gray16 ((const guint64 *) in, (guint16 *) out, src->width, w);
      else
        row_rgba16_to_rgba16 ((const guint64 *) in, (guint64 *) out, src->width, w, p->amount);
    }
}

static gboolean
gray_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  const LmGrayParams *p = params;
  LmGrayWeights w = lm_gray_weights (p);
  if (lm_format_depth (src->format) == 16)
    {
      run16 (p, w, src, dst);
      return TRUE;
    }

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      if (src->format == LM_FORMAT_GRAY8)
        row_gray_to_gray (in, out, src->width, w, p->amount);
      else if (dst->format == LM_FORMAT_GRAY8)
        row_rgba_to_gray ((const guint32 *) in, out, src->width, w);
      else
        row_rgba_to_rgba ((const guint32 *) in, (guint32 *) out, src->width, w, p->amount);
    }
  return TRUE;
}

const LmOpInfo lm_gray_op = {
  .id = LM_OP_GRAY,
  .name = "gray",
  .label = N_("Grayscale"),
  .blurb = N_("Convert to gray: luminosity, bt601, average or mix"),
  .params = gray_params,
  .n_params = G_N_ELEMENTS (gray_params),
  .params_size = sizeof (LmGrayParams),
  .version = 1,
  .commit = gray_commit,
  .output_format = gray_output_format,
  .run_cpu = gray_run_cpu,
};
G_STATIC_ASSERT (sizeof (LmGrayParams) <= LM_OP_PARAMS_MAX);
