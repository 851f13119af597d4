/* LmOpPanel: one operation's controls (enable switch, a slider or a choice per parameter,
 * reset), built from its parameter table. */
#pragma once

#include <gtk/gtk.h>

#include "core/pipeline.h"

G_BEGIN_DECLS

#define LM_TYPE_OP_PANEL (lm_op_panel_get_type ())
G_DECLARE_FINAL_TYPE (LmOpPanel, lm_op_panel, LM, OP_PANEL, GtkBox)

GtkWidget *lm_op_panel_new (const LmOpInfo *op);

/* Shows STAGE's values (emits nothing). */
void lm_op_panel_set_stage (LmOpPanel *self, const LmStage *stage);
const LmStage *lm_op_panel_get_stage (LmOpPanel *self);

/* FALSE: the stage is always on (no switch; reset keeps it on), as tone mapping is for
 * radiance. */
void lm_op_panel_set_switchable (LmOpPanel *self, gboolean switchable);

/* The widget editing parameter NAME ("enabled" for the switch), for tests and shortcuts. */
GtkWidget *lm_op_panel_get_control (LmOpPanel *self, const char *name);

G_END_DECLS
