/* Tone equalizer (shadows and highlights): parameters and arithmetic shared by toneeq.c and
 * kernels/toneeq.cu.
 *
 * Exposure by luminance zone, in linear light: each pixel's R, G, B are multiplied by
 * 2^G(M), where G is the monotone cubic (PCHIP, Fritsch–Carlson) through the nine zones'
 * values at −8, −7, … 0 EV and M is the pixel's luminance in EV seen through an edge-aware
 * mask: the fast guided filter (He, Sun, Tang 2013; He, Sun 2015) of ℓ = log2 Y guided by
 * itself. A textured region gets one gain, so lifting the shadows keeps their local contrast
 * (per-pixel gains would flatten it); the mask's edges follow the photo's where the variance
 * exceeds EDGES. As darktable's tone equalizer, without its least-squares fit: PCHIP passes
 * through every slider's value and never overshoots between them.
 *
 * 0 EV is a luminance of 1: white on a display-referred photo (decoded through its curve),
 * on scene light (a raw, a merge) the scene's own 1. MASK_EXPOSURE shifts the mask, so that
 * the zones can be slid along a scene's range.
 *
 * Steps, as the NumPy oracle (tests/oracle/test_toneeq.py) writes them, for a W × H image:
 *   1. ℓ = log2 (max (Y, 2⁻¹⁶)) + mask_exposure, Y from the linear R, G, B by the photo's
 *      luminance weights (a gray image: its value);
 *   2. r = smoothing / 100 · max (W, H); s = max (1, round (r / 16)); r_s = round (r / s);
 *      ℓ_s = the means of ℓ over s × s blocks anchored at the image's origin (the last ones
 *      clipped to the image); on ℓ_s with box = the mean over the (2 r_s + 1)² window clipped
 *      to the grid: μ = box (ℓ_s), v = box (ℓ_s²) − μ², a = v / (v + edges), b = μ − a μ;
 *      ā = box (a), b̄ = box (b), read bilinearly at each pixel (block centres at
 *      (i + ½) s − ½, held at the edges); M = ā ℓ + b̄;
 *   3. out = in · 2^G(M), G held constant outside [−8, 0] EV.
 * All of it in double but the gains' table (float, 8193 entries over [−8, 0], linear between):
 * the same IEEE operations in the same order on both backends, sums in a fixed order, an own
 * log2, so that the kernel gives the CPU's bits (tests/gpu's parity sets expect them). 8- and
 * 16-bit values are decoded and encoded through tables of the photo's curve built on the host:
 * an encoded value is the code whose neighbourhood in linear light holds the result
 * (thresholds at the half codes), which is the rounding of the encoded result. */
#pragma once

#include <math.h>

#include "op-context.h"
#include "param-decl.h"
#include "srgb-math.h"
#include "tile-math.h"

#define LM_TONEEQ_ZONES 9
/* The darkest zone's centre: the zones are at −8, −7, … 0 EV. */
#define LM_TONEEQ_FIRST_EV (-8)
/* Steps of the gains' table over the zones' 8 EV: 1024 per EV, 2⁻¹⁰ EV apart, where PCHIP's
 * linear interpolation is off by < 1e-6 EV. */
#define LM_TONEEQ_TABLE_STEPS 8192
#define LM_TONEEQ_Y_MIN (1.0 / 65536.0)
#define LM_TONEEQ_Y_MAX 1.8446744073709552e19 /* 2⁶⁴: far past any scene, short of inf */

#define LM_TONEEQ_ZONE(P, name, label) P (FLOAT, name, label, -2.0, 2.0, 0.0, 0.01, "EV")
#define LM_TONEEQ_PARAMS(P)                                                                        \
  LM_TONEEQ_ZONE (P, blacks, N_("Blacks"))                                                         \
  LM_TONEEQ_ZONE (P, deep_shadows, N_("Deep shadows"))                                             \
  LM_TONEEQ_ZONE (P, shadows, N_("Shadows"))                                                       \
  LM_TONEEQ_ZONE (P, light_shadows, N_("Light shadows"))                                           \
  LM_TONEEQ_ZONE (P, midtones, N_("Mid-tones"))                                                    \
  LM_TONEEQ_ZONE (P, dark_highlights, N_("Dark highlights"))                                       \
  LM_TONEEQ_ZONE (P, highlights, N_("Highlights"))                                                 \
  LM_TONEEQ_ZONE (P, whites, N_("Whites"))                                                         \
  LM_TONEEQ_ZONE (P, speculars, N_("Speculars"))                                                   \
  P (FLOAT, smoothing, N_("Mask smoothing"), 0.5, 20.0, 5.0, 0.1, "%")                             \
  P (FLOAT, edges, N_("Mask edges"), 0.01, 4.0, 0.1, 0.01, "EV²")                                  \
  P (FLOAT, mask_exposure, N_("Mask exposure"), -4.0, 4.0, 0.0, 0.01, "EV")

