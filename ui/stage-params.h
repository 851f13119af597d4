/* Operations and their parameters found by name (ui/stage-params.c), for the window's tools:
 * they set crop, rotate, straighten and wb through the operation list's description, as the
 * panels and the sidecar do, and do nothing where an operation is not built in. */
#pragma once

#include "core/edit/pipeline.h"

G_BEGIN_DECLS

/* PIPELINE's stage of the operation NAME ("crop"), or NULL where there is none. */
LmStage *lm_stage_by_name (LmPipeline *pipeline, const char *name);

/* The FLOAT parameter NAME of STAGE, or NULL where it has none of that name and type. */
float *lm_stage_float (LmStage *stage, const char *name);

/* The ENUM parameter NAME of STAGE (an index into its values), or NULL. */
int *lm_stage_enum (LmStage *stage, const char *name);
/* The nick of STAGE's ENUM parameter NAME now, or NULL. */
const char *lm_stage_enum_nick (LmStage *stage, const char *name);
/* Sets STAGE's ENUM parameter NAME to NICK; FALSE where either is unknown. */
gboolean lm_stage_set_enum (LmStage *stage, const char *name, const char *nick);

/* The parameter description NAME of INFO, or NULL. */
const LmParamSpec *lm_op_param_by_name (const LmOpInfo *info, const char *name);

G_END_DECLS
