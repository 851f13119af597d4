/* The fast Bayer demosaics, shared by the CPU (core/raw/demosaic-fast.c) and CUDA
 * (kernels/demosaic-fast.cu): bilinear (the NPP-class method, a benchmark peer and RCD's
 * fallback on images one site wide or high) and half size (one pixel per 2 × 2 quad, for
 * previews). Out-of-image sites are read through reflect-101, which keeps the Bayer phase on
 * any axis of at least 2 sites; on an axis of 1 it repeats the one site, so each sample counts
 * as the colour of the site it was read from. A colour that no sample supplies (a line has
 * only two) takes green's value, or without green the site's own: neutral, as nothing says
 * otherwise. GLib-free, for gcc and nvcc; the sums run in one fixed order on both. */
#pragma once

#include "blur-math.h"
#include "cfa-math.h"
#include "pixel-math.h"

/* CFA is a 2 × 2 Bayer array: each row one green and one of red and blue, the greens on a
 * diagonal, red and blue in different rows. */
LM_INLINE int
lm_cfa_is_bayer (const LmCfa *cfa)
{
  if (cfa->w != 2 || cfa->h != 2)
    return 0;
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 2; x++)
      if (cfa->color[y][x] > LM_CFA_G2)
        return 0;
  int g0 = lm_cfa_color (cfa, 0, 0) == LM_CFA_G, g1 = lm_cfa_color (cfa, 1, 0) == LM_CFA_G;
  if (g0 == g1 || lm_cfa_color (cfa, g0, 1) != LM_CFA_G || lm_cfa_color (cfa, g1, 1) == LM_CFA_G)
    return 0;
  return lm_cfa_color (cfa, g0, 0) + lm_cfa_color (cfa, g1, 1) == LM_CFA_R + LM_CFA_B;
}

/* The colour of site (X, Y) ≥ 0 of a Bayer CFA: lm_cfa_color without its divisions. */
LM_INLINE int
lm_bayer_color (const LmCfa *cfa, int x, int y)
{
  int c = cfa->color[y & 1][x & 1];
  return c == LM_CFA_G2 ? LM_CFA_G : c;
}

/* lm_reflect101 with its division only outside the image. */
LM_INLINE int
lm_demosaic_reflect (int i, int n)
{
  return (unsigned) i < (unsigned) n ? i : lm_reflect101 (i, n);
}

/* Per colour, a weighted sum and its weight, to which the missing colours are then filled. */
typedef struct {
  float sum[3], weight[3];
} LmDemosaicAcc;

LM_INLINE void
lm_demosaic_acc_fill (const LmDemosaicAcc *a, float fallback, float *r, float *g, float *b)
{
  float v[3];
  for (int k = 0; k < 3; k++)
    v[k] = a->weight[k] > 0.0f ? a->sum[k] / a->weight[k] : 0.0f;
  float neutral = a->weight[1] > 0.0f ? v[1] : fallback;
  *r = a->weight[0] > 0.0f ? v[0] : neutral;
  *g = a->weight[1] > 0.0f ? v[1] : neutral;
  *b = a->weight[2] > 0.0f ? v[2] : neutral;
}

/* The colour a Bayer site of parities (PX, PY) has, from the four of the pattern: no indexing
 * by a variable, which would put a kernel's copy of the pattern in local memory. */
LM_INLINE int
lm_bayer_pick (int px, int py, int c00, int c01, int c10, int c11)
{
  return py ? (px ? c11 : c10) : (px ? c01 : c00);
}

/* Bilinear at site (X, Y) of a Bayer mosaic at least 2 × 2, SITE its colour and ROW_NG the red
 * or blue of its row: its own colour as sampled; at red and blue, green the mean of the 4
 * nearest and the other the mean of the 4 diagonals; at green, each of red and blue the mean of
 * its 2 nearest. */
LM_INLINE void
lm_demosaic_bilinear_bayer (const float *plane, int width, int height, int x, int y, int site, int row_ng,
                            float *r, float *g, float *b)
{
  const float *up = plane + (size_t) lm_demosaic_reflect (y - 1, height) * (size_t) width;
  const float *mid = plane + (size_t) y * (size_t) width;
  const float *down = plane + (size_t) lm_demosaic_reflect (y + 1, height) * (size_t) width;
  int xl = lm_demosaic_reflect (x - 1, width), xr = lm_demosaic_reflect (x + 1, width);
  float c = mid[x];
  if (site != LM_CFA_G)
    {
      float cross = 0.25f * (((up[x] + down[x]) + mid[xl]) + mid[xr]);
      float diag = 0.25f * (((up[xl] + up[xr]) + down[xl]) + down[xr]);
      *r = site == LM_CFA_R ? c : diag;
      *g = cross;
      *b = site == LM_CFA_R ? diag : c;
    }
  else
    {
      float h = 0.5f * (mid[xl] + mid[xr]), v = 0.5f * (up[x] + down[x]);
      *r = row_ng == LM_CFA_R ? h : v;
      *g = c;
      *b = row_ng == LM_CFA_R ? v : h;
    }
}

/* Bilinear on a mosaic one site wide or high: each colour other than the site's the mean of
 * its samples in the 3 × 3 around (reflected), weighted (1 2 1) ⊗ (1 2 1). */
