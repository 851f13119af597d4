/* X-Trans demosaic after Frank Markesteijn's method, one site at a time, for the CPU
 * reference (core/raw/demosaic-xtrans.c) and the CUDA kernels (kernels/demosaic-xtrans.cu)
 * alike: the same IEEE single operations in the same order on both (no FMA contraction, no
 * cbrtf), so that the two give the same bits. GLib-free.
 *
 * The method, for a pattern whose 3 × 3 cells hold a solitary green in the middle, greens in
 * the corners (2 × 2 green blocks where four cells meet) and one colour above and below the
 * middle, the other left and right of it (every X-Trans pattern):
 *  1. at each red or blue site, four green estimates, one per direction (horizontal,
 *     vertical, the two diagonals), each clamped to the range of the six greens of the
 *     hexagon around the site;
 *  2. per direction, red and blue at the solitary greens, then the missing one of red and
 *     blue at the red and blue sites, then both at the green blocks, from colour
 *     differences along that direction;
 *  3. with three passes, a copy of the four directions has its greens estimated again from
 *     the colour differences of the nearer, now complete, greens, and its red and blue again
 *     (twice), which gives eight candidates;
 *  4. each candidate goes to CIELab; its second difference along its own direction measures
 *     how smooth it is; a candidate counts the 3 × 3 neighbours where it is within 8 × the
 *     smoothest candidate of the site; those counts are summed over 5 × 5, and the candidates
 *     within 1/8 of the best are averaged.
 *
 * Sites outside the image read the mosaic reflected about the pattern's own symmetry axes
 * (every third column and row), so that the mosaic goes on as a valid X-Trans mosaic and one
 * code path serves the border; a tile's result does not depend on where the tiles are. */
#pragma once

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cfa-math.h"

/* The cube-root table of the Lab conversion: LM_XT_CBRT_SIZE + 1 entries of CIE's f (t) on
 * t ∈ [0, 1], linearly interpolated; larger t by exact powers of 8. */
#define LM_XT_CBRT_SIZE 4096
#define LM_XT_CBRT_ENTRIES (LM_XT_CBRT_SIZE + 1)

/* Halo of CFA sites around the output that one and three passes read, by construction: the
 * vote reads 2, the counts 1, the derivatives 1, so pass k (of P) fills the green blocks
 * 4 + 7 (P − 1 − k) sites beyond the output, the solitary greens 3 and the greens 5 further,
 * and the first greens read 3 more: 12 and 26. (One changed site was seen to reach 9 and 14.) */
#define LM_XT_HALO_1 12
#define LM_XT_HALO_3 26

enum { LM_XT_NG = 0, LM_XT_SOLO = 1, LM_XT_BLOCK = 2 };

typedef struct {
  signed char x, y;
} LmXtStep;

LM_INLINE LmXtStep
lm_xt_step (int x, int y)
{
  LmXtStep s;
  s.x = (signed char) x;
  s.y = (signed char) y;
  return s;
}

/* What the method needs to know about one site of the 6 × 6 pattern. */
typedef struct {
  unsigned char kind;  /* LM_XT_NG (red or blue), LM_XT_SOLO, LM_XT_BLOCK */
  unsigned char color; /* 0 R, 1 G, 2 B */
  unsigned char sym;   /* NG: direction (0 horizontal, 1 vertical) with greens on both sides */
  LmXtStep near;       /* NG: the unit step to the one adjacent green of the other axis */
  LmXtStep diag[2];    /* NG: the unit step to the adjacent green along (1, 1) and (1, −1) */
  LmXtStep pair[4][2]; /* BLOCK: per direction, the sites with red and blue, the near first */
  unsigned char wide[4]; /* BLOCK: the second is 2 sites away (weights 2 : 1), not 1 */
} LmXtSite;

