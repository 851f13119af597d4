/* Curves against Fritsch–Carlson's monotone cubic written out in point-oracle.h (in the
 * Hermite basis, where the code uses a power form) on every value, hand-worked values, the
 * identity default, exactness at the points, monotonicity between monotone points, the
 * order of the master and channel curves, and luma mode keeping each pixel's R:G:B. */
#include <math.h>

#include "core/ops/curve.h"
#include "core/ops/ops.h"
#include "core/ops/point.h"
#include "point-oracle.h"
#include "test-util.h"

/* Params from text, as lumen-cli and sidecars give them; NULL leaves a default. */
static LmCurveParams
params (const char *points, const char *mode, const char *red, const char *green, const char *blue)
{
  LmCurveParams p;
  lm_op_params_init (&lm_curve_op, &p);
  const char *texts[] = { points, mode, red, green, blue };
  for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
    if (texts[k])
      {
        GError *e = NULL;
        g_assert_true (lm_op_param_parse (&lm_curve_op, &lm_curve_op.params[k], &p, texts[k], &e));
        g_assert_no_error (e);
      }
  return p;
}

/* A curve's points as doubles for the oracle. */
typedef struct {
  double x[16], y[16];
  int n;
} Points;

static Points
points_of (const char *text)
{
  Points p = { .n = 0 };
  g_auto (GStrv) pairs = g_strsplit (text, ",", -1);
  for (; pairs[p.n]; p.n++)
    {
      char *end;
      p.x[p.n] = g_ascii_strtod (pairs[p.n], &end);
      p.y[p.n] = g_ascii_strtod (end + 1, NULL);
    }
  return p;
}

static double
eval (const Points *p, double v)
{
  return oracle_curve (p->x, p->y, p->n, v);
}

static LmImage *
ramp (void)
{
  guint8 px[256 * 4];
  for (int i = 0; i < 256; i++)
    px[4 * i] = (guint8) i, px[4 * i + 1] = (guint8) (255 - i), px[4 * i + 2] = (guint8) (i * 7), px[4 * i + 3] = 255;
  return lm_test_rgba_from (256, 1, px);
}

static const char *const shapes[] = {
  "0:0,64:50,192:210,255:255", /* an S */
  "0:0,100:10,110:240,255:255", /* a cliff: a natural spline would overshoot both ways */
  "0:255,255:0",                /* inverted */
  "30:10,128:128,220:250",      /* flat below 30 and above 220 */
  "0:0,128:255,255:0",          /* not monotone: a peak stays a peak */
  "0:20,16:40,32:41,48:41,64:90,80:91,96:150,112:151,128:160,144:200,160:201,176:230,192:231,208:240,224:241,255:250",
};

static void
test_identity (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (61, 7, 5, TRUE);
  LmCurveParams rgb = params (NULL, NULL, NULL, NULL, NULL), luma = params (NULL, "luma", NULL, NULL, NULL);
  g_autoptr (LmImage) a = lm_test_run_op (&lm_curve_op, &rgb, src);
  g_autoptr (LmImage) b = lm_test_run_op (&lm_curve_op, &luma, src);
  lm_test_assert_same_pixels (src, a);
  lm_test_assert_same_pixels (src, b);
}

/* rgb mode on every value of every channel. */
static void
test_every_value (void)
{
  g_autoptr (LmImage) src = ramp ();
  for (guint k = 0; k < G_N_ELEMENTS (shapes); k++)
    {
      LmCurveParams p = params (shapes[k], NULL, NULL, NULL, NULL);
      Points pts = points_of (shapes[k]);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_curve_op, &p, src);
      for (int i = 0; i < 256; i++)
        for (int c = 0; c < 3; c++)
          {
            double want = eval (&pts, lm_test_pixel (src, i, 0)[c]);
            g_assert_cmpfloat (fabs (lm_test_pixel (out, i, 0)[c] - want), <=, 0.5 + 1e-3);
            LM_TEST_RETURN_IF_FAILED ();
          }
      /* At its points exactly. */
      for (int j = 0; j < pts.n; j++)
        if (pts.x[j] == floor (pts.x[j]))
          g_assert_cmpfloat (lm_test_pixel (out, (int) pts.x[j], 0)[0], ==, oracle_u8 (pts.y[j]));
    }
}

/* Between monotone points the table (unrounded) never turns back and never leaves the
 * points' range; at a non-monotone curve's interior point the extremum is the point's y. */
