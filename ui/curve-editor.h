/* LmCurveEditor: edits one tone curve (LmCurvePoints, core/ops/curve-points.h) as a person
 * edits Lightroom's or GIMP's: the curve over a grid, the diagonal it starts as and the
 * histogram of the current render behind it. A click on empty space adds a point there, a
 * drag moves a point (between its neighbours), a double-click or a drag out of the box
 * removes it (a curve keeps at least 2 points, at most LM_CURVE_MAX_POINTS); the arrow keys
 * move the selected point one level (ten with Shift), Delete removes it. The levels of the
 * point at hand show in a corner of the box, away from the pointer. Emits "changed" at
 * every move and "committed" when an edit is complete (the button or key released), as the
 * operation panels' sliders do: a drag is one undo step. */
#pragma once

#include <gtk/gtk.h>

#include "core/ops/curve-points.h"
#include "core/ops/histogram.h"

G_BEGIN_DECLS

#define LM_TYPE_CURVE_EDITOR (lm_curve_editor_get_type ())
G_DECLARE_FINAL_TYPE (LmCurveEditor, lm_curve_editor, LM, CURVE_EDITOR, GtkDrawingArea)

/* A curve over MIN..MAX on both axes (the parameter's range: 0..255). */
GtkWidget *lm_curve_editor_new (double min, double max);

/* Shows POINTS (emits nothing; the selection is kept where the point still is). */
void lm_curve_editor_set_points (LmCurveEditor *self, const LmCurvePoints *points);
const LmCurvePoints *lm_curve_editor_get_points (LmCurveEditor *self);

/* The histogram drawn behind the curve: CHANNEL (LM_HIST_R … LM_HIST_LUMA) of HISTOGRAM;
 * NULL: none. The curve takes that channel's colour (the luma's: the theme's text colour). */
void lm_curve_editor_set_histogram (LmCurveEditor *self, const LmHistogram *histogram);
void lm_curve_editor_set_channel (LmCurveEditor *self, LmHistChannel channel);

/* Where level (X, Y) of the curve is in the widget's coordinates, and back: for tests and
 * for ui-latency, which move points as a pointer would. */
void lm_curve_editor_to_widget (LmCurveEditor *self, double x, double y, double *wx, double *wy);
void lm_curve_editor_from_widget (LmCurveEditor *self, double wx, double wy, double *x, double *y);

/* The selected point's index, -1 when none. */
int lm_curve_editor_get_selected (LmCurveEditor *self);

/* Moves point INDEX to (X, Y) as a drag would (clamped between its neighbours, within the
 * range) and emits "changed"; with COMMIT, "committed" too. For the latency bench, which
 * times a drag's changes without a pointer. */
void lm_curve_editor_move_point (LmCurveEditor *self, int index, double x, double y, gboolean commit);

G_END_DECLS
