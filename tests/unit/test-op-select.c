/* Selective paste (core/library/op-select.h): what a paste onto another photo leaves out by
 * default, and what REPLACE and APPEND make of the target's edits, stage by stage. */
#include <string.h>

#include "core/edit/sidecar.h"
#include "core/library/op-select.h"
#include "test-util.h"

static float
param (const LmStage *stage, const char *name)
{
  for (guint i = 0; i < stage->info->n_params; i++)
    if (g_str_equal (stage->info->params[i].name, name))
      return *(const float *) (stage->params.bytes + stage->info->params[i].offset);
  g_assert_not_reached ();
}

static const LmStage *
primary (const LmPipeline *p, LmOpId op)
{
  return lm_pipeline_primary (p, op);
}

/* The number of instances of OP in P. */
static guint
count (const LmPipeline *p, LmOpId op)
{
  guint n = 0;
  for (guint i = 0; i < p->n; i++)
    n += p->inst[i].info->id == op;
  return n;
}

/* A mask of one shape of KIND. */
static LmMask
mask_of (int kind)
{
  LmMask mask;
  memset (&mask, 0, sizeof mask);
  mask.n_shapes = 1;
  mask.shape[0].kind = (uint8_t) kind;
  mask.shape[0].opacity = 1;
  mask.shape[0].g[2] = 1;
  mask.opacity = 1;
  mask.detail = 0.1f;
  return mask;
}

/* The source: crop 10,20 100×50, straighten 2°, exposure +1, resize on, a second
 * saturation instance with a gradient mask and a second exposure with a brush mask. */
static void
make_source (LmPipeline *src)
{
  lm_pipeline_init (src);
  lm_test_set_param (src, "crop", "x", "10");
  lm_test_set_param (src, "crop", "y", "20");
  lm_test_set_param (src, "crop", "width", "100");
  lm_test_set_param (src, "crop", "height", "50");
  lm_test_set_param (src, "straighten", "angle", "2");
  lm_test_set_param (src, "exposure", "ev", "1");
  lm_test_set_param (src, "resize", NULL, NULL);
  int at;
  g_assert_true (lm_pipeline_add (src, LM_OP_SATURATION, &at, NULL));
  src->inst[at].enabled = TRUE;
  LmMask linear = mask_of (LM_MASK_LINEAR);
  g_assert_true (lm_pipeline_mask_attach (src, (guint) at, &linear, NULL));
  g_assert_true (lm_pipeline_add (src, LM_OP_EXPOSURE, &at, NULL));
  src->inst[at].enabled = TRUE;
  LmMask brush = mask_of (LM_MASK_BRUSH);
  g_assert_true (lm_pipeline_mask_attach (src, (guint) at, &brush, NULL));
}

static guint32
id_of (const LmPipeline *p, LmOpId op, gboolean want_primary)
{
  for (guint i = 0; i < p->n; i++)
    if (p->inst[i].info->id == op && lm_stage_is_primary (&p->inst[i]) == want_primary)
      return p->inst[i].id;
  g_assert_not_reached ();
}

static void
test_default (void)
{
  LmPipeline src;
  make_source (&src);
  LmOpSelection sel;
  lm_op_selection_default (&sel, &src);
  /* Framing, the export's size and a painted mask stay with their photo. */
  g_assert_false (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_CROP)));
  g_assert_false (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_ROTATE)));
  g_assert_false (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_STRAIGHTEN)));
  g_assert_false (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_LENS)));
  g_assert_false (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_RESIZE)));
  g_assert_false (lm_op_selection_has (&sel, id_of (&src, LM_OP_EXPOSURE, FALSE)));
  /* The look goes, a gradient-masked instance too. */
  g_assert_true (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_EXPOSURE)));
  g_assert_true (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_CURVE)));
  g_assert_true (lm_op_selection_has (&sel, id_of (&src, LM_OP_SATURATION, FALSE)));
  g_assert_true (sel.tonemap);
  /* 19 primaries and 2 instances, less 6. */
  g_assert_cmpuint (sel.n, ==, LM_N_OPS + 2 - 6);

  lm_op_selection_set_op (&sel, &src, LM_OP_SATURATION, FALSE);
  g_assert_false (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_SATURATION)));
  g_assert_false (lm_op_selection_has (&sel, id_of (&src, LM_OP_SATURATION, FALSE)));
  lm_op_selection_set (&sel, LM_PRIMARY_ID (LM_OP_CROP), TRUE);
  lm_op_selection_set (&sel, LM_PRIMARY_ID (LM_OP_CROP), TRUE); /* once only */
  g_assert_true (lm_op_selection_has (&sel, LM_PRIMARY_ID (LM_OP_CROP)));
  g_assert_cmpuint (sel.n, ==, LM_N_OPS + 2 - 6 - 2 + 1);
}

/* The target: crop 1,2 30×40, exposure −0.5, grayscale on, and a second exposure instance. */
static void
make_target (LmPipeline *dst)
{
  lm_pipeline_init (dst);
  lm_test_set_param (dst, "crop", "x", "1");
  lm_test_set_param (dst, "crop", "y", "2");
  lm_test_set_param (dst, "crop", "width", "30");
  lm_test_set_param (dst, "crop", "height", "40");
  lm_test_set_param (dst, "exposure", "ev", "-0.5");
  lm_test_set_param (dst, "gray", NULL, NULL);
  int at;
  g_assert_true (lm_pipeline_add (dst, LM_OP_EXPOSURE, &at, NULL));
  dst->inst[at].enabled = TRUE;
}