LM_INLINE void
lm_demosaic_bilinear_line (const float *plane, int width, int height, const LmCfa *cfa, int x, int y, float *r,
                           float *g, float *b)
{
  LmDemosaicAcc a = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f } };
  float own = plane[(size_t) y * (size_t) width + (size_t) x];
  int own_c = lm_bayer_color (cfa, x, y);
  for (int dy = -1; dy <= 1; dy++)
    {
      int sy = lm_demosaic_reflect (y + dy, height);
      const float *row = plane + (size_t) sy * (size_t) width;
      for (int dx = -1; dx <= 1; dx++)
        {
          int sx = lm_demosaic_reflect (x + dx, width);
          int k = lm_bayer_color (cfa, sx, sy);
          float w = (float) ((2 - (dx < 0 ? -dx : dx)) * (2 - (dy < 0 ? -dy : dy)));
          a.sum[k] += w * row[sx];
          a.weight[k] += w;
        }
    }
  a.sum[own_c] = own;
  a.weight[own_c] = 1.0f;
  lm_demosaic_acc_fill (&a, own, r, g, b);
}

/* Bilinear at site (X, Y) of any mosaic. */
LM_INLINE void
lm_demosaic_bilinear_site (const float *plane, int width, int height, const LmCfa *cfa, int x, int y,
                           float *r, float *g, float *b)
{
  if (width < 2 || height < 2)
    lm_demosaic_bilinear_line (plane, width, height, cfa, x, y, r, g, b);
  else
    lm_demosaic_bilinear_bayer (plane, width, height, x, y, lm_bayer_color (cfa, x, y), lm_bayer_color (cfa, x + 1, y),
                                r, g, b);
}

/* Half size on a mosaic at least 2 × 2: output pixel (X, Y) from the quad of sites (2X, 2Y) …
 * (2X + 1, 2Y + 1), its red, the mean of its greens, its blue; C00 … C11 the pattern's colours.
 * A last odd column or row reads its quad's other half by reflection. */
LM_INLINE void
lm_demosaic_half_bayer (const float *plane, int width, int height, int x, int y, int c00, int c01, int c10, int c11,
                        float *r, float *g, float *b)
{
  int x0 = 2 * x, x1 = lm_demosaic_reflect (2 * x + 1, width);
  const float *row0 = plane + (size_t) (2 * y) * (size_t) width;
  const float *row1 = plane + (size_t) lm_demosaic_reflect (2 * y + 1, height) * (size_t) width;
  float q00 = row0[x0], q01 = row0[x1], q10 = row1[x0], q11 = row1[x1];
  /* The greens lie on a diagonal: (00, 11) or (01, 10), in reading order. */
  float green = c00 == LM_CFA_G ? 0.5f * (q00 + q11) : 0.5f * (q01 + q10);
  float r_v = c00 == LM_CFA_R ? q00 : c01 == LM_CFA_R ? q01 : c10 == LM_CFA_R ? q10 : q11;
  float b_v = c00 == LM_CFA_B ? q00 : c01 == LM_CFA_B ? q01 : c10 == LM_CFA_B ? q10 : q11;
  *r = r_v;
  *g = green;
  *b = b_v;
}

/* Half size on a mosaic one site wide or high: each colour the mean of the quad's distinct
 * sites of it. */
LM_INLINE void
lm_demosaic_half_line (const float *plane, int width, int height, const LmCfa *cfa, int x, int y, float *r,
                       float *g, float *b)
{
  LmDemosaicAcc a = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f } };
  int xs[2] = { 2 * x, lm_demosaic_reflect (2 * x + 1, width) };
  int ys[2] = { 2 * y, lm_demosaic_reflect (2 * y + 1, height) };
  float all = 0.0f, n = 0.0f;
  for (int j = 0; j < 2; j++)
    {
      if (j == 1 && ys[1] == ys[0])
        break;
      const float *row = plane + (size_t) ys[j] * (size_t) width;
      for (int i = 0; i < 2; i++)
        {
          if (i == 1 && xs[1] == xs[0])
            break;
          int k = lm_bayer_color (cfa, xs[i], ys[j]);
          a.sum[k] += row[xs[i]];
          a.weight[k] += 1.0f;
          all += row[xs[i]];
          n += 1.0f;
        }
    }
  lm_demosaic_acc_fill (&a, all / n, r, g, b);
}

/* Half size at output pixel (X, Y) of any mosaic. */
LM_INLINE void
lm_demosaic_half_site (const float *plane, int width, int height, const LmCfa *cfa, int x, int y, float *r,
                       float *g, float *b)
{
  if (width < 2 || height < 2)
    lm_demosaic_half_line (plane, width, height, cfa, x, y, r, g, b);
  else
    lm_demosaic_half_bayer (plane, width, height, x, y, lm_bayer_color (cfa, 0, 0), lm_bayer_color (cfa, 1, 0),
                            lm_bayer_color (cfa, 0, 1), lm_bayer_color (cfa, 1, 1), r, g, b);
}

/* The half-size image's width or height for a mosaic's: rounded up, so that every site counts. */
LM_INLINE int
lm_demosaic_half_size (int n)
{
  return (n + 1) / 2;
}
