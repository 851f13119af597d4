/* Operations and their parameters found by name (stage-params.h). */
#include "stage-params.h"

LmStage *
lm_stage_by_name (LmPipeline *pipeline, const char *name)
{
  const LmOpInfo *info = lm_op_info_by_name (name);
  return info ? lm_pipeline_stage (pipeline, info->id) : NULL;
}

const LmParamSpec *
lm_op_param_by_name (const LmOpInfo *info, const char *name)
{
  for (guint i = 0; info && i < info->n_params; i++)
    if (g_str_equal (info->params[i].name, name))
      return &info->params[i];
  return NULL;
}

static void *
field (LmStage *stage, const char *name, LmParamType type)
{
  const LmParamSpec *spec = stage ? lm_op_param_by_name (stage->info, name) : NULL;
  return spec && spec->type == type ? stage->params.bytes + spec->offset : NULL;
}

float *
lm_stage_float (LmStage *stage, const char *name)
{
  return field (stage, name, LM_PARAM_FLOAT);
}

int *
lm_stage_enum (LmStage *stage, const char *name)
{
  return field (stage, name, LM_PARAM_ENUM);
}

const char *
lm_stage_enum_nick (LmStage *stage, const char *name)
{
  int *v = lm_stage_enum (stage, name);
  return v ? lm_op_param_by_name (stage->info, name)->values[*v].nick : NULL;
}

gboolean
lm_stage_set_enum (LmStage *stage, const char *name, const char *nick)
{
  const LmParamSpec *spec = stage ? lm_op_param_by_name (stage->info, name) : NULL;
  return spec && spec->type == LM_PARAM_ENUM && lm_op_param_parse (stage->info, spec, stage->params.bytes, nick, NULL);
}
