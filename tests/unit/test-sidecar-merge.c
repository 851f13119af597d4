/* Apply Edits to Photos…'s Merge (lm_sidecar_merge_edits): each operation the edits applied
 * have on takes the place of the photo's same operation, parameters and all; the photo's
 * other operations stay as they were, on or off; operations off in the edits applied change
 * nothing; tone mapping is taken only where the edits applied changed it. */
#include <string.h>

#include "core/edit/sidecar.h"
#include "core/error.h"
#include "test-util.h"

static void
set (LmStage *stage, const char *name, const char *value)
{
  for (guint i = 0; i < stage->info->n_params; i++)
    if (g_str_equal (stage->info->params[i].name, name))
      {
        g_assert_true (lm_op_param_parse (stage->info, &stage->info->params[i], stage->params.bytes, value, NULL));
        return;
      }
  g_assert_not_reached ();
}

static void
test_merge (void)
{
  /* The photo's own: blur σ 0.8 and grayscale (BT.601) on; exposure set to +1 but off. */
  LmPipeline own;
  lm_pipeline_init (&own);
  LmStage *blur = lm_pipeline_stage (&own, LM_OP_BLUR);
  blur->enabled = TRUE;
  set (blur, "sigma", "0.8");
  LmStage *gray = lm_pipeline_stage (&own, LM_OP_GRAY);
  gray->enabled = TRUE;
  set (gray, "mode", "bt601");
  set (lm_pipeline_stage (&own, LM_OP_EXPOSURE), "ev", "1");

  /* Applied: blur σ 3 and white balance 4000 K on; grayscale off in another mode (average). */
  LmPipeline applied;
  lm_pipeline_init (&applied);
  LmStage *ablur = lm_pipeline_stage (&applied, LM_OP_BLUR);
  ablur->enabled = TRUE;
  set (ablur, "sigma", "3");
  LmStage *wb = lm_pipeline_stage (&applied, LM_OP_WB);
  wb->enabled = TRUE;
  set (wb, "temperature", "4000");
  set (lm_pipeline_stage (&applied, LM_OP_GRAY), "mode", "average");

  LmPipeline merged = own;
  g_assert_true (lm_sidecar_merge_edits (&merged, &applied, NULL));
  /* What each stage must be, built stage by stage. */
  LmPipeline want = own;
  *lm_pipeline_stage (&want, LM_OP_BLUR) = *ablur;
  *lm_pipeline_stage (&want, LM_OP_WB) = *wb;
  g_assert_true (lm_pipeline_equal (&merged, &want));
  g_assert_true (lm_stage_equal (lm_pipeline_stage (&merged, LM_OP_GRAY), gray)); /* BT.601, on */
  g_assert_cmpmem (lm_pipeline_stage (&merged, LM_OP_EXPOSURE), sizeof (LmStage),
                   lm_pipeline_stage (&own, LM_OP_EXPOSURE), sizeof (LmStage)); /* off, +1 kept */
  g_assert_true (lm_stage_equal (&merged.tonemap, &own.tonemap));

  /* Nothing applied: nothing changes. */
  LmPipeline none, again = own;
  lm_pipeline_init (&none);
  g_assert_true (lm_sidecar_merge_edits (&again, &none, NULL));
  g_assert_cmpmem (&again, sizeof again, &own, sizeof own);
}

/* Instances and masks: APPLIED's exposure#70 (masked) replaces the photo's exposure#70, mask
 * and all; its blur#71 meets the photo's gray#71 (another operation) and comes after the
 * photo's blurs under a fresh id; a masked primary brings its mask. Nothing else moves. */
