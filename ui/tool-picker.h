/* The white balance picker on the image view (ui/tool-picker.c): a click on the photo reads
 * the photo as opened, before any operation, at the place clicked (followed back through the
 * geometry and the lens correction), whose colour white balance then makes neutral. */
#pragma once

#include "core/edit/pipeline.h"
#include "image-view.h"

G_BEGIN_DECLS

#define LM_PICKER_PATCH 5 /* the patch read: 5 × 5 source pixels */

typedef struct _LmPickerTool LmPickerTool;

/* DONE gets the image point clicked (pixels of the image the view shows). */
typedef void (*LmPickerDone) (gpointer data, double x, double y);

LmPickerTool *lm_picker_tool_new (LmImageView *view, LmPickerDone done, gpointer data);
void lm_picker_tool_free (LmPickerTool *tool);
void lm_picker_tool_begin (LmPickerTool *tool);
void lm_picker_tool_end (LmPickerTool *tool);

/* The mean encoded R, G, B (0..255; a 16-bit value / 257) of the SIZE × SIZE patch of SOURCE
 * around the source point that PIPELINE's output (as the view renders it) shows at (X, Y),
 * clipped to the source. FALSE where the point is off the photo (ERROR unset), or where
 * SOURCE has nothing white balance could take from it (ERROR says why, in a line for the
 * info bar): a gray photo (no colour to balance), or values the picker does not read (8- and
 * 16-bit only: radiance and measurements in float are not what white balance sees). */
gboolean lm_picker_patch_mean (const LmImage *source, const LmPipeline *pipeline, double x, double y,
                               int size, double rgb[3], GError **error);

G_END_DECLS
