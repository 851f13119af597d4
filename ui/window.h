/* LmWindow: one photo being edited. */
#pragma once

#include <gtk/gtk.h>

#include "core/io/io.h"
#include "core/edit/pipeline.h"
#include "core/render/render.h"

G_BEGIN_DECLS

#define LM_TYPE_WINDOW (lm_window_get_type ())
G_DECLARE_FINAL_TYPE (LmWindow, lm_window, LM, WINDOW, GtkApplicationWindow)

LmWindow *lm_window_new (GtkApplication *application);

/* Loads FILE in the background; a failure shows in the info bar. */
void lm_window_open (LmWindow *self, GFile *file);

/* Exports at full resolution to PATH (the Export action's work once a file is chosen). */
void lm_window_export_to (LmWindow *self, const char *path, const LmSaveOptions *options);

/* Applies the edits to PHOTOS (N of them) as Apply Edits to Photos… does once they are
 * chosen: each exported to `<name>-edited.<ext>` beside it, with its sidecar; a dialog shows
 * the progress and, at the end, what failed. Nothing when a run is under way. */
void lm_window_apply_edits_to (LmWindow *self, GFile *const *photos, guint n);

/* For tests and tools: the operation panel of OP (NULL for an operation that only an export
 * runs: the export dialog sets it), the image view, the histogram view, the info bar's
 * message (NULL when hidden), the diff line, the last result seen. */
GtkWidget *lm_window_get_op_panel (LmWindow *self, LmOpId op);
GtkWidget *lm_window_get_image_view (LmWindow *self);
GtkWidget *lm_window_get_histogram_view (LmWindow *self);
const char *lm_window_get_info_message (LmWindow *self);
const char *lm_window_get_diff_text (LmWindow *self);
/* The generation of the newest render request (results carry theirs). */
guint64 lm_window_get_generation (LmWindow *self);
/* The view transform of the photo and monitor shown now (NULL before the first render);
 * the window keeps it. */
LmViewTransform *lm_window_get_view_transform (LmWindow *self);

/* FITS files (window-astro.c): the Detect Sources panel, the number of sources shown, and the
 * catalogue of them written to PATH (CSV, or a FITS table for a .fits name) as Export
 * Catalogue… does; FALSE with the info bar's message when it fails. */
GtkWidget *lm_window_get_detect_panel (LmWindow *self);
guint lm_window_astro_source_count (LmWindow *self);
gboolean lm_window_astro_export_to (LmWindow *self, const char *path);

G_END_DECLS
