/* The folder view as a person uses it (issue 33): a folder of 300 small JPEGs made here, each
 * of its own colour, opened as `lumen FOLDER` opens it; the first screen of cells painted
 * with their photos (the colour read on screen, not a placeholder's); the wheel and the keys
 * scroll and move the selection; 3, R and F1 tag the selection (its XMP sidecars read back),
 * the rating filter (picked from its list by pointer and keys) keeps what it should; a band
 * dragged with the pointer selects the cells it touches (Ctrl adds them); a screen reader
 * sees a pane of photos, their names, ratings and selection; Enter
 * opens a photo in the editor, Space and BackSpace go to the next and previous in the grid's
 * order, the filmstrip follows, Escape goes back to the grid at the same place; a preset
 * dragged from the list onto a selected cell gives each selected photo its operations, and
 * the cell its edited thumbnail; Export Selected… writes the selection. */
#include <math.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/edit/sidecar.h"
#include "core/io/io.h"
#include "core/library/folder-scan.h"
#include "core/library/photo-tags.h"
#include "core/library/presets.h"
#include "../unit/test-util.h"
#include "ui-testlib.h"
#include "ui/folder-thumbs.h"
#include "ui/folder-view.h"
#include "ui/window-folder.h"
#include "ui/window-private.h"

#define N_PHOTOS 300

static char *folder;

/* Photo I's colour: saturated, far from the cells' greys and from its neighbours'. */
static guint32
colour_of (guint i)
{
  guint r = 40 + (i * 67) % 190, g = 230 - (i * 29) % 170, b = 20 + (i * 113) % 220;
  return r << 16 | g << 8 | b;
}

static char *
photo_name (guint i)
{
  return g_strdup_printf ("photo-%d.jpg", i + 1); /* photo-2 before photo-10, by name */
}

static void
make_folder (void)
{
  folder = g_build_filename (lm_test_tmp_dir (), "folder-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (folder));
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  for (guint i = 0; i < N_PHOTOS; i++)
    {
      g_autoptr (LmImage) image = lm_test_image_new (LM_FORMAT_RGBA8, 48, 32, 0);
      guint32 c = colour_of (i);
      for (guint y = 0; y < 32; y++)
        for (guint x = 0; x < 48; x++)
          {
            guint8 *p = lm_test_pixel (image, x, y);
            p[0] = c >> 16, p[1] = c >> 8 & 0xff, p[2] = c & 0xff, p[3] = 255;
          }
      image->opaque = TRUE;
      g_autofree char *name = photo_name (i);
      g_autofree char *path = g_build_filename (folder, name, NULL);
      GError *error = NULL;
      g_assert_true (lm_io_save (image, path, &options, &error));
      g_assert_no_error (error);
    }
  /* What the grid leaves out. */
  g_autofree char *notes = g_build_filename (folder, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (notes, "not a photo", -1, NULL));
}

static LmFolderView *
grid (void)
{
  return LM_FOLDER_VIEW (lm_window_get_folder_view (ui_window));
}

static int
distance (guint32 a, guint32 b)
{
  int d = 0;
  for (int s = 0; s <= 16; s += 8)
    d = MAX (d, abs ((int) (a >> s & 0xff) - (int) (b >> s & 0xff)));
  return d;
}

/* Photo index of the record at POSITION (its name says it). */
static guint
index_at (LmFolderView *view, guint position)
{
  const char *name = lm_folder_view_get_photo (view, position)->name;
  return (guint) g_ascii_strtoull (name + strlen ("photo-"), NULL, 10) - 1;
}

/* How many cells on screen show their photo's colour in the thumbnail's middle. */
static guint
painted_cells (LmFolderView *view, guint *on_screen)
{
  guint first, last, good = 0;
  *on_screen = 0;
  /* A batch of the scan changes the scrollbar's range, and the layout waits for the next
   * frame: lay it out now, as that frame would, before painting. */
  gtk_container_check_resize (GTK_CONTAINER (ui_window));
  if (!lm_folder_view_visible_range (view, &first, &last))
    return 0;
  cairo_surface_t *s = ui_paint_widget (GTK_WIDGET (view));
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (view)), h = gtk_widget_get_allocated_height (GTK_WIDGET (view));
  for (guint i = first; i <= last; i++)
    {
      GdkRectangle thumb;
      lm_folder_view_cell_area (view, i, NULL, &thumb);
      int cx = thumb.x + thumb.width / 2, cy = thumb.y + thumb.height / 2;
      if (cx < 0 || cx >= w || cy < 0 || cy >= h)
        continue; /* a cell cut by the edge, its middle out of sight */
      (*on_screen)++;
      if (distance (ui_painted (s, cx, cy), colour_of (index_at (view, i))) <= 12)
        good++;
    }
  cairo_surface_destroy (s);
  return good;
}

