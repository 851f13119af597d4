/* A colour filter array as the raw development's kernels see it (core/raw, kernels/raw-*.cu):
 * the period and each site's colour, by value at launch. GLib-free, for gcc and nvcc. */
#pragma once

#include "pixel-math.h"

/* Colours as LibRaw numbers them; the demosaic reads LM_CFA_G2 as green, the levels keep it. */
enum { LM_CFA_R = 0, LM_CFA_G = 1, LM_CFA_B = 2, LM_CFA_G2 = 3 };

typedef struct {
  int w, h;                  /* 2 × 2 (Bayer) or 6 × 6 (X-Trans) */
  unsigned char color[6][6]; /* colour of site (x, y): color[y % h][x % w] */
} LmCfa;

/* The colour of site (X, Y), X, Y >= 0, with the second green as LM_CFA_G2. */
LM_INLINE int
lm_cfa_site (const LmCfa *cfa, int x, int y)
{
  return cfa->color[y % cfa->h][x % cfa->w];
}

/* The colour of site (X, Y), X, Y >= 0, as the demosaic sees it: 0 R, 1 G, 2 B. */
LM_INLINE int
lm_cfa_color (const LmCfa *cfa, int x, int y)
{
  int c = lm_cfa_site (cfa, x, y);
  return c == LM_CFA_G2 ? LM_CFA_G : c;
}
