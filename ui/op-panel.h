/* LmOpPanel: one operation's controls (enable switch, a slider or a choice per parameter,
 * reset), built from its parameter table; its curve parameters share one curve editor with
 * a choice of which curve it shows (curve-group.h). A length in pixels (blur's σ) gets a slider that
 * is fine where lengths are small and a field where its value is typed. Every panel's labels
 * share one column, so that all sliders start at one x. A slider's value beside it can be
 * typed (value-field.h); the wheel, Shift and Ctrl act on the sliders as slider-input.h says. */
#pragma once

#include <gtk/gtk.h>

#include "core/edit/pipeline.h"
#include "core/ops/histogram.h"

G_BEGIN_DECLS

#define LM_TYPE_OP_PANEL (lm_op_panel_get_type ())
G_DECLARE_FINAL_TYPE (LmOpPanel, lm_op_panel, LM, OP_PANEL, GtkBox)

GtkWidget *lm_op_panel_new (const LmOpInfo *op);

/* Shows STAGE's values and its name as the title (the operation's label where it has none;
 * emits nothing). */
void lm_op_panel_set_stage (LmOpPanel *self, const LmStage *stage);
const LmStage *lm_op_panel_get_stage (LmOpPanel *self);

/* The index in the operation's parameters of the one the last edit came from (a slider
 * moved, a value typed, a choice made), or -1 when none came since the last
 * lm_op_panel_set_stage; BEFORE (may be NULL) is then set to the stage as it was before that
 * edit. A "changed" handler reads it: the keyboard's focus is gone while a typed field is
 * left. */
int lm_op_panel_get_edited_param (LmOpPanel *self, const LmStage **before);

/* FALSE: the stage is always on (no switch; reset keeps it on), as tone mapping is for
 * radiance. */
void lm_op_panel_set_switchable (LmOpPanel *self, gboolean switchable);

/* A pointer button is down on one of its sliders or its curve: what it changes until the
 * release is one edit, which "committed" ends, however long the pointer rests on the way. */
gboolean lm_op_panel_is_held (LmOpPanel *self);

/* MASK's rows under the parameters (opacity, feather, detail, the ranges, the shapes), its
 * luminance range in EV where SCENE (the instance runs on scene light); NULL hides them
 * (emits nothing). Their edits emit "changed" and "committed" as the parameters'
 * do; lm_op_panel_get_mask is then the mask as edited, NULL while they are hidden. */
void lm_op_panel_set_mask (LmOpPanel *self, const LmMask *mask, gboolean scene);
const LmMask *lm_op_panel_get_mask (LmOpPanel *self);

/* The header's menu button (named "instance-menu"), shown once it has MENU, its name for
 * assistive technologies ACCESSIBLE_NAME ("Instance menu of Exposure 2"); the name again as
 * the instance is renamed. */
void lm_op_panel_set_menu (LmOpPanel *self, GMenuModel *menu, const char *accessible_name);
void lm_op_panel_set_menu_name (LmOpPanel *self, const char *accessible_name);
GtkWidget *lm_op_panel_get_menu_button (LmOpPanel *self);

/* The histogram of the current render, drawn behind a curve parameter's editor. */
void lm_op_panel_set_histogram (LmOpPanel *self, const LmHistogram *histogram);

/* The button that shows curve parameter NAME in the panel's curve editor (its control, as
 * every curve parameter's, is that editor, an LmCurveEditor); NULL where there is none. */
GtkWidget *lm_op_panel_get_curve_button (LmOpPanel *self, const char *name);

/* The widget editing parameter NAME ("enabled" for the switch), for tests and shortcuts: a
 * GtkComboBox, or a GtkRange over the value. For a length that range is not on screen (its
 * slider runs over a position, not the value): setting it is as typing the value. What a
 * person uses are then the widgets named "NAME-slider" and "NAME-field". */
GtkWidget *lm_op_panel_get_control (LmOpPanel *self, const char *name);

G_END_DECLS
