/* The render's context for the operations' commit steps (commit.h), and a pipeline
 * committed with it (pipeline.h). */
#include "commit.h"

#include <string.h>

#include "../color/profile.h"
#include "../io/exif-shot.h"
#include "../lens/lens-db.h"
#include "../ops/lens.h"
#include "pipeline.h"

static double
to_linear (const void *space, int c, double v)
{
  return lm_color_profile_to_linear (space, c, v);
}

static double
from_linear (const void *space, int c, double l)
{
  return lm_color_profile_from_linear (space, c, l);
}

void
lm_op_context_init (LmOpContext *context, const LmColorProfile *profile)
{
  memset (context, 0, sizeof *context);
  context->lens_find = lm_lens_find;
  if (profile == NULL || lm_color_profile_is_srgb (profile))
    return;
  LmOpColor *color = &context->color;
  color->space = profile;
  color->to_linear = to_linear;
  color->from_linear = from_linear;
  lm_color_profile_luminance (profile, color->luminance);
  lm_color_profile_xyz_to_rgb (profile, color->xyz_to_rgb);
}

void
lm_pipeline_set_color (LmPipeline *pipeline, const LmColorProfile *profile)
{
  lm_pipeline_commit (pipeline, profile, NULL);
}

void
lm_pipeline_commit (LmPipeline *pipeline, const LmColorProfile *profile, const LmShotInfo *shot)
{
  LmOpContext context;
  lm_op_context_init (&context, profile);
  context.shot = shot;
  for (guint i = 0; i < pipeline->n; i++)
    {
      LmStage *stage = &pipeline->inst[i];
      /* A disabled stage looks nothing up: the lens correction's lookup would load lensfun's
       * database for a photo that does not use it. */
      context.lens_find = stage->enabled ? lm_lens_find : NULL;
      if (stage->info->commit)
        stage->info->commit (stage->params.bytes, &context);
    }
}

gboolean
lm_pipeline_check_ops (const LmPipeline *pipeline, GError **error)
{
  for (guint i = 0; i < pipeline->n; i++)
    {
      const LmStage *stage = &pipeline->inst[i];
      if (stage->enabled && stage->info->check && !stage->info->check (stage->params.bytes, error))
        return FALSE;
    }
  return TRUE;
}

/* A copy of PIPELINE committed with PROFILE and how SOURCE was taken. */
static LmPipeline *
committed_for (const LmPipeline *pipeline, const LmColorProfile *profile, const LmImage *source)
{
  LmPipeline *copy = g_memdup2 (pipeline, sizeof *pipeline);
  LmShotInfo shot;
  lm_shot_info_from_image (source, &shot);
  lm_pipeline_commit (copy, profile, &shot);
  return copy;
}

char *
lm_pipeline_lens_note (const LmPipeline *pipeline, const LmColorProfile *profile, const LmImage *source)
{
  gboolean asked = FALSE;
  for (guint i = 0; i < pipeline->n; i++)
    asked = asked || (pipeline->inst[i].enabled && pipeline->inst[i].info->id == LM_OP_LENS);
  if (!asked) /* no commit: it would read the EXIF */
    return NULL;
  g_autofree LmPipeline *committed = committed_for (pipeline, profile, source);
  for (guint i = 0; i < committed->n; i++)
    {
      const LmStage *stage = &committed->inst[i];
      char *note = stage->enabled && stage->info->id == LM_OP_LENS ? lm_lens_note (stage->params.bytes) : NULL;
      if (note)
        return note;
    }
  return NULL;
}

gboolean
lm_pipeline_photo_point (const LmPipeline *pipeline, const LmImage *source, double x, double y, double *sx,
                         double *sy)
{
  g_autofree LmPipeline *committed = committed_for (pipeline, NULL, source);
  return lm_pipeline_source_point (committed, source->width, source->height, x, y, sx, sy);
}
