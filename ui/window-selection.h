/* Which instance the window's mask tools and instance actions act on: the one whose panel the
 * person touched last (window-selection.c). The panels set it; the mask tools read it. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

/* ID: an instance of the window's pipeline; 0: none. Marks the selected panel. */
void lm_window_select_instance (LmWindow *self, guint32 id);
/* The selected instance's id, 0 when none is selected or it is no longer in the pipeline
 * (removed, or gone by an undo). */
guint32 lm_window_selected_instance (LmWindow *self);

G_END_DECLS
