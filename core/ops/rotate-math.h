/* Rotate: parameters and the index move, shared by rotate.c and kernels/rotate.cu.
 *
 * A quarter turn clockwise (as a photo viewer's "rotate right"), then an optional mirror in
 * the rotated frame (horizontal: left and right swap on screen). Every output pixel is one
 * source pixel: the move is an integer affine map from output to source coordinates, so
 * both backends copy the same bytes (lossless, bit-identical). */
#pragma once

#include "param-decl.h"
#include "pixel-math.h"

typedef enum { LM_ROTATE_0, LM_ROTATE_90, LM_ROTATE_180, LM_ROTATE_270 } LmRotateAngle;
typedef enum { LM_FLIP_NONE, LM_FLIP_HORIZONTAL, LM_FLIP_VERTICAL } LmRotateFlip;

/* angle: an LmRotateAngle, quarter turns clockwise; flip: an LmRotateFlip, after the
 * rotation. */
#define LM_ROTATE_PARAMS(P)                                                                        \
  P (ENUM, angle, N_("Rotation"), 0, 3, LM_ROTATE_0, 1, NULL, .values = lm_rotate_angles)         \
  P (ENUM, flip, N_("Mirror"), 0, 2, LM_FLIP_NONE, 1, NULL, .values = lm_rotate_flips)

typedef struct {
  LM_ROTATE_PARAMS (LM_PARAM_FIELD)
} LmRotateParams;

/* Output (x, y) comes from source (xx·x + xy·y + x0, yx·x + yy·y + y0); every coefficient
 * is -1, 0 or 1 and the offsets are below 65535, so 32-bit ints hold it all. */
typedef struct {
  int xx, xy, x0;
  int yx, yy, y0;
} LmRotateMap;

/* A quarter turn swaps the sides. */
LM_INLINE void
lm_rotate_size (const LmRotateParams *p, unsigned w, unsigned h, unsigned *ow, unsigned *oh)
{
  int quarter = p->angle == LM_ROTATE_90 || p->angle == LM_ROTATE_270;
  *ow = quarter ? h : w;
  *oh = quarter ? w : h;
}

LM_INLINE LmRotateMap
lm_rotate_map_of (int xx, int xy, int x0, int yx, int yy, int y0)
{
  LmRotateMap m;
  m.xx = xx, m.xy = xy, m.x0 = x0, m.yx = yx, m.yy = yy, m.y0 = y0;
  return m;
}

/* The map for a source of W × H. */
LM_INLINE LmRotateMap
lm_rotate_map (const LmRotateParams *p, unsigned w, unsigned h)
{
  int W = (int) w - 1, H = (int) h - 1;
  LmRotateMap m;
  switch (p->angle)
    {
    case LM_ROTATE_90: /* clockwise: out (x, y) = src (y, H - x) */
      m = lm_rotate_map_of (0, 1, 0, -1, 0, H);
      break;
    case LM_ROTATE_180:
      m = lm_rotate_map_of (-1, 0, W, 0, -1, H);
      break;
    case LM_ROTATE_270: /* counter-clockwise: out (x, y) = src (W - y, x) */
      m = lm_rotate_map_of (0, -1, W, 1, 0, 0);
      break;
    default:
      m = lm_rotate_map_of (1, 0, 0, 0, 1, 0);
      break;
    }
  unsigned ow, oh;
  lm_rotate_size (p, w, h, &ow, &oh);
  /* The mirror acts on output coordinates first: x becomes (ow - 1) - x. */
  if (p->flip == LM_FLIP_HORIZONTAL)
    {
      m.x0 += m.xx * ((int) ow - 1), m.xx = -m.xx;
      m.y0 += m.yx * ((int) ow - 1), m.yx = -m.yx;
    }
  else if (p->flip == LM_FLIP_VERTICAL)
    {
      m.x0 += m.xy * ((int) oh - 1), m.xy = -m.xy;
      m.y0 += m.yy * ((int) oh - 1), m.yy = -m.yy;
    }
  return m;
}

LM_INLINE int
lm_rotate_src_x (const LmRotateMap *m, int x, int y)
{
  return m->xx * x + m->xy * y + m->x0;
}

LM_INLINE int
lm_rotate_src_y (const LmRotateMap *m, int x, int y)
{
  return m->yx * x + m->yy * y + m->y0;
}
