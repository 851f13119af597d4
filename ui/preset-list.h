/* A list of the presets (core/library/presets.h), one row each, for the Manage Presets dialog
 * and beside the folder grid: each row is a drag source of target LM_PRESET_DND_TARGET whose
 * data is the preset's file path (UTF-8 bytes, no NUL), so that dropping it on thumbnails
 * applies it (lm_preset_apply_to_photo on each photo). A plain GtkListBox: its rows'
 * "row-activated" and selection are GTK's. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LM_PRESET_DND_TARGET "application/x-lumen-preset"

/* A list box of every preset (lm_presets_list), a row named "preset-<name>" each. A folder of
 * presets that cannot be read leaves it empty but for a row saying why. */
GtkWidget *lm_preset_list_new (void);

/* LIST read again (after a save, rename, delete or import), the row of the same name kept
 * selected where it is still there. */
void lm_preset_list_refresh (GtkListBox *list);

/* ROW's preset (a row of lm_preset_list_new): its file, name, and whether it is built in; NULL
 * for the row that says why there are none. */
const char *lm_preset_list_row_path (GtkListBoxRow *row);
const char *lm_preset_list_row_name (GtkListBoxRow *row);
gboolean lm_preset_list_row_builtin (GtkListBoxRow *row);

/* For a drop target that accepts LM_PRESET_DND_TARGET: the preset file a drag carries, or NULL
 * where DATA is not one (g_free it). */
char *lm_preset_list_drop_path (GtkSelectionData *data);

G_END_DECLS
