/* The steps of a render (plan.h). */
#include "plan.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"

static LmPlanStep *
add_step (LmPlan *plan, LmPlanKind kind, gboolean scene, guint32 key, const char *label)
{
  LmPlanStep *step = &plan->steps[plan->n++];
  memset (step, 0, sizeof *step);
  step->kind = kind, step->scene = scene, step->key = key;
  g_strlcpy (step->label, label, sizeof step->label);
  return step;
}

static void
add_label (LmPlanStep *step, const char *name)
{
  if (step->label[0])
    g_strlcat (step->label, "+", sizeof step->label);
  g_strlcat (step->label, name, sizeof step->label);
}

/* STEP runs instance INDEX of PIPELINE: its mask, if it has one. */
static void
set_mask (LmPlanStep *step, const LmPipeline *pipeline, guint index)
{
  const LmStage *stage = &pipeline->inst[index];
  step->index = index;
  if (stage->mask < 0)
    return;
  step->masked = TRUE;
  memcpy (&step->mask, &pipeline->masks[stage->mask], sizeof step->mask);
}

/* Whether the pass of STEP (COLOR_OPS: the POINT_COLOR operations in it) can take INFO after
 * what it holds, keeping to list order (point-math.h). */
static gboolean
pass_takes (const LmPlanStep *step, guint32 color_ops, const LmOpInfo *info)
{
  if (step->pass.n_recipe >= LM_POINT_RECIPE_MAX)
    return FALSE;
  if (lm_op_kind (info->id) == LM_KIND_POINT)
    return color_ops == 0;
  return (color_ops & (1u << info->id)) == 0;
}

/* The display side's instances of PIPELINE (those not already run on scene light) into PLAN. */
static void
plan_display (LmPlan *plan, const LmPipeline *pipeline, gboolean scene)
{
  LmPlanStep *pass = NULL; /* the open pass, while the instances before were points */
  guint32 color_ops = 0;
  for (guint i = 0; i < pipeline->n; i++)
    {
      const LmStage *stage = &pipeline->inst[i];
      if (!stage->enabled || (scene && stage->info->on_scene))
        continue;
      if (!lm_op_is_point (stage->info->id))
        {
          LmPlanStep *step = add_step (plan, LM_PLAN_OP, FALSE, stage->id, stage->info->name);
          step->stage = *stage;
          set_mask (step, pipeline, i);
          pass = NULL;
          continue;
        }
      if (stage->mask >= 0)
        {
          LmPlanStep *step = add_step (plan, LM_PLAN_POINTS, FALSE, stage->id, stage->info->name);
          lm_point_pass_init (&step->pass);
          lm_point_pass_add (&step->pass, stage->info, stage->params.bytes);
          set_mask (step, pipeline, i);
          pass = NULL;
          continue;
        }
      if (pass == NULL || !pass_takes (pass, color_ops, stage->info))
        {
          pass = add_step (plan, LM_PLAN_POINTS, FALSE, stage->id, "");
          lm_point_pass_init (&pass->pass);
          color_ops = 0;
        }
      lm_point_pass_add (&pass->pass, stage->info, stage->params.bytes);
      if (lm_op_kind (stage->info->id) == LM_KIND_POINT_COLOR)
        color_ops |= 1u << stage->info->id;
      add_label (pass, stage->info->name);
    }
}

LmPlan *
lm_render_plan (const LmPipeline *pipeline, gboolean scene, gboolean raw, GError **error)
{
  for (guint i = 0; i < pipeline->n; i++)
    {
      const LmStage *stage = &pipeline->inst[i];
      LmOpKind kind = lm_op_kind (stage->info->id);
      if (stage->enabled && stage->mask >= 0 && (kind == LM_KIND_GEOMETRY || kind == LM_KIND_EXPORT))
        {
          g_autofree char *name = lm_stage_display_name (stage);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                       _("%s cannot have a mask: it changes the image's size"), name);
          return NULL;
        }
    }
  LmPlan *plan = g_new (LmPlan, 1);
  plan->n = 0;
  if (scene)
    {
      if (raw)
        add_step (plan, LM_PLAN_RAW, TRUE, LM_PLAN_KEY_RAW, pipeline->raw.info->name)->stage = pipeline->raw;
      /* Gains commute: every enabled one folds into one step, wherever it is in the list. */
      LmPlanStep gain = { .gain = { 1.0f, 1.0f, 1.0f } };
      for (guint i = 0; i < pipeline->n; i++)
        {
          const LmStage *stage = &pipeline->inst[i];
          if (!stage->enabled || !stage->info->on_scene || stage->info->scene_gain == NULL || stage->mask >= 0)
            continue;
          float g[3];
          stage->info->scene_gain (stage->params.bytes, g);
          for (int c = 0; c < 3; c++)
            gain.gain[c] *= g[c];
          add_label (&gain, stage->info->name);
        }
      if (gain.label[0])
        memcpy (add_step (plan, LM_PLAN_SCENE_GAIN, TRUE, LM_PLAN_KEY_SCENE_GAIN, gain.label)->gain, gain.gain,
                sizeof gain.gain);
      for (guint i = 0; i < pipeline->n; i++)
        {
          const LmStage *stage = &pipeline->inst[i];
          if (!stage->enabled || !stage->info->on_scene)
            continue;
          if (stage->info->scene_gain == NULL)
            {
              LmPlanStep *step = add_step (plan, LM_PLAN_OP, TRUE, stage->id, stage->info->name);
              step->stage = *stage;
              set_mask (step, pipeline, i);
            }
          else if (stage->mask >= 0)
            {
              LmPlanStep *step = add_step (plan, LM_PLAN_SCENE_GAIN, TRUE, stage->id, stage->info->name);
              stage->info->scene_gain (stage->params.bytes, step->gain);
              step->stage = *stage;
              set_mask (step, pipeline, i);
            }
        }
      LmPlanStep *tone = add_step (plan, LM_PLAN_TONEMAP, FALSE, LM_PLAN_KEY_TONEMAP, pipeline->tonemap.info->name);
      tone->stage = pipeline->tonemap;
      tone->stage.enabled = TRUE;
    }
  plan_display (plan, pipeline, scene);
  return plan;
}

void
lm_plan_step_output (const LmPlanStep *step, gboolean deep_display, LmFormat format, guint width, guint height,
                     gboolean opaque, LmFormat *out_format, guint *out_width, guint *out_height)
{
  const LmStage *stage = &step->stage;
  *out_width = width, *out_height = height;
  *out_format = LM_FORMAT_RGBA_F32; /* scene light, up to the display transform */
  if (step->kind == LM_PLAN_POINTS)
    *out_format = lm_point_output_format (NULL, format, opaque);
  else if (step->kind == LM_PLAN_TONEMAP)
    /* A raw's display-referred result (a merge of raws' too) keeps 16 bits for the edits and
     * the export. */
    *out_format = deep_display ? LM_FORMAT_RGBA16 : stage->info->output_format (stage->params.bytes, format, opaque);
  else if (step->kind == LM_PLAN_OP)
    {
      *out_format = stage->info->output_format (stage->params.bytes, format, opaque);
      lm_op_output_size (stage->info, stage->params.bytes, width, height, out_width, out_height);
    }
}
