/* LmWindow's tools on the view (window-tools.c): the tool bar above the photo and the tool
 * that has the pointer. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmWindowTools LmWindowTools;

void lm_window_tools_init (LmWindow *self);
void lm_window_tools_free (LmWindow *self);
void lm_window_tools_update_actions (LmWindow *self);
/* The tool bar above the view. */
GtkWidget *lm_window_tools_bar (LmWindow *self);
/* PIPELINE as the active tool shows it (crop off while cropping). */
void lm_window_tools_adjust (LmWindow *self, LmPipeline *pipeline);
/* A crop being drawn is applied (no render: the caller's edit follows). */
void lm_window_tools_finish (LmWindow *self);
/* A crop being drawn is dropped (no render: the caller's follows): the pipeline it was drawn
 * on is being replaced. */
void lm_window_tools_cancel (LmWindow *self);

/* The mask tool of KIND (LM_MASK_BRUSH, …) on instance ID (lm_tool_mask_start, the keys). */
void lm_window_tools_start_mask (LmWindow *self, guint32 id, int kind);
/* The instance whose mask the view shows over the photo now (M, or win.show-mask, is on and
 * the instance drawn on or selected has a mask), 0 when none. */
guint32 lm_window_tools_mask_shown (LmWindow *self);

G_END_DECLS
