/* Crop: parameters and the rectangle rule, shared by crop.c and kernels/crop.cu.
 *
 * The rectangle is given in pixels of the image the crop sees (after rotate and
 * straighten); width or height 0 reach the right or bottom edge. At run time it is rounded
 * to whole pixels, intersected with the image (at least 1 × 1) and, with a ratio, shrunk
 * about its centre to that ratio in its own orientation (lm_crop_fit_ratio). The copy itself
 * is lossless, so the rule runs on the host alone (in double) and both backends copy the
 * same rectangle. */
#pragma once

#include <math.h>

#include "param-decl.h"
#include "pixel-math.h"
#include "tile-math.h"

typedef enum {
  LM_CROP_FREE,
  LM_CROP_3_2,
  LM_CROP_4_3,
  LM_CROP_16_9,
  LM_CROP_1_1,
  LM_CROP_ORIGINAL,
} LmCropRatio;

/* The rectangle in pixels (scaled with a shrunk preview), whole pixels a step; ratio: an
 * LmCropRatio. */
#define LM_CROP_PARAMS(P)                                                                          \
  P (FLOAT, x, N_("Left"), 0, LM_IMAGE_MAX_SIDE, 0, 1, "px", .in_pixels = 1)                       \
  P (FLOAT, y, N_("Top"), 0, LM_IMAGE_MAX_SIDE, 0, 1, "px", .in_pixels = 1)                        \
  P (FLOAT, width, N_("Width (0: to the right edge)"), 0, LM_IMAGE_MAX_SIDE, 0, 1, "px",           \
     .in_pixels = 1)                                                                               \
  P (FLOAT, height, N_("Height (0: to the bottom edge)"), 0, LM_IMAGE_MAX_SIDE, 0, 1, "px",        \
     .in_pixels = 1)                                                                               \
  P (ENUM, ratio, N_("Aspect ratio"), 0, 5, LM_CROP_FREE, 1, NULL, .values = lm_crop_ratios)

typedef struct {
  LM_CROP_PARAMS (LM_PARAM_FIELD)
  LmTileFrame tile; /* not a parameter: the tile a tiled render computes (tile-math.h) */
} LmCropParams;

typedef struct {
  unsigned x, y, width, height;
} LmCropRect;

/* Width over height of RATIO on an image of W × H; 0 for free. */
LM_INLINE double
lm_crop_ratio_value (int ratio, unsigned w, unsigned h)
{
  switch (ratio)
    {
    case LM_CROP_3_2: return 3.0 / 2.0;
    case LM_CROP_4_3: return 4.0 / 3.0;
    case LM_CROP_16_9: return 16.0 / 9.0;
    case LM_CROP_1_1: return 1.0;
    case LM_CROP_ORIGINAL: return (double) w / (double) h;
    default: return 0.0;
    }
}

/* A length in pixels to a whole pixel index, clamped to 0..MAX: rounds half up, so that the
 * window's preview (which scales the parameters) lands on the nearest pixel. */
LM_INLINE unsigned
lm_crop_round (double v, unsigned max)
{
  double r = floor (v + 0.5);
  return r <= 0.0 ? 0u : r >= (double) max ? max : (unsigned) r;
}

/* R held to RATIO (width over height, > 0) in its own orientation (3:2 is 2:3 on a portrait
 * rectangle), in whole pixels: a rectangle already at the ratio as nearly as whole pixels
 * allow (its width the nearest to its height times the ratio, or its height the nearest to
 * its width over it) stays as it is; another is shrunk about its centre on its longer way.
 * What it returns is at the ratio in that sense, so that the rule gives it back unchanged:
 * a rectangle the window stores (the crop tool's, shown in the Width and Height fields) is
 * the one cut. */
LM_INLINE LmCropRect
lm_crop_fit_ratio (LmCropRect r, double ratio)
{
  if ((r.height > r.width) != (ratio < 1.0) && ratio != 1.0)
    ratio = 1.0 / ratio;
  unsigned at_w = lm_crop_round ((double) r.height * ratio, 0xffffffffu);
  unsigned at_h = lm_crop_round ((double) r.width / ratio, 0xffffffffu);
  if (r.width == at_w || r.height == at_h)
    return r;
  unsigned nw = r.width, nh = r.height;
  if ((double) r.width > (double) r.height * ratio)
    nw = at_w < r.width ? at_w : r.width;
  else
    nh = at_h < r.height ? at_h : r.height;
  nw = nw ? nw : 1u;
  nh = nh ? nh : 1u;
  r.x += (r.width - nw) / 2, r.y += (r.height - nh) / 2;
  r.width = nw, r.height = nh;
  return r;
}

