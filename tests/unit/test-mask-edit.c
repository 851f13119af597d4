/* A mask edited as the window's tools edit it (core/edit/mask-edit.c): shapes with the values
 * given, strokes as blobs of the form sidecar-masks.c reads (checked through its writer),
 * blobs never changed under an older mask, the caps refused with the mask left as it was. */
#include <math.h>
#include <string.h>

#include "core/edit/blob-store.h"
#include "core/edit/mask-edit.h"
#include "core/edit/sidecar-private.h"
#include "core/error.h"
#include "core/ops/mask.h"
#include "test-util.h"

/* The keys of brush shape INDEX's stroke list, *N of them. */
static guint64 *
keys_of (const LmMask *m, guint index, gsize *n)
{
  g_autoptr (GBytes) list = lm_blob_lookup (m->shape[index].strokes);
  g_assert_nonnull (list);
  g_assert_cmpuint (g_bytes_get_size (list) % 8, ==, 0);
  *n = g_bytes_get_size (list) / 8;
  return g_memdup2 (g_bytes_get_data (list, NULL), g_bytes_get_size (list));
}

/* Stroke KEY's head and points (*POINTS: 2·head.n floats, freed by the caller). */
static LmMaskStrokeHead
stroke_of (guint64 key, float **points)
{
  g_autoptr (GBytes) b = lm_blob_lookup (key);
  g_assert_nonnull (b);
  LmMaskStrokeHead head;
  g_assert_cmpuint (g_bytes_get_size (b), >=, sizeof head);
  memcpy (&head, g_bytes_get_data (b, NULL), sizeof head);
  g_assert_cmpuint (g_bytes_get_size (b), ==, sizeof head + head.n * 2 * sizeof (float));
  *points = g_memdup2 ((const guint8 *) g_bytes_get_data (b, NULL) + sizeof head, head.n * 2 * sizeof (float));
  return head;
}

static void
test_init (void)
{
  LmMask m;
  memset (&m, 0xA5, sizeof m); /* poisoned: every byte is set */
  lm_mask_edit_init (&m);
  LmMask want;
  memset (&want, 0, sizeof want);
  want.opacity = 1.0f;
  g_assert_cmpmem (&m, sizeof m, &want, sizeof want);
}

