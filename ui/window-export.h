/* LmWindow's export (window-export.c): the Export action, its progress dialog and its end;
 * lm_window_export_to (window.h) starts one without questions. */
#pragma once

#include "window.h"
#include "window-open.h"

G_BEGIN_DECLS

typedef struct _LmWindowExport LmWindowExport;

void lm_window_export_init (LmWindow *self);
/* Cancels the export under way, before the render worker is joined: it stops between steps
 * instead of finishing while the window waits. What was to follow it is dropped. */
void lm_window_export_cancel (LmWindow *self);
void lm_window_export_free (LmWindow *self);

void lm_window_export_action (GSimpleAction *action, GVariant *param, gpointer data);
/* The Export action's questions, then THEN (taken) once that export has succeeded; it is
 * freed without running where none starts (one is under way, or the questions are
 * cancelled), or where it fails or is cancelled: the edits are still in no file then. */
void lm_window_export_then (LmWindow *self, LmWindowThen *then);
/* The export under way has done FRACTION of its work. */
void lm_window_export_progress (LmWindow *self, double fraction);
void lm_window_finish_export (LmWindow *self, const LmRenderResult *r);

G_END_DECLS
