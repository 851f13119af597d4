/* LmMaskRows: the rows of an instance's mask under its panel's parameters (op-panel.h): the
 * mask's opacity, its feather (a fraction of the long side, shown in %) and detail, a trapezoid
 * per parametric range (luminance, hue, saturation: a switch and lo0 ≤ lo1 ≤ hi1 ≤ hi0, kept in
 * that order as one is dragged past another) and the drawn shapes, one row each (its kind, how
 * it combines with those before, invert, delete). Sliders are the panels' (slider-input.h,
 * value-field.h). Emits "changed" on every edit and "committed" once one is complete, as
 * LmOpPanel does. */
#pragma once

#include <gtk/gtk.h>

#include "core/ops/mask-math.h"

G_BEGIN_DECLS

#define LM_TYPE_MASK_ROWS (lm_mask_rows_get_type ())
G_DECLARE_FINAL_TYPE (LmMaskRows, lm_mask_rows, LM, MASK_ROWS, GtkBox)

/* Its labels join LABELS and its values VALUES (the panels' shared columns). */
GtkWidget *lm_mask_rows_new (GtkSizeGroup *labels, GtkSizeGroup *values);

/* Shows MASK (emits nothing); lm_mask_rows_get is it as edited since. */
void lm_mask_rows_set (LmMaskRows *self, const LmMask *mask);
const LmMask *lm_mask_rows_get (LmMaskRows *self);

/* SCENE: the instance runs on scene light (a raw's or a merge's, before the display
 * transform), where the luminance range is in EV rather than 0..1 (emits nothing). */
void lm_mask_rows_set_scene (LmMaskRows *self, gboolean scene);

/* A pointer button is down on one of its sliders: its release commits. */
gboolean lm_mask_rows_is_held (LmMaskRows *self);

G_END_DECLS
