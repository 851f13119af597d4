/* Undo, redo, and what counts as unsaved. */
#include "core/edit/history.h"
#include "core/ops/blur-math.h"
#include "test-util.h"

static LmPipeline
with_blur (float sigma)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  LmStage *blur = lm_pipeline_stage (&p, LM_OP_BLUR);
  blur->enabled = TRUE;
  ((LmBlurParams *) blur->params.bytes)->sigma = sigma;
  return p;
}

static float
sigma_of (const LmPipeline *p)
{
  return ((const LmBlurParams *) lm_pipeline_primary (p, LM_OP_BLUR)->params.bytes)->sigma;
}

static void
test_undo_redo (void)
{
  LmPipeline start;
  lm_pipeline_init (&start);
  g_autoptr (LmHistory) h = lm_history_new (&start);
  g_assert_false (lm_history_can_undo (h));
  g_assert_false (lm_history_is_dirty (h));

  LmPipeline p1 = with_blur (1), p2 = with_blur (2), p3 = with_blur (3), got;
  lm_history_push (h, &p1);
  lm_history_push (h, &p2);
  lm_history_push (h, &p2); /* no change: no step */
  g_assert_true (lm_history_is_dirty (h));
  g_assert_true (lm_history_undo (h, &got));
  g_assert_cmpfloat (sigma_of (&got), ==, 1);
  g_assert_true (lm_history_undo (h, &got));
  g_assert_false (lm_pipeline_stage (&got, LM_OP_BLUR)->enabled);
  g_assert_false (lm_history_undo (h, &got));
  g_assert_false (lm_history_is_dirty (h)); /* back where the photo was opened */
  g_assert_true (lm_history_redo (h, &got));
  g_assert_cmpfloat (sigma_of (&got), ==, 1);

  /* A new change after undo drops what was undone. */
  lm_history_push (h, &p3);
  g_assert_false (lm_history_can_redo (h));
  g_assert_true (lm_history_undo (h, &got));
  g_assert_cmpfloat (sigma_of (&got), ==, 1);
}

static void
test_saved (void)
{
  LmPipeline start;
  lm_pipeline_init (&start);
  g_autoptr (LmHistory) h = lm_history_new (&start);
  LmPipeline p1 = with_blur (1), p2 = with_blur (2), got;
  lm_history_push (h, &p1);
  lm_history_mark_saved (h);
  g_assert_false (lm_history_is_dirty (h));
  lm_history_push (h, &p2);
  g_assert_true (lm_history_is_dirty (h));
  lm_history_undo (h, &got);
  g_assert_false (lm_history_is_dirty (h));
  lm_history_undo (h, &got);
  lm_history_push (h, &p2); /* the saved step is gone now */
  g_assert_true (lm_history_is_dirty (h));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/history/undo-redo", test_undo_redo);
  g_test_add_func ("/history/saved", test_saved);
  return g_test_run ();
}
