/* LmExportOptions: the operations that only an export runs (LM_KIND_EXPORT: resize), as the
 * export dialog shows them under its file chooser: a check button per operation ("Resize")
 * and its parameters (width and height as numbers, a choice for the mode), built from their
 * parameter tables. The values are the edit's own (the pipeline's stages): a sidecar keeps
 * them and lumen-cli --params applies them as the window's export did. */
#pragma once

#include <gtk/gtk.h>

#include "core/edit/pipeline.h"

G_BEGIN_DECLS

#define LM_TYPE_EXPORT_OPTIONS (lm_export_options_get_type ())
G_DECLARE_FINAL_TYPE (LmExportOptions, lm_export_options, LM, EXPORT_OPTIONS, GtkBox)

/* NULL where no operation is of the export's kind (nothing to show). */
GtkWidget *lm_export_options_new (void);

/* Shows PIPELINE's export stages. */
void lm_export_options_set_pipeline (LmExportOptions *self, const LmPipeline *pipeline);
/* Writes the export stages as set into PIPELINE; TRUE when they differ from what it had. */
gboolean lm_export_options_apply (LmExportOptions *self, LmPipeline *pipeline);

G_END_DECLS