static void
test_merge_instances (void)
{
  LmMask sky, disc;
  memset (&sky, 0, sizeof sky);
  sky.opacity = 0.5f, sky.n_shapes = 1, sky.shape[0].kind = LM_MASK_LINEAR, sky.shape[0].g[3] = 0.3f;
  memset (&disc, 0, sizeof disc);
  disc.opacity = 1, disc.feather = 0.01f;

  LmPipeline own;
  lm_pipeline_init (&own);
  int e, g;
  g_assert_true (lm_pipeline_add (&own, LM_OP_EXPOSURE, &e, NULL));
  own.inst[e].id = 70;
  set (&own.inst[e], "ev", "1");
  own.inst[e].enabled = TRUE;
  g_assert_true (lm_pipeline_mask_attach (&own, e, &disc, NULL));
  g_assert_true (lm_pipeline_add (&own, LM_OP_GRAY, &g, NULL));
  own.inst[g].id = 71;
  own.next_id = 72;
  g_assert_true (lm_pipeline_check (&own, NULL));

  LmPipeline applied;
  lm_pipeline_init (&applied);
  int ae, ab;
  g_assert_true (lm_pipeline_add (&applied, LM_OP_EXPOSURE, &ae, NULL));
  applied.inst[ae].id = 70;
  applied.inst[ae].enabled = TRUE;
  set (&applied.inst[ae], "ev", "-0.5");
  g_assert_true (lm_pipeline_rename (&applied, ae, "Sky", NULL));
  g_assert_true (lm_pipeline_mask_attach (&applied, ae, &sky, NULL));
  g_assert_true (lm_pipeline_add (&applied, LM_OP_BLUR, &ab, NULL));
  applied.inst[ab].id = 71;
  applied.inst[ab].enabled = TRUE;
  set (&applied.inst[ab], "sigma", "2");
  applied.next_id = 72;
  LmStage *blur = lm_pipeline_stage (&applied, LM_OP_BLUR);
  blur->enabled = TRUE;
  g_assert_true (lm_pipeline_mask_attach (&applied, (guint) (blur - applied.inst), &disc, NULL));

  LmPipeline merged = own;
  GError *error = NULL;
  g_assert_true (lm_sidecar_merge_edits (&merged, &applied, &error));
  g_assert_no_error (error);
  g_assert_true (lm_pipeline_check (&merged, NULL));
  g_assert_cmpuint (merged.n, ==, own.n + 1);
  const LmStage *me = &merged.inst[lm_pipeline_find (&merged, 70)];
  g_assert_cmpstr (me->name, ==, "Sky");
  g_assert_cmpfloat (me->params.exposure.ev, ==, -0.5f);
  g_assert_cmpmem (lm_pipeline_stage_mask (&merged, me), sizeof sky, &sky, sizeof sky);
  const LmStage *mg = &merged.inst[lm_pipeline_find (&merged, 71)];
  g_assert_true (mg->info->id == LM_OP_GRAY); /* the photo's own, untouched */
  g_assert_true (lm_stage_equal (mg, &own.inst[g]));
  /* The applied blur#71 after the photo's blur, under a fresh id. */
  const LmStage *mb = lm_pipeline_stage (&merged, LM_OP_BLUR) + 1;
  g_assert_true (mb->info->id == LM_OP_BLUR);
  g_assert_cmpuint (mb->id, ==, 72);
  g_assert_cmpfloat (mb->params.blur.sigma, ==, 2.0f);
  g_assert_cmpmem (lm_pipeline_stage_mask (&merged, lm_pipeline_stage (&merged, LM_OP_BLUR)), sizeof disc, &disc,
                   sizeof disc);

  /* A photo whose edits hold no more instances: refused, its edits as they were. */
  LmPipeline full;
  lm_pipeline_init (&full);
  while (full.n < LM_PIPELINE_MAX)
    g_assert_true (lm_pipeline_add (&full, LM_OP_CONTRAST, NULL, NULL));
  LmPipeline kept = full;
  g_assert_false (lm_sidecar_merge_edits (&full, &applied, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (lm_pipeline_equal (&full, &kept));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sidecar-merge/merge", test_merge);
  g_test_add_func ("/sidecar-merge/instances", test_merge_instances);
  return g_test_run ();
}