/* Waits until every cell on screen shows its photo; fails after 20 s. Returns the time. */
static double
await_painted (LmFolderView *view)
{
  gint64 start = g_get_monotonic_time ();
  guint good = 0, shown = 0;
  while (g_get_monotonic_time () - start < 20 * G_USEC_PER_SEC)
    {
      ui_wait_ms (20); /* laid out (a resize may be pending), thumbnails in */
      good = painted_cells (view, &shown);
      if (shown > 0 && good == shown)
        break;
    }
  g_assert_cmpuint (shown, >, 0);
  g_assert_cmpuint (good, ==, shown);
  return (g_get_monotonic_time () - start) / 1e6;
}

static void
test_first_screen (void)
{
  /* As `lumen FOLDER` opens it: GApplication's open with the folder makes a window of its
   * own, a grid. */
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (ui_window)));
  g_autoptr (GFile) file = g_file_new_for_path (folder);
  g_application_open (app, &file, 1, "");
  LmWindow *opened = NULL;
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
    if (l->data != ui_window && LM_IS_WINDOW (l->data))
      opened = l->data;
  g_assert_nonnull (opened);
  g_assert_true (lm_window_folder_showing_grid (opened));
  g_assert_null (lm_window_get_info_message (opened));
  /* A folder without photos says so, naming it. */
  g_autofree char *empty = g_build_filename (folder, "empty", NULL);
  g_assert_cmpint (g_mkdir (empty, 0700), ==, 0);
  g_autoptr (GFile) empty_file = g_file_new_for_path (empty);
  lm_window_open_folder (opened, empty_file);
  for (int turn = 0; turn < 500 && lm_window_get_info_message (opened) == NULL; turn++)
    ui_wait_ms (10);
  g_assert_nonnull (lm_window_get_info_message (opened));
  g_assert_nonnull (strstr (lm_window_get_info_message (opened), empty));
  g_assert_cmpuint (lm_window_folder_n_photos (opened), ==, 0);
  g_assert_cmpint (g_rmdir (empty), ==, 0);
  gtk_widget_destroy (GTK_WIDGET (opened));

  /* The test's own window then does the same, and is the one used from here on. */
  gint64 start = g_get_monotonic_time ();
  lm_window_open_folder (ui_window, file);
  g_assert_true (lm_window_folder_showing_grid (ui_window));
  double first = await_painted (grid ());
  g_test_message ("first screen of thumbnails painted %.2f s after the folder was opened (%.2f s since)",
                  (g_get_monotonic_time () - start) / 1e6, first);
  gint64 until = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (lm_window_folder_n_photos (ui_window) < N_PHOTOS && g_get_monotonic_time () < until)
    ui_wait_ms (20);
  /* Every photo and nothing else (notes.txt), by name as a file manager sorts. */
  g_assert_cmpuint (lm_window_folder_n_photos (ui_window), ==, N_PHOTOS);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpuint (index_at (grid (), i), ==, i);
  g_assert_cmpint (lm_folder_view_get_cursor (grid ()), ==, 0);
}

