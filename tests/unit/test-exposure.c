/* Exposure against the sRGB transfer function written out here in double precision: every
 * 8-bit value at several EVs, within rounding of the single-precision reference; hand-worked
 * values; a gray source coming out as colour; the fused pass equal to the operation alone. */
#include <math.h>

#include "core/ops/ops.h"
#include "core/ops/point.h"
#include "test-util.h"

/* The exact value, before rounding to 8 bits. */
static double
expected (int v, double ev)
{
  return 255.0 * lm_test_srgb_encode (lm_test_srgb_decode (v / 255.0) * exp2 (ev));
}

static void
test_every_value (void)
{
  static const float evs[] = { 0.0f, 1.0f, -1.0f, 0.37f, -2.5f, 5.0f, -5.0f };
  guint8 ramp[256 * 4];
  for (int i = 0; i < 256; i++)
    ramp[4 * i] = ramp[4 * i + 1] = ramp[4 * i + 2] = (guint8) i, ramp[4 * i + 3] = (guint8) (255 - i);
  g_autoptr (LmImage) src = lm_test_rgba_from (256, 1, ramp);
  for (guint k = 0; k < G_N_ELEMENTS (evs); k++)
    {
      LmExposureParams p = { .ev = evs[k] };
      g_autoptr (LmImage) out = lm_test_run_op (&lm_exposure_op, &p, src);
      for (int i = 0; i < 256; i++)
        {
          const guint8 *px = lm_test_pixel (out, i, 0);
          double want = CLAMP (expected (i, evs[k]), 0.0, 255.0);
          /* Half a level of rounding, and a little for single precision near a .5. */
          g_assert_cmpfloat (fabs (px[0] - want), <=, 0.5 + 1e-3);
          g_assert_cmpuint (px[0], ==, px[1]);
          g_assert_cmpuint (px[1], ==, px[2]);
          g_assert_cmpuint (px[3], ==, 255 - i); /* alpha kept */
          if (evs[k] == 0.0f)
            g_assert_cmpuint (px[0], ==, i); /* no change at 0 EV */
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
}

/* Worked by hand: mid-gray 118 is 0.1812 linear; +1 EV makes it 0.3624, encoded 162.2. White
 * at -5 EV is 1/32 linear, encoded 0.1939: 49.4. */
static void
test_known_values (void)
{
  const guint8 pixels[] = { 118, 118, 118, 255, 255, 255, 255, 255, 0, 0, 0, 255 };
  g_autoptr (LmImage) src = lm_test_rgba_from (3, 1, pixels);
  LmExposureParams up = { .ev = 1.0f }, down = { .ev = -5.0f };
  g_autoptr (LmImage) a = lm_test_run_op (&lm_exposure_op, &up, src);
  g_autoptr (LmImage) b = lm_test_run_op (&lm_exposure_op, &down, src);
  g_assert_cmpuint (lm_test_pixel (a, 0, 0)[0], ==, 162);
  g_assert_cmpuint (lm_test_pixel (a, 1, 0)[0], ==, 255); /* clipped */
  g_assert_cmpuint (lm_test_pixel (a, 2, 0)[0], ==, 0);
  g_assert_cmpuint (lm_test_pixel (b, 1, 0)[0], ==, 49);
}

static void
test_gray_source (void)
{
  const guint8 pixels[] = { 0, 50, 118, 255 };
  g_autoptr (LmImage) src = lm_test_gray_from (4, 1, pixels);
  LmExposureParams p = { .ev = 1.0f };
  g_assert_true (lm_exposure_op.output_format (&p, LM_FORMAT_GRAY8, TRUE) == LM_FORMAT_GRAY8); /* gray stays gray */
  g_autoptr (LmImage) out = lm_test_run_op (&lm_exposure_op, &p, src);
  g_assert_true (out->format == LM_FORMAT_GRAY8);
  g_assert_cmpuint (*lm_test_pixel (out, 0, 0), ==, 0);
  g_assert_cmpuint (*lm_test_pixel (out, 2, 0), ==, 162);
  g_assert_cmpuint (*lm_test_pixel (out, 3, 0), ==, 255);
}

/* Exposure twice in one pass is one exposure of the sum, within rounding: the table is not
 * rounded between operations. */
static void
test_composes_unrounded (void)
{
  LmPointPass twice, once;
  LmExposureParams half = { .ev = 0.5f }, whole = { .ev = 1.0f };
  lm_point_pass_init (&twice);
  lm_point_pass_add (&twice, &lm_exposure_op, &half);
  lm_point_pass_add (&twice, &lm_exposure_op, &half);
  lm_point_pass_init (&once);
  lm_point_pass_add (&once, &lm_exposure_op, &whole);
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 256; i++)
      g_assert_cmpfloat (fabsf (twice.table[c][i] - once.table[c][i]), <, 1e-3f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/exposure/every-value", test_every_value);
  g_test_add_func ("/exposure/known-values", test_known_values);
  g_test_add_func ("/exposure/gray-source", test_gray_source);
  g_test_add_func ("/exposure/composes-unrounded", test_composes_unrounded);
  return g_test_run ();
}