typedef struct {
  LM_TONEEQ_PARAMS (LM_PARAM_FIELD)
  /* Not parameters: the photo's colour space (commit: its curve and luminance weights; zero
   * is sRGB), and where a tile lies in the whole image (the tiler fills it). */
  LmOpColor color;
  LmTileFrame tile;
} LmToneeqParams;

/* The mask's block grid over the whole image: blocks of S × S pixels, NX × NY of them, and the
 * box filters' radius RS in blocks. */
typedef struct {
  int s, rs;
  int nx, ny;
} LmToneeqGrid;

LM_INLINE void
lm_toneeq_grid (const LmToneeqParams *p, unsigned full_w, unsigned full_h, LmToneeqGrid *g)
{
  double r = (double) p->smoothing / 100.0 * (double) (full_w > full_h ? full_w : full_h);
  int s = (int) floor (r / 16.0 + 0.5);
  g->s = s < 1 ? 1 : s;
  g->rs = (int) floor (r / g->s + 0.5);
  g->nx = (int) ((full_w + g->s - 1) / g->s);
  g->ny = (int) ((full_h + g->s - 1) / g->s);
}

/* log2 Y in EV, from log2 (m·2^e) = e + 2 atanh ((m − 1) / (m + 1)) / ln 2 with m in [√½, √2):
 * the series to z¹⁷ (|z| ≤ 0.172) is exact to < 1e-15, in double operations that gcc and nvcc
 * round alike, where libm's log2 and CUDA's may differ in the last bit. Y is held to
 * [2⁻¹⁶, 2⁶⁴] first (NaN to the floor). */
LM_INLINE double
lm_toneeq_log2 (double y)
{
  y = y > LM_TONEEQ_Y_MIN ? y : LM_TONEEQ_Y_MIN;
  y = y < LM_TONEEQ_Y_MAX ? y : LM_TONEEQ_Y_MAX;
  int e;
  double m = frexp (y, &e);
  if (m < 0.70710678118654752440)
    {
      m = 2.0 * m;
      e -= 1;
    }
  double z = (m - 1.0) / (m + 1.0), z2 = z * z;
  double sum = 1.0 / 17.0;
  sum = sum * z2 + 1.0 / 15.0;
  sum = sum * z2 + 1.0 / 13.0;
  sum = sum * z2 + 1.0 / 11.0;
  sum = sum * z2 + 1.0 / 9.0;
  sum = sum * z2 + 1.0 / 7.0;
  sum = sum * z2 + 1.0 / 5.0;
  sum = sum * z2 + 1.0 / 3.0;
  sum = sum * z2 + 1.0;
  return (double) e + (2.0 * z * sum) * 1.4426950408889634074;
}

/* Step 1 of a pixel's linear R, G, B with the luminance weights W. */
LM_INLINE double
lm_toneeq_level_rgb (const double w[3], float r, float g, float b, double mask_exposure)
{
  double y = (w[0] * (double) r + w[1] * (double) g) + w[2] * (double) b;
  return lm_toneeq_log2 (y) + mask_exposure;
}

LM_INLINE double
lm_toneeq_level_gray (float v, double mask_exposure)
{
  return lm_toneeq_log2 ((double) v) + mask_exposure;
}

/* The guided filter's linear coefficients of a block from the box means MEAN (of ℓ_s) and
 * MEAN2 (of ℓ_s²). */
LM_INLINE void
lm_toneeq_coefficients (double mean, double mean2, double edges, double *a, double *b)
{
  double v = mean2 - mean * mean;
  *a = v / (v + edges);
  *b = mean - *a * mean;
}

