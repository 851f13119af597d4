/* The monitor's profile from the X server, and the Monitor Profile dialog
 * (monitor-profile.h). */
#include "monitor-profile.h"

#include <glib/gi18n.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif

enum { RESPONSE_AUTOMATIC = 1 };

int
lm_monitor_index_of (GtkWidget *widget)
{
  GdkWindow *window = gtk_widget_get_window (widget);
  if (window == NULL)
    return 0;
  GdkDisplay *display = gdk_window_get_display (window);
  GdkMonitor *monitor = gdk_display_get_monitor_at_window (display, window);
  for (int i = 0; i < gdk_display_get_n_monitors (display); i++)
    if (gdk_display_get_monitor (display, i) == monitor)
      return i;
  return 0;
}

GBytes *
lm_monitor_profile_from_x (GtkWidget *widget, int index)
{
#ifdef GDK_WINDOWING_X11
  GdkDisplay *display = gtk_widget_get_display (widget);
  if (!GDK_IS_X11_DISPLAY (display))
    return NULL;
  g_autofree char *name = index > 0 ? g_strdup_printf ("_ICC_PROFILE_%d", index) : g_strdup ("_ICC_PROFILE");
  GdkWindow *root = gdk_screen_get_root_window (gtk_widget_get_screen (widget));
  GdkAtom type;
  int format = 0, length = 0;
  guchar *data = NULL;
  /* The specification's type is CARDINAL of 8-bit items: the profile's bytes. A profile
   * over 64 MiB is not one. */
  if (!gdk_property_get (root, gdk_atom_intern (name, FALSE), GDK_NONE, 0, 64 << 20, FALSE, &type,
                         &format, &length, &data))
    return NULL;
  GBytes *icc = format == 8 && length > 0 ? g_bytes_new (data, length) : NULL;
  g_free (data);
  return icc;
#else
  return NULL;
#endif
}

typedef struct {
  LmMonitorProfileChosen chosen;
  gpointer user_data;
} Chooser;

static void
on_response (GtkDialog *dialog, int response, Chooser *c)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      if (path)
        c->chosen (path, c->user_data);
    }
  else if (response == RESPONSE_AUTOMATIC)
    c->chosen ("", c->user_data);
  g_free (c);
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

void
lm_monitor_profile_dialog (GtkWindow *parent, const char *current, LmMonitorProfileChosen chosen,
                           gpointer user_data)
{
  GtkWidget *dialog = gtk_file_chooser_dialog_new (_("Monitor Profile"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                                   _("_Automatic"), RESPONSE_AUTOMATIC,
                                                   _("_Cancel"), GTK_RESPONSE_CANCEL,
                                                   _("_Use"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  GtkWidget *hint = gtk_label_new (_("The profile the photo is shown through. Automatic uses the "
                                     "display's own (from the X server), or sRGB where it has none."));
  gtk_label_set_line_wrap (GTK_LABEL (hint), TRUE);
  gtk_widget_show (hint);
  gtk_file_chooser_set_extra_widget (GTK_FILE_CHOOSER (dialog), hint);
  GtkFileFilter *filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("ICC profiles"));
  gtk_file_filter_add_pattern (filter, "*.icc");
  gtk_file_filter_add_pattern (filter, "*.icm");
  gtk_file_filter_add_pattern (filter, "*.ICC");
  gtk_file_filter_add_pattern (filter, "*.ICM");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (current && *current)
    gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (dialog), current);
  else if (g_file_test ("/usr/share/color/icc", G_FILE_TEST_IS_DIR))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), "/usr/share/color/icc");
  Chooser *c = g_new0 (Chooser, 1);
  c->chosen = chosen;
  c->user_data = user_data;
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), c);
  gtk_widget_show (dialog);
}
