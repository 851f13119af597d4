/* Vignette, CPU reference: vignette-math.h says what it computes. The host tables (the gain's
 * steps, each channel's decoding and its rounding points) are made for each run: 6 KiB for
 * 8-bit images, 1.5 MiB for 16-bit ones. */
#include <string.h>
#include <glib/gi18n.h>

#include "ops.h"
#include "vignette-math.h"
#include "../error.h"

#define LM_PARAM_STRUCT LmVignetteParams
static const LmParamSpec vignette_params[] = { LM_VIGNETTE_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* Linear light through the photo's own curve. */
static void
vignette_commit (void *params, const LmOpContext *context)
{
  ((LmVignetteParams *) params)->color = context->color;
}

static LmFormat
vignette_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

/* Each channel's tables, DECODE and UP (lm_vignette_curve), N + 1 floats each, three
 * channels: a gray image reads green's, as exposure does (core/ops/exposure.c). */
static float *
curves_new (const LmOpColor *color, unsigned n, GError **error)
{
  float *tables = g_try_new (float, 6 * ((gsize) n + 1));
  if (tables == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory for the vignette"));
      return NULL;
    }
  gsize size = (gsize) n + 1;
  for (int c = 0; c < 3; c++)
    {
      float *decode = tables + 2 * c * size, *up = decode + size;
      if (c > 0 && color->space == NULL) /* sRGB: one curve for all */
        memcpy (decode, tables, 2 * size * sizeof (float));
      else
        lm_vignette_curve (color, c, n, decode, up);
    }
  return tables;
}

static gboolean
vignette_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  const LmVignetteParams *p = params;
  LmFormat format = src->format;
  if (format != LM_FORMAT_RGBA8 && format != LM_FORMAT_RGBA16 && format != LM_FORMAT_GRAY8
      && format != LM_FORMAT_GRAY16)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, _("the vignette does not take %s images"),
                   lm_format_name (format));
      return FALSE;
    }
  if (p->amount == 0.0f)
    {
      for (guint y = 0; y < src->height; y++)
        memcpy (lm_image_row (dst, y), lm_image_row (src, y), src->width * lm_format_bytes_per_pixel (format));
      return TRUE;
    }
  gboolean deep = lm_format_depth (format) == 16, gray = lm_format_channels (format) == 1;
  unsigned n = deep ? 65535 : 255;
  gsize size = (gsize) n + 1;
  g_autofree float *curves = curves_new (&p->color, n, error);
  if (curves == NULL)
    return FALSE;
  float gain[LM_VIGNETTE_GAIN_STEPS + 1];
  lm_vignette_gains (p, gain);
  LmVignetteShape shape = lm_vignette_shape (p, src->width, src->height);
  int height = (int) src->height;

#pragma omp parallel for schedule(static)
  for (int y = 0; y < height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      for (guint x = 0; x < src->width; x++)
        {
          float g = lm_vignette_gain (&shape, gain, shape.ox + x, shape.oy + (unsigned) y);
          if (gray)
            {
              const float *decode = curves + 2 * size, *up = decode + size; /* green's */
              if (deep)
                ((guint16 *) out)[x] = (guint16) lm_vignette_encode (up, n, decode[((const guint16 *) in)[x]] * g);
              else
                out[x] = (guint8) lm_vignette_encode (up, n, decode[in[x]] * g);
              continue;
            }
          for (int c = 0; c < 3; c++)
            {
              const float *decode = curves + 2 * c * size, *up = decode + size;
              if (deep)
                ((guint16 *) out)[4 * x + c]
                  = (guint16) lm_vignette_encode (up, n, decode[((const guint16 *) in)[4 * x + c]] * g);
              else
                out[4 * x + c] = (guint8) lm_vignette_encode (up, n, decode[in[4 * x + c]] * g);
            }
          if (deep)
            ((guint16 *) out)[4 * x + 3] = ((const guint16 *) in)[4 * x + 3];
          else
            out[4 * x + 3] = in[4 * x + 3];
        }
    }
  return TRUE;
}

static LmTileFrame *
vignette_tile_frame (void *params)
{
  return &((LmVignetteParams *) params)->tile;
}

const LmOpInfo lm_vignette_op = {
  .id = LM_OP_VIGNETTE,
  .name = "vignette",
  .label = N_("Vignette"),
  .blurb = N_("Darken (amount < 0) or lighten the corners of the cropped photo by up to 3 EV"),
  .params = vignette_params,
  .n_params = G_N_ELEMENTS (vignette_params),
  .params_size = sizeof (LmVignetteParams),
  .version = 1,
  .commit = vignette_commit,
  .output_format = vignette_output_format,
  .run_cpu = vignette_run_cpu,
  .tile_frame = vignette_tile_frame,
};
G_STATIC_ASSERT (sizeof (LmVignetteParams) <= LM_OP_PARAMS_MAX);
