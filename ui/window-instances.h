/* The window's operation panels, one per instance of the pipeline and in its order
 * (window-instances.c), and the instance menu of each: Duplicate, Rename…, Move Up, Move Down,
 * Remove and Mask ▸ (Brush, Linear Gradient, Radial Gradient, Show Mask, Invert Mask, Remove
 * Mask), `win.` actions whose target is the instance's id (a uint32):
 *   win.instance-duplicate, win.instance-rename, win.instance-move-up, win.instance-move-down,
 *   win.instance-remove, win.mask-brush, win.mask-linear, win.mask-radial, win.mask-invert,
 *   win.mask-remove;
 * and win.show-mask, a boolean state without target. Each edit is one undo step. */
#pragma once

#include "window.h"
#include "op-panel.h"

G_BEGIN_DECLS

/* Builds the panels of the window's pipeline and adds the actions (window.c, once). */
void lm_window_instances_init (LmWindow *self);
void lm_window_instances_free (LmWindow *self);

/* The panels made to match the window's pipeline: one for each instance (the export's resize
 * has none), in its order, each showing its instance; a panel whose id is still there is
 * kept (its focus and a held slider's state), the others go, new ones come. */
void lm_window_instances_sync (LmWindow *self);

/* The panel of the instance ID, or NULL. (The primary's, the one that means the operation, is
 * lm_window_primary_panel in window-private.h, lm_window_get_op_panel in window.h.) */
LmOpPanel *lm_window_instance_panel (LmWindow *self, guint32 id);
/* The panels in the pipeline's order (LmOpPanel *), owned by the window. */
GPtrArray *lm_window_instance_panels (LmWindow *self);

/* Whether the selected instance's mask is to be shown over the photo (win.show-mask). */
gboolean lm_window_instances_show_mask (LmWindow *self);

/* ID (an instance of the pipeline, or 0) becomes the selected one (window-selection.h), its
 * panel marked as such: what the person touched last. */
void lm_window_instances_select (LmWindow *self, guint32 id);

G_END_DECLS