typedef struct {
  LmXtSite site[6][6]; /* [y % 6][x % 6] */
  int ax, ay;          /* the pattern is mirror-symmetric about columns ≡ ax, rows ≡ ay (mod 3) */
} LmXtrans;

/* The four directions' unit steps: horizontal, vertical, (1, 1), (1, −1). */
LM_INLINE int
lm_xt_dir_x (int d)
{
  return d == 1 ? 0 : 1;
}

LM_INLINE int
lm_xt_dir_y (int d)
{
  return d == 0 ? 0 : d == 1 ? 1 : d == 2 ? 1 : -1;
}

LM_INLINE int
lm_xt_mod6 (int v)
{
  return ((v % 6) + 6) % 6;
}

LM_INLINE int
lm_xt_color_at (const LmCfa *cfa, int x, int y)
{
  return lm_cfa_color (cfa, lm_xt_mod6 (x), lm_xt_mod6 (y));
}

/* Column (TRANSPOSE = 0) or row AXIS mirrors the pattern onto itself. */
LM_INLINE int
lm_xt_mirrors (const LmCfa *cfa, int axis, int transpose)
{
  for (int k = 0; k < 6; k++)
    for (int j = 0; j < 6; j++)
      {
        int a = transpose ? lm_xt_color_at (cfa, j, axis - k) : lm_xt_color_at (cfa, axis - k, j);
        int b = transpose ? lm_xt_color_at (cfa, j, axis + k) : lm_xt_color_at (cfa, axis + k, j);
        if (a != b)
          return 0;
      }
  return 1;
}

/* The NG or solitary site nearest to (X, Y) along (DX, DY), at most 2 away; 0 if none. */
LM_INLINE int
lm_xt_block_reach (const LmXtrans *xt, int x, int y, int dx, int dy)
{
  for (int k = 1; k <= 2; k++)
    if (xt->site[lm_xt_mod6 (y + k * dy)][lm_xt_mod6 (x + k * dx)].kind != LM_XT_BLOCK)
      return k;
  return 0;
}

/* Fills XT from CFA (6 × 6). Returns 0 when CFA is not an X-Trans pattern as the method needs
 * it (every neighbour the steps read checked), 1 otherwise. */