static void
test_scroll (void)
{

  LmFolderView *view = grid ();
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_pointer_move (GTK_WIDGET (view), 300, 200);
  for (int i = 0; i < 6; i++)
    {
      ui_pointer_button (5, TRUE);
      ui_pointer_button (5, FALSE);
    }
  ui_wait_ms (50);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, LM_FOLDER_CELL_HEIGHT);
  guint first, last;
  g_assert_true (lm_folder_view_visible_range (view, &first, &last));
  g_assert_cmpuint (first, >, 0);
  await_painted (view);

  /* The keys: a click selects, End goes to the last photo and brings it on screen, Page Up
   * goes up a screen, Home back to the first. */
  GdkRectangle cell;
  int clicked = lm_folder_view_position_at (view, 300, 250); /* a cell wholly on screen */
  g_assert_cmpint (clicked, >, (int) first);
  lm_folder_view_cell_area (view, clicked, &cell, NULL);
  ui_click (GTK_WIDGET (view), cell.x + cell.width / 2, cell.y + cell.height / 2);
  g_assert_cmpint (lm_folder_view_get_cursor (view), ==, clicked);
  g_assert_true (lm_folder_view_is_selected (view, clicked));
  ui_key (GDK_KEY_End, 0);
  g_assert_cmpint (lm_folder_view_get_cursor (view), ==, N_PHOTOS - 1);
  g_assert_true (lm_folder_view_visible_range (view, &first, &last));
  g_assert_cmpuint (last, ==, N_PHOTOS - 1);
  await_painted (view);
  ui_key (GDK_KEY_Page_Up, 0);
  g_assert_cmpint (lm_folder_view_get_cursor (view), <, N_PHOTOS - 1 - 4);
  ui_key (GDK_KEY_Home, 0);
  g_assert_cmpint (lm_folder_view_get_cursor (view), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 0);

  /* Selection: Shift+arrows extend, Ctrl+click adds, Ctrl+A takes every photo shown. */
  ui_key (GDK_KEY_Right, GDK_SHIFT_MASK);
  ui_key (GDK_KEY_Right, GDK_SHIFT_MASK);
  g_autoptr (GPtrArray) three = lm_folder_view_get_selected (view);
  g_assert_cmpuint (three->len, ==, 3);
  lm_folder_view_cell_area (view, 5, &cell, NULL);
  ui_modifiers (GDK_CONTROL_MASK, TRUE);
  ui_click (GTK_WIDGET (view), cell.x + cell.width / 2, cell.y + cell.height / 2);
  ui_modifiers (GDK_CONTROL_MASK, FALSE);
  g_autoptr (GPtrArray) four = lm_folder_view_get_selected (view);
  g_assert_cmpuint (four->len, ==, 4);
  g_assert_true (lm_folder_view_is_selected (view, 5));
  g_assert_false (lm_folder_view_is_selected (view, 4));
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  g_autoptr (GPtrArray) all = lm_folder_view_get_selected (view);
  g_assert_cmpuint (all->len, ==, N_PHOTOS);
}

static void
await_title (const char *name)
{
  gint64 until = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_strcmp0 (gtk_header_bar_get_title (ui_window->header), name) != 0 && g_get_monotonic_time () < until)
    ui_wait_ms (20);
  g_assert_cmpstr (gtk_header_bar_get_title (ui_window->header), ==, name);
  ui_settle_tracked ();
}

/* The editor shows photo I: its title, and its colour in the middle of the view. */
static void
assert_editing (guint i)
{
  g_autofree char *name = photo_name (i);
  await_title (name);
  cairo_surface_t *s = ui_paint_view ();
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  g_assert_cmpint (distance (ui_painted (s, w / 2, h / 2), colour_of (i)), <=, 12);
  cairo_surface_destroy (s);
}