static void
test_replace (void)
{
  LmPipeline src, dst, before;
  make_source (&src);
  make_target (&dst);
  before = dst;
  LmOpSelection sel;
  lm_op_selection_default (&sel, &src);
  g_assert_true (lm_pipeline_paste (&dst, &src, &sel, LM_PASTE_REPLACE, NULL));
  g_assert_true (lm_pipeline_check (&dst, NULL));
  /* The target's framing stays. */
  g_assert_true (lm_stage_equal (primary (&dst, LM_OP_CROP), primary (&before, LM_OP_CROP)));
  g_assert_cmpfloat (param (primary (&dst, LM_OP_CROP), "width"), ==, 30);
  g_assert_false (primary (&dst, LM_OP_STRAIGHTEN)->enabled);
  g_assert_false (primary (&dst, LM_OP_RESIZE)->enabled);
  /* Exposure is the source's: +1, and only its primary (its brush-masked one not chosen), the
   * target's second instance gone. */
  g_assert_true (primary (&dst, LM_OP_EXPOSURE)->enabled);
  g_assert_cmpfloat (param (primary (&dst, LM_OP_EXPOSURE), "ev"), ==, 1);
  g_assert_cmpuint (count (&dst, LM_OP_EXPOSURE), ==, 1);
  /* Grayscale, off in the source, is off: REPLACE takes the source's look as it is. */
  g_assert_false (primary (&dst, LM_OP_GRAY)->enabled);
  /* The gradient-masked saturation came with its mask. */
  g_assert_cmpuint (count (&dst, LM_OP_SATURATION), ==, 2);
  int s = lm_pipeline_find (&dst, id_of (&src, LM_OP_SATURATION, FALSE));
  g_assert_cmpint (s, >=, 0);
  g_assert_true (dst.inst[s].enabled);
  const LmMask *m = lm_pipeline_stage_mask (&dst, &dst.inst[s]);
  g_assert_nonnull (m);
  g_assert_cmpint (m->shape[0].kind, ==, LM_MASK_LINEAR);

  /* Everything chosen: the target's edits become the source's. */
  make_target (&dst);
  lm_op_selection_all (&sel, &src);
  g_assert_true (lm_pipeline_paste (&dst, &src, &sel, LM_PASTE_REPLACE, NULL));
  g_assert_true (lm_pipeline_equal (&dst, &src));

  /* Nothing chosen: nothing changes. */
  make_target (&dst);
  lm_op_selection_clear (&sel);
  g_assert_true (lm_pipeline_paste (&dst, &src, &sel, LM_PASTE_REPLACE, NULL));
  g_assert_true (lm_pipeline_equal (&dst, &before));
}

static void
test_append (void)
{
  LmPipeline src, dst, before;
  make_source (&src);
  make_target (&dst);
  before = dst;
  LmOpSelection sel;
  lm_op_selection_default (&sel, &src);
  g_assert_true (lm_pipeline_paste (&dst, &src, &sel, LM_PASTE_APPEND, NULL));
  g_assert_true (lm_pipeline_check (&dst, NULL));
  g_assert_true (lm_stage_equal (primary (&dst, LM_OP_CROP), primary (&before, LM_OP_CROP)));
  /* Exposure on in the source takes the primary's place; the target's second one stays. */
  g_assert_cmpfloat (param (primary (&dst, LM_OP_EXPOSURE), "ev"), ==, 1);
  g_assert_cmpuint (count (&dst, LM_OP_EXPOSURE), ==, 2);
  /* Grayscale, off in the source, stays on: APPEND adds, it turns nothing off. */
  g_assert_true (primary (&dst, LM_OP_GRAY)->enabled);
  g_assert_cmpuint (count (&dst, LM_OP_SATURATION), ==, 2);
  /* The source's saturation instance has the id of the target's second exposure: it comes as
   * one more instance, the target's stays an exposure, on. */
  guint32 shared = id_of (&src, LM_OP_SATURATION, FALSE);
  g_assert_cmpuint (shared, ==, id_of (&before, LM_OP_EXPOSURE, FALSE));
  int e = lm_pipeline_find (&dst, shared);
  g_assert_true (dst.inst[e].info->id == LM_OP_EXPOSURE && dst.inst[e].enabled);
  /* Crop ticked: it goes. */
  make_target (&dst);
  lm_op_selection_set (&sel, LM_PRIMARY_ID (LM_OP_CROP), TRUE);
  g_assert_true (lm_pipeline_paste (&dst, &src, &sel, LM_PASTE_APPEND, NULL));
  g_assert_cmpfloat (param (primary (&dst, LM_OP_CROP), "width"), ==, 100);
  g_assert_cmpfloat (param (primary (&dst, LM_OP_CROP), "x"), ==, 10);
}

/* A paste that would overflow the pipeline fails and leaves the target as it was. */
static void
test_full (void)
{
  LmPipeline src, dst;
  lm_pipeline_init (&src);
  lm_pipeline_init (&dst);
  int at;
  while (dst.n < LM_PIPELINE_MAX)
    g_assert_true (lm_pipeline_add (&dst, LM_OP_CURVE, &at, NULL));
  g_assert_true (lm_pipeline_add (&src, LM_OP_SATURATION, &at, NULL));
  src.inst[at].enabled = TRUE;
  LmPipeline before = dst;
  LmOpSelection sel;
  lm_op_selection_all (&sel, &src);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_pipeline_paste (&dst, &src, &sel, LM_PASTE_APPEND, &error));
  g_assert_nonnull (error);
  g_assert_cmpmem (&dst, sizeof dst, &before, sizeof before);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/op-select/default", test_default);
  g_test_add_func ("/op-select/replace", test_replace);
  g_test_add_func ("/op-select/append", test_append);
  g_test_add_func ("/op-select/full", test_full);
  return g_test_run ();
}
