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
 * The pixel part reads the master curve at the luma from a table of its values at the 256
 * whole levels, joined by straight lines (LmCurvePixel), where evaluating the cubic at each
 * pixel cost a search or a second table and six operations more. The line passes through
 * every point at a whole level, and between two levels stays within their values; it lies
 * within 0.0025 of a level of the cubic for an S-curve (0:0,64:50,192:210,255:255), the
 * error being the cubic's curvature over one level, and further at a sharp bend (0.9 of a
 * level at 9.5 for 0:0,10:200,255:255, 1.5 near 100 for 0:0,100:10,110:240,255:255), where
 * the curve itself climbs tens of levels within one; on a 16-bit image, a few 16-bit levels
 * for curves of ordinary shape (3 for a shadow lift, 0:0,30:70,255:255). A gray image, which
 * has no pixel part, keeps the cubic (curve.c). A luma beyond 0..255 reads the end's value,
 * as the curve is flat there.
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
 * x[1]. */
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

/* The pixel part (luma mode): the master curve at each whole level, node[i] = { Y'(i),
 * Y'(i + 1) - Y'(i) } (0 for i = 255), made on the host (lm_curve_luma_nodes). 2 KiB: a
 * launch parameter, copied by the kernels into shared memory. */
typedef struct {
  float node[256][2] __attribute__ ((aligned (8))); /* a node is one 8-byte load on the GPU */
} LmCurvePixel;

/* NODE, the master curve of the luma mode, made from its spline S: the cubic's values at the
 * whole levels and their differences, in float. */
LM_INLINE void
lm_curve_luma_nodes (const LmCurveSpline *s, float node[256][2])
{
  for (int i = 0; i < 256; i++)
    node[i][0] = lm_curve_spline_eval (s, (float) i);
  for (int i = 0; i < 256; i++)
    node[i][1] = i < 255 ? node[i + 1][0] - node[i][0] : 0.0f;
}

/* The master curve at the luma Y through NODE (8-byte aligned): Y held at 0..255 (NaN reads
 * level 0, as the cubic's search gives a NaN the first point's value), then the line from the
 * whole level below. On the GPU the whole part is found by adding 2^23 rounded down, which
 * leaves it in the low bits (FMA and ALU pipes, where a conversion would take the slower XU
 * one): for a Y of 0..255 the same floor as the CPU's truncation, and the same fraction,
 * exactly. */
LM_INLINE float
lm_curve_luma_map (const float (*node)[2], float y)
{
  float v = lm_quantize_clamp (y);
#ifdef __CUDA_ARCH__
  float whole = __fadd_rd (v, 8388608.0f);
  int i = (int) (__float_as_uint (whole) - 0x4B000000u);
  float t = v - (whole - 8388608.0f);
  float2 n = *reinterpret_cast<const float2 *> (node[i]); /* NODE is 8-byte aligned */
  return lm_fma (t, n.y, n.x);
#else
  int i = (int) v;
  float t = v - (float) i;
  return lm_fma (t, node[i][1], node[i][0]);
#endif
}

/* The luma mode's pixel part with its curve NODE (LmCurvePixel's, or a copy of it in faster
 * memory). Returns the mapped luma Y', which is the luma of the pixel it leaves (exactly, in
 * real arithmetic: k·Y = Y', and Y + (Y' - Y) = Y' as the weights sum to 1), for a pixel part
 * after it (point-math.h; saturation after it runs in their pair instead). */
LM_INLINE float
lm_curve_pixel (const float (*node)[2], float *r, float *g, float *b)
{
  float y = lm_weighted_sum (*r, *g, *b, LM_BT709_R, LM_BT709_G, LM_BT709_B);
  float mapped = lm_curve_luma_map (node, y);
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
