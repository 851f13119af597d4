/* The choice of operations to carry (paste-ops.h). */
#include "paste-ops.h"

#include <glib/gi18n.h>

typedef struct {
  LmPipeline source;
  LmOpSelection selection;
  GPtrArray *checks; /* GtkToggleButton per listed instance, its id in "lumen-id" */
  GtkToggleButton *replace;
} PasteOps;

static void
paste_ops_free (PasteOps *ops)
{
  g_ptr_array_unref (ops->checks);
  g_free (ops);
}

GtkWidget *
lm_paste_ops_new (const LmPipeline *source, const LmOpSelection *selection, gboolean with_mode, LmPasteMode mode)
{
  PasteOps *ops = g_new0 (PasteOps, 1);
  ops->source = *source;
  ops->selection = *selection;
  ops->checks = g_ptr_array_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  for (guint i = 0; i < source->n; i++)
    {
      const LmStage *stage = &source->inst[i];
      if (!stage->enabled)
        continue;
      g_autofree char *label = lm_stage_display_name (stage);
      g_autofree char *group = lm_stage_group_name (stage);
      g_autofree char *name = g_strconcat ("paste-op-", group, NULL);
      GtkWidget *check = gtk_check_button_new_with_label (label);
      gtk_widget_set_name (check, name);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (check), lm_op_selection_has (selection, stage->id));
      g_object_set_data (G_OBJECT (check), "lumen-id", GUINT_TO_POINTER (stage->id));
      g_ptr_array_add (ops->checks, check);
      gtk_container_add (GTK_CONTAINER (list), check);
    }
  if (ops->checks->len == 0)
    {
      GtkWidget *none = gtk_label_new (_("No operation is on in these edits."));
      gtk_label_set_xalign (GTK_LABEL (none), 0);
      gtk_container_add (GTK_CONTAINER (list), none);
    }
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_container_add (GTK_CONTAINER (scrolled), list);
  gtk_container_add (GTK_CONTAINER (box), scrolled);
  if (with_mode)
    {
      GtkWidget *replace = gtk_radio_button_new_with_mnemonic (NULL, _("_Replace: the photo’s same operations give way"));
      GtkWidget *append = gtk_radio_button_new_with_mnemonic_from_widget (
        GTK_RADIO_BUTTON (replace), _("_Append: added to the photo’s edits, which stay"));
      gtk_widget_set_name (replace, "paste-replace");
      gtk_widget_set_name (append, "paste-append");
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (mode == LM_PASTE_APPEND ? append : replace), TRUE);
      gtk_container_add (GTK_CONTAINER (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
      gtk_container_add (GTK_CONTAINER (box), replace);
      gtk_container_add (GTK_CONTAINER (box), append);
      ops->replace = GTK_TOGGLE_BUTTON (replace);
    }
  g_object_set_data_full (G_OBJECT (box), "lumen-paste-ops", ops, (GDestroyNotify) paste_ops_free);
  gtk_widget_show_all (box);
  return box;
}

void
lm_paste_ops_get_selection (GtkWidget *box, LmOpSelection *selection)
{
  PasteOps *ops = g_object_get_data (G_OBJECT (box), "lumen-paste-ops");
  *selection = ops->selection;
  for (guint i = 0; i < ops->checks->len; i++)
    {
      GtkToggleButton *check = g_ptr_array_index (ops->checks, i);
      lm_op_selection_set (selection, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "lumen-id")),
                           gtk_toggle_button_get_active (check));
    }
}

LmPasteMode
lm_paste_ops_get_mode (GtkWidget *box)
{
  PasteOps *ops = g_object_get_data (G_OBJECT (box), "lumen-paste-ops");
  return ops->replace == NULL || gtk_toggle_button_get_active (ops->replace) ? LM_PASTE_REPLACE : LM_PASTE_APPEND;
}

typedef struct {
  GtkWidget *ops;
  LmPasteOpsDone done;
  gpointer data;
  GDestroyNotify destroy;
} Dialog;

static void
dialog_free (gpointer data, GClosure *closure)
{
  Dialog *d = data;
  if (d->destroy)
    d->destroy (d->data);
  g_free (d);
}

static void
on_response (GtkDialog *dialog, int response, Dialog *d)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      LmOpSelection selection;
      lm_paste_ops_get_selection (d->ops, &selection);
      d->done (&selection, lm_paste_ops_get_mode (d->ops), d->data);
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

GtkWidget *
lm_paste_ops_dialog (GtkWindow *parent, const char *title, const char *accept, const LmPipeline *source,
                     const LmOpSelection *selection, gboolean with_mode, LmPasteMode mode, LmPasteOpsDone done,
                     gpointer data, GDestroyNotify destroy)
{
  GtkWidget *dialog = gtk_dialog_new_with_buttons (title, parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                   _("_Cancel"), GTK_RESPONSE_CANCEL, accept, GTK_RESPONSE_ACCEPT,
                                                   NULL);
  gtk_widget_set_name (dialog, "paste-ops-dialog");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  GtkWidget *content = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  gtk_container_set_border_width (GTK_CONTAINER (content), 12);
  gtk_box_set_spacing (GTK_BOX (content), 12);
  Dialog *d = g_new0 (Dialog, 1);
  d->ops = lm_paste_ops_new (source, selection, with_mode, mode);
  d->done = done;
  d->data = data;
  d->destroy = destroy;
  gtk_container_add (GTK_CONTAINER (content), d->ops);
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_response), d, dialog_free, 0);
  gtk_widget_show_all (dialog);
  return dialog;
}
