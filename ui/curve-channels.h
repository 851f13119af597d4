/* LmCurveChannels: the curve parameters (LM_PARAM_CURVE) of one operation edited in one
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

#define LM_TYPE_CURVE_CHANNELS (lm_curve_channels_get_type ())
G_DECLARE_FINAL_TYPE (LmCurveChannels, lm_curve_channels, LM, CURVE_CHANNELS, GtkBox)

/* For OP's curve parameters, in the order of its table. */
GtkWidget *lm_curve_channels_new (const LmOpInfo *op);

/* Shows the curves of PARAMS (OP's parameter struct); emits nothing. */
void lm_curve_channels_set_params (LmCurveChannels *self, const void *params);
/* Writes the curves as edited into PARAMS. */
void lm_curve_channels_get_params (LmCurveChannels *self, void *params);

void lm_curve_channels_set_histogram (LmCurveChannels *self, const LmHistogram *histogram);

/* The editor (one for all the curves); the button that shows parameter NAME's curve. */
GtkWidget *lm_curve_channels_get_editor (LmCurveChannels *self);
GtkWidget *lm_curve_channels_get_button (LmCurveChannels *self, const char *name);

G_END_DECLS
