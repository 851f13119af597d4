/* The FITS header dialog (fits-header-dialog.h): read-only monospace text, as the cards are
 * columns. */
#include "fits-header-dialog.h"

#include <glib/gi18n.h>

GtkWidget *
lm_fits_header_dialog_show (GtkWindow *parent, const char *file_name, char **cards)
{
  g_autofree char *title = g_strdup_printf (_("Header of %s"), file_name);
  GtkWidget *dialog = gtk_dialog_new_with_buttons (title, parent, GTK_DIALOG_DESTROY_WITH_PARENT, _("_Close"),
                                                   GTK_RESPONSE_CLOSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 720, 560);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_widget_set_vexpand (scrolled, TRUE);
  GtkWidget *text = gtk_text_view_new ();
  gtk_widget_set_name (text, "fits-header-text");
  gtk_text_view_set_editable (GTK_TEXT_VIEW (text), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (text), TRUE);
  g_autofree char *joined = cards ? g_strjoinv ("\n", cards) : g_strdup ("");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (text)), joined, -1);
  gtk_container_add (GTK_CONTAINER (scrolled), text);
  gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (dialog))), scrolled, TRUE, TRUE, 0);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_widget_show_all (dialog);
  return dialog;
}
