/* LmWindow's commands on the edits as a whole (window-edits.c): Revert to Original, Copy
 * Edits, Paste Edits. */
#pragma once

#include "window.h"
#include "core/library/op-select.h"

G_BEGIN_DECLS

typedef struct _LmWindowEdits LmWindowEdits;

void lm_window_edits_init (LmWindow *self);
void lm_window_edits_free (LmWindow *self);

/* What Revert to Original restores: the operations' defaults, tone mapped with TONEMAP
 * (Mertens' fusion needs none). */
void lm_window_edits_set_original (LmWindow *self, const LmStage *tonemap);
void lm_window_revert_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_copy_edits_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_paste_edits_action (GSimpleAction *action, GVariant *param, gpointer data);
/* Paste Selectively…: a dialog of the copied operations (paste-ops.h), Replace or Append. */
void lm_window_paste_selectively_action (GSimpleAction *action, GVariant *param, gpointer data);
/* PRESET (a preset file's edits: presets.h) applied to the edits in MODE, one undo step;
 * FALSE, nothing changed, where the edits cannot hold it. */
gboolean lm_window_paste_preset (LmWindow *self, const LmPipeline *preset, LmPasteMode mode, GError **error);

G_END_DECLS