/* The photo's luminance weights: its own, else sRGB's (BT.709). */
LM_INLINE void
lm_toneeq_weights (const LmOpColor *color, double w[3])
{
  w[0] = color->space ? color->luminance[0] : 0.2126;
  w[1] = color->space ? color->luminance[1] : 0.7152;
  w[2] = color->space ? color->luminance[2] : 0.0722;
}

/* The curve tables a photo needs: one (sRGB's, every channel's) or one per channel. */
LM_INLINE int
lm_toneeq_curve_count (const LmOpColor *color)
{
  return color->space ? 3 : 1;
}

/* The blocks of the grid that one run's input covers: NX × NY from block (X0, Y0); the input
 * lies at (OX, OY) of the whole FULL_W × FULL_H image (a tile's frame; else 0, 0 and its own
 * size). */
typedef struct {
  int x0, y0, nx, ny;
  unsigned ox, oy, full_w, full_h;
} LmToneeqWindow;

LM_INLINE void
lm_toneeq_layout (const LmToneeqParams *p, unsigned width, unsigned height, LmToneeqGrid *g, LmToneeqWindow *w)
{
  int tiled = lm_tile_frame_active (&p->tile);
  w->full_w = tiled ? p->tile.full_w : width;
  w->full_h = tiled ? p->tile.full_h : height;
  w->ox = tiled ? p->tile.in_x : 0;
  w->oy = tiled ? p->tile.in_y : 0;
  lm_toneeq_grid (p, w->full_w, w->full_h, g);
  w->x0 = (int) (w->ox / g->s);
  w->y0 = (int) (w->oy / g->s);
  int x1 = (int) ((w->ox + width + g->s - 1) / g->s), y1 = (int) ((w->oy + height + g->s - 1) / g->s);
  w->nx = (x1 < g->nx ? x1 : g->nx) - w->x0;
  w->ny = (y1 < g->ny ? y1 : g->ny) - w->y0;
}

/* Pixels [LO, HI) of the input along one axis. */
typedef struct {
  unsigned lo, hi;
} LmToneeqSpan;

LM_INLINE LmToneeqSpan
lm_toneeq_span (int block, int s, unsigned origin, unsigned size, unsigned full)
{
  unsigned a = (unsigned) block * (unsigned) s, b = a + (unsigned) s;
  b = b < full ? b : full;
  a = a > origin ? a : origin;
  b = b < origin + size ? b : origin + size;
  LmToneeqSpan span = { a - origin, b > a ? b - origin : a - origin };
  return span;
}

/* The input's pixels in block (I, J) of the window (an input of WIDTH × HEIGHT). */
LM_INLINE void
lm_toneeq_block_span (const LmToneeqGrid *g, const LmToneeqWindow *w, unsigned width, unsigned height, int i, int j,
                      LmToneeqSpan *sx, LmToneeqSpan *sy)
{
  *sx = lm_toneeq_span (w->x0 + i, g->s, w->ox, width, w->full_w);
  *sy = lm_toneeq_span (w->y0 + j, g->s, w->oy, height, w->full_h);
}

/* The box's row sums at block (I, J) of planes NX wide, left to right over the RS blocks each
 * side within the window: of IN0 and IN1, or of IN0 and IN0² where SQUARE. */
LM_INLINE void
lm_toneeq_row_sums (const double *in0, const double *in1, int square, int nx, int rs, int j, int i, double *out0,
                    double *out1)
{
  int lo = i - rs > 0 ? i - rs : 0, hi = i + rs < nx - 1 ? i + rs : nx - 1;
  const double *r0 = in0 + (size_t) j * nx, *r1 = in1 + (size_t) j * nx;
  double s0 = 0.0, s1 = 0.0;
  for (int k = lo; k <= hi; k++)
    {
      s0 += r0[k];
      s1 += square ? r0[k] * r0[k] : r1[k];
    }
  out0[(size_t) j * nx + i] = s0;
  out1[(size_t) j * nx + i] = s1;
}

/* The box's means at block (I, J) from the row sums H0, H1, top to bottom, divided by the
 * box's blocks in the whole grid (clipped at its edges, not the window's: a block whose box
 * leaves the window is not one an output pixel reads). Where COEF, a and b of those means
 * (lm_toneeq_coefficients) instead. */
