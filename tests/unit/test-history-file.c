/* The undo history kept beside the sidecar (core/edit/history-file.c): written and read back
 * step for step, bounded, its current step checked against the sidecar's edits, and every
 * damaged form refused with a message rather than read as something else. */
#include <string.h>
#include <glib/gstdio.h>

#include "core/edit/history-file.h"
#include "core/error.h"
#include "test-util.h"

static LmPipeline
with_exposure (float ev)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  LmStage *stage = lm_pipeline_stage (&p, LM_OP_EXPOSURE);
  stage->enabled = TRUE;
  stage->params.exposure.ev = ev;
  return p;
}

static float
ev_of (const LmPipeline *p)
{
  return lm_pipeline_primary (p, LM_OP_EXPOSURE)->params.exposure.ev;
}

static LmHistory *
history_of (guint n)
{
  LmPipeline start;
  lm_pipeline_init (&start);
  LmHistory *h = lm_history_new (&start);
  for (guint i = 1; i < n; i++)
    {
      LmPipeline p = with_exposure (0.01f * i);
      lm_history_push (h, &p);
    }
  return h;
}

static LmHistory *
read_back (GBytes *text, GError **error)
{
  LmPipeline base;
  lm_pipeline_init (&base);
  return lm_history_from_text (g_bytes_get_data (text, NULL), g_bytes_get_size (text), &base, error);
}

static void
test_round_trip (void)
{
  g_autoptr (LmHistory) h = history_of (4);
  LmPipeline got;
  g_assert_true (lm_history_undo (h, &got)); /* at step 2 of 0..3: one redo step */
  g_autoptr (GBytes) text = lm_history_to_text (h, NULL);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (text, NULL), "lumen-history 1\nsteps 4 current 2\nstep "));
  g_autoptr (GError) error = NULL;
  g_autoptr (LmHistory) back = read_back (text, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  if (back == NULL)
    return;
  g_assert_cmpuint (lm_history_n_steps (back), ==, 4);
  g_assert_cmpuint (lm_history_position (back), ==, 2);
  g_assert_false (lm_history_is_dirty (back)); /* the sidecar holds the current step */
  for (guint i = 0; i < 4; i++)
    g_assert_true (lm_pipeline_equal (lm_history_step (back, i), lm_history_step (h, i)));
  /* Undo goes through the earlier session's steps, and redo comes back. */
  g_assert_true (lm_history_undo (back, &got));
  g_assert_cmpfloat_with_epsilon (ev_of (&got), 0.01, 1e-6);
  g_assert_true (lm_history_redo (back, &got));
  g_assert_true (lm_history_redo (back, &got));
  g_assert_cmpfloat_with_epsilon (ev_of (&got), 0.03, 1e-6);
}

/* A change not yet grouped into a step is written as the current step, past the redo steps
 * it drops, as the window's commit will record it. */
static void
test_pending (void)
{
  g_autoptr (LmHistory) h = history_of (4);
  LmPipeline got;
  g_assert_true (lm_history_undo (h, &got));
  g_assert_true (lm_history_undo (h, &got)); /* at step 1 */
  LmPipeline now = with_exposure (2.5f);
  g_autoptr (GBytes) text = lm_history_to_text (h, &now);
  g_autoptr (LmHistory) back = read_back (text, NULL);
  g_assert_nonnull (back);
  if (back == NULL)
    return;
  g_assert_cmpuint (lm_history_n_steps (back), ==, 3);
  g_assert_cmpuint (lm_history_position (back), ==, 2);
  g_assert_true (lm_pipeline_equal (lm_history_step (back, 2), &now));
  g_assert_true (lm_pipeline_equal (lm_history_step (back, 1), lm_history_step (h, 1)));
}

/* At most LM_HISTORY_FILE_STEPS steps, the current one always among them: the steps up to
 * it first, then redo steps as they fit. */
static void
test_bounded (void)
{
  g_autoptr (LmHistory) h = history_of (150);
  g_autoptr (GBytes) newest = lm_history_to_text (h, NULL);
  g_autoptr (LmHistory) back = read_back (newest, NULL);
  g_assert_nonnull (back);
  if (back == NULL)
    return;
  g_assert_cmpuint (lm_history_n_steps (back), ==, LM_HISTORY_FILE_STEPS);
  g_assert_cmpuint (lm_history_position (back), ==, LM_HISTORY_FILE_STEPS - 1);
  g_assert_cmpfloat_with_epsilon (ev_of (lm_history_step (back, 0)), 0.01 * 50, 1e-5);

  LmPipeline got;
  for (int i = 0; i < 139; i++)
    lm_history_undo (h, &got); /* at step 10 of 150 */
  g_autoptr (GBytes) early = lm_history_to_text (h, NULL);
  g_autoptr (LmHistory) again = read_back (early, NULL);
  g_assert_nonnull (again);
  if (again == NULL)
    return;
  g_assert_cmpuint (lm_history_n_steps (again), ==, LM_HISTORY_FILE_STEPS);
  g_assert_cmpuint (lm_history_position (again), ==, 10);
  g_assert_false (lm_pipeline_stage ((LmPipeline *) lm_history_step (again, 0), LM_OP_EXPOSURE)->enabled);
  g_assert_cmpfloat_with_epsilon (ev_of (lm_history_step (again, 99)), 0.99, 1e-5);
  g_assert_cmpuint (g_bytes_get_size (early), <, LM_HISTORY_FILE_BYTES);
}

