/* Rotate: quarter turns and mirrors, CPU reference (rotate-math.h says how pixels move). */
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "ops.h"
#include "rotate-math.h"

static const LmEnumValue lm_rotate_angles[] = {
  { "0", N_("None") },
  { "90", N_("90° clockwise") },
  { "180", N_("180°") },
  { "270", N_("90° counter-clockwise") },
  { NULL, NULL },
};

static const LmEnumValue lm_rotate_flips[] = {
  { "none", N_("None") },
  { "horizontal", N_("Horizontal (left–right)") },
  { "vertical", N_("Vertical (top–bottom)") },
  { NULL, NULL },
};

#define LM_PARAM_STRUCT LmRotateParams
static const LmParamSpec rotate_params[] = { LM_ROTATE_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static LmFormat
rotate_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static void
rotate_output_size (const void *params, guint width, guint height, guint *out_width, guint *out_height)
{
  lm_rotate_size (params, width, height, out_width, out_height);
}

/* Output pixels X0..X1-1 of row Y, BPP bytes each, gathered along the map. Along a row the
 * source moves by a fixed number of bytes: RGBA8 and gray pixels are then one load and one
 * store each, by a pointer that steps. */
static void
rotate_span (const LmRotateMap *m, const LmImage *src, guint8 *out, guint x0, guint x1, int y, gsize bpp)
{
  const guint8 *in = lm_image_row (src, (guint) lm_rotate_src_y (m, (int) x0, y))
                     + (gsize) lm_rotate_src_x (m, (int) x0, y) * bpp;
  gssize step = (gssize) m->yx * (gssize) src->stride + (gssize) m->xx * (gssize) bpp;
  if (bpp == 4)
    {
      guint32 *o = (guint32 *) out;
      for (guint x = x0; x < x1; x++, in += step)
        memcpy (o + x, in, 4);
      return;
    }
  if (bpp == 1)
    {
      for (guint x = x0; x < x1; x++, in += step)
        out[x] = *in;
      return;
    }
  for (guint x = x0; x < x1; x++)
    {
      int sx = lm_rotate_src_x (m, (int) x, y), sy = lm_rotate_src_y (m, (int) x, y);
      const guint8 *in = lm_image_row (src, (guint) sy) + (gsize) sx * bpp;
      if (bpp == 4)
        memcpy (out + (gsize) x * 4, in, 4);
      else if (bpp == 1)
        out[x] = *in;
      else
        memcpy (out + (gsize) x * bpp, in, bpp);
    }
}

/* A quarter turn reads the source down its columns: square tiles of TILE × TILE output
 * pixels keep the source rows they touch in the cache (a row at a time read a new cache line
 * for every pixel). */
#define TILE 64

static gboolean
rotate_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  LmRotateMap m = lm_rotate_map (params, src->width, src->height);
  gsize bpp = lm_format_bytes_per_pixel (src->format);
#pragma omp parallel for schedule(dynamic, 1)
  for (guint ty = 0; ty < dst->height; ty += TILE)
    for (guint tx = 0; tx < dst->width; tx += TILE)
      for (guint y = ty; y < MIN (ty + TILE, dst->height); y++)
        rotate_span (&m, src, lm_image_row (dst, y), tx, MIN (tx + TILE, dst->width), (int) y, bpp);
  return TRUE;
}

/* The window's picker: the output point's source point, by the same map as the pixels. */
static void
rotate_map_back (const void *params, guint in_w, guint in_h, double x, double y, double *sx, double *sy)
{
  LmRotateMap m = lm_rotate_map (params, in_w, in_h);
  *sx = m.xx * x + m.xy * y + m.x0;
  *sy = m.yx * x + m.yy * y + m.y0;
}

/* Tiles: the source rectangle is the output rectangle's exact image under the map, and a
 * quarter turn or mirror of that rectangle is the output tile itself, so rotate needs no
 * hidden field. */
static void
rotate_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  LmRotateMap m = lm_rotate_map (params, in_w, in_h);
  int x0 = (int) out->x, y0 = (int) out->y;
  int x1 = x0 + (int) out->width - 1, y1 = y0 + (int) out->height - 1;
  int ax = lm_rotate_src_x (&m, x0, y0), bx = lm_rotate_src_x (&m, x1, y1);
  int ay = lm_rotate_src_y (&m, x0, y0), by = lm_rotate_src_y (&m, x1, y1);
  in->x = (guint) MIN (ax, bx), in->y = (guint) MIN (ay, by);
  in->width = (guint) ABS (bx - ax) + 1, in->height = (guint) ABS (by - ay) + 1;
}

const LmOpInfo lm_rotate_op = {
  .id = LM_OP_ROTATE,
  .name = "rotate",
  .label = N_("Rotate"),
  .blurb = N_("Turn by quarter turns clockwise (0, 90, 180, 270), then mirror"),
  .params = rotate_params,
  .n_params = G_N_ELEMENTS (rotate_params),
  .params_size = sizeof (LmRotateParams),
  .version = 1,
  .output_format = rotate_output_format,
  .output_size = rotate_output_size,
  .map_back = rotate_map_back,
  .run_cpu = rotate_run_cpu,
  .source_rect = rotate_source_rect,
};
