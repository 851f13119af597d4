/* The window's folder mode (window-folder.h). The editor goes into a stack beside the grid
 * the first time a folder opens; a window never given a folder stays as it was. */
#include "window-folder.h"

#include <glib/gi18n.h>

#include "core/library/folder-order.h"
#include "core/library/photo-tags.h"
#include "core/library/presets.h"
#include "export-many.h"
#include "filmstrip.h"
#include "folder-changes.h"
#include "folder-thumbs.h"
#include "folder-view.h"
#include "preset-list.h"
#include "rating-keys.h"
#include "window-open.h"
#include "window-sidecar.h"
#include "window-status.h"
#include "window-tags.h"

/* The first batch of a scan: more than a screen of cells. */
#define FIRST_BATCH 64

typedef struct _LmWindowFolder {
  char *folder;
  GtkStack *stack;        /* "grid" and "editor" (the window's own content, the filmstrip) */
  LmFolderThumbs *thumbs;
  LmFolderView *grid, *strip;
  GtkWidget *strip_scroller;
  GtkWidget *back_button;  /* in the editor: back to the grid */
  GtkWidget *grid_controls; /* in the grid: sort and filter */
  GtkComboBoxText *sort_combo, *rating_combo, *label_combo, *type_combo;

  LmFolderScan *scan;
  GPtrArray *records;      /* every photo of the folder */
  GArray *order;           /* those shown, in the order shown */
  LmFolderSort sort;
  LmFolderFilter filter;
  char *editing;           /* the path of the photo in the editor, NULL in the grid */
  gboolean cursor_unmoved; /* no one moved the cursor: it stays on the first photo shown */
  gboolean reordering;
  LmFolderChanges *changes; /* ratings and presets on many photos, written in the background */
} LmWindowFolder;

static LmWindowFolder *
state (LmWindow *self)
{
  return self->folder;
}

static void
reorder (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  g_clear_pointer (&f->order, g_array_unref);
  f->order = lm_folder_order (f->records, f->sort, FALSE, &f->filter);
  f->reordering = TRUE;
  lm_folder_view_set_photos (f->grid, f->records, f->order);
  lm_folder_view_set_photos (f->strip, f->records, f->order);
  /* While the scan brings photos in, the first by the order may change: the cursor follows a
   * photo once it has been moved there, and stays first until then. */
  if ((f->cursor_unmoved || lm_folder_view_get_cursor (f->grid) < 0) && lm_folder_view_get_n_photos (f->grid) > 0)
    lm_folder_view_set_cursor (f->grid, 0, TRUE, FALSE); /* the scroll is the person's */
  f->reordering = FALSE;
}

static void
on_grid_selection (LmFolderView *view, LmWindow *self)
{
  LmWindowFolder *f = state (self);
  if (!f->reordering)
    f->cursor_unmoved = FALSE;
}

static void
on_batch (GPtrArray *records, gpointer data)
{
  LmWindow *self = data;
  LmWindowFolder *f = state (self);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (f->records, g_steal_pointer (&records->pdata[i]));
  g_ptr_array_unref (records);
  reorder (self);
}

static void
on_scan_done (const GError *error, gpointer data)
{
  LmWindow *self = data;
  LmWindowFolder *f = state (self);
  if (error)
    lm_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
  else if (f->records->len == 0)
    {
      g_autofree char *name = g_filename_display_name (f->folder);
      g_autofree char *message = g_strdup_printf (_("No photos in %s"), name);
      lm_window_show_message (self, GTK_MESSAGE_INFO, message);
    }
}

static void
show_grid (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  g_autofree char *name = g_filename_display_basename (f->folder);
  gtk_header_bar_set_title (self->header, name);
  gtk_header_bar_set_subtitle (self->header, NULL);
  gtk_stack_set_visible_child_name (f->stack, "grid");
  /* The editor's rating keys tag the photo open; in the grid they tag the selection. */
  lm_window_tags_open (self, NULL);
  gtk_widget_hide (f->back_button);
  gtk_widget_show (f->grid_controls);
  gtk_widget_grab_focus (GTK_WIDGET (f->grid));
}

