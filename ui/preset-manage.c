/* Manage Presets… (preset-menu.h): the presets listed (preset-list.h), the person's renamed or
 * deleted (built-in ones stay), a sidecar file imported as a preset (refused, with the reason,
 * where Lumen does not read it), a preset exported to a file. What fails is said in the dialog. */
#include "preset-menu.h"
#include "window-private.h"

#include <glib/gi18n.h>

#include "core/library/presets.h"
#include "preset-list.h"

typedef struct {
  GtkListBox *list;
  GtkEntry *new_name;
  GtkLabel *message;
  GtkWidget *dialog;
} Manage;

static void
say (Manage *m, const char *text)
{
  gtk_label_set_text (m->message, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (m->message), text != NULL);
}

static void
changed (Manage *m)
{
  lm_preset_list_refresh (m->list);
  lm_window_presets_changed ();
}

/* The selected preset's row, or NULL after saying that one must be chosen. */
static GtkListBoxRow *
selected (Manage *m)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (m->list);
  if (row == NULL || lm_preset_list_row_name (row) == NULL)
    {
      say (m, _("Choose a preset in the list first."));
      return NULL;
    }
  return row;
}

static void
on_rename (GtkButton *button, Manage *m)
{
  GtkListBoxRow *row = selected (m);
  if (row == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autofree char *to = g_strstrip (g_strdup (gtk_entry_get_text (m->new_name)));
  if (!lm_preset_rename (lm_preset_list_row_name (row), to, &error))
    {
      say (m, error->message);
      return;
    }
  say (m, NULL);
  changed (m);
}

static void
on_delete (GtkButton *button, Manage *m)
{
  GtkListBoxRow *row = selected (m);
  if (row == NULL)
    return;
  g_autoptr (GError) error = NULL;
  if (!lm_preset_delete (lm_preset_list_row_name (row), &error))
    {
      say (m, error->message);
      return;
    }
  say (m, NULL);
  changed (m);
}

static void
on_import_response (GtkDialog *chooser, int response, Manage *m)
{
  g_autofree char *file = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser))
                                                          : NULL;
  gtk_widget_destroy (GTK_WIDGET (chooser));
  if (file == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = lm_preset_import (file, NULL, &error);
  say (m, path ? NULL : error->message);
  if (path)
    changed (m);
}

static void
on_import (GtkButton *button, Manage *m)
{
  GtkWidget *chooser = gtk_file_chooser_dialog_new (_("Import a Preset"), GTK_WINDOW (m->dialog),
                                                    GTK_FILE_CHOOSER_ACTION_OPEN, _("_Cancel"), GTK_RESPONSE_CANCEL,
                                                    _("_Import"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_window_set_modal (GTK_WINDOW (chooser), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (chooser), TRUE);
  GtkFileFilter *filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Lumen presets and sidecars"));
  gtk_file_filter_add_pattern (filter, "*" LM_PRESET_SUFFIX);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect (chooser, "response", G_CALLBACK (on_import_response), m);
  gtk_widget_show (chooser);
}

static void
on_export_response (GtkDialog *chooser, int response, Manage *m)
{
  g_autofree char *file = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser))
                                                          : NULL;
  g_autofree char *path = g_strdup (g_object_get_data (G_OBJECT (chooser), "lumen-preset-path"));
  gtk_widget_destroy (GTK_WIDGET (chooser));
  if (file == NULL)
    return;
  g_autoptr (GError) error = NULL;
  say (m, lm_preset_export (path, file, &error) ? NULL : error->message);
}

static void
on_export (GtkButton *button, Manage *m)
{
  GtkListBoxRow *row = selected (m);
  if (row == NULL)
    return;
  GtkWidget *chooser = gtk_file_chooser_dialog_new (_("Export the Preset"), GTK_WINDOW (m->dialog),
                                                    GTK_FILE_CHOOSER_ACTION_SAVE, _("_Cancel"), GTK_RESPONSE_CANCEL,
                                                    _("_Export"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_window_set_modal (GTK_WINDOW (chooser), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (chooser), TRUE);
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser), TRUE);
  g_autofree char *base = g_strconcat (lm_preset_list_row_name (row), LM_PRESET_SUFFIX, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), base);
  g_object_set_data_full (G_OBJECT (chooser), "lumen-preset-path", g_strdup (lm_preset_list_row_path (row)), g_free);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_response), m);
  gtk_widget_show (chooser);
}

static void
on_row_selected (GtkListBox *list, GtkListBoxRow *row, Manage *m)
{
  const char *name = row ? lm_preset_list_row_name (row) : NULL;
  gtk_entry_set_text (m->new_name, name ? name : "");
}

static GtkWidget *
button (const char *label, const char *name, GCallback clicked, Manage *m)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);
  gtk_widget_set_name (b, name);
  g_signal_connect (b, "clicked", clicked, m);
  return b;
}

void
lm_window_manage_presets_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  GtkWidget *dialog = gtk_dialog_new_with_buttons (_("Presets"), GTK_WINDOW (self), GTK_DIALOG_DESTROY_WITH_PARENT,
                                                   _("_Close"), GTK_RESPONSE_CLOSE, NULL);
  gtk_widget_set_name (dialog, "preset-manage-dialog");
  gtk_window_set_default_size (GTK_WINDOW (dialog), 420, 420);
  Manage *m = g_new0 (Manage, 1);
  m->dialog = dialog;
  GtkWidget *content = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  gtk_container_set_border_width (GTK_CONTAINER (content), 12);
  gtk_box_set_spacing (GTK_BOX (content), 8);
  m->list = GTK_LIST_BOX (lm_preset_list_new ());
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (m->list));
  gtk_container_add (GTK_CONTAINER (content), scrolled);
  GtkWidget *rename_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  m->new_name = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (m->new_name), "preset-new-name");
  gtk_entry_set_max_length (m->new_name, LM_PRESET_NAME_MAX);
  gtk_widget_set_hexpand (GTK_WIDGET (m->new_name), TRUE);
  gtk_container_add (GTK_CONTAINER (rename_row), GTK_WIDGET (m->new_name));
  gtk_container_add (GTK_CONTAINER (rename_row), button (_("_Rename"), "preset-rename", G_CALLBACK (on_rename), m));
  gtk_container_add (GTK_CONTAINER (content), rename_row);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_container_add (GTK_CONTAINER (buttons), button (_("_Delete"), "preset-delete", G_CALLBACK (on_delete), m));
  gtk_container_add (GTK_CONTAINER (buttons), button (_("_Import…"), "preset-import", G_CALLBACK (on_import), m));
  gtk_container_add (GTK_CONTAINER (buttons), button (_("_Export…"), "preset-export", G_CALLBACK (on_export), m));
  gtk_container_add (GTK_CONTAINER (content), buttons);
  m->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (m->message), "preset-error");
  gtk_label_set_xalign (m->message, 0);
  gtk_label_set_line_wrap (m->message, TRUE);
  gtk_label_set_selectable (m->message, TRUE);
  gtk_container_add (GTK_CONTAINER (content), GTK_WIDGET (m->message));
  g_signal_connect (m->list, "row-selected", G_CALLBACK (on_row_selected), m);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  g_object_set_data_full (G_OBJECT (dialog), "lumen-manage", m, g_free);
  gtk_widget_show_all (dialog);
  gtk_widget_hide (GTK_WIDGET (m->message));
}