LM_INLINE int
lm_xtrans_prepare (const LmCfa *cfa, LmXtrans *xt)
{
  if (cfa->w != 6 || cfa->h != 6)
    return 0;
#define LM_XT_C(dx, dy) lm_xt_color_at (cfa, x + (dx), y + (dy))
#define LM_XT_G(dx, dy) (LM_XT_C (dx, dy) == LM_CFA_G)
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < 6; x++)
      {
        LmXtSite *s = &xt->site[y][x];
        memset (s, 0, sizeof *s);
        s->color = (unsigned char) LM_XT_C (0, 0);
        if (s->color == LM_CFA_G)
          {
            int ng = !LM_XT_G (-1, 0) + !LM_XT_G (1, 0) + !LM_XT_G (0, -1) + !LM_XT_G (0, 1);
            if (ng == 4)
              {
                int p = LM_XT_C (1, 0), q = LM_XT_C (0, 1);
                if (p == q || LM_XT_C (-1, 0) != p || LM_XT_C (0, -1) != q || LM_XT_C (2, 0) != q
                    || LM_XT_C (-2, 0) != q || LM_XT_C (0, 2) != p || LM_XT_C (0, -2) != p)
                  return 0;
                s->kind = LM_XT_SOLO;
              }
            else
              s->kind = LM_XT_BLOCK;
            continue;
          }
        s->kind = LM_XT_NG;
        int f = s->color, o = 2 - f;
        if (f == LM_CFA_G || o == f)
          return 0;
        int h = LM_XT_G (-1, 0) && LM_XT_G (1, 0), v = LM_XT_G (0, -1) && LM_XT_G (0, 1);
        if (h == v)
          return 0;
        s->sym = (unsigned char) (h ? 0 : 1);
        int ux = h, uy = !h;    /* the symmetric axis */
        int nx = uy, ny = ux;   /* the other */
        int side = LM_XT_G (nx, ny) ? 1 : -1;
        nx *= side, ny *= side;
        s->near = lm_xt_step (nx, ny);
        if (LM_XT_G (-nx, -ny) || !LM_XT_G (-2 * nx, -2 * ny) || LM_XT_C (2 * nx, 2 * ny) != f
            || !LM_XT_G (2 * ux, 2 * uy) || !LM_XT_G (-2 * ux, -2 * uy) || LM_XT_C (-nx, -ny) != o
            || LM_XT_C (3 * ux, 3 * uy) != o || LM_XT_C (-3 * ux, -3 * uy) != o)
          return 0;
        for (int k = 0; k < 2; k++)
          {
            int dx = 1, dy = k ? -1 : 1;
            if (LM_XT_G (dx, dy) == LM_XT_G (-dx, -dy))
              return 0;
            if (!LM_XT_G (dx, dy))
              dx = -dx, dy = -dy;
            if (!LM_XT_G (-2 * dx, -2 * dy) || LM_XT_C (3 * dx, 3 * dy) != f || LM_XT_C (-3 * dx, -3 * dy) != f)
              return 0;
            s->diag[k] = lm_xt_step (dx, dy);
          }
      }
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < 6; x++)
      {
        LmXtSite *s = &xt->site[y][x];
        if (s->kind == LM_XT_NG && xt->site[lm_xt_mod6 (y + s->near.y)][lm_xt_mod6 (x + s->near.x)].kind != LM_XT_SOLO)
          return 0;
        if (s->kind != LM_XT_BLOCK)
          continue;
        for (int d = 0; d < 4; d++)
          {
            int dx = lm_xt_dir_x (d), dy = lm_xt_dir_y (d);
            int a = lm_xt_block_reach (xt, x, y, dx, dy), b = lm_xt_block_reach (xt, x, y, -dx, -dy);
            if (a == 0 || b == 0 || (a == 2 && b == 2))
              return 0;
            if (a == 2) /* the near one first */
              dx = -dx, dy = -dy, a = b, b = 2;
            s->pair[d][0] = lm_xt_step (a * dx, a * dy);
            s->pair[d][1] = lm_xt_step (-b * dx, -b * dy);
            s->wide[d] = (unsigned char) (b == 2);
          }
      }
#undef LM_XT_G
#undef LM_XT_C
  xt->ax = xt->ay = -1;
  for (int a = 2; a >= 0; a--)
    {
      if (lm_xt_mirrors (cfa, a, 0))
        xt->ax = a;
      if (lm_xt_mirrors (cfa, a, 1))
        xt->ay = a;
    }
  return xt->ax >= 0 && xt->ay >= 0;
}

/* The first and last symmetry axes inside 0 .. N − 1 of phase A; *LO < *HI is needed for the
 * mirrored border, which is so from N ≥ 6 (and some phases at 4 or 5). */
LM_INLINE int
lm_xt_axes (int n, int a, int *lo, int *hi)
{
  *lo = a;
  *hi = n - 1 - ((n - 1 - a) % 3 + 3) % 3;
  return n - 1 >= a && *hi > *lo;
}