static void
test_gradients (void)
{
  LmMask m;
  lm_mask_edit_init (&m);
  guint k = 99;
  g_autoptr (GError) e = NULL;
  g_assert_true (lm_mask_edit_add_linear (&m, LM_MASK_ADD, 0.5f, 0.0f, 0.5f, 0.2f, &k, &e));
  g_assert_cmpuint (k, ==, 0);
  g_assert_true (lm_mask_edit_add_radial (&m, LM_MASK_SUBTRACT, 0.3f, 0.4f, 0.1f, 0.05f, 30.0f, 0.5f, &k, &e));
  g_assert_cmpuint (k, ==, 1);
  g_assert_no_error (e);
  g_assert_cmpuint (m.n_shapes, ==, 2);
  g_assert_cmpuint (m.shape[0].kind, ==, LM_MASK_LINEAR);
  g_assert_cmpuint (m.shape[0].combine, ==, LM_MASK_ADD);
  g_assert_cmpfloat (m.shape[0].opacity, ==, 1.0f);
  const float lin[8] = { 0.5f, 0.0f, 0.5f, 0.2f };
  g_assert_cmpmem (m.shape[0].g, sizeof lin, lin, sizeof lin);
  g_assert_cmpuint (m.shape[1].kind, ==, LM_MASK_RADIAL);
  g_assert_cmpuint (m.shape[1].combine, ==, LM_MASK_SUBTRACT);
  const float rad[8] = { 0.3f, 0.4f, 0.1f, 0.05f, 30.0f, 0.5f };
  g_assert_cmpmem (m.shape[1].g, sizeof rad, rad, sizeof rad);

  /* A drag moves them; the radial keeps its angle and softness. */
  g_assert_true (lm_mask_edit_set_linear (&m, 0, 0.1f, 0.1f, 0.9f, 0.9f, &e));
  g_assert_true (lm_mask_edit_set_radial (&m, 1, 0.6f, 0.6f, 0.2f, 0.3f, &e));
  const float lin2[8] = { 0.1f, 0.1f, 0.9f, 0.9f };
  const float rad2[8] = { 0.6f, 0.6f, 0.2f, 0.3f, 30.0f, 0.5f };
  g_assert_cmpmem (m.shape[0].g, sizeof lin2, lin2, sizeof lin2);
  g_assert_cmpmem (m.shape[1].g, sizeof rad2, rad2, sizeof rad2);

  /* Shapes the render would refuse are refused here, the mask unchanged. */
  LmMask before = m;
  g_assert_false (lm_mask_edit_add_linear (&m, LM_MASK_ADD, 0.2f, 0.2f, 0.2f, 0.2f, NULL, &e));
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_add_linear (&m, LM_MASK_ADD, NAN, 0.2f, 0.4f, 0.2f, NULL, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_add_linear (&m, LM_MASK_N_COMBINES, 0.1f, 0.2f, 0.4f, 0.2f, NULL, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_add_radial (&m, LM_MASK_ADD, 0.5f, 0.5f, 0.0f, 0.1f, 0, 0.5f, NULL, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_add_radial (&m, LM_MASK_ADD, 0.5f, 0.5f, 0.1f, 0.1f, 0, 1.5f, NULL, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_add_radial (&m, LM_MASK_ADD, 1e9f, 0.5f, 0.1f, 0.1f, 0, 0.5f, NULL, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_set_linear (&m, 1, 0.1f, 0.1f, 0.9f, 0.9f, &e)); /* shape 2 is radial */
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_set_radial (&m, 5, 0.1f, 0.1f, 0.1f, 0.1f, &e));
  g_clear_error (&e);
  g_assert_cmpmem (&m, sizeof m, &before, sizeof before);

  /* Sixteen shapes at most. */
  while (m.n_shapes < LM_MASK_SHAPES_MAX)
    g_assert_true (lm_mask_edit_add_brush (&m, LM_MASK_INTERSECT, NULL, &e));
  before = m;
  g_assert_false (lm_mask_edit_add_linear (&m, LM_MASK_ADD, 0.1f, 0.2f, 0.4f, 0.2f, NULL, &e));
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_TOO_LARGE);
  g_assert_cmpmem (&m, sizeof m, &before, sizeof before);
}

static void
test_strokes (void)
{
  LmMask m;
  lm_mask_edit_init (&m);
  guint b;
  g_autoptr (GError) e = NULL;
  g_assert_true (lm_mask_edit_add_brush (&m, LM_MASK_ADD, &b, &e));
  g_assert_cmpuint (lm_mask_edit_strokes (&m, b, NULL), ==, 0);
  g_assert_false (lm_mask_edit_extend_stroke (&m, b, (float[]) { 0.1f, 0.1f }, 1, &e)); /* no stroke yet */
  g_clear_error (&e);
  g_assert_true (lm_mask_edit_start_stroke (&m, b, FALSE, 0.05f, 0.5f, 1.0f, 0.125f, 0.5f, &e));
  LmMask one = m;
  const float more[] = { 0.25f, 0.5f, 0.375f, 0.52f };
  g_assert_true (lm_mask_edit_extend_stroke (&m, b, more, 1, &e));
  g_assert_true (lm_mask_edit_extend_stroke (&m, b, more + 2, 1, &e));
  g_assert_no_error (e);
  guint points;
  g_assert_cmpuint (lm_mask_edit_strokes (&m, b, &points), ==, 1);
  g_assert_cmpuint (points, ==, 3);

  gsize n;
  g_autofree guint64 *keys = keys_of (&m, b, &n);
  g_assert_cmpuint (n, ==, 1);
  g_autofree float *uv = NULL;
  LmMaskStrokeHead head = stroke_of (keys[0], &uv);
  g_assert_cmpuint (head.erase, ==, 0);
  g_assert_cmpfloat (head.size, ==, 0.05f);
  g_assert_cmpfloat (head.hardness, ==, 0.5f);
  g_assert_cmpfloat (head.opacity, ==, 1.0f);
  g_assert_cmpuint (head.n, ==, 3);
  const float want[] = { 0.125f, 0.5f, 0.25f, 0.5f, 0.375f, 0.52f };
  g_assert_cmpmem (uv, 6 * sizeof (float), want, sizeof want);

  /* The mask of before the points (history's) still names its one-point stroke. */
  gsize n1;
  g_autofree guint64 *keys1 = keys_of (&one, b, &n1);
  g_autofree float *uv1 = NULL;
  g_assert_cmpuint (stroke_of (keys1[0], &uv1).n, ==, 1);
  g_assert_cmpuint (keys1[0], !=, keys[0]);

  /* A second stroke, erasing, goes after the first, which keeps its key. */
  g_assert_true (lm_mask_edit_start_stroke (&m, b, TRUE, 0.1f, 1.0f, 0.5f, 0.7f, 0.7f, &e));
  g_autofree guint64 *keys2 = keys_of (&m, b, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (keys2[0], ==, keys[0]);
  g_autofree float *uv2 = NULL;
  head = stroke_of (keys2[1], &uv2);
  g_assert_cmpuint (head.erase, ==, 1);
  g_assert_cmpuint (head.n, ==, 1);

  /* What the sidecar writes of it: the form sidecar-masks.c documents. */
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  lm_sidecar_write_mask (kf, "exposure", &m);
  g_autofree char *s1 = g_key_file_get_string (kf, "exposure mask", "stroke1.1", NULL);
  g_autofree char *s2 = g_key_file_get_string (kf, "exposure mask", "stroke1.2", NULL);
  g_assert_cmpstr (s1, ==, "paint size=0.05 hardness=0.5 opacity=1 points=0.125,0.5 0.25,0.5 0.375,0.52");
  g_assert_cmpstr (s2, ==, "erase size=0.1 hardness=1 opacity=0.5 points=0.7,0.7");

  /* Bad brushes and points are refused, the mask as it was. */
  LmMask before = m;
  g_assert_false (lm_mask_edit_start_stroke (&m, b, FALSE, 0.0f, 0.5f, 1.0f, 0.1f, 0.1f, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_start_stroke (&m, b, FALSE, 0.05f, 1.5f, 1.0f, 0.1f, 0.1f, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_start_stroke (&m, b, FALSE, 0.05f, 0.5f, 1.0f, INFINITY, 0.1f, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_extend_stroke (&m, b, (float[]) { 0.1f, NAN }, 1, &e));
  g_clear_error (&e);
  g_assert_false (lm_mask_edit_start_stroke (&m, b + 1, FALSE, 0.05f, 0.5f, 1.0f, 0.1f, 0.1f, &e));
  g_clear_error (&e);
  g_assert_cmpmem (&m, sizeof m, &before, sizeof before);
}

static void
test_caps (void)
{
  LmMask m;
  lm_mask_edit_init (&m);
  guint b;
  g_autoptr (GError) e = NULL;
  g_assert_true (lm_mask_edit_add_brush (&m, LM_MASK_ADD, &b, &e));
  g_assert_true (lm_mask_edit_start_stroke (&m, b, FALSE, 0.05f, 0.5f, 1.0f, 0.0f, 0.0f, &e));
  g_autofree float *uv = g_new (float, 2 * LM_MASK_POINTS_MAX);
  for (guint i = 0; i < LM_MASK_POINTS_MAX; i++)
    uv[2 * i] = i / (float) LM_MASK_POINTS_MAX, uv[2 * i + 1] = 0.5f;
  g_assert_true (lm_mask_edit_extend_stroke (&m, b, uv, LM_MASK_POINTS_MAX - 1, &e));
  guint points;
  lm_mask_edit_strokes (&m, b, &points);
  g_assert_cmpuint (points, ==, LM_MASK_POINTS_MAX);
  LmMask before = m;
  g_assert_false (lm_mask_edit_extend_stroke (&m, b, uv, 1, &e));
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (e->message, "4096"));
  g_clear_error (&e);
  g_assert_cmpmem (&m, sizeof m, &before, sizeof before);

  for (guint k = 1; k < LM_MASK_STROKES_MAX; k++)
    g_assert_true (lm_mask_edit_start_stroke (&m, b, FALSE, 0.05f, 0.5f, 1.0f, k / 1000.0f, 0.0f, &e));
  g_assert_cmpuint (lm_mask_edit_strokes (&m, b, NULL), ==, LM_MASK_STROKES_MAX);
  before = m;
  g_assert_false (lm_mask_edit_start_stroke (&m, b, FALSE, 0.05f, 0.5f, 1.0f, 0.9f, 0.0f, &e));
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (e->message, "256"));
  g_assert_cmpmem (&m, sizeof m, &before, sizeof before);
}

static void
test_remove (void)
{
  g_autoptr (GError) e = NULL;
  LmMask m, want;
  lm_mask_edit_init (&m);
  lm_mask_edit_init (&want);
  g_assert_true (lm_mask_edit_add_linear (&m, LM_MASK_ADD, 0.1f, 0.1f, 0.2f, 0.2f, NULL, &e));
  g_assert_true (lm_mask_edit_add_radial (&m, LM_MASK_ADD, 0.5f, 0.5f, 0.1f, 0.1f, 0, 0.5f, NULL, &e));
  g_assert_true (lm_mask_edit_add_linear (&m, LM_MASK_INTERSECT, 0.3f, 0.3f, 0.4f, 0.4f, NULL, &e));
  g_assert_true (lm_mask_edit_add_linear (&want, LM_MASK_ADD, 0.1f, 0.1f, 0.2f, 0.2f, NULL, &e));
  g_assert_true (lm_mask_edit_add_linear (&want, LM_MASK_INTERSECT, 0.3f, 0.3f, 0.4f, 0.4f, NULL, &e));
  g_assert_true (lm_mask_edit_remove_shape (&m, 1, &e));
  g_assert_no_error (e);
  /* Byte for byte the mask made without it: the freed slot is zero again. */
  g_assert_cmpmem (&m, sizeof m, &want, sizeof want);
  g_assert_false (lm_mask_edit_remove_shape (&m, 2, &e));
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mask-edit/init", test_init);
  g_test_add_func ("/mask-edit/gradients", test_gradients);
  g_test_add_func ("/mask-edit/strokes", test_strokes);
  g_test_add_func ("/mask-edit/caps", test_caps);
  g_test_add_func ("/mask-edit/remove", test_remove);
  return g_test_run ();
}