static void
test_monotone (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (shapes); k++)
    {
      LmCurveParams p = params (shapes[k], NULL, NULL, NULL, NULL);
      Points pts = points_of (shapes[k]);
      LmPointPass pass;
      lm_point_pass_init (&pass);
      lm_point_pass_add (&pass, &lm_curve_op, &p);
      double lo = 255, hi = 0;
      for (int j = 0; j < pts.n; j++)
        lo = MIN (lo, pts.y[j]), hi = MAX (hi, pts.y[j]);
      int sign = 0;
      for (int j = 0; j + 1 < pts.n; j++)
        sign |= pts.y[j + 1] > pts.y[j] ? 1 : pts.y[j + 1] < pts.y[j] ? 2 : 0;
      for (int i = 0; i < 256; i++)
        {
          float v = pass.table[0][i];
          g_assert_cmpfloat (v, >=, lo);
          g_assert_cmpfloat (v, <=, hi);
          if (i > 0 && sign == 1)
            g_assert_cmpfloat (v, >=, pass.table[0][i - 1]);
          if (i > 0 && sign == 2)
            g_assert_cmpfloat (v, <=, pass.table[0][i - 1]);
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
}

/* Worked by hand.
 * (0,0) (100,50) (200,200): secants 0.5 and 1.5, tangents 0.5, 1, 1.5 (within the circle
 * of radius 3). At 50 (t = ½, h = 100): ⅛·100·0.5 + ½·50 - ⅛·100·1 = 18.75 → 19; at 150:
 * ½·50 + ⅛·100·1 + ½·200 - ⅛·100·1.5 = 118.75 → 119; beyond 200: 200.
 * (0,0) (100,10) (110,240): secants 0.1 and 23; the middle tangent 11.55 is 115.5 times the
 * first secant, so the first segment's tangents are scaled by 3/√(1 + 115.5²): 0.0025973
 * and 0.299989. At 105 (t = ½, h = 10): ½·10 + ⅛·10·0.299989 + ½·240 - ⅛·10·23 = 96.625
 * → 97; at 50 (h = 100): ⅛·100·0.0025973 + ½·10 - ⅛·100·0.299989 = 1.283 → 1. */
static void
test_known_values (void)
{
  const guint8 px[] = { 50, 150, 230, 255, 105, 50, 0, 255 };
  g_autoptr (LmImage) src = lm_test_rgba_from (2, 1, px);
  LmCurveParams a = params ("0:0,100:50,200:200", NULL, NULL, NULL, NULL);
  LmCurveParams b = params ("0:0,100:10,110:240", NULL, NULL, NULL, NULL);
  g_autoptr (LmImage) oa = lm_test_run_op (&lm_curve_op, &a, src);
  g_autoptr (LmImage) ob = lm_test_run_op (&lm_curve_op, &b, src);
  g_assert_cmpuint (lm_test_pixel (oa, 0, 0)[0], ==, 19);
  g_assert_cmpuint (lm_test_pixel (oa, 0, 0)[1], ==, 119);
  g_assert_cmpuint (lm_test_pixel (oa, 0, 0)[2], ==, 200);
  g_assert_cmpuint (lm_test_pixel (ob, 1, 0)[0], ==, 97);
  g_assert_cmpuint (lm_test_pixel (ob, 1, 0)[1], ==, 1);
  g_assert_cmpuint (lm_test_pixel (ob, 1, 0)[2], ==, 0);
}

/* rgb mode: the master curve first, then each channel's. Master halves, red doubles up to
 * 128: red comes back to v everywhere (the other order would clip it at 128). */
static void
test_channel_order (void)
{
  g_autoptr (LmImage) src = ramp ();
  const char *master = "0:0,255:128", *red = "0:0,128:255", *blue = "0:30,255:200";
  LmCurveParams p = params (master, NULL, red, NULL, blue);
  Points pm = points_of (master), pr = points_of (red), pb = points_of (blue), id = points_of ("0:0,255:255");
  const Points *channel[3] = { &pr, &id, &pb };
  g_autoptr (LmImage) out = lm_test_run_op (&lm_curve_op, &p, src);
  for (int i = 0; i < 256; i++)
    for (int c = 0; c < 3; c++)
      {
        double v = lm_test_pixel (src, i, 0)[c];
        g_assert_cmpfloat (fabs (lm_test_pixel (out, i, 0)[c] - eval (channel[c], eval (&pm, v))), <=, 0.5 + 1e-3);
        LM_TEST_RETURN_IF_FAILED ();
      }
  g_assert_cmpuint (lm_test_pixel (out, 200, 0)[0], ==, 200);
}

/* Luma mode: channel curves, then every channel times curve(Y)/Y: the R:G:B ratios stay. */
static void
test_luma_keeps_hue (void)
{
  static const guint8 px[] = {
    200, 100, 50, 255, 30, 60, 90, 255, 120, 40, 160, 255, 10, 200, 30, 255, 90, 90, 90, 255, 1, 2, 3, 255,
  };
  const guint n = G_N_ELEMENTS (px) / 4;
  g_autoptr (LmImage) src = lm_test_rgba_from (n, 1, px);
  const char *master = "0:0,64:100,200:215,255:255";
  Points pm = points_of (master);
  LmCurveParams p = params (master, "luma", NULL, NULL, NULL);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_curve_op, &p, src);
  for (guint i = 0; i < n; i++)
    {
      double c[3] = { px[4 * i], px[4 * i + 1], px[4 * i + 2] };
      double scale = eval (&pm, oracle_luma (c)) / oracle_luma (c);
      const guint8 *o = lm_test_pixel (out, i, 0);
      g_test_message ("%g %g %g → %u %u %u (×%g)", c[0], c[1], c[2], o[0], o[1], o[2], scale);
      for (int k = 0; k < 3; k++)
        if (c[k] * scale < 255.0)
          g_assert_cmpfloat (fabs (o[k] - c[k] * scale), <=, 0.5 + 1e-3);
    }

  /* With a red curve too: it runs first, on the channel, then the luma curve. */
  const char *red = "0:0,128:160,255:255";
  Points pr = points_of (red);
  LmCurveParams q = params (master, "luma", red, NULL, NULL);
  g_autoptr (LmImage) out2 = lm_test_run_op (&lm_curve_op, &q, src);
  for (guint i = 0; i < n; i++)
    {
      double c[3] = { eval (&pr, px[4 * i]), px[4 * i + 1], px[4 * i + 2] };
      oracle_curve_luma (pm.x, pm.y, pm.n, c);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat (fabs (lm_test_pixel (out2, i, 0)[k] - fmin (c[k], 255.0)), <=, 0.5 + 1e-3);
    }
}

