/* LmWindow's Presets menu (preset-menu.c): each preset (presets.h) applied to the open photo
 * as one undo step, Save Current Edits as Preset… (preset-save.c) and Manage Presets…
 * (preset-manage.c). */
#pragma once

#include "window.h"

G_BEGIN_DECLS

/* The window's actions win.apply-preset(path), win.save-preset, win.manage-presets, and the
 * menu's list of presets. */
void lm_window_presets_init (LmWindow *self);

/* Every window's menu of presets read again: after a save, rename, delete or import. */
void lm_window_presets_changed (void);

/* preset-save.c: the dialog that saves the chosen operations of the edits under a name. */
void lm_window_save_preset_action (GSimpleAction *action, GVariant *param, gpointer data);

/* preset-manage.c: the dialog that renames, deletes, imports and exports presets. */
void lm_window_manage_presets_action (GSimpleAction *action, GVariant *param, gpointer data);

G_END_DECLS
