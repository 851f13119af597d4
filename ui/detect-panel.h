/* LmDetectPanel: the "Detect sources" panel: κ, threshold in σ, minimum area, connectivity,
 * filter σ and mesh size; the count and the step timings of the last result; the sortable
 * table of its sources; Export Catalogue…. "changed" comes a moment after the last change of
 * a control (as the other sliders' renders); "source-selected" (guint label) when a row is
 * picked; "export" when the export button is pressed. */
#pragma once

#include <gtk/gtk.h>


#include "core/astro/detect.h"

G_BEGIN_DECLS

#define LM_TYPE_DETECT_PANEL (lm_detect_panel_get_type ())
G_DECLARE_FINAL_TYPE (LmDetectPanel, lm_detect_panel, LM, DETECT_PANEL, GtkBox)

GtkWidget *lm_detect_panel_new (void);
void lm_detect_panel_get (LmDetectPanel *self, LmDetectParams *params);
/* RESULT (NULL: none, with MESSAGE, or "" for nothing) is what is shown now; BACKEND its name. */
void lm_detect_panel_show (LmDetectPanel *self, const LmDetectResult *result, const char *backend);
void lm_detect_panel_show_message (LmDetectPanel *self, const char *message);

G_END_DECLS
