/* Ratio Corrected Demosaicing (RCD, Luis Sanz Rodríguez, 2017) for a Bayer mosaic: the
 * per-site steps, shared by the CPU reference (core/raw/demosaic-rcd.c) and the CUDA kernel
 * (kernels/demosaic-rcd.cu). Each step reads planes of one row stride S around the site that a
 * pointer addresses; a caller runs the steps in order over regions wide enough for the next
 * (LM_RCD_HALO in all). The operands' order is part of the contract: both backends compile
 * this without FMA contraction, so the same IEEE operations give the same bits.
 *
 * Planes: C the mosaic (≥ 0), HV/HH the vertical and horizontal high-pass energies, VH the
 * vertical-versus-horizontal direction (1: detail along the columns, so interpolate along the
 * row), L the low-pass at red and blue sites, G green at every site, HP/HQ and PQ the same on
 * the two diagonals at red and blue sites, O the other one of red and blue at red and blue sites.
 * GLib-free, for gcc and nvcc. */
#pragma once

#include <math.h>
#include <stddef.h>

#include "pixel-math.h"

/* RCD's epsilons assume samples of about 0..1 (1 = white). */
#define LM_RCD_EPS 1e-5f
#define LM_RCD_EPSSQ 1e-10f
/* CFA sites around an output that its value depends on: green at red/blue 5, the other colour
 * at red/blue 2 more, red/blue at green 3 more (tests/unit/test-demosaic-rcd.c measures it). */
#define LM_RCD_HALO 10

/* A sample as the steps see it: negative and NaN read as 0, so that no ratio divides by 0. */
LM_INLINE float
lm_rcd_sample (float v)
{
  return v > 0.0f ? v : 0.0f;
}

LM_INLINE float
lm_rcd_lerp (float a, float hi, float lo)
{
  return a * (hi - lo) + lo;
}

/* The squared 7-tap high-pass [1 −3 −1 6 −1 −3 1] along step D (1: the row, S: the column,
 * S ± 1: the diagonals). */
LM_INLINE float
lm_rcd_highpass (const float *c, ptrdiff_t d)
{
  float v = (((c[-3 * d] - c[-d]) - c[d]) + c[3 * d]) - 3.0f * (c[-2 * d] + c[2 * d]) + 6.0f * c[0];
  return v * v;
}

/* The share of energy A (summed along step DA) in A + B (summed along DB), each floored at
 * EPSSQ: VH from HV, HH (DA = S, DB = 1); PQ from HP, HQ (DA = S + 1, DB = S − 1). */
LM_INLINE float
lm_rcd_direction (const float *a, ptrdiff_t da, const float *b, ptrdiff_t db)
{
  float sa = (a[-da] + a[0]) + a[da];
  float sb = (b[-db] + b[0]) + b[db];
  sa = sa > LM_RCD_EPSSQ ? sa : LM_RCD_EPSSQ;
  sb = sb > LM_RCD_EPSSQ ? sb : LM_RCD_EPSSQ;
  return sa / (sa + sb);
}

/* A direction refined by its four diagonal neighbours: the more decisive of the site and
 * their mean. */
LM_INLINE float
lm_rcd_refine (const float *d, ptrdiff_t s)
{
  float n = 0.25f * (((d[-s - 1] + d[-s + 1]) + d[s - 1]) + d[s + 1]);
  return fabsf (0.5f - d[0]) < fabsf (0.5f - n) ? n : d[0];
}

/* The low-pass [1 2 1; 2 4 2; 1 2 1] / 4, unnormalised, at a red or blue site. */
LM_INLINE float
lm_rcd_lowpass (const float *c, ptrdiff_t s)
{
  float cross = ((c[-s] + c[s]) + c[-1]) + c[1];
  float diag = ((c[-s - 1] + c[-s + 1]) + c[s - 1]) + c[s + 1];
  return (c[0] + 0.5f * cross) + 0.25f * diag;
}

/* The gradient towards step D of green's estimate at a red or blue site. */
LM_INLINE float
lm_rcd_green_gradient (const float *c, ptrdiff_t d)
{
  return (((LM_RCD_EPS + fabsf (c[-d] - c[d])) + fabsf (c[0] - c[2 * d])) + fabsf (c[d] - c[3 * d]))
         + fabsf (c[2 * d] - c[4 * d]);
}

