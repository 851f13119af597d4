/* A curve's control points, as a parameter (LM_PARAM_CURVE, op.h) stores them: its text form
 * is "x:y,x:y,…" ("0:0,64:50,192:210,255:255"), x strictly increasing, both within the
 * parameter's range. GLib-free: the kernels read it too. */
#pragma once

#define LM_CURVE_MAX_POINTS 16

typedef struct {
  int n; /* 2..LM_CURVE_MAX_POINTS */
  float x[LM_CURVE_MAX_POINTS];
  float y[LM_CURVE_MAX_POINTS];
} LmCurvePoints;