static void
test_open_next_back (void)
{
  LmFolderView *view = grid ();
  ui_track_results ();
  /* Down a row, two to the right: the photo under the cursor opens with Enter. */
  ui_key (GDK_KEY_Home, 0);
  ui_key (GDK_KEY_Down, 0);
  ui_key (GDK_KEY_Right, 0);
  ui_key (GDK_KEY_Right, 0);
  int at = lm_folder_view_get_cursor (view);
  g_assert_cmpint (at, >, 2);
  guint i = index_at (view, at);
  ui_key (GDK_KEY_Return, 0);
  g_assert_false (lm_window_folder_showing_grid (ui_window));
  assert_editing (i);
  LmFolderView *strip = LM_FOLDER_VIEW (lm_window_get_filmstrip (ui_window));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (strip)));
  g_assert_cmpint (lm_folder_view_get_cursor (strip), ==, at);

  ui_key (GDK_KEY_space, 0);
  assert_editing (index_at (view, at + 1));
  g_assert_cmpint (lm_folder_view_get_cursor (strip), ==, at + 1);
  ui_key (GDK_KEY_Right, GDK_MOD1_MASK);
  assert_editing (index_at (view, at + 2));
  ui_key (GDK_KEY_BackSpace, 0);
  assert_editing (index_at (view, at + 1));
  ui_key (GDK_KEY_Left, GDK_MOD1_MASK);
  assert_editing (i);

  /* The filmstrip's cells are the grid's: painted with their photos. */
  await_painted (strip);

  /* Back at the same place, the photo left under the cursor. */
  ui_key (GDK_KEY_Escape, 0);
  g_assert_true (lm_window_folder_showing_grid (ui_window));
  g_assert_cmpint (lm_folder_view_get_cursor (view), ==, at);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (view)));
  await_painted (view);
  /* And the grid's title is the folder's again. */
  g_autofree char *name = g_path_get_basename (folder);
  g_assert_cmpstr (gtk_header_bar_get_title (ui_window->header), ==, name);
}

/* The photos at positions FROM..TO selected with the keys. */
static void
select_first (guint n)
{
  ui_key (GDK_KEY_Home, 0);
  for (guint i = 1; i < n; i++)
    ui_key (GDK_KEY_Right, GDK_SHIFT_MASK);
  g_autoptr (GPtrArray) selected = lm_folder_view_get_selected (grid ());
  g_assert_cmpuint (selected->len, ==, n);
}

static LmPhotoTags
tags_of (guint i)
{
  g_autofree char *name = photo_name (i);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  LmPhotoTags tags = { 99, 99 };
  GError *error = NULL;
  g_assert_true (lm_photo_tags_read (path, &tags, &error));
  g_assert_no_error (error);
  return tags;
}

/* The photos shown once the rating filter's RATING_CHOICE-th item is picked as a person picks
 * it: the filter button clicked, the rating's list opened with a click, its first item
 * reached with Home, then Down as often as needed and Return; Escape closes the popover. */
static guint
shown_with (int rating_choice)
{
  GtkWidget *button = ui_find_named (GTK_WIDGET (ui_window), "folder-filter");
  g_assert_nonnull (button);
  GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  ui_click_middle (button);
  for (int i = 0; i < 100 && !gtk_widget_get_mapped (popover); i++)
    ui_wait_ms (20);
  ui_wait_ms (300); /* its transition */
  GtkWidget *combo = ui_find_named (popover, "folder-rating");
  g_assert_nonnull (combo);
  ui_click_middle (combo);
  ui_wait_ms (300); /* the list drops */
  ui_key (GDK_KEY_Home, 0);
  for (int i = 0; i < rating_choice; i++)
    ui_key (GDK_KEY_Down, 0);
  ui_key (GDK_KEY_Return, 0);
  ui_wait_ms (100);
  g_assert_cmpint (gtk_combo_box_get_active (GTK_COMBO_BOX (combo)), ==, rating_choice);
  ui_key (GDK_KEY_Escape, 0);
  for (int i = 0; i < 100 && gtk_widget_get_mapped (popover); i++)
    ui_wait_ms (20);
  ui_flush ();
  return lm_window_folder_n_photos (ui_window);
}

/* The folder's changes to many photos (ratings, presets) are written on a thread: what a
 * person sees a moment later. */
