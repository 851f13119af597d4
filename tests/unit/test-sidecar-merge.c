/* Apply Edits to Photos…'s Merge (lm_sidecar_merge_edits): each operation the edits applied
 * have on takes the place of the photo's same operation, parameters and all; the photo's
 * other operations stay as they were, on or off; operations off in the edits applied change
 * nothing; tone mapping is taken only where the edits applied changed it. */
#include "core/edit/sidecar.h"
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sidecar-merge/merge", test_merge);
  return g_test_run ();
}
