/* Curves: the parameters, the Fritsch–Carlson preparation of each curve, and the operation's
 * place in the fused point pass (curve-math.h says what it computes). */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "curve.h"
#include "ops.h"
#include "point.h"

static const LmEnumValue lm_curve_modes[] = {
  { "rgb", N_("Each channel (R, G, B)") },
  { "luma", N_("Luma (keeps colours)") },
  { NULL, NULL },
};

#define LM_PARAM_STRUCT LmCurveParams
static const LmParamSpec curve_params[] = { LM_CURVE_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* Fritsch & Carlson (1980), "Monotone piecewise cubic interpolation": secant slopes d; a
 * tangent m at each point, the mean of its two secants, 0 where they differ in sign (a
 * local extremum stays one) and the secant at the ends; then on each segment the tangents
 * are scaled down into the circle α² + β² ≤ 9 (α, β: the tangents over the secant), which
 * is enough for the cubic to be monotone there. In double: the coefficients are rounded to
 * float once. */
static void
spline_prepare (const LmCurvePoints *p, LmCurveSpline *s)
{
  memset (s, 0, sizeof *s); /* whole: the render cache compares passes byte for byte */
  int n = CLAMP (p->n, 2, LM_CURVE_MAX_POINTS);
  double d[LM_CURVE_MAX_POINTS - 1], m[LM_CURVE_MAX_POINTS];
  for (int k = 0; k < n - 1; k++)
    d[k] = ((double) p->y[k + 1] - p->y[k]) / ((double) p->x[k + 1] - p->x[k]);
  m[0] = d[0], m[n - 1] = d[n - 2];
  for (int k = 1; k < n - 1; k++)
    m[k] = d[k - 1] * d[k] <= 0.0 ? 0.0 : 0.5 * (d[k - 1] + d[k]);
  for (int k = 0; k < n - 1; k++)
    {
      if (d[k] == 0.0)
        {
          m[k] = m[k + 1] = 0.0;
          continue;
        }
      double a = m[k] / d[k], b = m[k + 1] / d[k], r = a * a + b * b;
      if (r > 9.0)
        {
          double tau = 3.0 / sqrt (r);
          m[k] = tau * a * d[k], m[k + 1] = tau * b * d[k];
        }
    }

  s->n = n;
  for (int k = 0; k < n; k++)
    s->x[k] = p->x[k];
  for (int k = 0; k < n - 1; k++)
    {
      double h = (double) p->x[k + 1] - p->x[k];
      s->c[k][0] = p->y[k];
      s->c[k][1] = (float) m[k];
      s->c[k][2] = (float) ((3.0 * d[k] - 2.0 * m[k] - m[k + 1]) / h);
      s->c[k][3] = (float) ((m[k] + m[k + 1] - 2.0 * d[k]) / (h * h));
    }
  s->last = p->y[n - 1];
}

static float
curve_channel (const void *channels, int c, float v)
{
  return lm_curve_channel (channels, c, v);
}

/* A gray image's one channel: the master curve, in either mode (in luma mode it maps the
 * luma, which on a gray pixel is its value); the red, green and blue curves have no channel
 * of their own there, as in GIMP's curves on a grayscale image. */
static float
curve_gray (const void *spline, float v)
{
  return lm_curve_spline_eval (spline, v);
}

static void
curve_point_prepare (const void *params, LmPointPass *pass)
{
  const LmCurveParams *p = params;
  LmCurveChannels channels = { .mode = p->mode };
  spline_prepare (&p->points, &channels.points);
  spline_prepare (&p->red, &channels.channel[0]);
  spline_prepare (&p->green, &channels.channel[1]);
  spline_prepare (&p->blue, &channels.channel[2]);
  lm_point_pass_map (pass, curve_channel, &channels);
  lm_point_pass_map_gray (pass, curve_gray, &channels.points);
  if (p->mode == LM_CURVE_MODE_LUMA)
    {
      lm_curve_luma_nodes (&channels.points, pass->curve.node);
      pass->pixel_ops |= LM_OP_BIT (CURVE);
    }
}

static gboolean
curve_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_point_run_one_cpu (&lm_curve_op, params, src, dst, error);
}

const LmOpInfo lm_curve_op = {
  .id = LM_OP_CURVE,
  .name = "curve",
  .label = N_("Curves"),
  .blurb = N_("Tone curves through points x:y (monotone cubic), on each channel or on the luma"),
  .params = curve_params,
  .n_params = G_N_ELEMENTS (curve_params),
  .params_size = sizeof (LmCurveParams),
  .version = 1,
  .output_format = lm_point_output_format,
  .point_prepare = curve_point_prepare,
  .run_cpu = curve_run_cpu,
};

/* For the window's curve editor (curve.h): it draws the curve as the operation computes it. */
void
lm_curve_spline_prepare (const LmCurvePoints *points, LmCurveSpline *spline)
{
  spline_prepare (points, spline);
}