/* Site V of a line of N sites, those outside mirrored about the axes LO and HI. */
LM_INLINE int
lm_xt_reflect (int v, int n, int lo, int hi)
{
  for (int k = 0; k < 64 && (v < 0 || v >= n); k++)
    v = v < 0 ? 2 * lo - v : 2 * hi - v;
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* TABLE (LM_XT_CBRT_ENTRIES floats): CIE's f (t) = t^(1/3) above (6/29)³, t·841/108 + 4/29
 * below, at t = i / LM_XT_CBRT_SIZE, in double on the host. */
LM_INLINE void
lm_xtrans_cbrt_fill (float *table)
{
  for (int i = 0; i < LM_XT_CBRT_ENTRIES; i++)
    {
      double t = (double) i / LM_XT_CBRT_SIZE;
      table[i] = (float) (t > 216.0 / 24389.0 ? cbrt (t) : t * (841.0 / 108.0) + 4.0 / 29.0);
    }
}

/* The Lab conversion's matrix: CAM_TO_XYZ with each row divided by its sum, so that the
 * white-balanced camera's white (1, 1, 1) is Lab's white; a row that does not sum to a
 * positive number keeps the identity's. On the host, in double. */
LM_INLINE void
lm_xtrans_lab_matrix (const float cam_to_xyz[3][3], float m[3][3])
{
  for (int i = 0; i < 3; i++)
    {
      double sum = (double) cam_to_xyz[i][0] + cam_to_xyz[i][1] + cam_to_xyz[i][2];
      for (int j = 0; j < 3; j++)
        m[i][j] = sum > 0.0 && sum < INFINITY ? (float) (cam_to_xyz[i][j] / sum) : (float) (i == j);
    }
}

/* f (T) through TABLE: NaN and negatives as 0, large T brought under 1 by exact ÷ 8. */
LM_INLINE float
lm_xt_lab_f (const float *table, float t)
{
  float scale = 1.0f;
  if (!(t > 0.0f))
    t = 0.0f;
  for (int k = 0; k < 12 && t > 1.0f; k++)
    t *= 0.125f, scale *= 2.0f;
  if (t > 1.0f)
    t = 1.0f;
  float pos = t * (float) LM_XT_CBRT_SIZE;
  int i = (int) pos;
  if (i > LM_XT_CBRT_SIZE - 1)
    i = LM_XT_CBRT_SIZE - 1;
  float frac = pos - (float) i;
  return (table[i] + frac * (table[i + 1] - table[i])) * scale;
}

/* The working buffers of one tile (CPU) or strip (CUDA): planes of W × H floats whose site
 * (0, 0) is the mosaic's site (X0, Y0), which may lie outside the image. */
typedef struct {
  float *raw;       /* the mosaic, mirrored where outside */
  float *rgb;       /* plane 3 d + c: colour c of direction d's candidate */
  float *drv;       /* plane d: the candidate's Lab second difference */
  uint8_t *homo;    /* plane d: its 3 × 3 homogeneity count */
  ptrdiff_t stride; /* floats between rows */
  ptrdiff_t plane;  /* floats between planes */
  int x0, y0;
} LmXtBuf;

LM_INLINE const LmXtSite *
lm_xt_site (const LmXtrans *xt, const LmXtBuf *b, int bx, int by)
{
  return &xt->site[lm_xt_mod6 (b->y0 + by)][lm_xt_mod6 (b->x0 + bx)];
}

LM_INLINE float *
lm_xt_plane (const LmXtBuf *b, int d, int c)
{
  return b->rgb + (ptrdiff_t) (3 * d + c) * b->plane;
}

LM_INLINE float
lm_xt_clamp (float v, float lo, float hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

LM_INLINE float
lm_xt_pos (float v)
{
  return v > 0.0f ? v : 0.0f;
}

/* The mosaic at (X, Y) of the image mirrored about its axes (LO/HI X and Y). */
LM_INLINE float
lm_xt_load (const float *plane, int width, int height, int x, int y, int xlo, int xhi, int ylo, int yhi)
{
  x = lm_xt_reflect (x, width, xlo, xhi);
  y = lm_xt_reflect (y, height, ylo, yhi);
  return plane[(size_t) y * (size_t) width + (size_t) x];
}

/* Step 1 at site (BX, BY) of buffer B: the first four candidates' greens, and at red and blue
 * sites their own colour. */
LM_INLINE void
lm_xt_green (const LmXtrans *xt, const LmXtBuf *b, int bx, int by)
{
  const LmXtSite *s = lm_xt_site (xt, b, bx, by);
  ptrdiff_t i = (ptrdiff_t) by * b->stride + bx, st = b->stride;
  const float *r = b->raw + i;
  if (s->kind != LM_XT_NG)
    {
      for (int d = 0; d < 4; d++)
        lm_xt_plane (b, d, 1)[i] = r[0];
      return;
    }
  ptrdiff_t u = s->sym ? st : 1;
  ptrdiff_t n = s->near.y * st + s->near.x;
  ptrdiff_t k0 = s->diag[0].y * st + s->diag[0].x, k1 = s->diag[1].y * st + s->diag[1].x;
  float lo = r[u], hi = r[u];
  float hex[5] = { r[-u], r[n], r[-2 * n], r[k0], r[k1] };
  for (int j = 0; j < 5; j++)
    {
      lo = hex[j] < lo ? hex[j] : lo;
      hi = hex[j] > hi ? hex[j] : hi;
    }
  float c0 = r[0];
  float est[4];
  est[s->sym] = (174.0f * (r[u] + r[-u]) - 46.0f * (r[2 * u] + r[-2 * u])) * (1.0f / 256.0f);
  est[!s->sym] = (223.0f * r[n] + 33.0f * r[-2 * n] + 92.0f * (c0 - r[2 * n])) * (1.0f / 256.0f);
  est[2] = (164.0f * r[k0] + 92.0f * r[-2 * k0] + 33.0f * ((2.0f * c0 - r[3 * k0]) - r[-3 * k0])) * (1.0f / 256.0f);
  est[3] = (164.0f * r[k1] + 92.0f * r[-2 * k1] + 33.0f * ((2.0f * c0 - r[3 * k1]) - r[-3 * k1])) * (1.0f / 256.0f);
  for (int d = 0; d < 4; d++)
    {
      lm_xt_plane (b, d, 1)[i] = lm_xt_clamp (est[d], lo, hi);
      lm_xt_plane (b, d, s->color)[i] = c0;
    }
}

/* Passes 2 and 3 at site (BX, BY), direction D (4 .. 7): the green again from the colour
 * differences of the two greens along the direction, for every direction but the one with
 * greens on both sides. */
LM_INLINE void
lm_xt_regreen (const LmXtrans *xt, const LmXtBuf *b, int bx, int by, int d)
{
  const LmXtSite *s = lm_xt_site (xt, b, bx, by);
  int dd = d & 3;
  if (s->kind != LM_XT_NG || dd == s->sym)
    return;
  ptrdiff_t i = (ptrdiff_t) by * b->stride + bx, st = b->stride;
  const float *r = b->raw + i;
  ptrdiff_t u = s->sym ? st : 1;
  ptrdiff_t n = s->near.y * st + s->near.x;
  ptrdiff_t k0 = s->diag[0].y * st + s->diag[0].x, k1 = s->diag[1].y * st + s->diag[1].x;
  ptrdiff_t h = dd < 2 ? n : dd == 2 ? k0 : k1;
  float lo = r[u], hi = r[u];
  float hex[5] = { r[-u], r[n], r[-2 * n], r[k0], r[k1] };
  for (int j = 0; j < 5; j++)
    {
      lo = hex[j] < lo ? hex[j] : lo;
      hi = hex[j] > hi ? hex[j] : hi;
    }
  float *g = lm_xt_plane (b, d, 1) + i;
  const float *x = lm_xt_plane (b, d, s->color) + i;
  float v = ((((g[-2 * h] + 2.0f * g[h]) - x[-2 * h]) - 2.0f * x[h]) + 3.0f * x[0]) / 3.0f;
  g[0] = lm_xt_clamp (v, lo, hi);
}

/* Colour P from ±S and colour Q from ±2S around a solitary green at G0 (planes G, P, Q of
 * one direction, at the site); their smoothness in *DIFF. */
LM_INLINE void
lm_xt_solo_axis (const float *g, const float *p, const float *q, ptrdiff_t s, float *vp, float *vq, float *diff)
{
  float e = 0.0f;
  for (int k = 1; k <= 2; k++)
    {
      ptrdiff_t o = k * s;
      const float *x = k == 1 ? p : q;
      float lap = (2.0f * g[0] - g[o]) - g[-o];
      float v = ((lap + x[o]) + x[-o]) * 0.5f;
      float grad = ((g[o] - g[-o]) - x[o]) + x[-o];
      e = e + (grad * grad + lap * lap);
      if (k == 1)
        *vp = lm_xt_pos (v);
      else
        *vq = lm_xt_pos (v);
    }
  *diff = e;
}

/* Step 2a: red and blue at a solitary green, direction D; the diagonals take the smoother of
 * the horizontal and vertical estimates made from their own greens. */
LM_INLINE void
lm_xt_solo (const LmXtrans *xt, const LmXtBuf *b, int bx, int by, int d)
{
  if (lm_xt_site (xt, b, bx, by)->kind != LM_XT_SOLO)
    return;
  int ph = lm_xt_site (xt, b, bx + 1, by)->color, pv = 2 - ph;
  ptrdiff_t i = (ptrdiff_t) by * b->stride + bx;
  const float *g = lm_xt_plane (b, d, 1) + i;
  float *ch = lm_xt_plane (b, d, ph) + i, *cv = lm_xt_plane (b, d, pv) + i;
  float hp = 0.0f, hq = 0.0f, hd = 0.0f, vp = 0.0f, vq = 0.0f, vd = 0.0f;
  int dd = d & 3;
  if (dd != 1)
    lm_xt_solo_axis (g, ch, cv, 1, &hp, &hq, &hd);
  if (dd != 0)
    lm_xt_solo_axis (g, cv, ch, b->stride, &vp, &vq, &vd);
  if (dd == 0 || (dd >= 2 && hd < vd))
    ch[0] = hp, cv[0] = hq;
  else
    cv[0] = vp, ch[0] = vq;
}

/* Step 2b: the other of red and blue at a red or blue site, direction D: from the sites next
 * to it on the axis with one green, or 3 away on the other when its greens say so. */
LM_INLINE void
lm_xt_rb (const LmXtrans *xt, const LmXtBuf *b, int bx, int by, int d)
{
  const LmXtSite *s = lm_xt_site (xt, b, bx, by);
  if (s->kind != LM_XT_NG)
    return;
  ptrdiff_t i = (ptrdiff_t) by * b->stride + bx, st = b->stride;
  const float *g = lm_xt_plane (b, d, 1) + i;
  float *x = lm_xt_plane (b, d, 2 - s->color) + i;
  ptrdiff_t n = s->near.y * st + s->near.x, far = 3 * (s->sym ? st : 1), o = n;
  if ((d & 3) == s->sym)
    {
      float gn = fabsf (g[0] - g[n]) + fabsf (g[0] - g[-n]);
      float gf = fabsf (g[0] - g[far]) + fabsf (g[0] - g[-far]);
      o = gn < 2.0f * gf ? n : far;
    }
  float v = (((x[o] + x[-o]) + 2.0f * g[0]) - g[o]) - g[-o];
  x[0] = lm_xt_pos (v * 0.5f);
}

/* Step 2c: red and blue at a green of a 2 × 2 block, direction D, from the two sites along
 * it that have both (weights 2 : 1 when the second is 2 away). */
LM_INLINE void
lm_xt_block (const LmXtrans *xt, const LmXtBuf *b, int bx, int by, int d)
{
  const LmXtSite *s = lm_xt_site (xt, b, bx, by);
  if (s->kind != LM_XT_BLOCK)
    return;
  int dd = d & 3;
  ptrdiff_t i = (ptrdiff_t) by * b->stride + bx, st = b->stride;
  ptrdiff_t a = s->pair[dd][0].y * st + s->pair[dd][0].x, c = s->pair[dd][1].y * st + s->pair[dd][1].x;
  const float *g = lm_xt_plane (b, d, 1) + i;
  for (int ch = 0; ch <= 2; ch += 2)
    {
      float *x = lm_xt_plane (b, d, ch) + i;
      float v;
      if (s->wide[dd])
        v = (((3.0f * g[0] - 2.0f * g[a]) - g[c]) + 2.0f * x[a] + x[c]) / 3.0f;
      else
        v = (((2.0f * g[0] - g[a]) - g[c]) + x[a] + x[c]) * 0.5f;
      x[0] = lm_xt_pos (v);
    }
}

/* Direction D's candidate at I in CIELab (L, a, b), through M (lm_xtrans_lab_matrix). */
LM_INLINE void
lm_xt_lab (const LmXtBuf *b, ptrdiff_t i, int d, const float m[3][3], const float *table, float lab[3])
{
  float r = lm_xt_plane (b, d, 0)[i], g = lm_xt_plane (b, d, 1)[i], bl = lm_xt_plane (b, d, 2)[i];
  float f[3];
  for (int k = 0; k < 3; k++)
    f[k] = lm_xt_lab_f (table, (m[k][0] * r + m[k][1] * g) + m[k][2] * bl);
  lab[0] = 116.0f * f[1] - 16.0f;
  lab[1] = 500.0f * (f[0] - f[1]);
  lab[2] = 200.0f * (f[1] - f[2]);
}

/* Step 4a: the Lab second difference of direction D's candidate along D, into drv. */
LM_INLINE void
lm_xt_drv (const LmXtBuf *b, int bx, int by, int d, const float m[3][3], const float *table)
{
  ptrdiff_t i = (ptrdiff_t) by * b->stride + bx;
  ptrdiff_t s = lm_xt_dir_y (d & 3) * b->stride + lm_xt_dir_x (d & 3);
  float l0[3], lp[3], lm[3];
  lm_xt_lab (b, i, d, m, table, l0);
  lm_xt_lab (b, i + s, d, m, table, lp);
  lm_xt_lab (b, i - s, d, m, table, lm);
  float dl = (2.0f * l0[0] - lp[0]) - lm[0];
  float da = ((2.0f * l0[1] - lp[1]) - lm[1]) + dl * (500.0f / 232.0f);
  float db = ((2.0f * l0[2] - lp[2]) - lm[2]) - dl * (500.0f / 580.0f);
  b->drv[d * b->plane + i] = (dl * dl + da * da) + db * db;
}

/* Step 4b: how many of the 3 × 3 sites around I keep each candidate within 8 × the smoothest
 * candidate at I; NDIR candidates. */
LM_INLINE void
lm_xt_homo (const LmXtBuf *b, int bx, int by, int ndir)
{
  ptrdiff_t i = (ptrdiff_t) by * b->stride + bx;
  float tr = b->drv[i];
  for (int d = 1; d < ndir; d++)
    tr = b->drv[d * b->plane + i] < tr ? b->drv[d * b->plane + i] : tr;
  tr = tr * 8.0f;
  for (int d = 0; d < ndir; d++)
    {
      const float *v = b->drv + d * b->plane + i;
      int count = 0;
      for (int y = -1; y <= 1; y++)
        for (int x = -1; x <= 1; x++)
          count += v[y * b->stride + x] <= tr;
      b->homo[d * b->plane + i] = (uint8_t) count;
    }
}

/* Step 4c: the counts summed over 5 × 5, the weaker of a direction's first-pass and
 * refined candidates dropped, and the candidates within 1/8 of the best averaged into OUT. */
LM_INLINE void
lm_xt_vote (const LmXtBuf *b, int bx, int by, int ndir, float *out)
{
  ptrdiff_t i = (ptrdiff_t) by * b->stride + bx;
  int hm[8];
  for (int d = 0; d < ndir; d++)
    {
      const uint8_t *h = b->homo + d * b->plane + i;
      int sum = 0;
      for (int y = -2; y <= 2; y++)
        for (int x = -2; x <= 2; x++)
          sum += h[y * b->stride + x];
      hm[d] = sum;
    }
  for (int d = 0; d + 4 < ndir; d++)
    {
      if (hm[d] < hm[d + 4])
        hm[d] = 0;
      else if (hm[d] > hm[d + 4])
        hm[d + 4] = 0;
    }
  int best = hm[0];
  for (int d = 1; d < ndir; d++)
    best = hm[d] > best ? hm[d] : best;
  best -= best >> 3;
  float sum[3] = { 0.0f, 0.0f, 0.0f };
  int count = 0;
  for (int d = 0; d < ndir; d++)
    if (hm[d] >= best)
      {
        for (int c = 0; c < 3; c++)
          sum[c] = sum[c] + lm_xt_plane (b, d, c)[i];
        count++;
      }
  for (int c = 0; c < 3; c++)
    out[c] = sum[c] / (float) count;
  out[3] = 1.0f;
}

/* The bilinear-class demosaic, also for images too small for the mirrored border (or a
 * pattern that is no X-Trans): each site keeps its colour and takes the others as their mean
 * over the smallest square around it (radius 1 .. 3, inside the image) that has them, else
 * its own value. OUT: R, G, B, A. */
LM_INLINE void
lm_xt_bilinear (const float *plane, int width, int height, const LmCfa *cfa, int x, int y, float *out)
{
  float own = plane[(size_t) y * (size_t) width + (size_t) x];
  int fc = lm_cfa_color (cfa, x, y);
  for (int c = 0; c < 3; c++)
    {
      out[c] = own;
      if (c == fc)
        continue;
      for (int rad = 1; rad <= 3; rad++)
        {
          float sum = 0.0f;
          int count = 0;
          for (int v = y - rad; v <= y + rad; v++)
            for (int u = x - rad; u <= x + rad; u++)
              if (u >= 0 && v >= 0 && u < width && v < height && lm_cfa_color (cfa, u, v) == c)
                {
                  sum = sum + plane[(size_t) v * (size_t) width + (size_t) u];
                  count++;
                }
          if (count > 0)
            {
              out[c] = sum / (float) count;
              break;
            }
        }
    }
  out[3] = 1.0f;
}

/* The third-size preview: output pixel (X, Y) is the mean of each colour over the 3 × 3 sites
 * from (3X, 3Y), moved back inside the image where it would cross the right or bottom edge
 * (every 3 × 3 of an X-Trans pattern holds all three colours); an image under 3 sites on a
 * side takes what it has, a colour missing there the mean of them all. Output ⌈width / 3⌉ ×
 * ⌈height / 3⌉. */
LM_INLINE void
lm_xt_third (const float *plane, int width, int height, const LmCfa *cfa, int x, int y, float *out)
{
  float sum[3] = { 0.0f, 0.0f, 0.0f }, all = 0.0f;
  int count[3] = { 0, 0, 0 }, n = 0;
  int x0 = 3 * x + 3 > width && width >= 3 ? width - 3 : 3 * x;
  int y0 = 3 * y + 3 > height && height >= 3 ? height - 3 : 3 * y;
  for (int v = y0; v < y0 + 3 && v < height; v++)
    for (int u = x0; u < x0 + 3 && u < width; u++)
      {
        float s = plane[(size_t) v * (size_t) width + (size_t) u];
        int c = lm_cfa_color (cfa, u, v);
        sum[c] = sum[c] + s;
        count[c]++;
        all = all + s;
        n++;
      }
  for (int c = 0; c < 3; c++)
    out[c] = count[c] > 0 ? sum[c] / (float) count[c] : all / (float) n;
  out[3] = 1.0f;
}