static LmPhotoRecord *
record_of (LmWindowFolder *f, const char *path)
{
  for (guint i = 0; i < f->records->len; i++)
    if (g_str_equal (((LmPhotoRecord *) f->records->pdata[i])->path, path))
      return f->records->pdata[i];
  return NULL;
}

/* PATH's edits, tags (and so its thumbnail) may have changed: read them again. */
static void
refresh (LmWindow *self, const char *path)
{
  LmWindowFolder *f = state (self);
  LmPhotoRecord *r = record_of (f, path);
  if (r == NULL)
    return;
  lm_photo_record_reread (r);
  lm_folder_thumbs_forget (f->thumbs, r->path);
  lm_folder_view_photo_changed (f->grid, r->path);
  lm_folder_view_photo_changed (f->strip, r->path);
}

/* Opens the photo at POSITION of the grid's order in the editor. */
static void
edit_photo (LmWindow *self, guint position)
{
  LmWindowFolder *f = state (self);
  if (position >= lm_folder_view_get_n_photos (f->grid))
    return;
  LmPhotoRecord *r = lm_folder_view_get_photo (f->grid, position);
  if (f->editing)
    {
      lm_window_sidecar_flush (self); /* the edits of the photo left are kept, as they were */
      refresh (self, f->editing);
    }
  g_free (f->editing);
  f->editing = g_strdup (r->path);
  lm_folder_view_set_cursor (f->grid, position, TRUE, TRUE);
  lm_folder_view_set_cursor (f->strip, position, TRUE, TRUE);
  g_autoptr (GFile) file = g_file_new_for_path (r->path);
  lm_window_open (self, file);
  gtk_stack_set_visible_child_name (f->stack, "editor");
  gtk_widget_show (f->back_button);
  gtk_widget_hide (f->grid_controls);
}

static void
on_grid_activated (LmFolderView *view, guint position, LmWindow *self)
{
  edit_photo (self, position);
}

static void
back_to_grid (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  if (f->editing == NULL)
    return;
  lm_window_sidecar_flush (self);
  refresh (self, f->editing);
  int position = lm_folder_view_find (f->grid, f->editing);
  g_clear_pointer (&f->editing, g_free);
  show_grid (self);
  if (position >= 0)
    lm_folder_view_set_cursor (f->grid, position, FALSE, TRUE);
}

static void
step (LmWindow *self, int by)
{
  LmWindowFolder *f = state (self);
  int at = f->editing ? lm_folder_view_find (f->grid, f->editing) : -1;
  int to = at + by;
  if (at < 0 || to < 0 || to >= (int) lm_folder_view_get_n_photos (f->grid))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  edit_photo (self, to);
}

static void
back_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  back_to_grid (data);
}

static void
next_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  step (data, 1);
}

static void
previous_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  step (data, -1);
}

static void
export_selected_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  LmWindowFolder *f = state (self);
  if (f == NULL || f->grid == NULL)
    return;
  g_autoptr (GPtrArray) selected = lm_folder_view_get_selected (f->grid);
  if (selected->len == 0)
    {
      lm_window_show_message (self, GTK_MESSAGE_INFO, _("Select the photos to export first"));
      return;
    }
  /* The open photo's last change, saved a moment after it, goes with it. */
  lm_window_sidecar_flush (self);
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  for (guint i = 0; i < selected->len; i++)
    g_ptr_array_add (paths, ((LmPhotoRecord *) selected->pdata[i])->path);
  lm_export_many_dialog (GTK_WINDOW (self), (const char *const *) paths->pdata, paths->len);
}

/* The paths of PHOTOS (of LmPhotoRecord *), borrowed from them. */
static GPtrArray *
paths_of (GPtrArray *photos)
{
  GPtrArray *paths = g_ptr_array_new ();
  for (guint i = 0; i < photos->len; i++)
    g_ptr_array_add (paths, ((LmPhotoRecord *) photos->pdata[i])->path);
  return paths;
}

