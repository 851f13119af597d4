/* White balance against its definition written out in point-oracle.h (the illuminant's
 * chromaticity, sRGB's matrix derived from its primaries, the gains) and against published
 * chromaticities: 6500 K is the identity on every value; a gray lit by 3200 K light comes
 * out neutral; the direction of temperature and tint as Lightroom's; the picker's inverse
 * by round trip. */
#include <math.h>

#include "core/ops/ops.h"
#include "core/ops/wb.h"
#include "point-oracle.h"
#include "test-util.h"

/* The oracle's own formulas against the chromaticities CIE publishes to four decimals
 * (CIE 15:2004, tables T.1 and T.3): D50, D65 and D75 are the daylight locus at 5003, 6504
 * and 7504 K; illuminant A is Planck's law at 2856 K (Kim et al.'s fit of it, within 10⁻³);
 * and the derived matrix takes D65 to R = G = B. */
static void
test_oracle_locus (void)
{
  static const struct {
    double t, x, y, tolerance;
  } known[] = {
    { 5003.0, 0.3457, 0.3585, 2e-4 }, { 6504.0, 0.3127, 0.3290, 2e-4 },
    { 7504.0, 0.2990, 0.3149, 2e-4 }, { 2856.0, 0.4476, 0.4074, 1e-3 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      double x, y;
      oracle_xy (known[i].t, &x, &y);
      g_assert_cmpfloat (fabs (x - known[i].x), <, known[i].tolerance);
      g_assert_cmpfloat (fabs (y - known[i].y), <, known[i].tolerance);
    }
  double d65[3] = { 0.3127 / 0.3290, 1.0, (1.0 - 0.3127 - 0.3290) / 0.3290 }, rgb[3];
  oracle_xyz_to_rgb (d65, rgb);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat (fabs (rgb[c] - 1.0), <, 1e-9);
}

static const LmWbParams cases[] = {
  { 3200.0f, 0.0f }, { 2000.0f, 0.0f }, { 2500.0f, 30.0f }, { 5200.0f, 8.0f },
  { 9000.0f, -20.0f }, { 12000.0f, 100.0f }, { 4000.0f, -100.0f }, { 6500.0f, 40.0f },
};

static void
test_gains (void)
{
  LmWbGains g;
  lm_wb_gains (&(LmWbParams) { 6500.0f, 0.0f }, &g);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat (g.gain[c], ==, 1.0f);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double want[3];
      oracle_wb_gains (cases[i].temperature, cases[i].tint, want);
      lm_wb_gains (&cases[i], &g);
      g_test_message ("%g K %+g: %g %g %g", cases[i].temperature, cases[i].tint, g.gain[0], g.gain[1], g.gain[2]);
      /* The code's matrix is sRGB's published one, the oracle's derived from the primaries:
       * they differ in the fifth digit. */
      for (int c = 0; c < 3; c++)
        g_assert_cmpfloat (fabs (g.gain[c] / want[c] - 1.0), <, 2e-4);
      g_assert_cmpfloat (fabs (0.2126 * g.gain[0] + 0.7152 * g.gain[1] + 0.0722 * g.gain[2] - 1.0), <, 1e-6);
    }
}

static LmImage *
ramp (void)
{
  guint8 px[256 * 4];
  for (int i = 0; i < 256; i++)
    px[4 * i] = px[4 * i + 1] = px[4 * i + 2] = (guint8) i, px[4 * i + 3] = (guint8) (255 - i);
  return lm_test_rgba_from (256, 1, px);
}

static void
test_identity (void)
{
  g_autoptr (LmImage) src = ramp ();
  LmWbParams p;
  lm_op_params_init (&lm_wb_op, &p);
  g_assert_cmpfloat (p.temperature, ==, 6500.0f);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_wb_op, &p, src);
  lm_test_assert_same_pixels (src, out);
}

/* Every value of every channel: the gain in linear light, within rounding. */
static void
test_every_value (void)
{
  g_autoptr (LmImage) src = ramp ();
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      double g[3];
      oracle_wb_gains (cases[k].temperature, cases[k].tint, g);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_wb_op, &cases[k], src);
      for (int i = 0; i < 256; i++)
        for (int c = 0; c < 3; c++)
          {
            double want = oracle_gain (i, g[c]);
            want = want < 0.0 ? 0.0 : want > 255.0 ? 255.0 : want;
            /* Half a level of rounding; a little for single precision and the matrices. */
            g_assert_cmpfloat (fabs (lm_test_pixel (out, i, 0)[c] - want), <=, 0.5 + 0.01);
            g_assert_cmpuint (lm_test_pixel (out, i, 0)[3], ==, 255 - i);
            LM_TEST_RETURN_IF_FAILED ();
          }
    }
}

/* Grays lit by 3200 K light: each linear value divided by the gains that 3200 K gives,
 * encoded and rounded to 8 bits, as a camera set to daylight would record them under
 * tungsten. At 3200 K they come back neutral: R, G and B within the 8-bit rounding of the
 * input (blue, lifted 2.6× in linear light, spreads an input step over about 1.5). */
