/* Apply Edits to Photos…'s question for a photo with edits of its own (apply-question.h). Skip
 * is the default: Enter or Escape loses nothing. */
#include "apply-question.h"

#include <glib/gi18n.h>

typedef struct {
  LmApplyAnswered done;
  gpointer data;
  GDestroyNotify destroy;
  GtkToggleButton *for_all;
} Question;

static void
question_free (Question *q)
{
  if (q->destroy)
    q->destroy (q->data);
  g_free (q);
}

static void
on_response (GtkDialog *dialog, int response, Question *q)
{
  LmApplyAnswer answer = response == LM_APPLY_REPLACE || response == LM_APPLY_MERGE ? (LmApplyAnswer) response
                                                                                      : LM_APPLY_SKIP;
  gboolean for_all = gtk_toggle_button_get_active (q->for_all);
  LmApplyAnswered done = g_steal_pointer (&q->done);
  if (done == NULL) /* a second response, as the window manager's close after an answer */
    return;
  gpointer data = q->data;
  GDestroyNotify destroy = g_steal_pointer (&q->destroy);
  /* Gone before the answer is taken: the next photo's question may come up from DONE. */
  gtk_widget_destroy (GTK_WIDGET (dialog)); /* frees Q, not DATA */
  done (answer, for_all, data);
  if (destroy)
    destroy (data);
}

GtkWidget *
lm_apply_question_new (GtkWindow *parent, const char *name, const char *sidecar, const char *unreadable,
                       LmApplyAnswered done, gpointer data, GDestroyNotify destroy)
{
  GtkWidget *dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                              _("“%s” has edits of its own"), name);
  g_autofree char *where = g_filename_display_name (sidecar);
  if (unreadable)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                              _("Its sidecar %s cannot be read (%s). Replace it with the edits "
                                                "applied (a copy of it is kept), or skip this photo?"),
                                              where, unreadable);
  else
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                              _("Replace them with the edits applied, merge the edits applied into "
                                                "them (each operation applied replaces its own, the others stay), "
                                                "or skip this photo? A copy of its sidecar %s is kept."),
                                              where);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Skip"), LM_APPLY_SKIP);
  if (unreadable == NULL)
    gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Merge"), LM_APPLY_MERGE);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Replace"), LM_APPLY_REPLACE);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), LM_APPLY_SKIP);
  gtk_widget_set_name (dialog, "apply-question");

  Question *q = g_new0 (Question, 1);
  q->done = done, q->data = data, q->destroy = destroy;
  GtkWidget *check = gtk_check_button_new_with_mnemonic (_("Apply to _all photos with edits of their own"));
  gtk_widget_set_name (check, "apply-to-all");
  q->for_all = GTK_TOGGLE_BUTTON (check);
  GtkWidget *area = gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog));
  gtk_container_add (GTK_CONTAINER (area), check);
  gtk_widget_show (check);
  g_object_set_data_full (G_OBJECT (dialog), "lm-apply-question", q, (GDestroyNotify) question_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), q);
  gtk_widget_show (dialog);
  return dialog;
}
