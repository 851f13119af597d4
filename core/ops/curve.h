/* The curve operation's spline for code outside the render (the window's curve editor, its
 * tests): prepared from the points as the operation prepares it, evaluated with
 * lm_curve_spline_eval (curve-math.h), so that what is drawn is what is computed (in luma
 * mode, up to the lines between whole levels that the pixel part reads, curve-math.h). */
#pragma once

#include "curve-math.h"

/* SPLINE, the Fritsch–Carlson monotone cubic through POINTS (curve.c). */
void lm_curve_spline_prepare (const LmCurvePoints *points, LmCurveSpline *spline);
