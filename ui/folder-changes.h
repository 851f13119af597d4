/* Changes the folder view makes to many photos at once — the rating keys on a selection, a
 * preset dropped on it — written on a thread of their own, one change after another in the
 * order asked: each photo's sidecar is read, changed and written atomically (with fsync), which
 * on a selection of hundreds would hold the window for seconds. */
#pragma once

#include <gdk/gdk.h>

G_BEGIN_DECLS

typedef struct _LmFolderChanges LmFolderChanges;

/* Called on the main context of the thread that made CHANGES once a change is written: PATHS
 * (of char *) are the photos it wrote, ERROR the first failure (one line naming the file; the
 * photos after it were left as they were) or NULL, THUMBNAILS whether their look changed. */
typedef void (*LmFolderChangeDone) (GPtrArray *paths, const char *error, gboolean thumbnails, gpointer user_data);

LmFolderChanges *lm_folder_changes_new (LmFolderChangeDone done, gpointer user_data);
/* Lets the change being written finish its photo, drops the rest and those waiting; DONE is
 * not called after this returns. */
void lm_folder_changes_free (LmFolderChanges *changes);

/* The rating key KEYVAL with STATE (rating-keys.h) on the N PHOTOS. A toggle (a label, the
 * reject) sets it on every photo unless all have it, and then takes it from all, as darktable
 * does. */
void lm_folder_changes_tag (LmFolderChanges *changes, const char *const *photos, guint n, guint keyval,
                            GdkModifierType state);
/* The preset file PRESET appended to the N PHOTOS' edits. */
void lm_folder_changes_preset (LmFolderChanges *changes, const char *const *photos, guint n, const char *preset);

/* Changes asked for and not yet reported. */
guint lm_folder_changes_pending (LmFolderChanges *changes);

G_END_DECLS
