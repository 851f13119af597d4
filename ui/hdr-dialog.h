/* LmHdrDialog: choosing a bracket to merge: the exposures (2 to 16, one size) with their
 * times (from EXIF, editable; missing ones are asked for), the method and the alignment; then
 * the merge's progress and the camera response it calibrated. The window runs the merge. */
#pragma once

#include <gtk/gtk.h>

#include "core/render/render.h"

G_BEGIN_DECLS

#define LM_TYPE_HDR_DIALOG (lm_hdr_dialog_get_type ())
G_DECLARE_FINAL_TYPE (LmHdrDialog, lm_hdr_dialog, LM, HDR_DIALOG, GtkDialog)

#define LM_HDR_DIALOG_MAX 16
enum { LM_HDR_RESPONSE_MERGE = 1 }; /* the Merge button; "merge" follows when all is in order */

GtkWidget *lm_hdr_dialog_new (GtkWindow *parent);

/* Adds exposures: what is not a regular file is refused at once (in the error bar); each
 * other one's size, EXIF exposure time and thumbnail are read by Lumen's loader on a thread,
 * one at a time (the hint says so and Merge waits meanwhile); one the loader refuses leaves
 * the table with its reason. */
void lm_hdr_dialog_add_files (LmHdrDialog *self, const char *const *paths, guint n);

/* Sets exposure INDEX's time from TEXT ("1/250", "0.004", "2 s"), as editing its cell does;
 * FALSE (and the reason shown) when TEXT is not a positive time. */
gboolean lm_hdr_dialog_set_time_text (LmHdrDialog *self, guint index, const char *text);

/* What Merge would merge (pointers valid until the dialog changes), or FALSE when it cannot
 * yet: the reason is on show. */
gboolean lm_hdr_dialog_get_spec (LmHdrDialog *self, LmMergeSpec *spec);

/* The merge in progress: STEP (may be NULL) at FRACTION; the response once calibrated. */
void lm_hdr_dialog_set_running (LmHdrDialog *self, gboolean running);
void lm_hdr_dialog_set_progress (LmHdrDialog *self, double fraction, const char *step);
void lm_hdr_dialog_set_response (LmHdrDialog *self, const LmResponse *response);

/* The merge ended: ERROR shown in the dialog, or SUMMARY on success. */
void lm_hdr_dialog_finish (LmHdrDialog *self, const GError *error, const char *summary);

/* For tests: the error on show (NULL when none), the hint, the response plot. */
const char *lm_hdr_dialog_get_error (LmHdrDialog *self);
const char *lm_hdr_dialog_get_hint (LmHdrDialog *self);
GtkWidget *lm_hdr_dialog_get_plot (LmHdrDialog *self);

G_END_DECLS