/* A change to many photos written (folder-changes.h): their cells show it. */
static void
on_changes_written (GPtrArray *paths, const char *error, gboolean thumbnails, gpointer data)
{
  LmWindow *self = data;
  LmWindowFolder *f = state (self);
  for (guint i = 0; i < paths->len; i++)
    {
      LmPhotoRecord *r = record_of (f, paths->pdata[i]);
      if (r == NULL)
        continue; /* another folder opened meanwhile */
      if (thumbnails)
        refresh (self, r->path);
      else
        {
          lm_photo_record_reread (r);
          lm_folder_view_photo_changed (f->grid, r->path);
          lm_folder_view_photo_changed (f->strip, r->path);
        }
    }
  if (error)
    lm_window_show_message (self, GTK_MESSAGE_ERROR, error);
  if (!thumbnails)
    reorder (self);
}

static LmFolderChanges *
changes (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  if (f->changes == NULL)
    f->changes = lm_folder_changes_new (on_changes_written, self);
  return f->changes;
}

/* The rating keys (rating-keys.h) on the grid's selection, written in the background; in the
 * editor the tags part's own handler (window-tags.c) tags the photo open. */
static gboolean
tag_key (LmWindow *self, GdkEventKey *event)
{
  LmWindowFolder *f = state (self);
  LmPhotoTags none = { 0, 0 }, next;
  if (!lm_rating_keys_apply (event->keyval, event->state, &none, &next))
    return GDK_EVENT_PROPAGATE;
  g_autoptr (GPtrArray) targets = lm_folder_view_get_selected (f->grid);
  g_autoptr (GPtrArray) paths = paths_of (targets);
  if (paths->len > 0)
    lm_folder_changes_tag (changes (self), (const char *const *) paths->pdata, paths->len, event->keyval,
                           event->state);
  return GDK_EVENT_STOP;
}

static gboolean
in_text (LmWindow *self)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));
  return focus && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus));
}

/* Runs after the window's other key handlers (tools take Escape while one is on). */
static gboolean
on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self)
{
  LmWindowFolder *f = state (self);
  if (f == NULL || f->grid == NULL || in_text (self))
    return GDK_EVENT_PROPAGATE;
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();
  if (f->editing)
    {
      if (mods == 0 && event->keyval == GDK_KEY_Escape)
        return back_to_grid (self), GDK_EVENT_STOP;
      if ((mods == 0 && event->keyval == GDK_KEY_space) || (mods == GDK_MOD1_MASK && event->keyval == GDK_KEY_Right))
        return step (self, 1), GDK_EVENT_STOP;
      if ((mods == 0 && event->keyval == GDK_KEY_BackSpace) || (mods == GDK_MOD1_MASK && event->keyval == GDK_KEY_Left))
        return step (self, -1), GDK_EVENT_STOP;
      return GDK_EVENT_PROPAGATE;
    }
  if (gtk_widget_has_focus (GTK_WIDGET (f->grid)))
    return tag_key (self, event);
  return GDK_EVENT_PROPAGATE;
}

static void
on_strip_activated (LmFolderView *view, guint position, LmWindow *self)
{
  edit_photo (self, position);
}

static void
on_strip_selection (LmFolderView *view, LmWindow *self)
{
  /* A click in the filmstrip opens the photo clicked, as darktable's does. */
  LmWindowFolder *f = state (self);
  int at = lm_folder_view_get_cursor (view);
  if (at >= 0 && f->editing && !g_str_equal (lm_folder_view_get_photo (view, at)->path, f->editing))
    edit_photo (self, at);
}