LM_INLINE void
lm_toneeq_column_means (const double *h0, const double *h1, const LmToneeqGrid *g, const LmToneeqWindow *w, int j,
                        int i, int coef, double edges, double *out0, double *out1)
{
  int lo = j - g->rs > 0 ? j - g->rs : 0, hi = j + g->rs < w->ny - 1 ? j + g->rs : w->ny - 1;
  double s0 = 0.0, s1 = 0.0;
  for (int k = lo; k <= hi; k++)
    {
      s0 += h0[(size_t) k * w->nx + i];
      s1 += h1[(size_t) k * w->nx + i];
    }
  int gx = w->x0 + i, gy = w->y0 + j;
  int cx = (gx + g->rs < g->nx - 1 ? gx + g->rs : g->nx - 1) - (gx - g->rs > 0 ? gx - g->rs : 0) + 1;
  int cy = (gy + g->rs < g->ny - 1 ? gy + g->rs : g->ny - 1) - (gy - g->rs > 0 ? gy - g->rs : 0) + 1;
  double count = (double) cx * (double) cy, m0 = s0 / count, m1 = s1 / count;
  size_t at = (size_t) j * w->nx + i;
  if (coef)
    lm_toneeq_coefficients (m0, m1, edges, &out0[at], &out1[at]);
  else
    out0[at] = m0, out1[at] = m1;
}

/* The block and weight of whole-image coordinate X along an axis of N blocks of S pixels:
 * bilinear between blocks *I0 and *I1 (held at the edges) with weight *T on *I1. */
LM_INLINE void
lm_toneeq_bilinear_at (unsigned x, int s, int n, int *i0, int *i1, double *t)
{
  double f = ((double) x + 0.5) / (double) s - 0.5;
  double fl = floor (f);
  int i = (int) fl;
  *t = f - fl;
  *i0 = i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
  *i1 = i + 1 < 0 ? 0 : (i + 1 > n - 1 ? n - 1 : i + 1);
}

/* M at pixel (X, Y) of the input, whose ℓ is LEVEL: ā ℓ + b̄, the coefficients read
 * bilinearly from ABAR and BBAR (the window's planes). */
LM_INLINE double
lm_toneeq_mask (const LmToneeqGrid *g, const LmToneeqWindow *w, const double *abar, const double *bbar, unsigned x,
                unsigned y, double level)
{
  int x0, x1, y0, y1;
  double tx, ty;
  lm_toneeq_bilinear_at (w->ox + x, g->s, g->nx, &x0, &x1, &tx);
  lm_toneeq_bilinear_at (w->oy + y, g->s, g->ny, &y0, &y1, &ty);
  /* window indices, held inside it (only a halo pixel's reach leaves it) */
  x0 -= w->x0, x1 -= w->x0, y0 -= w->y0, y1 -= w->y0;
  x0 = x0 < 0 ? 0 : (x0 > w->nx - 1 ? w->nx - 1 : x0);
  x1 = x1 < 0 ? 0 : (x1 > w->nx - 1 ? w->nx - 1 : x1);
  y0 = y0 < 0 ? 0 : (y0 > w->ny - 1 ? w->ny - 1 : y0);
  y1 = y1 < 0 ? 0 : (y1 > w->ny - 1 ? w->ny - 1 : y1);
  size_t r0 = (size_t) y0 * w->nx, r1 = (size_t) y1 * w->nx;
  double a0 = abar[r0 + x0] + tx * (abar[r0 + x1] - abar[r0 + x0]);
  double a1 = abar[r1 + x0] + tx * (abar[r1 + x1] - abar[r1 + x0]);
  double b0 = bbar[r0 + x0] + tx * (bbar[r0 + x1] - bbar[r0 + x0]);
  double b1 = bbar[r1 + x0] + tx * (bbar[r1 + x1] - bbar[r1 + x0]);
  double a = a0 + ty * (a1 - a0), b = b0 + ty * (b1 - b0);
  return a * level + b;
}

/* The gain 2^G(M) from TABLE (lm_toneeq_gain_table), linear between entries. */
LM_INLINE double
lm_toneeq_gain (const float *table, double m)
{
  double pos = (m - (double) LM_TONEEQ_FIRST_EV) * ((double) LM_TONEEQ_TABLE_STEPS / -LM_TONEEQ_FIRST_EV);
  pos = pos > 0.0 ? pos : 0.0;
  if (!(pos < (double) LM_TONEEQ_TABLE_STEPS))
    return (double) table[LM_TONEEQ_TABLE_STEPS];
  int i = (int) pos;
  double t = pos - (double) i, a = (double) table[i];
  return a + t * ((double) table[i + 1] - a);
}

