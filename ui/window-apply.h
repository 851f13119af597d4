/* LmWindow's Apply Edits to Photos… (window-apply.c): each photo exported as the Export
 * action does, with the edits as its sidecar; lm_window_apply_edits_to (window.h) starts a
 * run without the chooser. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmApplyRun LmApplyRun;

void lm_window_apply_action (GSimpleAction *action, GVariant *param, gpointer data);
/* Cancels the run under way, closes its dialogs and lets it go (the window is being
 * disposed, or its outcome was closed). */
void lm_window_apply_free (LmWindow *self);

G_END_DECLS
