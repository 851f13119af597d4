/* Contrast, black and white against the formula written out in point-oracle.h on every
 * 8-bit value, against OpenCV's convertScaleAbs where the two are defined alike (its rule
 * written out: saturate_cast of |v·alpha + beta|, rounded half to even), hand-worked values,
 * the identity at the defaults and the handling of a white at or below black. */
#include <math.h>

#include "core/ops/ops.h"
#include "point-oracle.h"
#include "test-util.h"

static LmImage *
ramp (void)
{
  guint8 px[256 * 4];
  for (int i = 0; i < 256; i++)
    px[4 * i] = (guint8) i, px[4 * i + 1] = (guint8) (255 - i), px[4 * i + 2] = (guint8) (i * 7), px[4 * i + 3] = 200;
  return lm_test_rgba_from (256, 1, px);
}

static const LmContrastParams cases[] = {
  { 0.0f, 0.0f, 255.0f },   { 0.5f, 0.0f, 255.0f },   { -0.4f, 0.0f, 255.0f }, { 1.0f, 0.0f, 255.0f },
  { -1.0f, 0.0f, 255.0f },  { 0.0f, 20.0f, 230.0f },  { 0.3f, 10.0f, 240.0f }, { -0.25f, 254.0f, 255.0f },
  { 0.2f, 128.0f, 129.0f }, { 0.0f, 100.0f, 50.0f },  { 0.7f, 37.5f, 201.25f },
};

static void
test_every_value (void)
{
  g_autoptr (LmImage) src = ramp ();
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      const LmContrastParams *p = &cases[k];
      g_autoptr (LmImage) out = lm_test_run_op (&lm_contrast_op, p, src);
      for (int i = 0; i < 256; i++)
        for (int c = 0; c < 3; c++)
          {
            int v = lm_test_pixel (src, i, 0)[c];
            double want = oracle_contrast (v, p->contrast, p->black, p->white);
            want = want < 0.0 ? 0.0 : want > 255.0 ? 255.0 : want;
            g_assert_cmpfloat (fabs (lm_test_pixel (out, i, 0)[c] - want), <=, 0.5 + 1e-3);
            g_assert_cmpuint (lm_test_pixel (out, i, 0)[3], ==, 200);
            LM_TEST_RETURN_IF_FAILED ();
          }
    }
}

static void
test_identity (void)
{
  LmContrastParams p;
  lm_op_params_init (&lm_contrast_op, &p);
  g_autoptr (LmImage) src = ramp ();
  g_autoptr (LmImage) out = lm_test_run_op (&lm_contrast_op, &p, src);
  lm_test_assert_same_pixels (src, out);
}

/* OpenCV's convertScaleAbs(src, alpha = 1 + c, beta = -127.5 c): saturate_cast<uchar> of
 * |v·alpha + beta| (cvRound: half to even). Where v·alpha + beta ≥ 0 and is not a tie the
 * two are the same number; where it is below 0 OpenCV mirrors it and Lumen gives 0. */
static void
test_convert_scale_abs (void)
{
  static const float contrasts[] = { 0.5f, -0.4f, 0.9f, 0.13f, -0.9f };
  g_autoptr (LmImage) src = ramp ();
  for (guint k = 0; k < G_N_ELEMENTS (contrasts); k++)
    {
      LmContrastParams p = { contrasts[k], 0.0f, 255.0f };
      double alpha = 1.0 + contrasts[k], beta = -127.5 * contrasts[k];
      g_autoptr (LmImage) out = lm_test_run_op (&lm_contrast_op, &p, src);
      int compared = 0;
      for (int i = 0; i < 256; i++)
        {
          double v = i * alpha + beta;
          if (v < 0.0 || fabs (v - floor (v) - 0.5) < 1e-4)
            continue;
          double cv = fmin (nearbyint (fabs (v)), 255.0);
          g_assert_cmpfloat (lm_test_pixel (out, i, 0)[0], ==, cv);
          compared++;
        }
      g_assert_cmpint (compared, >, 128);
    }
}

/* By hand: contrast 0.5 takes 200 to (200 - 127.5)·1.5 + 127.5 = 236.25 and 60 to 26.25;
 * black 50, white 200 takes 125 to 75·255/150 = 127.5, rounded half up to 128, and 80 to
 * 51; contrast -1 makes everything 127.5 → 128; contrast 1 takes 64 to 0.5 → 1 (half up). */
static void
test_known_values (void)
{
  const guint8 px[] = { 200, 60, 125, 255, 80, 64, 0, 255 };
  g_autoptr (LmImage) src = lm_test_rgba_from (2, 1, px);
  static const struct {
    LmContrastParams p;
    guint8 want[6];
  } known[] = {
    { { 0.5f, 0.0f, 255.0f }, { 236, 26, 124, 56, 32, 0 } },
    { { 0.0f, 50.0f, 200.0f }, { 255, 17, 128, 51, 24, 0 } },
    { { -1.0f, 0.0f, 255.0f }, { 128, 128, 128, 128, 128, 128 } },
    { { 1.0f, 0.0f, 255.0f }, { 255, 0, 123, 33, 1, 0 } },
  };
  for (guint k = 0; k < G_N_ELEMENTS (known); k++)
    {
      g_autoptr (LmImage) out = lm_test_run_op (&lm_contrast_op, &known[k].p, src);
      for (int i = 0; i < 6; i++)
        g_assert_cmpuint (lm_test_pixel (out, i / 3, 0)[i % 3], ==, known[k].want[i]);
    }
}

/* White at or below black: taken as black + 1, a threshold at black (documented in
 * contrast-math.h), never a division by zero or a negative stretch. */
static void
test_white_below_black (void)
{
  g_autoptr (LmImage) src = ramp ();
  LmContrastParams p = { 0.0f, 100.0f, 50.0f }, same = { 0.0f, 100.0f, 100.0f };
  g_autoptr (LmImage) out = lm_test_run_op (&lm_contrast_op, &p, src);
  g_autoptr (LmImage) out2 = lm_test_run_op (&lm_contrast_op, &same, src);
  for (int i = 0; i < 256; i++)
    g_assert_cmpuint (lm_test_pixel (out, i, 0)[0], ==, i <= 100 ? 0 : 255);
  lm_test_assert_same_pixels (out, out2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/contrast/every-value", test_every_value);
  g_test_add_func ("/contrast/identity", test_identity);
  g_test_add_func ("/contrast/convert-scale-abs", test_convert_scale_abs);
  g_test_add_func ("/contrast/known-values", test_known_values);
  g_test_add_func ("/contrast/white-below-black", test_white_below_black);
  return g_test_run ();
}
