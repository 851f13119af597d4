/* A render's context for its operations' commit steps (op.h, LmOpInfo.commit): the photo's
 * colour profile (core/color) as ops/ reads it (op-context.h), so that the operations need
 * nothing of core/color. lm_pipeline_set_color (pipeline.h) commits a pipeline with it. */
#pragma once

#include <glib.h>

#include "../ops/op-context.h"

G_BEGIN_DECLS

typedef struct _LmColorProfile LmColorProfile;

/* CONTEXT for a source in PROFILE (NULL: sRGB). An sRGB profile leaves CONTEXT's colour
 * space NULL: the operations' sRGB code, the same bytes as before profiles were read.
 * PROFILE must outlive CONTEXT's use (the commit keeps a pointer to it). */
void lm_op_context_init (LmOpContext *context, const LmColorProfile *profile);

G_END_DECLS
