/* The curve as the editor draws it, until the curve operation's own evaluation
 * (core/ops/curve-math.h, branch point) is merged: Fritsch–Carlson monotone cubic Hermite
 * through the points, flat beyond the end points. Private to curve-editor.c. */
#pragma once

#include <math.h>

#include "core/ops/curve-points.h"

/* The tangent at each point: the three-point average of the secants, 0 at an extremum,
 * limited to the circle of radius 3 (Fritsch & Carlson 1980) so that a monotone run of
 * points gives a monotone curve. */
static inline void
lm_curve_eval_tangents (const LmCurvePoints *p, float *m)
{
  float d[LM_CURVE_MAX_POINTS] = { 0 };
  for (int k = 0; k + 1 < p->n; k++)
    d[k] = (p->y[k + 1] - p->y[k]) / (p->x[k + 1] - p->x[k]);
  m[0] = d[0];
  m[p->n - 1] = d[p->n - 2];
  for (int k = 1; k + 1 < p->n; k++)
    m[k] = d[k - 1] * d[k] <= 0.0f ? 0.0f : (d[k - 1] + d[k]) / 2.0f;
  for (int k = 0; k + 1 < p->n; k++)
    {
      if (d[k] == 0.0f)
        {
          m[k] = m[k + 1] = 0.0f;
          continue;
        }
      float a = m[k] / d[k], b = m[k + 1] / d[k], r = a * a + b * b;
      if (r > 9.0f)
        {
          float t = 3.0f / sqrtf (r);
          m[k] = t * a * d[k];
          m[k + 1] = t * b * d[k];
        }
    }
}

static inline float
lm_curve_eval (const LmCurvePoints *p, const float *m, float x)
{
  if (x <= p->x[0])
    return p->y[0];
  if (x >= p->x[p->n - 1])
    return p->y[p->n - 1];
  int k = 0;
  while (x > p->x[k + 1])
    k++;
  float h = p->x[k + 1] - p->x[k], t = (x - p->x[k]) / h, t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * p->y[k] + (t3 - 2 * t2 + t) * h * m[k] + (-2 * t3 + 3 * t2) * p->y[k + 1]
         + (t3 - t2) * h * m[k + 1];
}