static void
on_sort_or_filter (GtkComboBox *combo, LmWindow *self)
{
  LmWindowFolder *f = state (self);
  f->sort = (LmFolderSort) gtk_combo_box_get_active (GTK_COMBO_BOX (f->sort_combo));
  int rating = gtk_combo_box_get_active (GTK_COMBO_BOX (f->rating_combo));
  /* All, ≥1…≥5, not rejected, rejected only. */
  f->filter.min_rating = rating >= 1 && rating <= 5 ? rating : 0;
  f->filter.rejects = rating == 6 ? LM_FOLDER_REJECTS_HIDDEN : rating == 7 ? LM_FOLDER_REJECTS_ONLY
                                                                           : LM_FOLDER_REJECTS_SHOWN;
  int label = gtk_combo_box_get_active (GTK_COMBO_BOX (f->label_combo));
  f->filter.labels = label > 0 ? 1u << (label - 1) : 0;
  static const guint types[] = { 0, 1u << LM_FILE_JPEG, 1u << LM_FILE_RAW,
                                 1u << LM_FILE_PNG | 1u << LM_FILE_TIFF | 1u << LM_FILE_WEBP | 1u << LM_FILE_BMP
                                   | 1u << LM_FILE_GIF,
                                 1u << LM_FILE_RADIANCE | 1u << LM_FILE_EXR | 1u << LM_FILE_FITS };
  int type = gtk_combo_box_get_active (GTK_COMBO_BOX (f->type_combo));
  f->filter.types = type >= 0 && type < (int) G_N_ELEMENTS (types) ? types[type] : 0;
  reorder (self);
}

/* A preset dropped on a cell: applied (appended, as the Presets menu does) to the selection
 * when the cell is one of it, else to that photo alone. */
static void
on_preset_dropped (GtkWidget *widget, GdkDragContext *context, int x, int y, GtkSelectionData *data, guint info,
                   guint time, LmWindow *self)
{
  LmWindowFolder *f = state (self);
  g_autofree char *preset = lm_preset_list_drop_path (data);
  int at = lm_folder_view_position_at (f->grid, x, y);
  if (preset == NULL || at < 0)
    {
      gtk_drag_finish (context, FALSE, FALSE, time);
      return;
    }
  g_autoptr (GPtrArray) targets = NULL;
  if (lm_folder_view_is_selected (f->grid, at))
    targets = lm_folder_view_get_selected (f->grid);
  else
    {
      targets = g_ptr_array_new ();
      g_ptr_array_add (targets, lm_folder_view_get_photo (f->grid, at));
    }
  g_autoptr (GPtrArray) paths = paths_of (targets);
  lm_folder_changes_preset (changes (self), (const char *const *) paths->pdata, paths->len, preset);
  gtk_drag_finish (context, TRUE, FALSE, time);
}

static GtkComboBoxText *
combo (const char *name, const char *tooltip, const char *const *items, LmWindow *self)
{
  GtkComboBoxText *c = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  gtk_widget_set_name (GTK_WIDGET (c), name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (c), tooltip);
  for (guint i = 0; items[i]; i++)
    gtk_combo_box_text_append_text (c, _(items[i]));
  gtk_combo_box_set_active (GTK_COMBO_BOX (c), 0);
  g_signal_connect (c, "changed", G_CALLBACK (on_sort_or_filter), self);
  return c;
}

