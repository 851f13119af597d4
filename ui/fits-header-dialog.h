/* The header of a FITS HDU, one 80-column card a line, in a window of its own. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Shows CARDS (NULL-terminated) of FILE_NAME over PARENT; the dialog closes itself. */
GtkWidget *lm_fits_header_dialog_show (GtkWindow *parent, const char *file_name, char **cards);

G_END_DECLS
