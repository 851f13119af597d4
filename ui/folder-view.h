/* LmFolderView: a folder's photos as a grid of thumbnails (or, as the filmstrip, one row of
 * them). Cells have one size, so that a position is found from a point and back in constant
 * time, and only the cells on screen are drawn: a folder of 10,000 photos scrolls as one of
 * ten. It implements GtkScrollable: put it in a GtkScrolledWindow. Thumbnails come from an
 * LmFolderThumbs; the records, their order and choice from core/library/folder-order.h.
 *
 * Input as a file manager's: a click selects, Ctrl+click adds or removes, Shift+click selects
 * a range; the arrows, Page Up/Down, Home and End move (with Shift: extend), Ctrl+A selects
 * every photo shown; Enter or a double click activates. */
#pragma once

#include <gtk/gtk.h>

#include "core/library/folder-scan.h"
#include "folder-thumbs.h"

G_BEGIN_DECLS

#define LM_TYPE_FOLDER_VIEW (lm_folder_view_get_type ())
G_DECLARE_FINAL_TYPE (LmFolderView, lm_folder_view, LM, FOLDER_VIEW, GtkDrawingArea)

/* A grid, or a filmstrip (STRIP: one row, scrolled sideways). */
GtkWidget *lm_folder_view_new (LmFolderThumbs *thumbs, gboolean strip);

/* Shows RECORDS (LmPhotoRecord *) in ORDER (indices into RECORDS, folder-order.h): both are
 * kept (a reference). The selection and the cursor stay on the photos still shown. */
void lm_folder_view_set_photos (LmFolderView *self, GPtrArray *records, GArray *order);

guint lm_folder_view_get_n_photos (LmFolderView *self);
/* The photo at POSITION (0 ≤ POSITION < lm_folder_view_get_n_photos) in the order shown. */
LmPhotoRecord *lm_folder_view_get_photo (LmFolderView *self, guint position);
/* The position of the photo at PATH, or -1 when it is not shown. */
int lm_folder_view_find (LmFolderView *self, const char *path);

/* The position of the cursor (the focused cell), -1 when there is none. */
int lm_folder_view_get_cursor (LmFolderView *self);
/* Moves the cursor to POSITION and, with SCROLL, scrolls it into view; SELECT makes it the
 * selection. */
void lm_folder_view_set_cursor (LmFolderView *self, guint position, gboolean select, gboolean scroll);

/* POSITION added to the selection (SELECTED) or taken from it; all the photos shown, or none
 * (select_all). FALSE, changing nothing, when POSITION is past the last photo. */
gboolean lm_folder_view_set_selected (LmFolderView *self, guint position, gboolean selected);
gboolean lm_folder_view_select_all (LmFolderView *self, gboolean selected);

/* The photos selected, in the order shown (LmPhotoRecord *, the view's). */
GPtrArray *lm_folder_view_get_selected (LmFolderView *self);
gboolean lm_folder_view_is_selected (LmFolderView *self, guint position);

/* The cell at (X, Y) in the widget's coordinates, -1 when none. */
int lm_folder_view_position_at (LmFolderView *self, double x, double y);
/* POSITION's cell, and the thumbnail's box inside it, in the widget's coordinates (they may
 * lie outside the widget); FALSE when POSITION is past the last photo. */
gboolean lm_folder_view_cell_area (LmFolderView *self, guint position, GdkRectangle *cell, GdkRectangle *thumb);
/* The first and the last position wholly or partly on screen; FALSE when none is. */
gboolean lm_folder_view_visible_range (LmFolderView *self, guint *first, guint *last);

/* Redraws the cells of PATH (its tags or its thumbnail changed). */
void lm_folder_view_photo_changed (LmFolderView *self, const char *path);

/* Signals: "photo-activated" (guint position): Enter or a double click; "selection-changed". */

/* The cell's size, and the thumbnail size to ask of LmFolderThumbs. */
#define LM_FOLDER_CELL_WIDTH 176
#define LM_FOLDER_CELL_HEIGHT 172
#define LM_FOLDER_THUMB_SIZE 152

G_END_DECLS