static void
build (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  f->thumbs = lm_folder_thumbs_new (LM_FOLDER_THUMB_SIZE * gtk_widget_get_scale_factor (GTK_WIDGET (self)));
  f->grid = LM_FOLDER_VIEW (lm_folder_view_new (f->thumbs, FALSE));
  gtk_widget_set_name (GTK_WIDGET (f->grid), "folder-grid");
  g_signal_connect (f->grid, "photo-activated", G_CALLBACK (on_grid_activated), self);
  g_signal_connect (f->grid, "selection-changed", G_CALLBACK (on_grid_selection), self);
  GtkWidget *grid_scroller = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (grid_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (grid_scroller), GTK_WIDGET (f->grid));
  static const GtkTargetEntry preset_target[] = { { (char *) LM_PRESET_DND_TARGET, GTK_TARGET_SAME_APP, 0 } };
  gtk_drag_dest_set (GTK_WIDGET (f->grid), GTK_DEST_DEFAULT_ALL, preset_target, 1, GDK_ACTION_COPY);
  g_signal_connect (f->grid, "drag-data-received", G_CALLBACK (on_preset_dropped), self);

  /* The presets beside the grid, to drag onto its photos. */
  GtkWidget *presets = lm_preset_list_new ();
  gtk_widget_set_name (presets, "folder-presets");
  GtkWidget *presets_scroller = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (presets_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (presets_scroller, 200, -1);
  gtk_container_add (GTK_CONTAINER (presets_scroller), presets);
  GtkWidget *presets_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *presets_title = gtk_label_new (_("Presets: drag onto photos"));
  gtk_widget_set_margin_top (presets_title, 6), gtk_widget_set_margin_bottom (presets_title, 6);
  gtk_box_pack_start (GTK_BOX (presets_box), presets_title, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (presets_box), presets_scroller, TRUE, TRUE, 0);
  GtkWidget *grid_page = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_pack_start (GTK_BOX (grid_page), grid_scroller, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (grid_page), gtk_separator_new (GTK_ORIENTATION_VERTICAL), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (grid_page), presets_box, FALSE, FALSE, 0);
  gtk_widget_show_all (grid_page);

  f->strip_scroller = lm_filmstrip_new (f->thumbs);
  f->strip = LM_FOLDER_VIEW (lm_filmstrip_get_view (f->strip_scroller));
  g_signal_connect (f->strip, "photo-activated", G_CALLBACK (on_strip_activated), self);
  g_signal_connect (f->strip, "selection-changed", G_CALLBACK (on_strip_selection), self);

  /* The editor (the view and the side panel: the paned between the info bar and the status
   * bar) becomes a page of a stack beside the grid, the filmstrip under it; the info bar and
   * the status bar serve both. */
  GtkWidget *paned = gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (self->side_panel)));
  while (paned && !GTK_IS_PANED (paned))
    paned = gtk_widget_get_parent (paned);
  g_return_if_fail (paned != NULL);
  GtkWidget *box = gtk_widget_get_parent (paned);
  int position;
  gtk_container_child_get (GTK_CONTAINER (box), paned, "position", &position, NULL);
  g_object_ref (paned);
  gtk_container_remove (GTK_CONTAINER (box), paned);
  GtkWidget *editor = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_pack_start (GTK_BOX (editor), paned, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (editor), f->strip_scroller, FALSE, FALSE, 0);
  g_object_unref (paned);
  gtk_widget_show (editor);

  f->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (f->stack, grid_page, "grid");
  gtk_stack_add_named (f->stack, editor, "editor");
  gtk_widget_show (GTK_WIDGET (f->stack));
  gtk_box_pack_start (GTK_BOX (box), GTK_WIDGET (f->stack), TRUE, TRUE, 0);
  gtk_box_reorder_child (GTK_BOX (box), GTK_WIDGET (f->stack), position);

  f->back_button = gtk_button_new_from_icon_name ("go-previous-symbolic", GTK_ICON_SIZE_BUTTON);
  gtk_widget_set_name (f->back_button, "folder-back");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (f->back_button), "win.back-to-folder");
  gtk_widget_set_tooltip_text (f->back_button, _("Back to the folder (Escape)"));
  gtk_header_bar_pack_start (self->header, f->back_button);

  static const char *const sorts[] = { N_("By name"), N_("By date taken"), N_("By rating"), NULL };
  static const char *const ratings[] = { N_("All photos"), N_("★ or more"), N_("★★ or more"), N_("★★★ or more"),
                                         N_("★★★★ or more"), N_("★★★★★"), N_("Not rejected"), N_("Rejected"), NULL };
  static const char *const labels[] = { N_("Any label"), N_("Red"), N_("Yellow"), N_("Green"), N_("Blue"),
                                        N_("Purple"), NULL };
  static const char *const kinds[] = { N_("All types"), N_("JPEG"), N_("Raw"), N_("Other 8/16-bit"),
                                       N_("HDR and FITS"), NULL };
  /* Sorting in the header bar, the filters in a popover under a button beside it: the editor's
   * buttons share the bar. */
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (controls), "linked");
  f->sort_combo = combo ("folder-sort", _("Sort the photos"), sorts, self);
  f->rating_combo = combo ("folder-rating", _("Show the photos of a rating"), ratings, self);
  f->label_combo = combo ("folder-label", _("Show the photos of a colour label"), labels, self);
  f->type_combo = combo ("folder-type", _("Show the photos of a file type"), kinds, self);
  GtkWidget *filters = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_container_set_border_width (GTK_CONTAINER (filters), 6);
  gtk_container_add (GTK_CONTAINER (filters), GTK_WIDGET (f->rating_combo));
  gtk_container_add (GTK_CONTAINER (filters), GTK_WIDGET (f->label_combo));
  gtk_container_add (GTK_CONTAINER (filters), GTK_WIDGET (f->type_combo));
  gtk_widget_show_all (filters);
  GtkWidget *popover = gtk_popover_new (NULL);
  gtk_container_add (GTK_CONTAINER (popover), filters);
  GtkWidget *filter_button = gtk_menu_button_new ();
  gtk_widget_set_name (filter_button, "folder-filter");
  gtk_button_set_image (GTK_BUTTON (filter_button),
                        gtk_image_new_from_icon_name ("view-more-symbolic", GTK_ICON_SIZE_BUTTON));
  gtk_widget_set_tooltip_text (filter_button, _("Show only some of the photos: by rating, label or file type"));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (filter_button), popover);
  gtk_container_add (GTK_CONTAINER (controls), GTK_WIDGET (f->sort_combo));
  gtk_container_add (GTK_CONTAINER (controls), filter_button);
  gtk_widget_show_all (controls);
  f->grid_controls = controls;
  gtk_header_bar_pack_start (self->header, controls);
}

