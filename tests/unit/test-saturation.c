/* Saturation and vibrance against the definition written out in point-oracle.h (vibrance,
 * then saturation, about the BT.709 luma), hand-worked values, the identity default,
 * saturation -1 against the gray operation's luminosity mode, and vibrance moving dull
 * colours more than vivid ones. */
#include <math.h>

#include "core/ops/ops.h"
#include "point-oracle.h"
#include "test-util.h"

static void
test_identity (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (67, 9, 3, TRUE);
  LmSaturationParams p;
  lm_op_params_init (&lm_saturation_op, &p);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_saturation_op, &p, src);
  lm_test_assert_same_pixels (src, out);
}

static void
test_formula (void)
{
  static const LmSaturationParams cases[] = {
    { 0.5f, 0.0f }, { -0.5f, 0.0f }, { 1.0f, 0.0f }, { 0.0f, 0.8f }, { 0.0f, -1.0f }, { 0.3f, 0.4f }, { -0.7f, 1.0f },
  };
  g_autoptr (LmImage) src = lm_test_random_rgba (64, 16, 11, FALSE);
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr (LmImage) out = lm_test_run_op (&lm_saturation_op, &cases[k], src);
      for (guint y = 0; y < src->height; y++)
        for (guint x = 0; x < src->width; x++)
          {
            const guint8 *in = lm_test_pixel (src, x, y), *o = lm_test_pixel (out, x, y);
            double c[3] = { in[0], in[1], in[2] };
            oracle_saturation (cases[k].saturation, cases[k].vibrance, c);
            for (int i = 0; i < 3; i++)
              g_assert_cmpfloat (fabs (o[i] - fmin (fmax (c[i], 0.0), 255.0)), <=, 0.5 + 1e-3);
            LM_TEST_RETURN_IF_FAILED ();
          }
    }
}

/* (100, 150, 200) has luma 21.26 + 107.28 + 14.44 = 142.98; saturation 0.5 takes each
 * channel 1.5 times as far from it: 78.51, 153.51, 228.51 → 79, 154, 229. Its S is 100/200
 * = ½, so vibrance 0.8 alone gives 1 + 0.8·½ = 1.4: 82.81, 152.81, 222.81 → 83, 153, 223. */
static void
test_known_values (void)
{
  const guint8 px[] = { 100, 150, 200, 255 };
  g_autoptr (LmImage) src = lm_test_rgba_from (1, 1, px);
  LmSaturationParams s = { 0.5f, 0.0f }, v = { 0.0f, 0.8f };
  g_autoptr (LmImage) a = lm_test_run_op (&lm_saturation_op, &s, src);
  g_autoptr (LmImage) b = lm_test_run_op (&lm_saturation_op, &v, src);
  const guint8 want_a[] = { 79, 154, 229 }, want_b[] = { 83, 153, 223 };
  for (int c = 0; c < 3; c++)
    {
      g_assert_cmpuint (lm_test_pixel (a, 0, 0)[c], ==, want_a[c]);
      g_assert_cmpuint (lm_test_pixel (b, 0, 0)[c], ==, want_b[c]);
    }
}

/* Saturation -1 is the luma itself: the gray operation's luminosity mode, within 1. */
static void
test_minus_one_is_gray (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (128, 32, 21, FALSE);
  LmSaturationParams p = { -1.0f, 0.0f };
  LmGrayParams g;
  lm_op_params_init (&lm_gray_op, &g);
  g.mode = LM_GRAY_LUMINOSITY, g.amount = 1.0f;
  g_autoptr (LmImage) out = lm_test_run_op (&lm_saturation_op, &p, src);
  g_autoptr (LmImage) gray = lm_test_run_op (&lm_gray_op, &g, src);
  g_assert_true (gray->format == LM_FORMAT_GRAY8);
  int worst = 0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *o = lm_test_pixel (out, x, y);
        g_assert_cmpuint (o[0], ==, o[1]);
        g_assert_cmpuint (o[1], ==, o[2]);
        worst = MAX (worst, ABS (o[0] - lm_test_pixel (gray, x, y)[0]));
      }
  g_test_message ("max |saturation -1 - gray luminosity| = %d", worst);
  g_assert_cmpint (worst, <=, 1);
}

/* Vibrance widens a dull pixel's spread (max - min) by more than a vivid one's; saturation
 * widens both alike. */
static void
test_vibrance_spares_vivid (void)
{
  const guint8 px[] = { 120, 128, 140, 255, 200, 60, 40, 255 };
  g_autoptr (LmImage) src = lm_test_rgba_from (2, 1, px);
  LmSaturationParams v = { 0.0f, 0.8f }, s = { 0.3f, 0.0f };
  g_autoptr (LmImage) a = lm_test_run_op (&lm_saturation_op, &v, src);
  g_autoptr (LmImage) b = lm_test_run_op (&lm_saturation_op, &s, src);
  double dull_in = 140 - 120, vivid_in = 200 - 40;
  const guint8 *d = lm_test_pixel (a, 0, 0), *w = lm_test_pixel (a, 1, 0);
  double dull = (d[2] - d[0]) / dull_in, vivid = (w[0] - w[2]) / vivid_in;
  g_test_message ("vibrance 0.8: dull ×%.3f, vivid ×%.3f", dull, vivid);
  g_assert_cmpfloat (dull, >, vivid + 0.3);
  /* Expected: 1 + 0.8·(1 - 20/140) = 1.686 and 1 + 0.8·(1 - 160/200) = 1.16. */
  g_assert_cmpfloat (fabs (dull - 1.686), <, 0.06);
  g_assert_cmpfloat (fabs (vivid - 1.16), <, 0.02);
  const guint8 *sd = lm_test_pixel (b, 0, 0), *sw = lm_test_pixel (b, 1, 0);
  g_assert_cmpfloat (fabs ((sd[2] - sd[0]) / dull_in - (sw[0] - sw[2]) / vivid_in), <, 0.06);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/saturation/identity", test_identity);
  g_test_add_func ("/saturation/formula", test_formula);
  g_test_add_func ("/saturation/known-values", test_known_values);
  g_test_add_func ("/saturation/minus-one-is-gray", test_minus_one_is_gray);
  g_test_add_func ("/saturation/vibrance-spares-vivid", test_vibrance_spares_vivid);
  return g_test_run ();
}
