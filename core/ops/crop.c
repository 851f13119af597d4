/* Crop: a rectangle of the image, CPU reference (crop-math.h gives the rectangle). */
#include <string.h>
#include <glib/gi18n.h>

#include "crop-math.h"
#include "ops.h"

static const LmEnumValue lm_crop_ratios[] = {
  { "free", N_("Free") },
  { "3:2", N_("3:2") },
  { "4:3", N_("4:3") },
  { "16:9", N_("16:9") },
  { "1:1", N_("Square (1:1)") },
  { "original", N_("As the image") },
  { NULL, NULL },
};

/* Lengths in pixels (in_pixels: a preview at a smaller scale scales them). */
#define LM_PARAM_STRUCT LmCropParams
static const LmParamSpec crop_params[] = { LM_CROP_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static LmFormat
crop_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static void
crop_output_size (const void *params, guint width, guint height, guint *out_width, guint *out_height)
{
  const LmCropParams *p = params;
  if (lm_tile_frame_active (&p->tile))
    {
      *out_width = p->tile.out_w, *out_height = p->tile.out_h;
      return;
    }
  LmCropRect r = lm_crop_rect (params, width, height);
  *out_width = r.width, *out_height = r.height;
}

static gboolean
crop_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  guint ox, oy;
  lm_crop_offset (params, src->width, src->height, &ox, &oy);
  gsize bpp = lm_format_bytes_per_pixel (src->format);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < dst->height; y++)
    memcpy (lm_image_row (dst, y), lm_image_row (src, oy + y) + ox * bpp, dst->width * bpp);
  return TRUE;
}

/* The window's picker: the output point's source point, offset by the rectangle cut. */
static void
crop_map_back (const void *params, guint in_w, guint in_h, double x, double y, double *sx, double *sy)
{
  LmCropRect r = lm_crop_rect (params, in_w, in_h);
  *sx = x + r.x;
  *sy = y + r.y;
}

/* Tiles: the output rectangle moved by the cut rectangle's corner. */
static void
crop_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  LmCropRect r = lm_crop_rect (params, in_w, in_h);
  *in = (LmRect) { out->x + r.x, out->y + r.y, out->width, out->height };
}

static LmTileFrame *
crop_tile_frame (void *params)
{
  return &((LmCropParams *) params)->tile;
}

const LmOpInfo lm_crop_op = {
  .id = LM_OP_CROP,
  .name = "crop",
  .label = N_("Crop"),
  .blurb = N_("Keep a rectangle X,Y,WIDTH,HEIGHT in pixels (0 width or height: to the edge)"),
  .params = crop_params,
  .n_params = G_N_ELEMENTS (crop_params),
  .params_size = sizeof (LmCropParams),
  .version = 1,
  .flag_params = "x,y,width,height",
  .flag_sep = ',',
  .output_format = crop_output_format,
  .output_size = crop_output_size,
  .map_back = crop_map_back,
  .run_cpu = crop_run_cpu,
  .source_rect = crop_source_rect,
  .tile_frame = crop_tile_frame,
};