/* Black has no ratios to keep: the luma curve's lift is added to each channel. */
static void
test_luma_black (void)
{
  const guint8 px[] = { 0, 0, 0, 255 };
  g_autoptr (LmImage) src = lm_test_rgba_from (1, 1, px);
  LmCurveParams p = params ("0:40,255:255", "luma", NULL, NULL, NULL);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_curve_op, &p, src);
  for (int c = 0; c < 3; c++)
    g_assert_cmpuint (lm_test_pixel (out, 0, 0)[c], ==, 40);
}

/* The luma's curve as the pixel part reads it (its values at the whole levels joined by
 * lines) against the monotone cubic in double: at every whole level, equal up to float's
 * rounding; between them, within the 0.0025 of a level that numerics.md promises for this
 * S-curve; beyond 0..255 and at NaN, the ends' values. */
static void
test_luma_nodes (void)
{
  const char *text = "0:0,64:50,192:210,255:255";
  LmCurveParams p = params (text, "luma", NULL, NULL, NULL);
  Points o = points_of (text);
  LmCurveSpline spline;
  lm_curve_spline_prepare (&p.points, &spline);
  LmCurvePixel px;
  lm_curve_luma_nodes (&spline, px.node);
  double worst = 0.0;
  for (int i = 0; i < 256; i++)
    g_assert_cmpfloat (fabs (lm_curve_luma_map (px.node, (float) i) - eval (&o, i)), <=, 1e-4);
  for (int k = 0; k < 255 * 16; k++)
    worst = fmax (worst, fabs (lm_curve_luma_map (px.node, k / 16.0f) - eval (&o, k / 16.0)));
  g_test_message ("largest distance from the cubic: %.5f of a level", worst);
  g_assert_cmpfloat (worst, <=, 0.0025);
  g_assert_cmpfloat (lm_curve_luma_map (px.node, 300.0f), ==, 255.0f);
  g_assert_cmpfloat (lm_curve_luma_map (px.node, -5.0f), ==, 0.0f);
  g_assert_cmpfloat (lm_curve_luma_map (px.node, NAN), ==, 0.0f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/curve/identity", test_identity);
  g_test_add_func ("/curve/every-value", test_every_value);
  g_test_add_func ("/curve/monotone", test_monotone);
  g_test_add_func ("/curve/known-values", test_known_values);
  g_test_add_func ("/curve/channel-order", test_channel_order);
  g_test_add_func ("/curve/luma-keeps-hue", test_luma_keeps_hue);
  g_test_add_func ("/curve/luma-black", test_luma_black);
  g_test_add_func ("/curve/luma-nodes", test_luma_nodes);
  return g_test_run ();
}
