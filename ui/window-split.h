/* LmWindow's before/after split and the key that shows the original (window-split.c). */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmWindowSplit LmWindowSplit;

void lm_window_split_init (LmWindow *self);
void lm_window_split_free (LmWindow *self);

/* A new source is being edited: the "before" held is of the old one, and a radiance source's
 * is tone mapped as self->pipeline says from the next generation on. */
void lm_window_split_restart (LmWindow *self);
/* Results older than GENERATION bring a "before" of what was shown before: dropped. */
void lm_window_split_since (LmWindow *self, guint64 generation);
/* Whether REQ should bring the "before" half too. */
gboolean lm_window_needs_before (LmWindow *self, const LmRenderRequest *req);
/* The "before" half that preview R brings, kept for its region. */
void lm_window_show_before (LmWindow *self, const LmRenderResult *r);
/* TRUE while the key that shows the original is held. */
gboolean lm_window_showing_original (LmWindow *self);
void lm_window_split_changed (GSimpleAction *action, GVariant *state, gpointer data);
gboolean lm_window_on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self);

G_END_DECLS
