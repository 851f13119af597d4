/* LmWindow's opening of photos (window-open.c): loading in a thread, the question before
 * edits are discarded, the Open action, recent files and drag and drop. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmWindowOpen LmWindowOpen;

/* A step that waits for an answer (or an export) and may never run: THEN (a
 * void (*) (LmWindow *, gpointer)) with DATA, which DESTROY frees either way. */
typedef struct {
  GCallback then;
  gpointer data;
  GDestroyNotify destroy;
} LmWindowThen;

void lm_window_open_init (LmWindow *self);
/* Drops the load under way (its result comes to nothing) and the discard prompt with what it
 * would have gone on with (the window is being disposed). */
void lm_window_open_cancel (LmWindow *self);
void lm_window_open_free (LmWindow *self);

/* Asks before edits that are in neither an export nor a sidecar would be lost. THEN, a
 * void (*) (LmWindow *, gpointer), runs with DATA when they may go: at once where there is
 * nothing to lose, else once the prompt is answered with Discard, or with Export… and that
 * export has succeeded; never when it is cancelled. The prompt does not wait (no nested
 * main loop). */
void lm_window_confirm_discard (LmWindow *self, GCallback then, gpointer data);
/* The same, with DESTROY freeing DATA whether THEN ran or not. */
void lm_window_confirm_discard_full (LmWindow *self, GCallback then, gpointer data,
                                     GDestroyNotify destroy);
/* Runs THEN (at most once) and frees it. */
void lm_window_then_run (LmWindowThen *then, LmWindow *self);
void lm_window_then_free (LmWindowThen *then);

void lm_window_open_action (GSimpleAction *action, GVariant *param, gpointer data);
/* The file choosers' filter of the photos Lumen reads. */
void lm_window_add_image_filter (GtkFileChooser *chooser);
void lm_window_on_recent_activated (GtkRecentChooser *chooser, LmWindow *self);
void lm_window_on_drag_data (GtkWidget *widget, GdkDragContext *context, int x, int y,
                             GtkSelectionData *data, guint info, guint time, LmWindow *self);

G_END_DECLS
