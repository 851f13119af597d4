/* Instances of operations in a pipeline (core/edit/instances.c): add, duplicate, remove,
 * move, rename, masks, the rules lm_pipeline_check holds, equality and history. */
#include <string.h>

#include "core/edit/history.h"
#include "core/error.h"
#include "test-util.h"

static int
index_of (const LmPipeline *p, LmOpId op, guint nth)
{
  for (guint i = 0; i < p->n; i++)
    if (p->inst[i].info->id == op && nth-- == 0)
      return (int) i;
  return -1;
}

static void
assert_valid (const LmPipeline *p)
{
  GError *error = NULL;
  g_assert_true (lm_pipeline_check (p, &error));
  g_assert_no_error (error);
}

static void
test_init (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  g_assert_cmpuint (p.n, ==, LM_N_OPS);
  for (int op = 0; op < LM_N_OPS; op++)
    {
      g_assert_true (&p.inst[op] == lm_pipeline_stage (&p, op));
      g_assert_true (lm_stage_is_primary (&p.inst[op]));
      g_assert_cmpint (p.inst[op].mask, ==, -1);
    }
  g_assert_true (lm_pipeline_is_primary_only (&p));
  assert_valid (&p);
}

static void
test_add_duplicate (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  LmStage *primary = lm_pipeline_stage (&p, LM_OP_EXPOSURE);
  primary->enabled = TRUE;
  primary->params.exposure.ev = 0.5f;
  int at = -1;
  GError *error = NULL;
  g_assert_true (lm_pipeline_duplicate (&p, index_of (&p, LM_OP_EXPOSURE, 0), &at, &error));
  g_assert_no_error (error);
  g_assert_cmpint (at, ==, index_of (&p, LM_OP_EXPOSURE, 0) + 1);
  LmStage *copy = &p.inst[at];
  g_assert_cmpuint (copy->id, >=, LM_INSTANCE_ID_FIRST);
  g_assert_false (lm_stage_is_primary (copy));
  g_assert_true (copy->enabled);
  g_assert_cmpfloat (copy->params.exposure.ev, ==, 0.5f);
  g_assert_cmpstr (copy->name, ==, "Exposure 2");
  /* The primary is still the one lm_pipeline_stage reaches. */
  g_assert_true (lm_stage_is_primary (lm_pipeline_stage (&p, LM_OP_EXPOSURE)));
  g_assert_cmpint (at, ==, index_of (&p, LM_OP_EXPOSURE, 1));
  g_assert_false (lm_pipeline_is_primary_only (&p));
  assert_valid (&p);

  /* Added: default parameters, disabled, after the op's last instance, the next free name. */
  int added = -1;
  g_assert_true (lm_pipeline_add (&p, LM_OP_EXPOSURE, &added, &error));
  g_assert_cmpint (added, ==, at + 1);
  g_assert_false (p.inst[added].enabled);
  g_assert_cmpfloat (p.inst[added].params.exposure.ev, ==, 0.0f);
  g_assert_cmpstr (p.inst[added].name, ==, "Exposure 3");
  g_assert_cmpuint (p.inst[added].id, !=, copy->id);
  g_assert_true (p.inst[added + 1].info->id == LM_OP_CONTRAST);
  assert_valid (&p);

  /* Geometry and the export's resize run once. */
  g_assert_false (lm_pipeline_add (&p, LM_OP_CROP, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (lm_pipeline_duplicate (&p, index_of (&p, LM_OP_RESIZE, 0), NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
}

static void
test_full (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  GError *error = NULL;
  while (p.n < LM_PIPELINE_MAX)
    g_assert_true (lm_pipeline_add (&p, LM_OP_BLUR, NULL, &error));
  g_assert_false (lm_pipeline_add (&p, LM_OP_BLUR, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "as many as it holds"));
  g_clear_error (&error);
  assert_valid (&p);
}

static void
test_remove (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  int at;
  LmMask mask = { .n_shapes = 0, .opacity = 0.5f };
  g_assert_true (lm_pipeline_add (&p, LM_OP_BLUR, &at, NULL));
  g_assert_true (lm_pipeline_mask_attach (&p, at, &mask, NULL));
  guint32 id = p.inst[at].id;
  int slot = p.inst[at].mask;
  lm_pipeline_remove (&p, at);
  g_assert_cmpuint (p.n, ==, LM_N_OPS);
  g_assert_cmpint (lm_pipeline_find (&p, id), ==, -1);
  g_assert_cmpfloat (p.masks[slot].opacity, ==, 0.0f); /* the slot is free again */
  assert_valid (&p);

  /* A primary stays, disabled and unmasked. */
  LmStage *blur = lm_pipeline_stage (&p, LM_OP_BLUR);
  blur->enabled = TRUE;
  g_assert_true (lm_pipeline_mask_attach (&p, index_of (&p, LM_OP_BLUR, 0), &mask, NULL));
  lm_pipeline_remove (&p, index_of (&p, LM_OP_BLUR, 0));
  g_assert_cmpuint (p.n, ==, LM_N_OPS);
  g_assert_false (lm_pipeline_stage (&p, LM_OP_BLUR)->enabled);
  g_assert_cmpint (lm_pipeline_stage (&p, LM_OP_BLUR)->mask, ==, -1);
  assert_valid (&p);
}

static void
test_move (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  GError *error = NULL;
  int at;
  g_assert_true (lm_pipeline_add (&p, LM_OP_BLUR, &at, NULL));
  guint32 id = p.inst[at].id;
  /* Up past equalize and the primaries before it, down to the geometry. */
  int first = index_of (&p, LM_OP_CROP, 0) + 1;
  while (at > first)
    {
      g_assert_true (lm_pipeline_move (&p, at, -1, &error));
      g_assert_no_error (error);
      at--;
      g_assert_cmpuint (p.inst[at].id, ==, id);
      assert_valid (&p);
    }
  g_assert_false (lm_pipeline_move (&p, at, -1, &error)); /* crop is before */
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (lm_pipeline_move (&p, index_of (&p, LM_OP_CROP, 0), 1, &error));
  g_clear_error (&error);
  /* Down to the resize, which stays last. */
  int resize = index_of (&p, LM_OP_RESIZE, 0);
  g_assert_true (lm_pipeline_move (&p, resize - 1, -1, NULL));
  g_assert_false (lm_pipeline_move (&p, resize - 1, 1, &error));
  g_clear_error (&error);
  assert_valid (&p);
}

static void
test_rename (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  GError *error = NULL;
  int at;
  g_assert_true (lm_pipeline_add (&p, LM_OP_EXPOSURE, &at, NULL));
  g_assert_true (lm_pipeline_rename (&p, at, "Ciel ☁", &error));
  g_assert_cmpstr (p.inst[at].name, ==, "Ciel ☁");
  const char *bad[] = { "two\nlines", "tab\there", "\xff\xfe", "0123456789012345678901234567890123456789012345678" };
  for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
    {
      g_assert_false (lm_pipeline_rename (&p, at, bad[k], &error));
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
      g_assert_null (strchr (error->message, '\n'));
      g_clear_error (&error);
      g_assert_cmpstr (p.inst[at].name, ==, "Ciel ☁");
    }
  /* "" gives an instance a fresh name, a primary its label. */
  g_assert_true (lm_pipeline_rename (&p, at, "", NULL));
  g_assert_cmpstr (p.inst[at].name, ==, "Exposure 2");
  int primary = index_of (&p, LM_OP_EXPOSURE, 0);
  g_assert_true (lm_pipeline_rename (&p, primary, "Base", NULL));
  g_assert_false (lm_pipeline_is_primary_only (&p));
  g_assert_true (lm_pipeline_rename (&p, primary, "", NULL));
  g_assert_cmpstr (p.inst[primary].name, ==, "");
}

static void
assert_invalid (const LmPipeline *p, const char *part)
{
  GError *error = NULL;
  g_assert_false (lm_pipeline_check (p, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, part));
  g_error_free (error);
}

static void
test_check (void)
{
  LmPipeline good;
  lm_pipeline_init (&good);
  int a, b;
  g_assert_true (lm_pipeline_add (&good, LM_OP_EXPOSURE, &a, NULL));
  g_assert_true (lm_pipeline_add (&good, LM_OP_BLUR, &b, NULL));
  assert_valid (&good);

  LmPipeline p = good;
  p.inst[b].id = p.inst[a].id;
  assert_invalid (&p, "same id");
  p = good;
  p.inst[a].id = LM_PRIMARY_ID (LM_OP_EXPOSURE); /* a second primary */
  assert_invalid (&p, "id");
  p = good;
  p.inst[a].id = p.next_id; /* an id the pipeline would give again */
  assert_invalid (&p, "id");
  p = good;
  p.inst[a].mask = 0, p.inst[b].mask = 0;
  assert_invalid (&p, "same mask");
  p = good;
  p.inst[a].mask = LM_PIPELINE_MASKS;
  assert_invalid (&p, "mask");
  p = good; /* crop after an exposure */
  LmStage crop = p.inst[LM_OP_CROP];
  memmove (&p.inst[LM_OP_CROP], &p.inst[LM_OP_CROP + 1], (a - LM_OP_CROP) * sizeof (LmStage));
  p.inst[a] = crop;
  assert_invalid (&p, "geometry");
  p = good; /* rotate and straighten swapped */
  LmStage s = p.inst[0];
  p.inst[0] = p.inst[1], p.inst[1] = s;
  assert_invalid (&p, "geometry");
  p = good; /* resize not last */
  s = p.inst[p.n - 1];
  p.inst[p.n - 1] = p.inst[p.n - 2], p.inst[p.n - 2] = s;
  assert_invalid (&p, "last");
  p = good; /* a primary missing */
  int primary = index_of (&p, LM_OP_EXPOSURE, 0);
  memmove (&p.inst[primary], &p.inst[primary + 1], (p.n - primary - 1) * sizeof (LmStage));
  p.n--;
  assert_invalid (&p, "first instance");
}

static void
test_equal (void)
{
  LmPipeline a, b;
  lm_pipeline_init (&a);
  int at;
  g_assert_true (lm_pipeline_add (&a, LM_OP_EXPOSURE, &at, NULL));
  b = a;
  g_assert_true (lm_pipeline_equal (&a, &b));
  /* Names, ids, order and masks tell pipelines apart, disabled instances' too. */
  g_assert_true (lm_pipeline_rename (&b, at, "Sky", NULL));
  g_assert_false (lm_pipeline_equal (&a, &b));
  b = a;
  b.inst[at].id++;
  g_assert_false (lm_pipeline_equal (&a, &b));
  b = a;
  g_assert_true (lm_pipeline_move (&b, at, 1, NULL));
  g_assert_false (lm_pipeline_equal (&a, &b));
  b = a;
  LmMask mask;
  memset (&mask, 0, sizeof mask);
  mask.opacity = 1;
  g_assert_true (lm_pipeline_mask_attach (&b, at, &mask, NULL));
  g_assert_false (lm_pipeline_equal (&a, &b));
  LmPipeline c = b;
  g_assert_true (lm_pipeline_equal (&b, &c));
  c.masks[c.inst[at].mask].feather = 0.01f;
  g_assert_false (lm_pipeline_equal (&b, &c));
  /* A mask slot that no instance refers to does not count. */
  c = a;
  c.masks[3].opacity = 1;
  g_assert_true (lm_pipeline_equal (&a, &c));
  b = a;
  lm_pipeline_remove (&b, at);
  g_assert_false (lm_pipeline_equal (&a, &b));
}

static void
test_history (void)
{
  LmPipeline start;
  lm_pipeline_init (&start);
  g_autoptr (LmHistory) h = lm_history_new (&start);
  LmPipeline p = start;
  int at;
  g_assert_true (lm_pipeline_duplicate (&p, index_of (&p, LM_OP_EXPOSURE, 0), &at, NULL));
  lm_history_push (h, &p);
  LmPipeline duplicated = p;
  g_assert_true (lm_pipeline_rename (&p, at, "Sky", NULL));
  lm_history_push (h, &p);
  LmMask mask;
  memset (&mask, 0, sizeof mask);
  mask.opacity = 0.25f;
  g_assert_true (lm_pipeline_mask_attach (&p, at, &mask, NULL));
  lm_history_push (h, &p);
  LmPipeline masked = p;
  lm_pipeline_remove (&p, at);
  lm_history_push (h, &p);

  LmPipeline got;
  g_assert_true (lm_history_undo (h, &got)); /* the removal */
  g_assert_true (lm_pipeline_equal (&got, &masked));
  g_assert_cmpfloat (lm_pipeline_stage_mask (&got, &got.inst[at])->opacity, ==, 0.25f);
  g_assert_true (lm_history_undo (h, &got));
  g_assert_true (lm_history_undo (h, &got)); /* the rename */
  g_assert_true (lm_pipeline_equal (&got, &duplicated));
  g_assert_cmpstr (got.inst[at].name, ==, "Exposure 2");
  g_assert_true (lm_history_undo (h, &got));
  g_assert_true (lm_pipeline_equal (&got, &start));
  g_assert_true (lm_history_redo (h, &got));
  g_assert_cmpuint (got.n, ==, LM_N_OPS + 1);
  g_assert_true (lm_pipeline_equal (&got, &duplicated));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/instances/init", test_init);
  g_test_add_func ("/instances/add-duplicate", test_add_duplicate);
  g_test_add_func ("/instances/full", test_full);
  g_test_add_func ("/instances/remove", test_remove);
  g_test_add_func ("/instances/move", test_move);
  g_test_add_func ("/instances/rename", test_rename);
  g_test_add_func ("/instances/check", test_check);
  g_test_add_func ("/instances/equal", test_equal);
  g_test_add_func ("/instances/history", test_history);
  return g_test_run ();
}
