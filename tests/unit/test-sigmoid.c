/* The sigmoid display transform (core/hdr/sigmoid-math.h, LM_TONEMAP_SIGMOID) against its
 * formula written out here in double: y = v^c / (v^c + K), v = x · 2^EV / 0.18,
 * c = contrast / 0.82, K = 0.82 / 0.18, then sRGB's encoding. Known answers of the curve and
 * of whole images, 0 → 0, middle grey, monotony, the slope at middle grey, hues kept as a
 * colour brightens until it turns white (and not kept without hue preservation), channels
 * treated alike, bad values and bad parameters. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/hdr/tonemap-math.h"
#include "core/hdr/sigmoid-math.h"
#include "core/hdr/tonemap.h"
#include "test-util.h"

#define GREY 0.18

static LmTonemapParams
sigmoid_params (float exposure, float contrast, float hue)
{
  LmTonemapParams p = LM_TONEMAP_PARAMS_INIT;
  p.kind = LM_TONEMAP_SIGMOID;
  p.exposure = exposure, p.contrast = contrast, p.hue_preservation = hue;
  return p;
}

/* The curve as published, in double. */
static double
curve (double x, double exposure, double contrast)
{
  if (!(x > 0.0))
    return 0.0;
  double c = contrast / (1.0 - GREY), k = (1.0 - GREY) / GREY;
  double v = pow (x * exp2 (exposure), c);
  return v / (v + k * pow (GREY, c));
}

static double
encode (double l)
{
  return l <= 0.0031308 ? l * 12.92 : 1.055 * pow (l, 1.0 / 2.4) - 0.055;
}

static double
decode16 (guint16 v)
{
  double e = v / 65535.0;
  return e <= 0.04045 ? e / 12.92 : pow ((e + 0.055) / 1.055, 2.4);
}

/* Pseudo-random floats, reproducible. */
static guint32
next (guint32 *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* log2 and exp2 from basic operations, against libm's in double. */
static void
test_log2_exp2 (void)
{
  guint32 state = 7;
  for (int i = 0; i < 200000; i++)
    {
      /* Every exponent from 2^-100 to 2^100, random mantissas. */
      float v = ldexpf (1.0f + (next (&state) & 0x7fffff) / 8388608.0f, (int) (next (&state) % 201) - 100);
      double want = log2 ((double) v);
      double err = fabs (lm_tm_log2 (v) - want);
      g_assert_cmpfloat (err, <=, MAX (fabs (want), 1.0) * 3e-7);
      float t = ((int) (next (&state) % 2000001) - 1000000) / 15625.0f; /* −64..64 */
      double e2 = exp2 ((double) t);
      g_assert_cmpfloat (fabs (lm_tm_exp2 (t) - e2) / e2, <=, 4e-7);
      LM_TEST_RETURN_IF_FAILED ();
    }
  g_assert_cmpfloat (lm_tm_log2 (1.0f), ==, 0.0f);
  g_assert_cmpfloat (lm_tm_exp2 (0.0f), ==, 1.0f);
  g_assert_cmpfloat (lm_tm_exp2 (10.0f), ==, 1024.0f);
  g_assert_cmpfloat (lm_tm_exp2 (1000.0f), ==, 0x1p64f);
  g_assert_cmpfloat (lm_tm_exp2 (NAN), ==, 0x1p-64f);
}

/* The curve at chosen points, for several exposures and contrasts. */
static void
test_curve_known (void)
{
  static const float exposures[] = { 0.0f, 0.7f, -3.0f, 4.5f, 10.0f, -10.0f };
  static const float contrasts[] = { 1.3f, 0.5f, 1.0f, 2.0f, 3.0f };
  static const float xs[] = { 1e-6f, 0.001f, 0.01f, 0.05f, 0.1f, 0.18f, 0.25f, 0.5f, 1.0f, 2.0f, 10.0f, 100.0f, 1e4f };
  for (guint e = 0; e < G_N_ELEMENTS (exposures); e++)
    for (guint c = 0; c < G_N_ELEMENTS (contrasts); c++)
      {
        LmTmSigmoid s = lm_tm_sigmoid_setup (exposures[e], contrasts[c], 0.0f);
        for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
          {
            double want = curve (xs[i], exposures[e], contrasts[c]);
            double got = lm_tm_sigmoid_curve (&s, xs[i]);
            /* Far below black the curve is held near 2^-64 / K (lm_tm_exp2's range): 10^-15
             * of a 16-bit output level. */
            g_assert_cmpfloat (fabs (got - want), <=, want * 2e-6 + 1e-19);
          }
      }
  /* Whole pixels, as lm_tonemap_cpu writes them: a gray ramp's 16-bit values. */
  LmTonemapParams p = sigmoid_params (0.7f, 1.3f, 1.0f);
  enum { N = 600 };
  g_autoptr (LmImage) in = lm_test_image_new (LM_FORMAT_RGBA_F32, N, 1, 0);
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA16, N, 1, 0xA5);
  float *row = (float *) lm_image_row (in, 0);
  for (int i = 0; i < N; i++)
    for (int c = 0; c < 4; c++)
      row[4 * i + c] = c == 3 ? 1.0f : (float) (1e-4 * pow (10.0, i / 100.0)); /* 1e-4..1e2 */
  g_assert_true (lm_tonemap_cpu (&p, in, out, NULL));
  const guint16 *o = (const guint16 *) lm_image_row (out, 0);
  for (int i = 0; i < N; i++)
    {
      double want = 65535.0 * encode (curve (row[4 * i], 0.7, 1.3));
      for (int c = 0; c < 3; c++)
        g_assert_cmpfloat (fabs (o[4 * i + c] - want), <=, 0.5 + 1e-2);
      g_assert_cmpuint (o[4 * i + 3], ==, 65535);
    }
}

