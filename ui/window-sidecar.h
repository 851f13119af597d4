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
/* The pipeline changed: saved a moment after the last change. */
void lm_window_sidecar_changed (LmWindow *self);
/* Saves what is pending now; a failure shows in the info bar. */
void lm_window_sidecar_flush (LmWindow *self);
/* Flushes and keeps no more sidecar (the photo closes, or a merge replaces it). */
void lm_window_sidecar_close (LmWindow *self);
/* The history's current step is in the sidecar: marks it saved (no prompt for it). */
void lm_window_sidecar_mark_saved (LmWindow *self);

G_END_DECLS
