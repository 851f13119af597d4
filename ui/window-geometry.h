/* LmWindow's geometry (window-geometry.c): the view follows the size the pipeline renders;
 * rotate and flip. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

/* What the view renders now: the pipeline, with only its geometry while the original is
 * held, and as the active tool wants it (lm_window_tools_adjust). */
void lm_window_view_pipeline (LmWindow *self, LmPipeline *pipeline);
/* The image view's size becomes what PIPELINE (as the view renders it) makes of the source. */
void lm_window_follow_size (LmWindow *self, const LmPipeline *pipeline);
/* The size of the image crop applies to (after rotation and straightening) under PIPELINE. */
void lm_window_crop_input_size (LmWindow *self, const LmPipeline *pipeline, guint *width,
                                guint *height);
void lm_window_add_geometry_actions (LmWindow *self);
void lm_window_update_geometry_actions (LmWindow *self);

G_END_DECLS
