/* LmWindow's Compare (window-compare.c): while it is on, each view is rendered on the CPU and
 * the GPU as well, and where they differ is shown over it (window-status.c says the figures). */
#pragma once

#include "window.h"

G_BEGIN_DECLS

/* The gain scale renders again while Compare is on. */
void lm_window_compare_init (LmWindow *self);
/* The compare action's change-state. */
void lm_window_compare_changed (GSimpleAction *action, GVariant *state, gpointer data);
/* REQ, just sent for the view, is rendered on both backends too where Compare is on. */
void lm_window_compare_request (LmWindow *self, const LmRenderRequest *req);
/* R, a comparison, is shown where Compare is still on. */
void lm_window_compare_result (LmWindow *self, const LmRenderResult *r);

G_END_DECLS
