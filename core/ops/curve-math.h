/* Curves: parameters, the spline's evaluation and the two parts of the operation, shared by
 * curve.c and the fused point pass (point-math.h, kernels/point.cu).
 *
 * Each curve is the monotone cubic of Fritsch and Carlson through its points (curve.c
 * prepares it): between two points it never leaves their range, so monotone points give a
 * monotone curve without the overshoot of a natural spline; beyond the first and last point
 * it is flat. In rgb mode the master curve ("points") maps each of R, G and B, then the red,
 * green and blue curves their own channel: all channel parts, a table. In luma mode the
 * channel curves come first (the table), then the pixel part maps the BT.709 luma of the
 * encoded values, Y' = points(Y), and scales the pixel by Y'/Y, keeping its R:G:B ratios
 * (its hue and saturation) as Lightroom's and darktable's luminance curves do; where Y ≤ 0
 * the ratio has no meaning and Y' - Y is added instead.
 *
 * "Y ≤ 0" is, exactly, Y outside ratio-math.h's range (2^-40, 2^64), and a Y' outside it
 * scales by 0: the GPU's division is then its fast path alone, bit for bit the CPU's. The
 * range changes nothing a photo shows: a luma of 2^-40 or less (a cancellation of channels
 * that an 8-bit output rounds to black whichever way), or of 2^64 or more (which no edit's
 * values reach), and a mapped luma of 2^-40 or less (black) are all the pixels it moves. */
#pragma once

#include "curve-points.h"
#include "param-decl.h"
#include "pixel-math.h"
#include "ratio-math.h"

typedef enum {
  LM_CURVE_MODE_RGB,
  LM_CURVE_MODE_LUMA,
} LmCurveMode;

/* points: the master curve, of R, G and B (rgb) or of the luma (luma); mode: an
 * LmCurveMode. A curve's step: one level. */
#define LM_CURVE_PARAMS(P)                                                                         \
  P (CURVE, points, N_("Curve"), 0, 255, 0, 1, NULL)                                               \
  P (ENUM, mode, N_("Mode"), 0, 1, LM_CURVE_MODE_RGB, 1, NULL, .values = lm_curve_modes)           \
  P (CURVE, red, N_("Red"), 0, 255, 0, 1, NULL)                                                    \
  P (CURVE, green, N_("Green"), 0, 255, 0, 1, NULL)                                                \
  P (CURVE, blue, N_("Blue"), 0, 255, 0, 1, NULL)

typedef struct {
  LM_CURVE_PARAMS (LM_PARAM_FIELD)
} LmCurveParams;

/* A curve prepared for evaluation: n points x[0] < … < x[n-1]; on segment k (x[k] ≤ v <
 * x[k+1]) the cubic c[k][0] + t (c[k][1] + t (c[k][2] + t c[k][3])) of t = v - x[k]. In
 * this form evaluation is only additions, multiplications and comparisons, which give the
 * same bits on the CPU and the GPU; c[k][0] is the point's y, so the curve passes through
 * every point exactly. */
typedef struct {
  int n;
  float x[LM_CURVE_MAX_POINTS];
  float c[LM_CURVE_MAX_POINTS - 1][4];
  float last; /* y[n-1]: the value from x[n-1] on */
} LmCurveSpline;

/* A segment's cubic at T: how every evaluation of a spline ends, on the CPU and the GPU. */
LM_INLINE float
lm_curve_cubic (const float c[4], float t)
{
  return c[0] + t * (c[1] + t * (c[2] + t * c[3]));
}

/* The segment of a V below the last point: the last k (at most n - 2) with x[k] ≤ V, 0 below
 * x[1]. The point pass's bins (kernels/point.cu) are made by it too. */
LM_INLINE int
lm_curve_spline_segment (const LmCurveSpline *s, float v)
{
  int k = 0;
  while (k < s->n - 2 && v >= s->x[k + 1])
    k++;
  return k;
}

LM_INLINE float
lm_curve_spline_eval (const LmCurveSpline *s, float v)
{
  if (!(v > s->x[0])) /* NaN too: the first point's value */
    return s->c[0][0];
  if (v >= s->x[s->n - 1])
    return s->last;
  int k = lm_curve_spline_segment (s, v);
  return lm_curve_cubic (s->c[k], v - s->x[k]);
}

/* The channel part's curves, prepared on the host once per render (curve.c). */
typedef struct {
  int mode;
  LmCurveSpline points;     /* applied to every channel in rgb mode only */
  LmCurveSpline channel[3]; /* red, green, blue */
} LmCurveChannels;

LM_INLINE float
lm_curve_channel (const LmCurveChannels *p, int c, float v)
{
  if (p->mode == LM_CURVE_MODE_RGB)
    v = lm_curve_spline_eval (&p->points, v);
  return lm_curve_spline_eval (&p->channel[c], v);
}

/* The pixel part (luma mode): the master curve applied to the pixel's luma. */
typedef struct {
  LmCurveSpline luma;
} LmCurvePixel;

/* Returns the mapped luma Y', which is the luma of the pixel it leaves (exactly, in real
 * arithmetic: k·Y = Y', and Y + (Y' - Y) = Y' as the weights sum to 1), so that a pixel part
 * after it need not sum the luma again (point-math.h). */
LM_INLINE float
lm_curve_pixel (const LmCurvePixel *p, float *r, float *g, float *b)
{
  float y = lm_weighted_sum (*r, *g, *b, LM_BT709_R, LM_BT709_G, LM_BT709_B);
  float mapped = lm_curve_spline_eval (&p->luma, y);
  if (lm_ratio_in_range (y))
    {
      float k = lm_ratio (lm_ratio_numerator (mapped), y);
      *r = *r * k, *g = *g * k, *b = *b * k;
    }
  else
    {
      float d = mapped - y;
      *r = *r + d, *g = *g + d, *b = *b + d;
    }
  return mapped;
}
