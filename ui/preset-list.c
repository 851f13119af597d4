/* A list of the presets whose rows can be dragged onto photos (preset-list.h). */
#include "preset-list.h"

#include <string.h>
#include <glib/gi18n.h>

#include "core/library/presets.h"

static const GtkTargetEntry targets[] = { { (char *) LM_PRESET_DND_TARGET, GTK_TARGET_SAME_APP, 0 } };

static void
on_drag_data_get (GtkWidget *handle, GdkDragContext *context, GtkSelectionData *data, guint info, guint time)
{
  GtkWidget *row = gtk_widget_get_ancestor (handle, GTK_TYPE_LIST_BOX_ROW);
  const char *path = row ? lm_preset_list_row_path (GTK_LIST_BOX_ROW (row)) : NULL;
  if (path)
    gtk_selection_data_set (data, gdk_atom_intern_static_string (LM_PRESET_DND_TARGET), 8, (const guchar *) path,
                            (gint) strlen (path));
}

/* A press on a row's handle selects the row, as a press on the row would: the handle's
 * drag source takes the press before the list box sees it. */
static gboolean
on_handle_press (GtkWidget *handle, GdkEventButton *event, gpointer unused)
{
  GtkWidget *row = gtk_widget_get_ancestor (handle, GTK_TYPE_LIST_BOX_ROW);
  GtkWidget *list = row ? gtk_widget_get_parent (row) : NULL;
  if (event->button == GDK_BUTTON_PRIMARY && GTK_IS_LIST_BOX (list))
    gtk_list_box_select_row (GTK_LIST_BOX (list), GTK_LIST_BOX_ROW (row));
  return GDK_EVENT_PROPAGATE;
}

static GtkWidget *
preset_row (const LmPreset *preset)
{
  GtkWidget *row = gtk_list_box_row_new ();
  g_autofree char *name = g_strconcat ("preset-", preset->name, NULL);
  gtk_widget_set_name (row, name);
  GtkWidget *label = gtk_label_new (preset->name);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  g_object_set (label, "margin", 6, NULL);
  if (preset->builtin)
    gtk_widget_set_tooltip_text (row, _("Built in: it cannot be renamed or deleted"));
  /* The drag starts on an event box that fills the row: the list box takes the row's own
   * presses for its selection, so a drag source on the row itself never sees them. */
  GtkWidget *handle = gtk_event_box_new ();
  gtk_container_add (GTK_CONTAINER (handle), label);
  gtk_container_add (GTK_CONTAINER (row), handle);
  g_object_set_data_full (G_OBJECT (row), "lumen-preset-path", g_strdup (preset->path), g_free);
  g_object_set_data_full (G_OBJECT (row), "lumen-preset-name", g_strdup (preset->name), g_free);
  g_object_set_data (G_OBJECT (row), "lumen-preset-builtin", GINT_TO_POINTER (preset->builtin));
  gtk_drag_source_set (handle, GDK_BUTTON1_MASK, targets, G_N_ELEMENTS (targets), GDK_ACTION_COPY);
  g_signal_connect (handle, "drag-data-get", G_CALLBACK (on_drag_data_get), NULL);
  g_signal_connect (handle, "button-press-event", G_CALLBACK (on_handle_press), NULL);
  return row;
}

void
lm_preset_list_refresh (GtkListBox *list)
{
  GtkListBoxRow *selected = gtk_list_box_get_selected_row (list);
  g_autofree char *keep = g_strdup (selected ? lm_preset_list_row_name (selected) : NULL);
  g_autoptr (GList) old = gtk_container_get_children (GTK_CONTAINER (list));
  for (GList *l = old; l; l = l->next)
    gtk_widget_destroy (l->data);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) presets = lm_presets_list (&error);
  if (presets == NULL)
    {
      GtkWidget *why = gtk_label_new (error->message);
      gtk_label_set_line_wrap (GTK_LABEL (why), TRUE);
      gtk_container_add (GTK_CONTAINER (list), why);
    }
  for (guint i = 0; presets && i < presets->len; i++)
    {
      const LmPreset *preset = g_ptr_array_index (presets, i);
      GtkWidget *row = preset_row (preset);
      gtk_container_add (GTK_CONTAINER (list), row);
      if (keep && g_str_equal (keep, preset->name))
        gtk_list_box_select_row (list, GTK_LIST_BOX_ROW (row));
    }
  gtk_widget_show_all (GTK_WIDGET (list));
}

/* Presets saved, renamed or deleted elsewhere (another window, `lumen-cli presets`) show
 * here too: the user's presets folder is watched, and a burst of changes (a save is a
 * temporary file renamed) refreshes the list once. */
typedef struct {
  GtkListBox *list;
  GFileMonitor *monitor;
  guint pending; /* the refresh's source */
} Watch;

static void
watch_free (gpointer data)
{
  Watch *w = data;
  if (w->pending)
    g_source_remove (w->pending);
  if (w->monitor)
    {
      g_signal_handlers_disconnect_by_data (w->monitor, w);
      g_file_monitor_cancel (w->monitor);
      g_object_unref (w->monitor);
    }
  g_free (w);
}

static gboolean
refresh_now (gpointer data)
{
  Watch *w = data;
  w->pending = 0;
  lm_preset_list_refresh (w->list);
  return G_SOURCE_REMOVE;
}

static void
on_presets_changed (GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event, gpointer data)
{
  Watch *w = data;
  if (w->pending == 0)
    w->pending = g_timeout_add (200, refresh_now, w);
}

static void
on_list_destroy (GtkWidget *list, gpointer unused)
{
  g_object_set_data (G_OBJECT (list), "lumen-presets-watch", NULL);
}

GtkWidget *
lm_preset_list_new (void)
{
  GtkWidget *list = gtk_list_box_new ();
  gtk_widget_set_name (list, "preset-list");
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_SINGLE);
  lm_preset_list_refresh (GTK_LIST_BOX (list));
  Watch *w = g_new0 (Watch, 1);
  w->list = GTK_LIST_BOX (list);
  g_autofree char *dir = lm_presets_user_dir ();
  g_autoptr (GFile) folder = g_file_new_for_path (dir);
  /* Unwatched where it cannot be (the list still refreshes on this window's own changes). */
  w->monitor = g_file_monitor_directory (folder, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
  if (w->monitor)
    g_signal_connect (w->monitor, "changed", G_CALLBACK (on_presets_changed), w);
  g_object_set_data_full (G_OBJECT (list), "lumen-presets-watch", w, watch_free);
  g_signal_connect (list, "destroy", G_CALLBACK (on_list_destroy), NULL);
  return list;
}

const char *
lm_preset_list_row_path (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), "lumen-preset-path");
}

const char *
lm_preset_list_row_name (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), "lumen-preset-name");
}

gboolean
lm_preset_list_row_builtin (GtkListBoxRow *row)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "lumen-preset-builtin"));
}

char *
lm_preset_list_drop_path (GtkSelectionData *data)
{
  if (gtk_selection_data_get_target (data) != gdk_atom_intern_static_string (LM_PRESET_DND_TARGET)
      || gtk_selection_data_get_format (data) != 8)
    return NULL;
  gint len = gtk_selection_data_get_length (data);
  const guchar *bytes = gtk_selection_data_get_data (data);
  if (len <= 0 || bytes == NULL || memchr (bytes, '\0', (gsize) len) != NULL)
    return NULL;
  return g_strndup ((const char *) bytes, (gsize) len);
}