/* P's rectangle after one of its sides was set by hand (a field typed, a slider dragged; the
 * width where WIDTH_SET, else the height) with P's ratio on an image of W × H: the other side
 * follows, so that the rectangle is at the ratio (bounded by the image, then held to the ratio
 * again where that bound cut it), and P becomes the rectangle crop cuts, in whole pixels. The
 * rectangle stays portrait or landscape as BEFORE (P before the edit) was: a width typed
 * wider than the old height does not turn a portrait crop round. No ratio: P unchanged. */
LM_INLINE void
lm_crop_follow_ratio (LmCropParams *p, const LmCropParams *before, int width_set, unsigned w, unsigned h)
{
  double ratio = lm_crop_ratio_value (p->ratio, w, h);
  if (ratio <= 0.0 || p->width <= 0.0f || p->height <= 0.0f)
    return;
  unsigned x0 = lm_crop_round (p->x, w - 1), y0 = lm_crop_round (p->y, h - 1);
  unsigned x1 = lm_crop_round ((double) p->x + p->width, w), y1 = lm_crop_round ((double) p->y + p->height, h);
  LmCropRect r;
  r.x = x0, r.y = y0, r.width = x1 > x0 ? x1 - x0 : 1u, r.height = y1 > y0 ? y1 - y0 : 1u;
  int portrait = r.height > r.width;
  if (before->width > 0.0f && before->height > 0.0f)
    portrait = (long) lm_crop_round ((double) before->y + before->height, h) - (long) lm_crop_round (before->y, h - 1)
               > (long) lm_crop_round ((double) before->x + before->width, w) - (long) lm_crop_round (before->x, w - 1);
  if (portrait != (ratio < 1.0) && ratio != 1.0)
    ratio = 1.0 / ratio;
  if (width_set)
    r.height = lm_crop_round ((double) r.width / ratio, h - r.y);
  else
    r.width = lm_crop_round ((double) r.height * ratio, w - r.x);
  r.width = r.width ? r.width : 1u;
  r.height = r.height ? r.height : 1u;
  r = lm_crop_fit_ratio (r, ratio);
  p->x = (float) r.x, p->y = (float) r.y, p->width = (float) r.width, p->height = (float) r.height;
}

/* The rectangle P cuts from an image of W × H (W, H ≥ 1). */
LM_INLINE LmCropRect
lm_crop_rect (const LmCropParams *p, unsigned w, unsigned h)
{
  unsigned x0 = lm_crop_round (p->x, w - 1), y0 = lm_crop_round (p->y, h - 1);
  unsigned x1 = p->width > 0.0f ? lm_crop_round ((double) p->x + p->width, w) : w;
  unsigned y1 = p->height > 0.0f ? lm_crop_round ((double) p->y + p->height, h) : h;
  x1 = x1 > x0 ? x1 : x0 + 1;
  y1 = y1 > y0 ? y1 : y0 + 1;
  LmCropRect r;
  r.x = x0, r.y = y0, r.width = x1 - x0, r.height = y1 - y0;
  double ratio = lm_crop_ratio_value (p->ratio, w, h);
  return ratio > 0.0 ? lm_crop_fit_ratio (r, ratio) : r;
}

/* Where output pixel (0, 0) of the image (or of P's tile) reads its input, in the input it is
 * given (the whole image, or the tile's input): the cut rectangle's corner for an input of
 * W × H, moved by the tile's place. */
LM_INLINE void
lm_crop_offset (const LmCropParams *p, unsigned w, unsigned h, unsigned *ox, unsigned *oy)
{
  if (!lm_tile_frame_active (&p->tile))
    {
      LmCropRect r = lm_crop_rect (p, w, h);
      *ox = r.x, *oy = r.y;
      return;
    }
  LmCropRect r = lm_crop_rect (p, p->tile.full_w, p->tile.full_h);
  *ox = r.x + p->tile.out_x - p->tile.in_x, *oy = r.y + p->tile.out_y - p->tile.in_y;
}
