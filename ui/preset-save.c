/* Save Current Edits as Preset… (preset-menu.h): a name, and the operations of the edits that
 * go into the preset, ticked as a paste onto another photo would carry them (framing and
 * brushed masks left out: a preset is for other photos). A name taken, or one a file cannot
 * have, is said in the dialog, which stays open. */
#include "preset-menu.h"
#include "window-private.h"

#include <glib/gi18n.h>

#include "core/library/presets.h"
#include "paste-ops.h"

typedef struct {
  LmPipeline pipeline;
  GtkEntry *name;
  GtkWidget *ops;
  GtkLabel *error;
} SaveDialog;

static void
on_response (GtkDialog *dialog, int response, SaveDialog *d)
{
  if (response != GTK_RESPONSE_ACCEPT)
    {
      gtk_widget_destroy (GTK_WIDGET (dialog));
      return;
    }
  LmOpSelection selection;
  lm_paste_ops_get_selection (d->ops, &selection);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_strstrip (g_strdup (gtk_entry_get_text (d->name)));
  g_autofree char *path = lm_preset_save (name, &d->pipeline, &selection, FALSE, &error);
  if (path == NULL)
    {
      gtk_label_set_text (d->error, error->message);
      gtk_widget_show (GTK_WIDGET (d->error));
      return;
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
  lm_window_presets_changed ();
}

void
lm_window_save_preset_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  GtkWidget *dialog = gtk_dialog_new_with_buttons (_("Save Edits as Preset"), GTK_WINDOW (self),
                                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT, _("_Cancel"),
                                                   GTK_RESPONSE_CANCEL, _("_Save"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_widget_set_name (dialog, "preset-save-dialog");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  SaveDialog *d = g_new0 (SaveDialog, 1);
  d->pipeline = self->pipeline;
  GtkWidget *content = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  gtk_container_set_border_width (GTK_CONTAINER (content), 12);
  gtk_box_set_spacing (GTK_BOX (content), 8);
  GtkWidget *label = gtk_label_new_with_mnemonic (_("_Name:"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  d->name = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (d->name), "preset-name");
  gtk_entry_set_activates_default (d->name, TRUE);
  gtk_entry_set_max_length (d->name, LM_PRESET_NAME_MAX);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (d->name));
  gtk_container_add (GTK_CONTAINER (content), label);
  gtk_container_add (GTK_CONTAINER (content), GTK_WIDGET (d->name));
  GtkWidget *which = gtk_label_new (_("Operations kept in the preset:"));
  gtk_label_set_xalign (GTK_LABEL (which), 0);
  gtk_container_add (GTK_CONTAINER (content), which);
  LmOpSelection selection;
  lm_op_selection_default (&selection, &self->pipeline);
  d->ops = lm_paste_ops_new (&self->pipeline, &selection, FALSE, LM_PASTE_REPLACE);
  gtk_container_add (GTK_CONTAINER (content), d->ops);
  d->error = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (d->error), "preset-error");
  gtk_label_set_xalign (d->error, 0);
  gtk_label_set_line_wrap (d->error, TRUE);
  gtk_container_add (GTK_CONTAINER (content), GTK_WIDGET (d->error));
  g_object_set_data_full (G_OBJECT (dialog), "lumen-save", d, g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), d);
  gtk_widget_show_all (dialog);
  gtk_widget_hide (GTK_WIDGET (d->error));
  gtk_widget_grab_focus (GTK_WIDGET (d->name));
}
