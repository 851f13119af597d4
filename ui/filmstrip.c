/* The filmstrip (filmstrip.h). */
#include "filmstrip.h"

GtkWidget *
lm_filmstrip_new (LmFolderThumbs *thumbs)
{
  GtkWidget *view = lm_folder_view_new (thumbs, TRUE);
  gtk_widget_set_name (view, "filmstrip");
  GtkWidget *scroller = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  /* A mouse wheel scrolls it sideways: it has nothing to scroll up or down. */
  gtk_scrolled_window_set_overlay_scrolling (GTK_SCROLLED_WINDOW (scroller), FALSE);
  gtk_container_add (GTK_CONTAINER (scroller), view);
  gtk_widget_show_all (scroller);
  return scroller;
}

GtkWidget *
lm_filmstrip_get_view (GtkWidget *filmstrip)
{
  return gtk_bin_get_child (GTK_BIN (filmstrip));
}
