/* Resize: the export's scaling, CPU reference (resize-math.h has the size rule, the weights
 * and the sums). */
#include <glib/gi18n.h>

#include "../error.h"
#include "ops.h"
#include "resize-math.h"

static const LmEnumValue resize_modes[] = {
  { "fit", N_("Fit inside (keep the aspect ratio)") },
  { "exact", N_("Exact size") },
  { NULL, NULL },
};

static const LmParamSpec resize_params[] = {
  { "width", N_("Width (0: from the height)"), LM_PARAM_FLOAT, G_STRUCT_OFFSET (LmResizeParams, width), 0,
    LM_RESIZE_SIDE_MAX, 0 },
  { "height", N_("Height (0: from the width)"), LM_PARAM_FLOAT, G_STRUCT_OFFSET (LmResizeParams, height), 0,
    LM_RESIZE_SIDE_MAX, 0 },
  { "mode", N_("Mode"), LM_PARAM_ENUM, G_STRUCT_OFFSET (LmResizeParams, mode), 0, 1, LM_RESIZE_FIT,
    resize_modes },
};

static LmFormat
resize_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static void
resize_output_size (const void *params, guint width, guint height, guint *out_width, guint *out_height)
{
  const LmResizeParams *p = params;
  if (lm_tile_frame_active (&p->tile))
    *out_width = p->tile.out_w, *out_height = p->tile.out_h;
  else
    lm_resize_size (params, width, height, out_width, out_height);
}

/* One axis's table (lm_resize_axis_table). */
typedef struct {
  LmResizeSpan *spans;
  float *weights;
} AxisTable;

static AxisTable
axis_table (const LmResizeAxis *a)
{
  AxisTable t = { g_new (LmResizeSpan, MAX (a->count, 1)), g_new (float, lm_resize_axis_capacity (a->in, a->out)) };
  lm_resize_axis_table_part (a->in, a->out, a->first, a->count, a->origin, t.spans, t.weights);
  return t;
}

static void
axis_table_clear (AxisTable *t)
{
  g_free (t->spans);
  g_free (t->weights);
}

static void
store_u8 (guint8 *out, const float acc[4], int channels)
{
  for (int c = 0; c < channels; c++)
    out[c] = lm_quantize_u8 (acc[c]);
}

static gboolean
resize_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  gboolean deep = src->format == LM_FORMAT_RGBA16 || src->format == LM_FORMAT_GRAY16;
  if (src->format != LM_FORMAT_RGBA8 && src->format != LM_FORMAT_GRAY8 && !deep)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s needs an 8-bit image"), "resize");
      return FALSE;
    }
  guint w = src->width, h = src->height, ow = dst->width, oh = dst->height;
  int C = (int) lm_format_channels (src->format);
  gsize bps = deep ? 2 : 1; /* bytes a sample */
  /* A tile computes its pixels of the whole image's tables, in the whole image's order. */
  LmResizeAxis xa, ya;
  lm_resize_axes (params, w, h, ow, oh, &xa, &ya);
  gboolean vfirst = lm_resize_vertical_first (xa.in, ya.in, xa.out, ya.out);
  /* The intermediate: OW × H (horizontal first) or W × OH, C floats a pixel. */
  guint tw = vfirst ? w : ow, th = vfirst ? oh : h;
  float *tmp = g_try_new (float, (gsize) tw * th * C);
  if (tmp == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("Not enough memory to resize to %u × %u"), ow, oh);
      return FALSE;
    }
  AxisTable xt = axis_table (&xa), yt = axis_table (&ya);
  gsize tstride = (gsize) tw * C; /* floats */

  /* First pass: 8-bit source to the float intermediate. */
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < th; y++)
    {
      float *trow = tmp + y * tstride;
      for (guint x = 0; x < tw; x++)
        {
          float acc[4];
          if (deep && vfirst)
            lm_resize_sum_u16 (src->data + (gsize) x * C * bps, src->stride, (int) h, yt.spans[y], yt.weights, C,
                               acc);
          else if (deep)
            lm_resize_sum_u16 (lm_image_row (src, y), C * bps, (int) w, xt.spans[x], xt.weights, C, acc);
          else if (vfirst)
            lm_resize_sum_u8 (src->data + (gsize) x * C, src->stride, (int) h, yt.spans[y], yt.weights, C, acc);
          else
            lm_resize_sum_u8 (lm_image_row (src, y), C, (int) w, xt.spans[x], xt.weights, C, acc);
          for (int c = 0; c < C; c++)
            trow[(gsize) x * C + c] = acc[c];
        }
    }

  /* Second pass: the other axis, rounded once. */
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < oh; y++)
    {
      guint8 *out = lm_image_row (dst, y);
      for (guint x = 0; x < ow; x++)
        {
          float acc[4];
          if (vfirst)
            lm_resize_sum_f32 (tmp + y * tstride, C, (int) w, xt.spans[x], xt.weights, C, acc);
          else
            lm_resize_sum_f32 (tmp + (gsize) x * C, tstride, (int) h, yt.spans[y], yt.weights, C, acc);
          if (deep)
            for (int c = 0; c < C; c++)
              ((guint16 *) out)[(gsize) x * C + c] = lm_quantize_u16 (acc[c]);
          else
            store_u8 (out + (gsize) x * C, acc, C);
        }
    }

  axis_table_clear (&xt);
  axis_table_clear (&yt);
  g_free (tmp);
  return TRUE;
}

/* Tiles: on each axis, the input pixels that the output pixels' spans reach, clamped as the
 * sums clamp them. */
static void
source_span (guint in, guint out, guint first, guint count, guint *lo, guint *n)
{
  LmResizeSpan *spans = g_new (LmResizeSpan, count);
  g_autofree float *weights = g_new (float, lm_resize_axis_capacity (in, out));
  lm_resize_axis_table_part (in, out, first, count, 0, spans, weights);
  int a = G_MAXINT, b = G_MININT;
  for (guint i = 0; i < count; i++)
    {
      int s0 = CLAMP (spans[i].start, 0, (int) in - 1);
      int s1 = CLAMP (spans[i].start + (int) MAX (spans[i].count, 1) - 1, 0, (int) in - 1);
      a = MIN (a, s0), b = MAX (b, s1);
    }
  g_free (spans);
  *lo = (guint) a, *n = (guint) (b - a + 1);
}

static void
resize_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  guint ow, oh;
  lm_resize_size (params, in_w, in_h, &ow, &oh);
  source_span (in_w, ow, out->x, out->width, &in->x, &in->width);
  source_span (in_h, oh, out->y, out->height, &in->y, &in->height);
}

static LmTileFrame *
resize_tile_frame (void *params)
{
  return &((LmResizeParams *) params)->tile;
}

const LmOpInfo lm_resize_op = {
  .id = LM_OP_RESIZE,
  .name = "resize",
  .label = N_("Resize"),
  .blurb = N_("Scale on export to WIDTHxHEIGHT (0: from the other side): area averaging for shrinks of 2 or more, "
              "else Lanczos-3"),
  .params = resize_params,
  .n_params = G_N_ELEMENTS (resize_params),
  .params_size = sizeof (LmResizeParams),
  .flag_params = "width,height",
  .flag_sep = 'x',
  .output_format = resize_output_format,
  .output_size = resize_output_size,
  .run_cpu = resize_run_cpu,
  .source_rect = resize_source_rect,
  .tile_frame = resize_tile_frame,
};
