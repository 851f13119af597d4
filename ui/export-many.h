/* Export Selected…: many photos exported at once, each with its own edits or one preset, named
 * by a pattern, in a format, size and quality, by the develop batch (core/batch/develop-job.h)
 * in the background: progress, Cancel, and at the end the photos that failed and why. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Opens the dialog for PHOTOS (N paths, copied) over PARENT (may be NULL). It lives on its own
 * until closed, its export with it. */
void lm_export_many_dialog (GtkWindow *parent, const char *const *photos, guint n);

G_END_DECLS
