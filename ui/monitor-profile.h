/* The monitor's ICC profile as the X server holds it (the "ICC Profiles in X" specification:
 * the root window's _ICC_PROFILE for the first monitor, _ICC_PROFILE_<n> for monitor n, set
 * by colord or by any colour-management daemon: colord itself is not needed), and the
 * Monitor Profile dialog that picks a profile file instead. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The index of the monitor WIDGET's window is mostly on (0 when not known). */
int lm_monitor_index_of (GtkWidget *widget);

/* The profile of monitor INDEX on WIDGET's screen, or NULL when the X server has none (or
 * the display is not X11). */
GBytes *lm_monitor_profile_from_x (GtkWidget *widget, int index);

/* Called with the file the person chose ("" for Automatic). */
typedef void (*LmMonitorProfileChosen) (const char *path, gpointer user_data);

/* The Monitor Profile dialog over PARENT, starting at CURRENT ("" or NULL: Automatic): a file
 * chooser of ICC profiles with an Automatic button. CHOSEN runs unless it is cancelled. */
void lm_monitor_profile_dialog (GtkWindow *parent, const char *current, LmMonitorProfileChosen chosen,
                                gpointer user_data);

G_END_DECLS