/* Black stays black; middle grey lands on display middle grey (118 of 255). */
static void
test_black_and_grey (void)
{
  static const float contrasts[] = { 0.5f, 1.0f, 1.3f, 2.0f, 3.0f };
  for (guint c = 0; c < G_N_ELEMENTS (contrasts); c++)
    {
      LmTmSigmoid s = lm_tm_sigmoid_setup (0.0f, contrasts[c], 1.0f);
      g_assert_cmpfloat (lm_tm_sigmoid_curve (&s, 0.0f), ==, 0.0f);
      g_assert_cmpfloat (fabs (lm_tm_sigmoid_curve (&s, 0.18f) - GREY), <=, 1e-6);
      float q[3] = { 0.0f, 0.0f, 0.0f };
      lm_tm_sigmoid (&s, q);
      g_assert_true (q[0] == 0.0f && q[1] == 0.0f && q[2] == 0.0f);
      float g[3] = { 0.18f, 0.18f, 0.18f };
      lm_tm_sigmoid (&s, g);
      for (int k = 0; k < 3; k++)
        g_assert_cmpint (lm_tm_quantize (g[k]), ==, 118);
      /* The default exposure takes a raw's typical middle grey there. */
      LmTmSigmoid d = lm_tm_sigmoid_setup (0.7f, contrasts[c], 1.0f);
      g_assert_cmpfloat (fabs (lm_tm_sigmoid_curve (&d, (float) (GREY * exp2 (-0.7))) - GREY), <=, 1e-6);
    }
}

/* Non-decreasing over 12 decades, 0 below and 1 far above; the slope at middle grey on log
 * axes is the contrast. */
static void
test_monotone_and_slope (void)
{
  static const float contrasts[] = { 0.5f, 1.3f, 3.0f };
  for (guint c = 0; c < G_N_ELEMENTS (contrasts); c++)
    {
      LmTmSigmoid s = lm_tm_sigmoid_setup (0.0f, contrasts[c], 0.0f);
      float last = 0.0f;
      for (int i = 0; i <= 1200000; i++)
        {
          float x = (float) (1e-6 * pow (10.0, i / 100000.0));
          float y = lm_tm_sigmoid_curve (&s, x);
          if (y < last)
            g_assert_cmpfloat (y, >=, last); /* reports x too, through the loop's state */
          LM_TEST_RETURN_IF_FAILED ();
          last = y;
        }
      g_assert_cmpfloat (last, >, 0.999);
      g_assert_cmpfloat (lm_tm_sigmoid_curve (&s, -1.0f), ==, 0.0f);
      double h = 1e-3;
      double slope = (log (lm_tm_sigmoid_curve (&s, (float) (GREY * exp (h))))
                      - log (lm_tm_sigmoid_curve (&s, (float) (GREY * exp (-h)))))
                     / (2 * h);
      g_assert_cmpfloat (fabs (slope - contrasts[c]), <=, 2e-3 * contrasts[c]);
    }
}

/* A colour's hue angle in a linear-RGB opponent space. */
static double
hue_angle (const double rgb[3])
{
  double a = rgb[0] - 0.5 * (rgb[1] + rgb[2]), b = 0.5 * sqrt (3.0) * (rgb[1] - rgb[2]);
  return atan2 (b, a);
}

static double
angle_between (double a, double b)
{
  double d = fabs (a - b);
  return MIN (d, 2 * G_PI - d) * 180.0 / G_PI;
}

