/* The window's folder mode (window-folder.c): `lumen FOLDER` and File → Open Folder… show a
 * folder's photos as a grid; Enter or a double click edits one, with a filmstrip of the same
 * photos under it, Space/BackSpace (or Alt+Right/Alt+Left) go to the next/previous photo in
 * the grid's order and filter, Escape goes back to the grid where it was. */
#pragma once

#include "window-private.h"

G_BEGIN_DECLS

void lm_window_folder_init (LmWindow *self);
void lm_window_folder_free (LmWindow *self);

/* Shows FOLDER's photos as a grid. */
void lm_window_open_folder (LmWindow *self, GFile *folder);
void lm_window_open_folder_action (GSimpleAction *action, GVariant *param, gpointer data);

/* For tests: the grid and the filmstrip (NULL before a folder is open), and whether the grid
 * is what the window shows. */
GtkWidget *lm_window_get_folder_view (LmWindow *self);
GtkWidget *lm_window_get_filmstrip (LmWindow *self);
gboolean lm_window_folder_showing_grid (LmWindow *self);
/* The records of the folder, in the order and choice shown. */
guint lm_window_folder_n_photos (LmWindow *self);
/* Ratings and presets on many photos asked for and not yet written (the tests wait for 0). */
guint lm_window_folder_changes_pending (LmWindow *self);

G_END_DECLS