static void
wait_written (void)
{
  gint64 until = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (lm_window_folder_changes_pending (ui_window) > 0 && g_get_monotonic_time () < until)
    ui_wait_ms (10);
  g_assert_cmpuint (lm_window_folder_changes_pending (ui_window), ==, 0);
}

/* A rating key pressed on the grid's selection, and its sidecars written. */
static void
tag (guint keyval)
{
  ui_key (keyval, 0);
  wait_written ();
}

static void
test_rate_and_filter (void)
{
  gtk_widget_grab_focus (GTK_WIDGET (grid ()));
  /* Three stars on the first three photos, the first rejected, a red label on two. */
  select_first (3);
  tag (GDK_KEY_3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (tags_of (i).rating, ==, 3);
  g_assert_cmpint (tags_of (3).rating, ==, 0);
  ui_key (GDK_KEY_Home, 0);
  tag (GDK_KEY_r);
  g_assert_cmpint (tags_of (0).rating, ==, LM_RATING_REJECTED);
  select_first (2);
  tag (GDK_KEY_F1);
  g_assert_cmpuint (tags_of (0).labels, ==, LM_LABEL_RED);
  g_assert_cmpuint (tags_of (1).labels, ==, LM_LABEL_RED);
  g_assert_cmpuint (tags_of (2).labels, ==, 0);
  /* A toggle on a mixed selection sets the label on all (darktable's way), then takes it from
   * all once all have it. */
  select_first (3);
  tag (GDK_KEY_F1);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (tags_of (i).labels, ==, LM_LABEL_RED);
  tag (GDK_KEY_F1);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (tags_of (i).labels, ==, 0);

  /* The rating filter: ★★★ or more, rejected only, not rejected, all. */
  g_assert_cmpuint (shown_with (3), ==, 2);
  g_assert_cmpuint (index_at (grid (), 0), ==, 1);
  g_assert_cmpuint (index_at (grid (), 1), ==, 2);
  g_assert_cmpuint (shown_with (7), ==, 1);
  g_assert_cmpuint (index_at (grid (), 0), ==, 0);
  g_assert_cmpuint (shown_with (6), ==, N_PHOTOS - 1);
  g_assert_cmpuint (shown_with (0), ==, N_PHOTOS);
}

/* Whether POSITION's cell is drawn selected on screen: its frame, beside the thumbnail,
 * painted in the selection's blue (a plain cell's is the background's gray). */
static gboolean
painted_selected (cairo_surface_t *s, guint position)
{
  GdkRectangle cell;
  g_assert_true (lm_folder_view_cell_area (grid (), position, &cell, NULL));
  guint32 px = ui_painted (s, cell.x + 6, cell.y + cell.height / 2);
  int r = px >> 16 & 0xff, b = px & 0xff;
  return b - r > 40;
}

/* A point inside POSITION's cell, a quarter of the way in from its top left corner. */
static void
inside (guint position, double *x, double *y)
{
  GdkRectangle cell;
  g_assert_true (lm_folder_view_cell_area (grid (), position, &cell, NULL));
  *x = cell.x + cell.width / 4.0, *y = cell.y + cell.height / 4.0;
}

/* The pointer dragged across the grid draws a band that selects the cells it touches: from
 * the first cell to the third of the second row, two rows of three; with Ctrl held, the first
 * two cells of the third row join them; a click then selects one cell alone. The selection
 * read back and seen on screen. */
static void
test_rubber_band (void)
{
  LmFolderView *view = grid ();
  gtk_widget_grab_focus (GTK_WIDGET (view));
  ui_key (GDK_KEY_Home, 0);
  ui_flush ();
  guint c = (guint) gtk_widget_get_allocated_width (GTK_WIDGET (view)) / LM_FOLDER_CELL_WIDTH;
  g_assert_cmpuint (c, >=, 4);
  double x0, y0, x1, y1;
  inside (0, &x0, &y0);
  inside (c + 2, &x1, &y1);
  ui_drag (GTK_WIDGET (view), x0, y0, x1, y1, 12);
  ui_flush ();
  guint block[] = { 0, 1, 2, c, c + 1, c + 2 };
  g_autoptr (GPtrArray) selected = lm_folder_view_get_selected (view);
  g_assert_cmpuint (selected->len, ==, G_N_ELEMENTS (block));
  for (guint i = 0; i < G_N_ELEMENTS (block); i++)
    g_assert_true (lm_folder_view_is_selected (view, block[i]));
  cairo_surface_t *s = ui_paint_widget (GTK_WIDGET (view));
  for (guint i = 0; i < G_N_ELEMENTS (block); i++)
    g_assert_true (painted_selected (s, block[i]));
  g_assert_false (painted_selected (s, 3));
  g_assert_false (painted_selected (s, 2 * c));
  cairo_surface_destroy (s);

  inside (2 * c, &x0, &y0);
  inside (2 * c + 1, &x1, &y1);
  ui_modifiers (GDK_CONTROL_MASK, TRUE);
  ui_drag (GTK_WIDGET (view), x0, y0, x1, y1, 12);
  ui_modifiers (GDK_CONTROL_MASK, FALSE);
  ui_flush ();
  g_autoptr (GPtrArray) more = lm_folder_view_get_selected (view);
  g_assert_cmpuint (more->len, ==, G_N_ELEMENTS (block) + 2);
  g_assert_true (lm_folder_view_is_selected (view, 2 * c) && lm_folder_view_is_selected (view, 2 * c + 1));

  inside (3, &x0, &y0);
  ui_click (GTK_WIDGET (view), x0, y0);
  ui_flush ();
  g_autoptr (GPtrArray) one = lm_folder_view_get_selected (view);
  g_assert_cmpuint (one->len, ==, 1);
  g_assert_true (lm_folder_view_is_selected (view, 3));
}

/* The grid as a screen reader sees it: a pane with a child a photo, each named by its file
 * and described by its rating (the second photo got three stars above); the selection made
 * with the keys is the accessible selection, the focused cell is said so, and a selection
 * made through AtkSelection is the view's. Each cell lies on screen where it is drawn. */
static void
test_accessible (void)
{
  LmFolderView *view = grid ();
  AtkObject *pane = gtk_widget_get_accessible (GTK_WIDGET (view));
  g_assert_cmpint (atk_object_get_role (pane), ==, ATK_ROLE_LAYERED_PANE);
  g_assert_cmpint (atk_object_get_n_accessible_children (pane), ==, lm_folder_view_get_n_photos (view));
  gtk_widget_grab_focus (GTK_WIDGET (view));
  select_first (3);
  AtkSelection *selection = ATK_SELECTION (pane);
  g_assert_cmpint (atk_selection_get_selection_count (selection), ==, 3);
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr (AtkObject) cell = atk_object_ref_accessible_child (pane, (int) i);
      g_autofree char *name = photo_name (index_at (view, i));
      g_assert_cmpstr (atk_object_get_name (cell), ==, name);
      g_assert_cmpint (atk_object_get_index_in_parent (cell), ==, i);
      g_autoptr (AtkStateSet) states = atk_object_ref_state_set (cell);
      g_assert_true (atk_state_set_contains_state (states, ATK_STATE_SELECTED) == (i < 3));
      g_assert_true (atk_state_set_contains_state (states, ATK_STATE_FOCUSED) == (i == 2));
      g_test_message ("%s: %s", name, atk_object_get_description (cell));
    }
  g_autoptr (AtkObject) second = atk_object_ref_accessible_child (pane, 1);
  g_assert_cmpuint (index_at (view, 1), ==, 1);
  g_assert_nonnull (strstr (atk_object_get_description (second), "3"));
  g_autoptr (AtkObject) again = atk_object_ref_accessible_child (pane, 1);
  g_assert_true (again == second); /* one object a cell, as the reader keeps track of it */

  g_assert_true (atk_selection_add_selection (selection, 10));
  g_assert_true (lm_folder_view_is_selected (view, 10));
  g_assert_cmpint (atk_selection_get_selection_count (selection), ==, 4);
  g_assert_true (atk_selection_clear_selection (selection));
  g_autoptr (GPtrArray) none = lm_folder_view_get_selected (view);
  g_assert_cmpuint (none->len, ==, 0);

  /* Cell 1 on screen, where the view paints it. */
  int x, y, w, h, vx, vy;
  atk_component_get_extents (ATK_COMPONENT (second), &x, &y, &w, &h, ATK_XY_SCREEN);
  GdkRectangle cell;
  lm_folder_view_cell_area (view, 1, &cell, NULL);
  gdk_window_get_origin (gtk_widget_get_window (GTK_WIDGET (view)), &vx, &vy);
  g_assert_cmpint (x, ==, vx + cell.x);
  g_assert_cmpint (y, ==, vy + cell.y);
  g_assert_cmpint (w, ==, LM_FOLDER_CELL_WIDTH);
}

