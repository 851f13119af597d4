#include "pipeline.h"

#include <string.h>
#include <glib/gi18n.h>

#include "error.h"

void
lm_pipeline_init (LmPipeline *pipeline)
{
  memset (pipeline, 0, sizeof *pipeline);
  for (int i = 0; i < LM_N_OPS; i++)
    {
      LmStage *stage = &pipeline->stages[i];
      stage->info = lm_op_info (i);
      lm_op_params_init (stage->info, stage->params.bytes);
    }
}

void
lm_pipeline_scale (LmPipeline *pipeline, double factor)
{
  for (int i = 0; i < LM_N_OPS; i++)
    {
      LmStage *stage = &pipeline->stages[i];
      for (guint k = 0; k < stage->info->n_params; k++)
        if (stage->info->params[k].in_pixels)
          {
            float *v = (float *) (stage->params.bytes + stage->info->params[k].offset);
            *v = (float) (*v / factor);
          }
    }
}

gboolean
lm_stage_equal (const LmStage *a, const LmStage *b)
{
  if (a->info != b->info || a->enabled != b->enabled)
    return FALSE;
  return !a->enabled || memcmp (a->params.bytes, b->params.bytes, a->info->params_size) == 0;
}

GKeyFile *
lm_pipeline_to_keyfile (const LmPipeline *pipeline)
{
  GKeyFile *keyfile = g_key_file_new ();
  for (int i = 0; i < LM_N_OPS; i++)
    {
      const LmStage *stage = &pipeline->stages[i];
      const char *group = stage->info->name;
      g_key_file_set_boolean (keyfile, group, "enabled", stage->enabled);
      for (guint k = 0; k < stage->info->n_params; k++)
        {
          const LmParamSpec *spec = &stage->info->params[k];
          g_autofree char *value = lm_op_param_to_string (spec, stage->params.bytes);
          g_key_file_set_string (keyfile, group, spec->name, value);
        }
    }
  return keyfile;
}

gboolean
lm_pipeline_from_keyfile (LmPipeline *pipeline, GKeyFile *keyfile, GError **error)
{
  LmPipeline result = *pipeline;
  g_auto (GStrv) groups = g_key_file_get_groups (keyfile, NULL);
  for (int g = 0; groups[g] != NULL; g++)
    {
      const LmOpInfo *info = lm_op_info_by_name (groups[g]);
      if (info == NULL)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("unknown operation [%s]"), groups[g]);
          return FALSE;
        }
      LmStage *stage = &result.stages[info->id];
      g_auto (GStrv) keys = g_key_file_get_keys (keyfile, groups[g], NULL, NULL);
      for (int k = 0; keys[k] != NULL; k++)
        {
          g_autofree char *value = g_key_file_get_string (keyfile, groups[g], keys[k], NULL);
          if (g_str_equal (keys[k], "enabled"))
            {
              GError *e = NULL;
              stage->enabled = g_key_file_get_boolean (keyfile, groups[g], keys[k], &e);
              if (e != NULL)
                {
                  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, "[%s] enabled: %s", groups[g],
                               e->message);
                  g_error_free (e);
                  return FALSE;
                }
              continue;
            }
          const LmParamSpec *spec = NULL;
          for (guint i = 0; i < info->n_params; i++)
            if (g_str_equal (info->params[i].name, keys[k]))
              spec = &info->params[i];
          if (spec == NULL)
            {
              g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s]: unknown parameter “%s”"),
                           groups[g], keys[k]);
              return FALSE;
            }
          if (!lm_op_param_parse (info, spec, stage->params.bytes, value, error))
            return FALSE;
        }
    }
  *pipeline = result;
  return TRUE;
}