/* The green neighbour at step D, scaled by the ratio of the low-passes here and two sites on. */
LM_INLINE float
lm_rcd_green_estimate (const float *c, const float *l, ptrdiff_t d)
{
  return (c[d] * (l[0] + l[0])) / ((LM_RCD_EPS + l[0]) + l[2 * d]);
}

/* Step 3: green at a red or blue site, VHD the refined direction there. */
LM_INLINE float
lm_rcd_green (const float *c, const float *l, ptrdiff_t s, float vhd)
{
  float ng = lm_rcd_green_gradient (c, -s), sg = lm_rcd_green_gradient (c, s);
  float wg = lm_rcd_green_gradient (c, -1), eg = lm_rcd_green_gradient (c, 1);
  float ne = lm_rcd_green_estimate (c, l, -s), se = lm_rcd_green_estimate (c, l, s);
  float we = lm_rcd_green_estimate (c, l, -1), ee = lm_rcd_green_estimate (c, l, 1);
  float v = (sg * ne + ng * se) / (ng + sg);
  float h = (wg * ee + eg * we) / (eg + wg);
  return lm_rcd_lerp (vhd, h, v);
}

/* Step 4c: at a red or blue site, the other of the two (raw on the diagonals), from G and PQD
 * the refined diagonal direction there. */
LM_INLINE float
lm_rcd_other (const float *c, const float *g, ptrdiff_t s, float pqd)
{
  const ptrdiff_t nw = -s - 1, ne = -s + 1, sw = s - 1, se = s + 1;
  float nwse = fabsf (c[nw] - c[se]), nesw = fabsf (c[ne] - c[sw]);
  float nwg = ((LM_RCD_EPS + nwse) + fabsf (c[nw] - c[3 * nw])) + fabsf (g[0] - g[2 * nw]);
  float neg = ((LM_RCD_EPS + nesw) + fabsf (c[ne] - c[3 * ne])) + fabsf (g[0] - g[2 * ne]);
  float swg = ((LM_RCD_EPS + nesw) + fabsf (c[sw] - c[3 * sw])) + fabsf (g[0] - g[2 * sw]);
  float seg = ((LM_RCD_EPS + nwse) + fabsf (c[se] - c[3 * se])) + fabsf (g[0] - g[2 * se]);
  float nwe = c[nw] - g[nw], nee = c[ne] - g[ne], swe = c[sw] - g[sw], see = c[se] - g[se];
  float p = (nwg * see + seg * nwe) / (nwg + seg);
  float q = (neg * swe + swg * nee) / (neg + swg);
  return g[0] + lm_rcd_lerp (pqd, q, p);
}

/* Step 4d: red or blue at a green site, VHD the refined direction there. XV holds that colour
 * at the sites above and below (raw there, or step 4c's), XH at the sites left and right. */
LM_INLINE float
lm_rcd_at_green (const float *xv, const float *xh, const float *g, ptrdiff_t s, float vhd)
{
  float n1 = LM_RCD_EPS + fabsf (g[0] - g[-2 * s]), s1 = LM_RCD_EPS + fabsf (g[0] - g[2 * s]);
  float w1 = LM_RCD_EPS + fabsf (g[0] - g[-2]), e1 = LM_RCD_EPS + fabsf (g[0] - g[2]);
  float sn = fabsf (xv[-s] - xv[s]), ew = fabsf (xh[-1] - xh[1]);
  float ng = (n1 + sn) + fabsf (xv[-s] - xv[-3 * s]), sg = (s1 + sn) + fabsf (xv[s] - xv[3 * s]);
  float wg = (w1 + ew) + fabsf (xh[-1] - xh[-3]), eg = (e1 + ew) + fabsf (xh[1] - xh[3]);
  float ne = xv[-s] - g[-s], se = xv[s] - g[s], we = xh[-1] - g[-1], ee = xh[1] - g[1];
  float v = (ng * se + sg * ne) / (ng + sg);
  float h = (eg * we + wg * ee) / (eg + wg);
  return g[0] + lm_rcd_lerp (vhd, h, v);
}

/* The stored value: nothing below 0 (NaN, which finite samples never give, as 0). */
LM_INLINE float
lm_rcd_store (float v)
{
  return v > 0.0f ? v : 0.0f;
}