/* A row of the preset list dragged onto POSITION's cell, by hand as GTK's drag wants it: past
 * its threshold, then each step handled before the next. */
static void
drag_preset (const char *name, guint position)
{
  GtkWidget *list = ui_find_named (GTK_WIDGET (ui_window), "folder-presets");
  g_assert_nonnull (list);
  g_autofree char *row_name = g_strconcat ("preset-", name, NULL);
  GtkWidget *row = ui_find_named (list, row_name);
  g_assert_nonnull (row);
  GdkRectangle cell;
  lm_folder_view_cell_area (grid (), position, &cell, NULL);
  int tx, ty;
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (grid ()), row, cell.x + cell.width / 2,
                                                   cell.y + cell.height / 2, &tx, &ty));
  GtkAllocation r;
  gtk_widget_get_allocation (row, &r);
  ui_pointer_move (row, r.width / 4.0, r.height / 2.0);
  ui_pointer_button (1, TRUE);
  for (int i = 1; i <= 20; i++)
    {
      ui_pointer_move (row, r.width / 4.0 + (tx - r.width / 4.0) * i / 20, r.height / 2.0 + (ty - r.height / 2.0) * i / 20);
      ui_wait_ms (30);
    }
  ui_wait_ms (100);
  ui_pointer_button (1, FALSE);
  ui_wait_ms (200);
  wait_written ();
}