void
lm_window_open_folder (LmWindow *self, GFile *folder)
{
  LmWindowFolder *f = state (self);
  if (f->grid == NULL)
    build (self);
  else
    lm_folder_thumbs_drop_waiting (f->thumbs); /* the folder shown before */
  lm_folder_scan_free (g_steal_pointer (&f->scan));
  g_clear_pointer (&f->editing, g_free);
  g_free (f->folder);
  f->folder = g_file_get_path (folder);
  g_clear_pointer (&f->records, g_ptr_array_unref);
  f->records = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_photo_record_free);
  f->cursor_unmoved = TRUE;
  reorder (self);
  show_grid (self);
  f->scan = lm_folder_scan_start (f->folder, FIRST_BATCH, on_batch, on_scan_done, self);
}

void
lm_window_open_folder_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  g_autoptr (GtkFileChooserNative) chooser = gtk_file_chooser_native_new (
    _("Open a Folder"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Open"), _("_Cancel"));
  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      lm_window_open_folder (self, file);
    }
}

static const GActionEntry folder_actions[] = {
  { "open-folder", lm_window_open_folder_action },
  { "back-to-folder", back_action },
  { "next-photo", next_action },
  { "previous-photo", previous_action },
  { "export-selected", export_selected_action },
};

void
lm_window_folder_init (LmWindow *self)
{
  self->folder = g_new0 (LmWindowFolder, 1);
  self->folder->filter = (LmFolderFilter) LM_FOLDER_FILTER_ALL;
  g_action_map_add_action_entries (G_ACTION_MAP (self), folder_actions, G_N_ELEMENTS (folder_actions), self);
  g_signal_connect (self, "key-press-event", G_CALLBACK (on_key), self);
}

void
lm_window_folder_free (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  if (f == NULL)
    return;
  lm_folder_scan_free (f->scan);
  lm_folder_changes_free (f->changes);
  g_clear_object (&f->thumbs);
  g_clear_pointer (&f->records, g_ptr_array_unref);
  g_clear_pointer (&f->order, g_array_unref);
  g_free (f->editing);
  g_free (f->folder);
  g_free (f);
  self->folder = NULL;
}

GtkWidget *
lm_window_get_folder_view (LmWindow *self)
{
  return state (self) ? GTK_WIDGET (state (self)->grid) : NULL;
}

GtkWidget *
lm_window_get_filmstrip (LmWindow *self)
{
  return state (self) ? GTK_WIDGET (state (self)->strip) : NULL;
}

gboolean
lm_window_folder_showing_grid (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  return f && f->stack && g_strcmp0 (gtk_stack_get_visible_child_name (f->stack), "grid") == 0;
}

guint
lm_window_folder_n_photos (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  return f && f->grid ? lm_folder_view_get_n_photos (f->grid) : 0;
}

guint
lm_window_folder_changes_pending (LmWindow *self)
{
  LmWindowFolder *f = state (self);
  return f && f->changes ? lm_folder_changes_pending (f->changes) : 0;
}
