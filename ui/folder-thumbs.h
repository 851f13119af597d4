/* The thumbnails the folder view and the filmstrip draw: cairo surfaces of a cell's size, the
 * most recently drawn kept (an LRU of a few screens), the others asked of the thumbnail queue
 * (core/library/thumbnail-queue.h), the visible ones first. One per window, shared by its
 * grid and its filmstrip. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LM_TYPE_FOLDER_THUMBS (lm_folder_thumbs_get_type ())
G_DECLARE_FINAL_TYPE (LmFolderThumbs, lm_folder_thumbs, LM, FOLDER_THUMBS, GObject)

/* Thumbnails that fit in SIZE × SIZE pixels (device pixels: the caller multiplies by its
 * scale factor). */
LmFolderThumbs *lm_folder_thumbs_new (int size);

/* PHOTO's thumbnail when it is in memory (owned by THUMBS, valid until the next call into
 * it), else NULL. FAILED is set when it could not be made (the cell then says so). */
cairo_surface_t *lm_folder_thumbs_lookup (LmFolderThumbs *thumbs, const char *photo, gboolean *failed);

/* Asks for the thumbnails of PHOTOS (N of them) not in memory: URGENT for those on screen
 * now, served before those asked for ahead of a scroll. */
void lm_folder_thumbs_want (LmFolderThumbs *thumbs, const char *const *photos, guint n, gboolean urgent);

/* While HOLD, no new thumbnail is begun: a view asking for several ranges at once holds, asks
 * and lets go, so that the queue serves them in the order asked. */
void lm_folder_thumbs_hold (LmFolderThumbs *thumbs, gboolean hold);

/* Forgets the thumbnails asked for and not begun: another folder opened. */
void lm_folder_thumbs_drop_waiting (LmFolderThumbs *thumbs);

/* A view shows VISIBLE cells at once: the thumbnails kept are at least three times as many,
 * and the return is how many may be asked for ahead on each side of them without pushing
 * the visible ones out. */
guint lm_folder_thumbs_room (LmFolderThumbs *thumbs, guint visible);

/* Forgets PHOTO's thumbnail (its edits changed): the next lookup asks for it again. */
void lm_folder_thumbs_forget (LmFolderThumbs *thumbs, const char *photo);

/* Signal "ready" (const char *photo): a thumbnail came (or failed): cells showing PHOTO
 * redraw. */

G_END_DECLS