static char *
photo_path (guint i)
{
  g_autofree char *name = photo_name (i);
  return g_build_filename (folder, name, NULL);
}

static void
test_preset_drop (void)
{
  /* Onto a selected cell: the whole selection (photos 0 and 1); photo 2 untouched. */
  ui_key (GDK_KEY_Home, 0);
  select_first (2);
  drag_preset ("Warm", 1);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *path = photo_path (i);
      g_autofree char *sidecar = lm_sidecar_find (path);
      if (i < 2)
        g_assert_nonnull (sidecar);
      else
        g_assert_null (sidecar);
    }
  /* Onto a cell not selected: that photo alone. */
  drag_preset ("Warm", 4);
  g_autofree char *four = photo_path (4);
  g_autofree char *four_sidecar = lm_sidecar_find (four);
  g_assert_nonnull (four_sidecar);
  g_autofree char *three = photo_path (3);
  g_autofree char *three_sidecar = lm_sidecar_find (three);
  g_assert_null (three_sidecar);
  /* The edited cell is drawn again with its edits: the colour lumen-cli renders from its
   * sidecar, not the photo's own. */
  g_autofree char *rendered = g_build_filename (folder, "rendered.png", NULL);
  const char *render[] = { "--params", four_sidecar, "-o", rendered, four, NULL };
  ui_run_cli (render);
  g_autoptr (LmImage) image = ui_load_image (rendered);
  const guint8 *p = lm_image_row (image, image->height / 2) + (image->width / 2) * 4;
  guint32 want = (guint32) p[0] << 16 | p[1] << 8 | p[2];
  g_assert_cmpint (distance (want, colour_of (4)), >, 4);
  g_assert_true (g_remove (rendered) == 0);
  gint64 until = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  int d = 255;
  while (d > 3 && g_get_monotonic_time () < until)
    {
      ui_wait_ms (50);
      gtk_container_check_resize (GTK_CONTAINER (ui_window));
      cairo_surface_t *s = ui_paint_widget (GTK_WIDGET (grid ()));
      GdkRectangle thumb;
      lm_folder_view_cell_area (grid (), 4, NULL, &thumb);
      d = distance (ui_painted (s, thumb.x + thumb.width / 2, thumb.y + thumb.height / 2), want);
      cairo_surface_destroy (s);
    }
  g_assert_cmpint (d, <=, 3);
}

