/* LmCurveGroup: the curve parameters (LM_PARAM_CURVE) of one operation edited in one
 * LmCurveEditor, with a row of buttons that picks which one it shows: the curve operation's
 * `points`, `red`, `green` and `blue` become one editor with Curve | Red | Green | Blue over it,
 * not four editors one under the other (a side panel has room for one square). The histogram
 * behind the editor is the channel's own: a parameter named red, green or blue shows that
 * channel's, any other the luma's. Emits "changed" and "committed" as the editor does. */
#pragma once

#include <gtk/gtk.h>

#include "core/ops/histogram.h"
#include "core/ops/op.h"

G_BEGIN_DECLS

#define LM_TYPE_CURVE_GROUP (lm_curve_group_get_type ())
G_DECLARE_FINAL_TYPE (LmCurveGroup, lm_curve_group, LM, CURVE_GROUP, GtkBox)

/* For OP's curve parameters, in the order of its table. */
GtkWidget *lm_curve_group_new (const LmOpInfo *op);

/* Shows the curves of PARAMS (OP's parameter struct); emits nothing. */
void lm_curve_group_set_params (LmCurveGroup *self, const void *params);
/* Writes the curves as edited into PARAMS. */
void lm_curve_group_get_params (LmCurveGroup *self, void *params);

void lm_curve_group_set_histogram (LmCurveGroup *self, const LmHistogram *histogram);

/* The editor (one for all the curves); the button that shows parameter NAME's curve. */
GtkWidget *lm_curve_group_get_editor (LmCurveGroup *self);
GtkWidget *lm_curve_group_get_button (LmCurveGroup *self, const char *name);

G_END_DECLS