static void
test_neutralises_3200 (void)
{
  static const double grays[] = { 0.02, 0.05, 0.1, 0.18, 0.3 };
  double g[3];
  oracle_wb_gains (3200.0, 0.0, g);
  guint8 px[G_N_ELEMENTS (grays) * 4];
  for (guint i = 0; i < G_N_ELEMENTS (grays); i++)
    {
      for (int c = 0; c < 3; c++)
        px[4 * i + c] = (guint8) oracle_u8 (255.0 * oracle_encode (grays[i] / g[c]));
      px[4 * i + 3] = 255;
      /* Lit by tungsten: visibly orange (red well above blue). */
      g_assert_cmpint (px[4 * i], >, px[4 * i + 2] + 10);
    }
  g_autoptr (LmImage) src = lm_test_rgba_from (G_N_ELEMENTS (grays), 1, px);
  LmWbParams p = { 3200.0f, 0.0f };
  g_autoptr (LmImage) out = lm_test_run_op (&lm_wb_op, &p, src);
  for (guint i = 0; i < G_N_ELEMENTS (grays); i++)
    {
      const guint8 *o = lm_test_pixel (out, i, 0);
      g_test_message ("%u %u %u → %u %u %u", px[4 * i], px[4 * i + 1], px[4 * i + 2], o[0], o[1], o[2]);
      g_assert_cmpint (ABS (o[0] - o[1]), <=, 2);
      g_assert_cmpint (ABS (o[2] - o[1]), <=, 2);
    }
}

/* Lightroom's sense: a lower temperature says the light was warmer, so the photo is made
 * bluer; a higher one, redder; positive tint takes green out (towards magenta). */
static void
test_directions (void)
{
  const guint8 gray[] = { 128, 128, 128, 255 };
  g_autoptr (LmImage) src = lm_test_rgba_from (1, 1, gray);
  static const LmWbParams warm = { 3200.0f, 0.0f }, cool = { 9000.0f, 0.0f }, magenta = { 6500.0f, 50.0f },
                          green = { 6500.0f, -50.0f };
  g_autoptr (LmImage) a = lm_test_run_op (&lm_wb_op, &warm, src);
  g_autoptr (LmImage) b = lm_test_run_op (&lm_wb_op, &cool, src);
  g_autoptr (LmImage) m = lm_test_run_op (&lm_wb_op, &magenta, src);
  g_autoptr (LmImage) gr = lm_test_run_op (&lm_wb_op, &green, src);
  const guint8 *pa = lm_test_pixel (a, 0, 0), *pb = lm_test_pixel (b, 0, 0), *pm = lm_test_pixel (m, 0, 0),
               *pg = lm_test_pixel (gr, 0, 0);
  g_assert_cmpuint (pa[2], >, pa[0]);
  g_assert_cmpuint (pb[0], >, pb[2]);
  g_assert_cmpuint (pm[1], <, pm[0]);
  g_assert_cmpuint (pm[1], <, pm[2]);
  g_assert_cmpuint (pm[0], ==, pm[2]); /* tint alone leaves red and blue equal */
  g_assert_cmpuint (pg[1], >, pg[0]);
  g_assert_cmpuint (pg[1], >, pg[2]);
}

/* The picker: a patch that the light of (T, tint) coloured, given as the unrounded encoded
 * mean a picker measures, gives (T, tint) back. */
static void
test_picker_round_trip (void)
{
  static const LmWbParams lights[] = {
    { 3200.0f, 0.0f }, { 2100.0f, 0.0f }, { 2500.0f, 30.0f }, { 3800.0f, -12.0f }, { 5200.0f, 8.0f },
    { 6500.0f, 0.0f }, { 9000.0f, -20.0f }, { 11500.0f, 60.0f },
  };
  for (guint i = 0; i < G_N_ELEMENTS (lights); i++)
    {
      double g[3];
      float rgb[3], t, tint;
      oracle_wb_gains (lights[i].temperature, lights[i].tint, g);
      for (int c = 0; c < 3; c++)
        rgb[c] = (float) (255.0 * oracle_encode (0.12 / g[c]));
      g_assert_true (lm_wb_from_gray (rgb[0], rgb[1], rgb[2], &t, &tint));
      g_test_message ("%g K %+g → %g K %+g", lights[i].temperature, lights[i].tint, t, tint);
      g_assert_cmpfloat (fabs (t - lights[i].temperature), <, 1e-3 * lights[i].temperature);
      g_assert_cmpfloat (fabs (tint - lights[i].tint), <, 0.1);
    }
  float t, tint;
  /* A neutral patch: no correction. */
  g_assert_true (lm_wb_from_gray (90.0f, 90.0f, 90.0f, &t, &tint));
  g_assert_cmpfloat (fabs (t - 6500.0f), <, 5.0f);
  g_assert_cmpfloat (fabs (tint), <, 0.1f);
  /* Bluer than any light in range: the end of the range. */
  g_assert_true (lm_wb_from_gray (20.0f, 60.0f, 250.0f, &t, &tint));
  g_assert_cmpfloat (t, ==, 12000.0f);
  /* A channel at 0 says nothing about the light. */
  g_assert_false (lm_wb_from_gray (0.0f, 40.0f, 80.0f, &t, &tint));
  g_assert_cmpfloat (t, ==, 6500.0f);
  g_assert_cmpfloat (tint, ==, 0.0f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/wb/oracle-locus", test_oracle_locus);
  g_test_add_func ("/wb/gains", test_gains);
  g_test_add_func ("/wb/identity", test_identity);
  g_test_add_func ("/wb/every-value", test_every_value);
  g_test_add_func ("/wb/neutralises-3200", test_neutralises_3200);
  g_test_add_func ("/wb/directions", test_directions);
  g_test_add_func ("/wb/picker-round-trip", test_picker_round_trip);
  return g_test_run ();
}
