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

/* Also "Convert to sRGB" (LmSaveOptions.to_srgb), a check button named "to-srgb", off: the
 * photo's own profile is kept unless asked. */
GtkWidget *lm_export_options_new (void);

/* Shows PIPELINE's export stages. */
void lm_export_options_set_pipeline (LmExportOptions *self, const LmPipeline *pipeline);
/* Writes the export stages as set into PIPELINE; TRUE when they differ from what it had. */
gboolean lm_export_options_apply (LmExportOptions *self, LmPipeline *pipeline);

/* "Convert to sRGB": not an edit (no sidecar keeps it), a choice of how to write. */
void lm_export_options_set_to_srgb (LmExportOptions *self, gboolean to_srgb);
gboolean lm_export_options_get_to_srgb (LmExportOptions *self);

/* The "Convert to sRGB" last chosen in OWNER's dialogs (a window's: its export and Apply
 * Edits share it), FALSE at first. */
gboolean lm_export_to_srgb_of (gpointer owner);
void lm_export_to_srgb_set (gpointer owner, gboolean to_srgb);

/* "PNG compression level" (LmSaveOptions.png_level), a spin button named "png-level", 0..9,
 * LM_PNG_LEVEL_DEFAULT at first; like "Convert to sRGB", remembered per OWNER. */
void lm_export_options_set_png_level (LmExportOptions *self, int level);
int lm_export_options_get_png_level (LmExportOptions *self);
int lm_export_png_level_of (gpointer owner);
void lm_export_png_level_set (gpointer owner, int level);

/* "Encode JPEG on the GPU (nvJPEG)" (LmSaveOptions.nvjpeg), a check button named "nvjpeg",
 * shown only once this is called (by the export dialog): ACTIVE as last chosen, or insensitive
 * and off with UNAVAILABLE (why not, for people) as its tooltip. Remembered per OWNER, off at
 * first; what an insensitive button reads is off. */
void lm_export_options_show_nvjpeg (LmExportOptions *self, gboolean active, const char *unavailable);
gboolean lm_export_options_get_nvjpeg (LmExportOptions *self);
gboolean lm_export_nvjpeg_of (gpointer owner);
void lm_export_nvjpeg_set (gpointer owner, gboolean on);

/* "16 bits per channel (PNG, TIFF)" (LmSaveOptions.depth 16), a check button named "depth16",
 * shown only once this is called (by the export dialog), ACTIVE as last chosen; remembered per
 * OWNER, off at first. A JPEG export stays 8 bits whatever it says. */
void lm_export_options_show_depth16 (LmExportOptions *self, gboolean active);
gboolean lm_export_options_get_depth16 (LmExportOptions *self);
gboolean lm_export_depth16_of (gpointer owner);
void lm_export_depth16_set (gpointer owner, gboolean on);

G_END_DECLS
