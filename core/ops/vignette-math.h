/* Vignette: darkens (amount < 0, "add") or lightens (amount > 0, "remove") the corners, as
 * Lightroom's post-crop vignetting; shared by vignette.c and kernels/vignette.cu. After the
 * crop, so its centre is the crop's; the lens's own vignetting is another matter.
 *
 * For pixel (x, y) of the W × H image (a tile's pixel at its place in the whole one, through
 * the tile frame), c = ((W − 1)/2, (H − 1)/2), R = ½√(W² + H²), ρ the roundness:
 *   a_x = (1 − ρ)·W/√2 + ρ·R, a_y = (1 − ρ)·H/√2 + ρ·R
 * (so d = 1 at the corners: an ellipse of the frame's aspect at ρ = 0, the circle through the
 * corners at ρ = 1), d = √(((x − c_x)/a_x)² + ((y − c_y)/a_y)²),
 *   e = smoothstep(midpoint − feather/2, midpoint + feather/2, d),
 * and each channel's linear light (the photo's curve, sRGB's or its profile's) is multiplied
 * by 2^(amount·e), then encoded again and rounded once.
 *
 * Both backends give the same bits: the shape is made of IEEE +, −, ×, ÷ and √ on numbers the
 * host prepares; 2^(amount·e) is a table of 1024 steps over e with linear interpolation (its
 * error under 10⁻⁵ of the gain); decoding is a table of the format's values, and encoding
 * with its rounding is a search among the linear values where the rounded code changes
 * (the curve at (k − ½)/N), so no transcendental runs per pixel on either side. */
#pragma once

#include <math.h>

#include "op-context.h"
#include "param-decl.h"
#include "pixel-math.h"
#include "srgb-math.h"
#include "tile-math.h"

#define LM_VIGNETTE_PARAMS(P)                                                                      \
  P (FLOAT, amount, N_("Amount (EV)"), -3, 3, 0, 0.01, "EV")                                       \
  P (FLOAT, midpoint, N_("Midpoint"), 0, 1, 0.5, 0.01, NULL)                                       \
  P (FLOAT, feather, N_("Feather"), 0.05, 1, 0.5, 0.01, NULL)                                      \
  P (FLOAT, roundness, N_("Roundness"), 0, 1, 0, 0.01, NULL)

typedef struct {
  LM_VIGNETTE_PARAMS (LM_PARAM_FIELD)
  /* Not parameters: the photo's colour space, from the render's commit (zero: sRGB), and the
   * tile a tiled render computes (the gain depends on where a pixel lies in the whole image). */
  LmOpColor color;
  LmTileFrame tile;
} LmVignetteParams;

#define LM_VIGNETTE_GAIN_STEPS 1023

/* The shape for one run, as the host prepares it for both backends. */
typedef struct {
  float cx, cy, ax, ay; /* centre and semi-axes, in the whole image's pixels */
  float lo, hi;         /* the smoothstep's ends */
  unsigned ox, oy;      /* where the run's input lies in the whole image */
} LmVignetteShape;

/* Host side: the shape for an input of W × H (a tile's, when the tile frame is set). */
static inline LmVignetteShape
lm_vignette_shape (const LmVignetteParams *p, unsigned w, unsigned h)
{
  LmVignetteShape s;
  int tiled = lm_tile_frame_active (&p->tile);
  double fw = tiled ? p->tile.full_w : w, fh = tiled ? p->tile.full_h : h;
  double rho = p->roundness, r = 0.5 * sqrt (fw * fw + fh * fh);
  s.cx = (float) ((fw - 1.0) / 2.0), s.cy = (float) ((fh - 1.0) / 2.0);
  s.ax = (float) ((1.0 - rho) * fw / sqrt (2.0) + rho * r);
  s.ay = (float) ((1.0 - rho) * fh / sqrt (2.0) + rho * r);
  s.lo = p->midpoint - 0.5f * p->feather, s.hi = p->midpoint + 0.5f * p->feather;
  s.ox = tiled ? p->tile.in_x : 0, s.oy = tiled ? p->tile.in_y : 0;
  return s;
}

/* Host side: GAIN[0..LM_VIGNETTE_GAIN_STEPS] = 2^(amount·i/LM_VIGNETTE_GAIN_STEPS). */
static inline void
lm_vignette_gains (const LmVignetteParams *p, float *gain)
{
  for (int i = 0; i <= LM_VIGNETTE_GAIN_STEPS; i++)
    gain[i] = (float) exp2 ((double) p->amount * i / LM_VIGNETTE_GAIN_STEPS);
}

/* Host side: the curve of channel C (0 R, 1 G, 2 B) for N + 1 codes (N = 255 or 65535):
 * DECODE[v] = its linear light of code v, UP[k] (k ≥ 1) = the linear light above which a
 * value rounds to k or more, at (k − ½)/N; UP[0] is not read. */
static inline void
lm_vignette_curve (const LmOpColor *color, int c, unsigned n, float *decode, float *up)
{
  for (unsigned v = 0; v <= n; v++)
    {
      double x = (double) v / n, half = ((double) v - 0.5) / n;
      decode[v] = (float) (color->space ? color->to_linear (color->space, c, x) : lm_srgb_to_linear_d (x));
      up[v] = v == 0 ? 0.0f
                     : (float) (color->space ? color->to_linear (color->space, c, half) : lm_srgb_to_linear_d (half));
    }
}

/* The gain at whole-image pixel (X, Y). */
LM_INLINE float
lm_vignette_gain (const LmVignetteShape *s, const float *gain, unsigned x, unsigned y)
{
  float u = ((float) x - s->cx) / s->ax, v = ((float) y - s->cy) / s->ay;
  float d = sqrtf (u * u + v * v);
  float t = (d - s->lo) / (s->hi - s->lo);
  t = t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f;
  float e = t * t * (3.0f - 2.0f * t);
  float f = e * (float) LM_VIGNETTE_GAIN_STEPS;
  int i = (int) f;
  if (i >= LM_VIGNETTE_GAIN_STEPS)
    return gain[LM_VIGNETTE_GAIN_STEPS];
  return gain[i] + (f - (float) i) * (gain[i + 1] - gain[i]);
}

/* The code (0..N, N = 2^k − 1) that linear light L encodes to, rounded half up: how many of
 * UP[1..N] it reaches (they rise with the code). A search of k halving steps, each a compare
 * and a conditional add rather than a branch the processor would mispredict half the time. */
LM_INLINE unsigned
lm_vignette_encode (const float *up, unsigned n, float l)
{
  unsigned pos = 0;
  for (unsigned step = (n + 1) / 2; step > 0; step /= 2)
    pos += up[pos + step] <= l ? step : 0;
  return pos;
}