/* Saturated colours × 2^k, k = 0..8: the largest hue error (degrees) over the steps that are
 * not yet white (chroma above 2 % of display white), and the last step's min / max; the first
 * step must keep a chroma of 10 % of white. */
static double
worst_hue_error (float hue_preservation, double *last_min_over_max)
{
  static const float colours[][3] = {
    { 0.18f, 0.054f, 0.009f }, /* orange */
    { 0.009f, 0.036f, 0.18f }, /* blue */
    { 0.018f, 0.18f, 0.054f }, /* green */
    { 0.18f, 0.009f, 0.11f },  /* magenta */
    { 0.18f, 0.16f, 0.004f },  /* yellow */
    { 0.004f, 0.15f, 0.18f },  /* cyan */
  };
  enum { STEPS = 9 };
  guint n = G_N_ELEMENTS (colours);
  g_autoptr (LmImage) in = lm_test_image_new (LM_FORMAT_RGBA_F32, STEPS, n, 0);
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA16, STEPS, n, 0x5A);
  for (guint i = 0; i < n; i++)
    {
      float *row = (float *) lm_image_row (in, i);
      for (int k = 0; k < STEPS; k++)
        for (int c = 0; c < 4; c++)
          row[4 * k + c] = c == 3 ? 1.0f : colours[i][c] * (float) (1 << k);
    }
  LmTonemapParams p = sigmoid_params (0.7f, 1.3f, hue_preservation);
  g_assert_true (lm_tonemap_cpu (&p, in, out, NULL));
  double worst = 0.0;
  *last_min_over_max = 1.0;
  for (guint i = 0; i < n; i++)
    {
      double scene[3] = { colours[i][0], colours[i][1], colours[i][2] };
      const guint16 *o = (const guint16 *) lm_image_row (out, i);
      for (int k = 0; k < STEPS; k++)
        {
          double d[3] = { decode16 (o[4 * k]), decode16 (o[4 * k + 1]), decode16 (o[4 * k + 2]) };
          double hi = MAX (d[0], MAX (d[1], d[2])), lo = MIN (d[0], MIN (d[1], d[2]));
          if (hi - lo > 0.02)
            worst = MAX (worst, angle_between (hue_angle (d), hue_angle (scene)));
          /* Before it brightens, the colour is a colour: grey has no hue to get wrong. */
          if (k == 0)
            g_assert_cmpfloat (hi - lo, >=, 0.1);
          if (k == STEPS - 1)
            *last_min_over_max = MIN (*last_min_over_max, lo / hi);
        }
    }
  return worst;
}

static void
test_hue_kept (void)
{
  double whiteness;
  double kept = worst_hue_error (1.0f, &whiteness);
  g_test_message ("hue preserved: worst hue error %.3f°, last step min/max ≥ %.3f", kept, whiteness);
  g_assert_cmpfloat (kept, <=, 0.5);
  /* 2^8 over these colours is far past display white: they have turned (almost) white. */
  g_assert_cmpfloat (whiteness, >=, 0.85);
  /* Per channel, the same colours drift by degrees: the check above can fail. */
  double drift = worst_hue_error (0.0f, &whiteness);
  g_test_message ("per channel: worst hue error %.3f°", drift);
  g_assert_cmpfloat (drift, >=, 5.0);
}

/* Swapped channels give the result swapped, bit for bit, on awkward values too: ties,
 * negatives, zeros, huge values, NaN and infinities. */