/* The encoded code of linear L: the number of THRESHOLDS (N of them, ascending: the linear
 * light of each half code) below it, 0..N. NaN gives 0. */
LM_INLINE unsigned
lm_toneeq_encode (const float *thresholds, unsigned n, double l)
{
  unsigned lo = 0, hi = n;
  while (lo < hi)
    {
      unsigned mid = (lo + hi) / 2;
      if ((double) thresholds[mid] < l)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Host only (plain static inline: nvcc compiles them for the host alone), so that the CPU
 * reference and the kernel's launch build the same tables. */

/* TABLE[i] = 2^G(−8 + i / 1024), i = 0..LM_TONEEQ_TABLE_STEPS: G the PCHIP through the
 * zones, with scipy's PchipInterpolator's slopes (harmonic means inside, its three-point rule
 * at the ends). */
static inline void
lm_toneeq_gain_table (const LmToneeqParams *p, float *table)
{
  const double g[LM_TONEEQ_ZONES] = { p->blacks,    p->deep_shadows, p->shadows, p->light_shadows, p->midtones,
                                      p->dark_highlights, p->highlights, p->whites, p->speculars };
  double delta[LM_TONEEQ_ZONES - 1], d[LM_TONEEQ_ZONES];
  for (int k = 0; k < LM_TONEEQ_ZONES - 1; k++)
    delta[k] = g[k + 1] - g[k];
  for (int k = 1; k < LM_TONEEQ_ZONES - 1; k++)
    d[k] = delta[k - 1] * delta[k] > 0.0 ? 2.0 / (1.0 / delta[k - 1] + 1.0 / delta[k]) : 0.0;
  for (int end = 0; end < 2; end++)
    {
      double d0 = end ? delta[LM_TONEEQ_ZONES - 2] : delta[0], d1 = end ? delta[LM_TONEEQ_ZONES - 3] : delta[1];
      double e = (3.0 * d0 - d1) / 2.0;
      if ((e > 0.0) != (d0 > 0.0) || (e < 0.0) != (d0 < 0.0))
        e = 0.0;
      else if (((d0 > 0.0) != (d1 > 0.0) || (d0 < 0.0) != (d1 < 0.0)) && fabs (e) > 3.0 * fabs (d0))
        e = 3.0 * d0;
      d[end ? LM_TONEEQ_ZONES - 1 : 0] = e;
    }
  const int per_ev = LM_TONEEQ_TABLE_STEPS / -LM_TONEEQ_FIRST_EV;
  for (int i = 0; i <= LM_TONEEQ_TABLE_STEPS; i++)
    {
      int k = i / per_ev < LM_TONEEQ_ZONES - 1 ? i / per_ev : LM_TONEEQ_ZONES - 2;
      double t = (double) (i - k * per_ev) / per_ev, t2 = t * t, t3 = t2 * t;
      double ev = (2.0 * t3 - 3.0 * t2 + 1.0) * g[k] + (t3 - 2.0 * t2 + t) * d[k] + (3.0 * t2 - 2.0 * t3) * g[k + 1]
                  + (t3 - t2) * d[k + 1];
      table[i] = (float) exp2 (ev);
    }
}

/* Channel C's curve of an encoded value V (0..1), the photo's or sRGB's. */
static inline double
lm_toneeq_to_linear (const LmOpColor *color, int c, double v)
{
  return color->space ? color->to_linear (color->space, c, v) : lm_srgb_to_linear_d (v);
}

/* DECODE (MAXCODE + 1 floats): the linear light of each code; THRESHOLDS (MAXCODE floats):
 * that of each half code, (q + ½) / MAXCODE, where the rounding of an encoded result moves to
 * the next code. */
static inline void
lm_toneeq_curve_tables (const LmOpColor *color, int c, unsigned maxcode, float *decode, float *thresholds)
{
  for (unsigned q = 0; q <= maxcode; q++)
    decode[q] = (float) lm_toneeq_to_linear (color, c, (double) q / maxcode);
  for (unsigned q = 0; q < maxcode; q++)
    thresholds[q] = (float) lm_toneeq_to_linear (color, c, ((double) q + 0.5) / maxcode);
}