/* Damaged texts: each refused with a message, none read as a history. */
static void
test_bad_texts (void)
{
  g_autoptr (LmHistory) h = history_of (2);
  g_autoptr (GBytes) good = lm_history_to_text (h, NULL);
  gsize good_len = 0;
  const char *good_text = g_bytes_get_data (good, &good_len);
  const char *step0 = strstr (good_text, "step ");
  g_assert_nonnull (step0);
  g_autofree char *one_step = g_strdup_printf ("lumen-history 1\nsteps 1 current 0\nstep 18\n[lumen]\nversion=1\n\n");
  const char *cases[] = {
    "",
    "lumen-history 2\nsteps 1 current 0\nstep 0\n\n",
    "lumen-history 1\n",
    "lumen-history 1\nsteps 0 current 0\n",
    "lumen-history 1\nsteps 101 current 0\n",
    "lumen-history 1\nsteps 2 current 2\n",
    "lumen-history 1\nsteps -1 current 0\n",
    "lumen-history 1\nsteps 1 current 0 \n",
    "lumen-history 1\nsteps 1 current 0\nstep 999999999\n[lumen]\n",
    "lumen-history 1\nsteps 1 current 0\nstep 18446744073709551615\n",
    "lumen-history 1\nsteps 1 current 0\nstep 5\n[lumen]\n",            /* no \n where the step ends */
    "lumen-history 1\nsteps 1 current 0\nstep 8\n[nope]\nx\n",            /* not a sidecar */
    "lumen-history 1\nsteps 2 current 0\nstep 18\n[lumen]\nversion=1\n\n", /* a step missing */
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      LmPipeline base;
      lm_pipeline_init (&base);
      g_autoptr (LmHistory) back = lm_history_from_text (cases[i], strlen (cases[i]), &base, &error);
      g_test_message ("case %u: %s", i, error ? error->message : "(read)");
      g_assert_null (back);
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_FORMAT);
    }
  /* The well-formed one-step text reads; with a byte after it, or a NUL in its header, not. */
  LmPipeline base;
  lm_pipeline_init (&base);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmHistory) one = lm_history_from_text (one_step, strlen (one_step), &base, &error);
  g_assert_no_error (error);
  g_assert_nonnull (one);
  g_autofree char *trailing = g_strconcat (one_step, "x", NULL);
  g_autoptr (LmHistory) two = lm_history_from_text (trailing, strlen (trailing), &base, NULL);
  g_assert_null (two);
  g_autofree char *nul = g_strdup (one_step);
  nul[22] = '\0'; /* inside "steps 1 current 0" */
  g_autoptr (LmHistory) three = lm_history_from_text (nul, strlen (one_step), &base, NULL);
  g_assert_null (three);
  /* Every cut of a good text is refused (ASan watches the reads). */
  for (gsize n = 0; n < good_len; n++)
    {
      g_autofree char *cut = g_memdup2 (good_text, n);
      g_autoptr (LmHistory) back = lm_history_from_text (cut, n, &base, NULL);
      g_assert_null (back);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* On disk: loaded where its current step is the sidecar's edits; the sidecar's a step more where not;
 * damaged: the message names the file; none: nothing. */
static void
test_load (void)
{
  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), "photo.jpg.lumen-history", NULL);
  g_autoptr (LmHistory) h = history_of (3);
  LmPipeline base;
  lm_pipeline_init (&base);
  LmHistory *got = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_cmpint (lm_history_file_load (path, &base, &base, &got, &error), ==, LM_HISTORY_FILE_NONE);
  g_assert_no_error (error);

  g_assert_true (lm_history_file_write (path, h, NULL, &error));
  g_assert_no_error (error);
  LmPipeline opened = with_exposure (0.02f);
  g_assert_cmpint (lm_history_file_load (path, &base, &opened, &got, &error), ==, LM_HISTORY_FILE_LOADED);
  g_assert_nonnull (got);
  g_assert_cmpuint (got ? lm_history_n_steps (got) : 0, ==, 3);
  g_clear_pointer (&got, lm_history_free);

  /* The sidecar changed elsewhere (another value): its edits are one more step, after the
   * earlier sessions' three, and Undo goes back to the look before the change. */
  LmPipeline elsewhere = with_exposure (1.0f);
  g_assert_cmpint (lm_history_file_load (path, &base, &elsewhere, &got, &error), ==, LM_HISTORY_FILE_CHANGED);
  g_assert_no_error (error);
  g_assert_nonnull (got);
  g_assert_cmpuint (got ? lm_history_n_steps (got) : 0, ==, 4);
  g_assert_true (got && lm_pipeline_equal (lm_history_step (got, lm_history_position (got)), &elsewhere));
  LmPipeline undone;
  g_assert_true (got && lm_history_undo (got, &undone));
  g_assert_true (lm_pipeline_equal (&undone, &opened));
  g_clear_pointer (&got, lm_history_free);

  g_assert_true (g_file_set_contents (path, "lumen-history 1\nsteps 1 current 0\nstep 3\n[x\n", -1, NULL));
  g_assert_cmpint (lm_history_file_load (path, &base, &opened, &got, &error), ==, LM_HISTORY_FILE_BAD);
  g_assert_null (got);
  g_assert_nonnull (error);
  g_assert_true (error && g_str_has_prefix (error->message, path));
  g_assert_true (error && strchr (error->message, '\n') == NULL);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS)); /* left for the person to look at */
  g_clear_error (&error);

  /* A folder where the file should be: refused by name, not read. */
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  g_assert_cmpint (lm_history_file_load (path, &base, &opened, &got, &error), ==, LM_HISTORY_FILE_BAD);
  g_assert_nonnull (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/history-file/round-trip", test_round_trip);
  g_test_add_func ("/history-file/pending", test_pending);
  g_test_add_func ("/history-file/bounded", test_bounded);
  g_test_add_func ("/history-file/bad-texts", test_bad_texts);
  g_test_add_func ("/history-file/load", test_load);
  return g_test_run ();
}
