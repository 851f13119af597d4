/* LmWindow's sidecar (window-sidecar.c): the photo's edits kept in its sidecar. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmWindowSidecar LmWindowSidecar;

void lm_window_sidecar_init (LmWindow *self);
void lm_window_sidecar_free (LmWindow *self);

/* FILE is opening: its sidecar (when the keep-edits setting allows) is read into
 * self->pipeline and kept from now on. FALSE (the pipeline untouched) when it could not be
 * read: the message names the file and the cause; that file is not written over until an
 * edit is made. */
gboolean lm_window_sidecar_open (LmWindow *self, GFile *file, GError **error);
/* Once the photo's fresh history is made (lm_window_start_editing): the undo history earlier
 * sessions left beside its sidecar (core/edit/history-file.h) takes its place when its current
 * step is the sidecar's edits. A message for the info bar where one was dropped (stale or
 * damaged; it names the file), else NULL. */
char *lm_window_sidecar_load_history (LmWindow *self);
/* The pipeline changed: saved a moment after the last change. */
void lm_window_sidecar_changed (LmWindow *self);
/* Saves what is pending now; a failure shows in the info bar. */
void lm_window_sidecar_flush (LmWindow *self);
/* Flushes and keeps no more sidecar (the photo closes, or a merge replaces it). */
void lm_window_sidecar_close (LmWindow *self);
/* The history's current step is in the sidecar: marks it saved (no prompt for it). */
void lm_window_sidecar_mark_saved (LmWindow *self);

G_END_DECLS