static void
test_export_selected (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  gtk_widget_grab_focus (GTK_WIDGET (grid ()));
  select_first (2);
  ui_key (GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  GtkWidget *dialog = NULL;
  for (int turn = 0; turn < 100 && dialog == NULL; turn++)
    {
      ui_wait_ms (20);
      GList *tops = gtk_window_list_toplevels ();
      for (GList *l = tops; l; l = l->next)
        if (g_strcmp0 (gtk_widget_get_name (l->data), "export-many") == 0 && gtk_widget_get_visible (l->data))
          dialog = l->data;
      g_list_free (tops);
    }
  g_assert_nonnull (dialog);
  ui_wait_ms (200);
  ui_focus_window (dialog);
  g_autofree char *out = g_build_filename (folder, "out", NULL);
  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);
  GtkWidget *outdir = ui_find_named_within (dialog, "outdir");
  g_assert_true (gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (outdir), out));
  for (int i = 0; i < 200; i++)
    {
      g_autofree char *chosen = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (outdir));
      if (g_strcmp0 (chosen, out) == 0)
        break;
      ui_wait_ms (10);
    }
  ui_click_middle (ui_button_labelled (dialog, _("_Export")));
  GtkWidget *close = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  for (gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC; !gtk_widget_get_visible (close);)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      ui_wait_ms (20);
    }
  g_autoptr (GDir) dir = g_dir_open (out, 0, NULL);
  g_assert_nonnull (dir);
  guint written = 0;
  while (g_dir_read_name (dir))
    written++;
  g_assert_cmpuint (written, ==, 2);
  gtk_widget_destroy (dialog);
}

/* A view that shows many cells (a 4K screen: ~1,300 with the screens around) must not ask for
 * more ahead than the thumbnails kept can hold beside the visible ones, which it would push
 * out; the kept grow to three screens of it. */
static void
test_thumbnails_kept (void)
{
  g_autoptr (LmFolderThumbs) thumbs = lm_folder_thumbs_new (64);
  guint ahead = lm_folder_thumbs_room (thumbs, 100);
  g_assert_cmpuint (ahead, ==, 250);         /* 600 kept: 100 seen, 250 on each side */
  ahead = lm_folder_thumbs_room (thumbs, 420);
  g_assert_cmpuint (ahead, ==, 420);         /* 1,260 kept: 420 seen, 420 on each side */
  g_assert_cmpuint (2 * ahead + 420, <=, 1260);
}

int
main (int argc, char **argv)
{
  ui_test_init_localized (&argc, &argv, "photos/chelsea.png");
  make_folder ();
  g_test_add_func ("/folder/first-screen", test_first_screen);
  g_test_add_func ("/folder/scroll-and-select", test_scroll);
  g_test_add_func ("/folder/rate-and-filter", test_rate_and_filter);
  g_test_add_func ("/folder/rubber-band", test_rubber_band);
  g_test_add_func ("/folder/accessible", test_accessible);
  g_test_add_func ("/folder/open-next-back", test_open_next_back);
  g_test_add_func ("/folder/preset-drop", test_preset_drop);
  g_test_add_func ("/folder/export-selected", test_export_selected);
  g_test_add_func ("/folder/thumbnails-kept", test_thumbnails_kept);
  int status = g_test_run ();
  lm_test_remove_tree (folder);
  g_free (folder);
  return status;
}