static void
test_channel_symmetry (void)
{
  static const int perms[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
  static const float specials[] = { 0.0f, -0.0f, -0.05f, 0.18f, 1.0f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN, 1e-40f };
  static const float hues[] = { 0.0f, 0.4f, 1.0f };
  guint32 state = 99;
  for (int i = 0; i < 30000; i++)
    {
      float x[3];
      for (int c = 0; c < 3; c++)
        {
          guint32 r = next (&state);
          if (r % 7 == 0)
            x[c] = specials[r % G_N_ELEMENTS (specials)];
          else if (r % 7 == 1 && c > 0)
            x[c] = x[c - 1]; /* a tie */
          else
            x[c] = (float) (exp2 ((r % 4001) / 100.0 - 25.0) * (r % 11 == 0 ? -1 : 1));
        }
      LmTmSigmoid s = lm_tm_sigmoid_setup (0.7f, 1.3f, hues[i % 3]);
      float base[3] = { x[0], x[1], x[2] };
      lm_tm_sigmoid (&s, base);
      for (int c = 0; c < 3; c++)
        g_assert_true (base[c] >= 0.0f && base[c] <= 1.0f + 1e-6f);
      for (int k = 1; k < 6; k++)
        {
          float q[3] = { x[perms[k][0]], x[perms[k][1]], x[perms[k][2]] };
          lm_tm_sigmoid (&s, q);
          for (int c = 0; c < 3; c++)
            g_assert_true (memcmp (&q[c], &base[perms[k][c]], sizeof (float)) == 0);
        }
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* 8-bit output is the 16-bit output's value rounded to 8 bits, every pixel written, alpha
 * opaque; a gray pixel stays gray. */
static void
test_depths (void)
{
  enum { W = 37, H = 11 };
  g_autoptr (LmImage) in = lm_test_image_new (LM_FORMAT_RGBA_F32, W, H, 0);
  guint32 state = 5;
  for (guint y = 0; y < H; y++)
    {
      float *row = (float *) lm_image_row (in, y);
      for (guint x = 0; x < W; x++)
        for (int c = 0; c < 4; c++)
          row[4 * x + c] = c == 3 ? 0.5f : (float) exp2 ((next (&state) % 2400) / 100.0 - 16.0);
      if (y == 0)
        for (guint x = 0; x < W; x++)
          row[4 * x + 1] = row[4 * x + 2] = row[4 * x];
    }
  LmTonemapParams p = sigmoid_params (0.7f, 1.3f, 1.0f);
  for (int poison = 0; poison < 2; poison++)
    {
      g_autoptr (LmImage) o8 = lm_test_image_new (LM_FORMAT_RGBA8, W, H, poison ? 0x00 : 0xFF);
      g_autoptr (LmImage) o16 = lm_test_image_new (LM_FORMAT_RGBA16, W, H, poison ? 0x00 : 0xFF);
      g_assert_true (lm_tonemap_cpu (&p, in, o8, NULL));
      g_assert_true (lm_tonemap_cpu (&p, in, o16, NULL));
      g_assert_true (o8->opaque && o16->opaque);
      for (guint y = 0; y < H; y++)
        {
          const float *row = (const float *) lm_image_row (in, y);
          const guint8 *a = lm_image_row (o8, y);
          const guint16 *b = (const guint16 *) lm_image_row (o16, y);
          for (guint x = 0; x < W; x++)
            {
              float q[3] = { row[4 * x], row[4 * x + 1], row[4 * x + 2] };
              LmTmSigmoid s = lm_tm_sigmoid_setup (p.exposure, p.contrast, p.hue_preservation);
              lm_tm_sigmoid (&s, q);
              for (int c = 0; c < 3; c++)
                {
                  g_assert_cmpuint (a[4 * x + c], ==, lm_tm_quantize (q[c]));
                  g_assert_cmpuint (b[4 * x + c], ==, lm_tm_quantize16 (q[c]));
                }
              g_assert_cmpuint (a[4 * x + 3], ==, 255);
              g_assert_cmpuint (b[4 * x + 3], ==, 65535);
              if (y == 0)
                g_assert_true (a[4 * x] == a[4 * x + 1] && a[4 * x] == a[4 * x + 2]);
            }
        }
    }
}

/* Parameters outside what the table allows are refused with a message, not rendered. */
static void
test_bad_params (void)
{
  g_autoptr (LmImage) in = lm_test_image_new (LM_FORMAT_RGBA_F32, 2, 2, 0);
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA8, 2, 2, 0);
  const LmTonemapParams bad[] = {
    sigmoid_params (0.7f, 0.0f, 1.0f),  sigmoid_params (0.7f, -1.0f, 1.0f), sigmoid_params (0.7f, NAN, 1.0f),
    sigmoid_params (NAN, 1.3f, 1.0f),   sigmoid_params (INFINITY, 1.3f, 1.0f), sigmoid_params (0.7f, 1.3f, 1.5f),
    sigmoid_params (0.7f, 1.3f, -0.1f), sigmoid_params (0.7f, 1.3f, NAN),
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      GError *e = NULL;
      g_assert_false (lm_tonemap_cpu (&bad[i], in, out, &e));
      g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
      g_assert_null (strchr (e->message, '\n'));
      g_clear_error (&e);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/sigmoid/log2-exp2", test_log2_exp2);
  g_test_add_func ("/sigmoid/curve-known", test_curve_known);
  g_test_add_func ("/sigmoid/black-and-grey", test_black_and_grey);
  g_test_add_func ("/sigmoid/monotone-and-slope", test_monotone_and_slope);
  g_test_add_func ("/sigmoid/hue-kept", test_hue_kept);
  g_test_add_func ("/sigmoid/channel-symmetry", test_channel_symmetry);
  g_test_add_func ("/sigmoid/depths", test_depths);
  g_test_add_func ("/sigmoid/bad-params", test_bad_params);
  return g_test_run ();
}
