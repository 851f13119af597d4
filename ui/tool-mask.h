/* The mask tools on the image view (ui/tool-mask.c): a brush, a linear gradient and a radial
 * one, drawing on the mask of one instance of the pipeline (attached when it has none). A
 * brush stroke shows as it is drawn and is one undo step when the button is let go; a
 * gradient is dragged from where it is fully on to where it is off (a radial one from its
 * centre out). Points go from the view back through the geometry to the photo as opened,
 * as fractions of its long side, so that a stroke on a turned, cropped view lands where it
 * shows. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

/* The tool of KIND (LM_MASK_BRUSH, LM_MASK_LINEAR, LM_MASK_RADIAL) on instance ID's mask: what
 * the instance panels' Mask menu and the keys B, G and R start. */
void lm_tool_mask_start (LmWindow *self, guint32 id, int kind);

typedef struct _LmMaskTool LmMaskTool;

LmMaskTool *lm_mask_tool_new (LmWindow *window);
void lm_mask_tool_free (LmMaskTool *tool);
/* The tool takes the view's pointer, on instance ID with KIND (again with another kind or
 * instance while it has it). */
void lm_mask_tool_begin (LmMaskTool *tool, guint32 id, int kind);
void lm_mask_tool_end (LmMaskTool *tool);
/* A stroke or gradient being drawn is dropped: the pipeline it was drawn on was replaced. */
void lm_mask_tool_cancel (LmMaskTool *tool);
/* The instance drawn on, 0 while the tool is off. */
guint32 lm_mask_tool_instance (LmMaskTool *tool);
/* The brush's size (STEPS ±1: a step larger or smaller) and hardness. */
void lm_mask_tool_step_size (LmMaskTool *tool, int steps);
void lm_mask_tool_step_hardness (LmMaskTool *tool, int steps);
/* What the tool bar shows of the tool (its kind, the brush's size, hardness and opacity). */
GtkWidget *lm_mask_tool_options (LmMaskTool *tool);

G_END_DECLS
