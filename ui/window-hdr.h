/* LmWindow's HDR merge (window-hdr.c): the Merge HDR dialog, its result made the photo being
 * edited, and the tone mapping panel shown while the source is radiance. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmWindowHdr LmWindowHdr;

void lm_window_hdr_init (LmWindow *self);
/* Cancels the merge under way, before the render worker is joined: it stops between steps
 * instead of finishing while the window waits. */
void lm_window_hdr_cancel (LmWindow *self);
void lm_window_hdr_free (LmWindow *self);

void lm_window_merge_hdr_action (GSimpleAction *action, GVariant *param, gpointer data);
/* The merge under way has come to R's step. */
void lm_window_merge_progress (LmWindow *self, const LmRenderResult *r);
void lm_window_finish_merge (LmWindow *self, const LmRenderResult *r);
/* The tone mapping panel (self->tonemap_panel), packed into the side panel, hidden. */
void lm_window_build_tonemap_panel (LmWindow *self);
/* It shows where the source is RADIANCE. */
void lm_window_show_tonemap_panel (LmWindow *self, gboolean radiance);

G_END_DECLS
