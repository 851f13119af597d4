/* The folder view as assistive technologies see it: a pane of selectable icons, one a photo
 * (named by its file, described by its rating), as GtkIconView shows its items. A screen
 * reader hears the selection and the focused photo change, and may select photos itself
 * (AtkSelection); a magnifier finds each cell on screen (AtkComponent). */
#pragma once

#include <gtk/gtk.h>
#include <gtk/gtk-a11y.h>

G_BEGIN_DECLS

#define LM_TYPE_FOLDER_VIEW_ACCESSIBLE (lm_folder_view_accessible_get_type ())
G_DECLARE_FINAL_TYPE (LmFolderViewAccessible, lm_folder_view_accessible, LM, FOLDER_VIEW_ACCESSIBLE,
                      GtkWidgetAccessible)

/* The view's photos were replaced (lm_folder_view_set_photos): the cells made for the old
 * ones are defunct. Does nothing where no accessible was asked for. */
void lm_folder_view_accessible_photos_changed (GtkWidget *view);

G_END_DECLS
