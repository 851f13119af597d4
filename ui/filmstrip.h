/* The filmstrip under the photo in the editor: the folder's photos in one row of the grid's
 * cells (LmFolderView in its strip form), in the grid's order and filter. */
#pragma once

#include "folder-view.h"

G_BEGIN_DECLS

/* A scrolled row of THUMBS' cells; its LmFolderView is lm_filmstrip_get_view's. */
GtkWidget *lm_filmstrip_new (LmFolderThumbs *thumbs);
GtkWidget *lm_filmstrip_get_view (GtkWidget *filmstrip);

G_END_DECLS
