/* LmPipeline: the ordered operations with their parameters and enable flags, as plain
 * data (a render request carries a copy), and its sidecar form (a GKeyFile). */
#pragma once

#include <glib.h>

#include "ops/op.h"

G_BEGIN_DECLS

typedef struct {
  const LmOpInfo *info;
  gboolean enabled;
  union {
    guint8 bytes[LM_OP_PARAMS_MAX];
    double align; /* parameter structs hold floats and ints */
  } params;
} LmStage;

typedef struct {
  LmStage stages[LM_N_OPS]; /* in registry order */
} LmPipeline;

/* Every operation in order, disabled, with default parameters. */
void lm_pipeline_init (LmPipeline *pipeline);

static inline LmStage *
lm_pipeline_stage (LmPipeline *pipeline, LmOpId id)
{
  return &pipeline->stages[id];
}

/* PIPELINE for an image shrunk FACTOR times (lengths in pixels divided by FACTOR): what a
 * quick preview at the view's scale renders. */
void lm_pipeline_scale (LmPipeline *pipeline, double factor);

/* TRUE when the two pipelines would render the same image. */
gboolean lm_stage_equal (const LmStage *a, const LmStage *b);

/* Sidecar form: one group per operation, "enabled" and each parameter by name. Reading
 * starts from PIPELINE's values, so a sidecar may name only what it changes. */
GKeyFile *lm_pipeline_to_keyfile (const LmPipeline *pipeline);
gboolean lm_pipeline_from_keyfile (LmPipeline *pipeline, GKeyFile *keyfile, GError **error);

G_END_DECLS
