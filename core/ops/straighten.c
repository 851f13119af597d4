/* Straighten: a small turn with bicubic sampling, cropped to the largest upright rectangle;
 * CPU reference (straighten-math.h has the geometry and the sampling). */
#include <glib/gi18n.h>

#include "../error.h"
#include "ops.h"
#include "straighten-math.h"

static const LmParamSpec straighten_params[] = {
  { "angle", N_("Angle (degrees, counter-clockwise)"), LM_PARAM_FLOAT,
    G_STRUCT_OFFSET (LmStraightenParams, angle), -LM_STRAIGHTEN_ANGLE_MAX, LM_STRAIGHTEN_ANGLE_MAX, 0 },
};

static LmFormat
straighten_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static void
straighten_output_size (const void *params, guint width, guint height, guint *out_width, guint *out_height)
{
  const LmStraightenParams *p = params;
  if (lm_tile_frame_active (&p->tile))
    *out_width = p->tile.out_w, *out_height = p->tile.out_h;
  else
    lm_straighten_size (params, width, height, out_width, out_height);
}

static gboolean
straighten_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  gboolean deep = src->format == LM_FORMAT_RGBA16 || src->format == LM_FORMAT_GRAY16;
  if (src->format != LM_FORMAT_RGBA8 && src->format != LM_FORMAT_GRAY8 && !deep)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s needs an 8-bit image"), "straighten");
      return FALSE;
    }
  LmStraightenSource s;
  guint out_x, out_y;
  LmStraightenMap m = lm_straighten_setup (params, src->width, src->height, dst->width, dst->height, &s, &out_x,
                                           &out_y);
  gboolean gray = src->format == LM_FORMAT_GRAY8;
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < dst->height; j++)
    {
      guint8 *out = lm_image_row (dst, j);
      for (guint i = 0; i < dst->width; i++)
        {
          float sx = lm_straighten_src_x (&m, out_x + i, out_y + j), sy = lm_straighten_src_y (&m, out_x + i, out_y + j);
          if (deep)
            lm_straighten16 (src->data, src->stride, &s, (int) lm_format_channels (src->format), sx, sy,
                             (guint16 *) out + (gsize) i * lm_format_channels (src->format));
          else if (gray)
            out[i] = lm_straighten_gray (src->data, src->stride, &s, sx, sy);
          else
            ((guint32 *) out)[i] = lm_straighten_rgba (src->data, src->stride, &s, sx, sy);
        }
    }
  return TRUE;
}

/* The window's picker: the output point's source point, by the map the sampling uses. */
static void
straighten_map_back (const void *params, guint in_w, guint in_h, double x, double y, double *sx, double *sy)
{
  guint ow, oh;
  lm_straighten_size (params, in_w, in_h, &ow, &oh);
  LmStraightenMap m = lm_straighten_map (params, in_w, in_h, ow, oh);
  double dx = x - m.hx, dy = y - m.hy;
  *sx = m.cx + (m.c * dx - m.s * dy);
  *sy = m.cy + (m.s * dx + m.c * dy);
}

/* Tiles: the bounding box of the output rectangle's corners mapped back, plus the cubic's
 * reach (one pixel before the floor, two after) and one pixel for float rounding between the
 * corners and the pixels inside. */
static void
straighten_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  guint ow, oh;
  lm_straighten_size (params, in_w, in_h, &ow, &oh);
  LmStraightenMap m = lm_straighten_map (params, in_w, in_h, ow, oh);
  float x0 = G_MAXFLOAT, y0 = G_MAXFLOAT, x1 = -G_MAXFLOAT, y1 = -G_MAXFLOAT;
  for (int c = 0; c < 4; c++)
    {
      guint i = out->x + (c & 1 ? out->width - 1 : 0), j = out->y + (c & 2 ? out->height - 1 : 0);
      float sx = lm_straighten_src_x (&m, i, j), sy = lm_straighten_src_y (&m, i, j);
      x0 = MIN (x0, sx), x1 = MAX (x1, sx), y0 = MIN (y0, sy), y1 = MAX (y1, sy);
    }
  int ax = CLAMP ((int) floorf (x0) - 2, 0, (int) in_w - 1), bx = CLAMP ((int) floorf (x1) + 3, 0, (int) in_w - 1);
  int ay = CLAMP ((int) floorf (y0) - 2, 0, (int) in_h - 1), by = CLAMP ((int) floorf (y1) + 3, 0, (int) in_h - 1);
  *in = (LmRect) { (guint) ax, (guint) ay, (guint) (bx - ax + 1), (guint) (by - ay + 1) };
}

static LmTileFrame *
straighten_tile_frame (void *params)
{
  return &((LmStraightenParams *) params)->tile;
}

const LmOpInfo lm_straighten_op = {
  .id = LM_OP_STRAIGHTEN,
  .name = "straighten",
  .label = N_("Straighten"),
  .blurb = N_("Turn by a small angle in degrees (positive: counter-clockwise), cropped to the largest upright rectangle"),
  .params = straighten_params,
  .n_params = G_N_ELEMENTS (straighten_params),
  .params_size = sizeof (LmStraightenParams),
  .output_format = straighten_output_format,
  .output_size = straighten_output_size,
  .map_back = straighten_map_back,
  .run_cpu = straighten_run_cpu,
  .source_rect = straighten_source_rect,
  .tile_frame = straighten_tile_frame,
};
