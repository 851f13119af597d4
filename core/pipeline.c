#include "pipeline.h"

#include <string.h>
#include <glib/gi18n.h>

#include "error.h"

static const LmEnumValue tonemap_kinds[] = {
  { "none", N_("None (clip to 0..1)") },
  { "gamma", N_("Gamma") },
  { "reinhard", N_("Reinhard") },
  { "drago", N_("Drago") },
  { NULL, NULL },
};

#define TONEMAP_FIELD(f) G_STRUCT_OFFSET (LmTonemapParams, f)

/* Ranges as OpenCV documents them (Drago's bias 0.7..0.9). The defaults are OpenCV's but for
 * the gamma: OpenCV's 1 leaves the operators' linear output, which looks a stop or two dark
 * (median luma 0.14 to 0.21 of full scale on the test stacks forest, courtyard and
 * sunset-handheld with Reinhard); a display's 2.2, as photographers expect, gives 0.40 to 0.49.
 * This table is the window's and the sidecars' defaults; lumen-cli hdr and batch keep
 * OpenCV's (LM_CLI_TONE_INIT), which tests/hdr compares with OpenCV. */
static const LmParamSpec tonemap_params[] = {
  { "kind", N_("Operator"), LM_PARAM_ENUM, TONEMAP_FIELD (kind), 0, 3, LM_TONEMAP_REINHARD,
    tonemap_kinds },
  { "gamma", N_("Gamma"), LM_PARAM_FLOAT, TONEMAP_FIELD (gamma), 0.1, 5.0, 2.2, NULL, FALSE,
    "kind=gamma|reinhard|drago" },
  { "intensity", N_("Intensity"), LM_PARAM_FLOAT, TONEMAP_FIELD (intensity), -8.0, 8.0, 0.0, NULL,
    FALSE, "kind=reinhard" },
  { "light_adapt", N_("Light adaptation"), LM_PARAM_FLOAT, TONEMAP_FIELD (light_adapt), 0.0, 1.0,
    1.0, NULL, FALSE, "kind=reinhard" },
  { "color_adapt", N_("Colour adaptation"), LM_PARAM_FLOAT, TONEMAP_FIELD (color_adapt), 0.0, 1.0,
    0.0, NULL, FALSE, "kind=reinhard" },
  { "saturation", N_("Saturation"), LM_PARAM_FLOAT, TONEMAP_FIELD (saturation), 0.0, 2.0, 1.0, NULL,
    FALSE, "kind=drago" },
  { "bias", N_("Bias"), LM_PARAM_FLOAT, TONEMAP_FIELD (bias), 0.7, 0.9, 0.85, NULL, FALSE,
    "kind=drago" },
};

G_STATIC_ASSERT (sizeof (LmTonemapParams) <= LM_OP_PARAMS_MAX);

static LmFormat
tonemap_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return LM_FORMAT_RGBA8;
}

static gboolean
tonemap_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_tonemap_cpu (params, src, dst, error);
}

static const LmOpInfo tonemap_info = {
  .id = LM_N_OPS,
  .name = "tonemap",
  .label = N_("Tone Mapping"),
  .blurb = N_("HDR radiance to 8 bits"),
  .params = tonemap_params,
  .n_params = G_N_ELEMENTS (tonemap_params),
  .params_size = sizeof (LmTonemapParams),
  .output_format = tonemap_output_format,
  .run_cpu = tonemap_run_cpu,
};

const LmOpInfo *
lm_tonemap_op_info (void)
{
  return &tonemap_info;
}

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
  pipeline->tonemap.info = &tonemap_info;
  pipeline->tonemap.enabled = TRUE;
  lm_op_params_init (&tonemap_info, pipeline->tonemap.params.bytes);
}

gboolean
lm_pipeline_equal (const LmPipeline *a, const LmPipeline *b)
{
  for (int i = 0; i < LM_N_OPS; i++)
    if (!lm_stage_equal (&a->stages[i], &b->stages[i]))
      return FALSE;
  return lm_stage_equal (&a->tonemap, &b->tonemap);
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
  for (guint k = 0; k < tonemap_info.n_params; k++)
    {
      const LmParamSpec *spec = &tonemap_info.params[k];
      g_autofree char *value = lm_op_param_to_string (spec, pipeline->tonemap.params.bytes);
      g_key_file_set_string (keyfile, tonemap_info.name, spec->name, value);
    }
  return keyfile;
}

static const LmParamSpec *
find_param (const LmOpInfo *info, const char *name)
{
  for (guint i = 0; i < info->n_params; i++)
    if (g_str_equal (info->params[i].name, name))
      return &info->params[i];
  return NULL;
}

/* The [tonemap] group: parameters only, no "enabled" (it applies whenever the source is
 * radiance). */
static gboolean
tonemap_from_keyfile (LmStage *stage, GKeyFile *keyfile, GError **error)
{
  const char *group = tonemap_info.name;
  g_auto (GStrv) keys = g_key_file_get_keys (keyfile, group, NULL, NULL);
  for (int k = 0; keys && keys[k] != NULL; k++)
    {
      const LmParamSpec *spec = find_param (&tonemap_info, keys[k]);
      if (spec == NULL)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s]: unknown parameter “%s”"), group,
                       keys[k]);
          return FALSE;
        }
      g_autofree char *value = g_key_file_get_string (keyfile, group, keys[k], NULL);
      if (!lm_op_param_parse (&tonemap_info, spec, stage->params.bytes, value ? value : "", error))
        return FALSE;
    }
  return TRUE;
}

gboolean
lm_pipeline_from_keyfile (LmPipeline *pipeline, GKeyFile *keyfile, GError **error)
{
  LmPipeline result = *pipeline;
  g_auto (GStrv) groups = g_key_file_get_groups (keyfile, NULL);
  for (int g = 0; groups[g] != NULL; g++)
    {
      if (g_str_equal (groups[g], tonemap_info.name))
        {
          if (!tonemap_from_keyfile (&result.tonemap, keyfile, error))
            return FALSE;
          continue;
        }
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
          const LmParamSpec *spec = find_param (info, keys[k]);
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
