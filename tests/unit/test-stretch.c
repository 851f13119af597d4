/* The display stretch of float data (core/astro/stretch.h): each curve at known values
 * (worked out from astropy.visualization's definitions), blank and out-of-range pixels, the
 * flip, every output byte written (poisoned output), percentiles by numpy's linear rule,
 * zscale against astropy's ZScaleInterval, and the data histogram. */
#include <math.h>
#include <string.h>

#include "core/astro/stretch.h"
#include "core/backend/backend.h"
#include "core/render/astro-run.h"
#include "test-util.h"

static LmImage *
float_image (guint width, guint height, const float *values)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_GRAY_F32, width, height, 0xAB);
  for (guint y = 0; y < height; y++)
    memcpy (lm_image_row (image, y), values + (gsize) y * width, width * sizeof (float));
  return image;
}

/* The gray byte of pixel (X, Y) of a stretched view, failing unless it is opaque gray. */
static guint8
gray_at (const LmImage *view, guint x, guint y)
{
  const guint8 *p = lm_test_pixel (view, x, y);
  g_assert_cmpuint (p[0], ==, p[1]);
  g_assert_cmpuint (p[0], ==, p[2]);
  g_assert_cmpuint (p[3], ==, 255);
  return p[0];
}

/* One row of values between limits 0 and 1 through each curve. 0.25 lands on level
 * round (0.25 · 65535) = 16384, x = 0.2500038: linear 63.75 → 64; sqrt 127.501 → 128;
 * log (1000 x + 1) / log 1001 · 255 = 203.94 → 204; asinh (x / 0.1) / asinh 10 · 255 =
 * 140.10 → 140. */
static void
test_curves_known_values (void)
{
  const float values[] = { 0.25f, 0.0f, 1.0f, -3.0f, 7.0f, NAN, 0.5f };
  static const guint8 want[LM_STRETCH_N_KINDS][G_N_ELEMENTS (values)] = {
    [LM_STRETCH_LINEAR] = { 64, 0, 255, 0, 255, 0, 128 },
    [LM_STRETCH_SQRT] = { 128, 0, 255, 0, 255, 0, 180 },  /* sqrt 0.5 · 255 = 180.31 */
    [LM_STRETCH_LOG] = { 204, 0, 255, 0, 255, 0, 229 },   /* log 501 / log 1001 · 255 = 229.45 */
    [LM_STRETCH_ASINH] = { 140, 0, 255, 0, 255, 0, 197 }, /* asinh 5 / asinh 10 · 255 = 196.68 */
  };
  g_autoptr (LmImage) image = float_image (G_N_ELEMENTS (values), 1, values);
  g_autofree guint8 *table = g_malloc (LM_STRETCH_LEVELS);
  for (int k = 0; k < LM_STRETCH_N_KINDS; k++)
    {
      lm_stretch_table (k, table);
      g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA8, image->width, 1, 0x5A);
      g_assert_true (lm_stretch_cpu (image, 0.0, 1.0, table, FALSE, out, NULL));
      for (guint x = 0; x < image->width; x++)
        {
          guint8 got = gray_at (out, x, 0);
          if (got != want[k][x])
            g_test_message ("%s: value %g gave %u, want %u", lm_stretch_kind_name (k), values[x], got, want[k][x]);
          g_assert_cmpuint (got, ==, want[k][x]);
        }
    }
}

/* Flip: row 0 of the data is the last row of the view; every byte of a poisoned output is
 * written, with two poisons. */
static void
test_flip_and_poison (void)
{
  enum { W = 37, H = 5 };
  float values[W * H];
  for (int i = 0; i < W * H; i++)
    values[i] = (float) i;
  g_autoptr (LmImage) image = float_image (W, H, values);
  g_autofree guint8 *table = g_malloc (LM_STRETCH_LEVELS);
  lm_stretch_table (LM_STRETCH_LINEAR, table);
  g_autoptr (LmImage) a = lm_test_image_new (LM_FORMAT_RGBA8, W, H, 0x00);
  g_autoptr (LmImage) b = lm_test_image_new (LM_FORMAT_RGBA8, W, H, 0xFF);
  g_assert_true (lm_stretch_cpu (image, 0.0, W * H - 1.0, table, TRUE, a, NULL));
  g_assert_true (lm_stretch_cpu (image, 0.0, W * H - 1.0, table, TRUE, b, NULL));
  lm_test_assert_same_pixels (a, b);
  g_assert_true (a->opaque);
  g_assert_cmpuint (gray_at (a, 0, H - 1), ==, 0);   /* data (0, 0): the bottom left */
  g_assert_cmpuint (gray_at (a, W - 1, 0), ==, 255); /* the last value: the top right */
  g_autoptr (LmImage) c = lm_test_image_new (LM_FORMAT_RGBA8, W, H, 0x77);
  g_assert_true (lm_stretch_cpu (image, 0.0, W * H - 1.0, table, FALSE, c, NULL));
  for (guint y = 0; y < H; y++)
    g_assert_cmpmem (lm_image_row (c, y), W * 4, lm_image_row (a, H - 1 - y), W * 4);
}

/* numpy.percentile's linear rule: of 0 … 99 (shuffled, with blanks), the 0.5th percentile
 * is at rank 0.495 → 0.495 and the 99.5th at rank 98.505 → 98.505. */
static void
test_percentiles (void)
{
  float values[104];
  for (int i = 0; i < 100; i++)
    values[i] = (float) ((i * 37) % 100);
  values[100] = NAN;
  values[101] = INFINITY;
  values[102] = NAN;
  values[103] = -INFINITY;
  double lo, hi, median;
  g_assert_true (lm_percentiles (values, G_N_ELEMENTS (values), 0.5, 99.5, &lo, &hi));
  g_assert_cmpfloat_with_epsilon (lo, 0.495, 1e-12);
  g_assert_cmpfloat_with_epsilon (hi, 98.505, 1e-12);
  g_assert_true (lm_percentile (values, G_N_ELEMENTS (values), 50.0, &median));
  g_assert_cmpfloat_with_epsilon (median, 49.5, 1e-12);
  g_assert_true (lm_percentile (values, 100, 100.0, &hi));
  g_assert_cmpfloat (hi, ==, 99.0);
  g_assert_true (lm_percentile (values, 100, 0.0, &lo));
  g_assert_cmpfloat (lo, ==, 0.0);
  const float blank[] = { NAN, NAN };
  g_assert_false (lm_percentile (blank, 2, 50.0, &lo));
}

/* Against astropy.visualization.ZScaleInterval ().get_limits on the same float32 data
 * (tests/unit/test-stretch.c's formulas, evaluated with NumPy): a ramp with spikes and a
 * blank, where the limits come from the sample's ends and the fitted slope; and a sine
 * with spikes. */
static void
test_zscale_astropy (void)
{
  enum { N = 5000 };
  g_autofree float *v = g_new (float, N);
  g_autofree float *w = g_new (float, N);
  for (int i = 0; i < N; i++)
    {
      v[i] = (float) ((double) ((i * 37) % 101) + 0.001 * i);
      w[i] = (float) sin (i * 0.7) * 3.0f + 10.0f;
    }
  for (int i = 0; i < N; i += 250)
    v[i] = 5000.0f;
  v[7] = NAN;
  for (int i = 0; i < N; i += 97)
    w[i] += 200.0f;
  double z1, z2;
  g_assert_true (lm_zscale (v, N, &z1, &z2));
  g_assert_cmpfloat_with_epsilon (z1 / 0.101, 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (z2 / 254.3296312704961, 1.0, 1e-6);
  g_assert_true (lm_zscale (w, N, &z1, &z2));
  g_assert_cmpfloat_with_epsilon (z1 / 7.0, 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (z2 / 25.11368939161851, 1.0, 1e-6);
}

/* Limits on an image: a flat one gets a range of one around its value; a blank one fails. */
static void
test_limits (void)
{
  const float flat[] = { 3, 3, 3, 3 };
  g_autoptr (LmImage) image = float_image (2, 2, flat);
  LmStretchParams p;
  lm_stretch_params_init (&p);
  double lo, hi;
  g_assert_true (lm_stretch_limits (image, &p, &lo, &hi, NULL));
  g_assert_cmpfloat (lo, ==, 2.5);
  g_assert_cmpfloat (hi, ==, 3.5);
  const float blank[] = { NAN, NAN, NAN, NAN };
  g_autoptr (LmImage) empty = float_image (2, 2, blank);
  GError *error = NULL;
  g_assert_false (lm_stretch_limits (empty, &p, &lo, &hi, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
}

/* The histogram counts data values over the limits (ends clipped into the end bins), not
 * display bytes; blanks are not counted. */
static void
test_data_histogram (void)
{
  const float values[] = { 10.0f, 10.5f, 11.0f, 19.99f, 20.0f, 5.0f, 25.0f, NAN };
  g_autoptr (LmImage) image = float_image (4, 2, values);
  LmHistogram hist;
  memset (&hist, 0xAB, sizeof hist);
  lm_stretch_histogram (image, 10.0, 20.0, &hist);
  g_assert_cmpuint (hist.total, ==, 7);
  /* 256 bins over 10 … 20: 10 → 0, 10.5 → 12, 11 → 25, 19.99 → 255, 20 → 255 (clamped),
   * 5 → 0, 25 → 255. */
  g_assert_cmpuint (hist.bins[LM_HIST_LUMA][0], ==, 2);
  g_assert_cmpuint (hist.bins[LM_HIST_LUMA][12], ==, 1);
  g_assert_cmpuint (hist.bins[LM_HIST_LUMA][25], ==, 1);
  g_assert_cmpuint (hist.bins[LM_HIST_LUMA][255], ==, 3);
  guint64 sum = 0;
  for (int b = 0; b < LM_HIST_BINS; b++)
    sum += hist.bins[LM_HIST_LUMA][b];
  g_assert_cmpuint (sum, ==, 7);
  g_assert_cmpmem (hist.bins[LM_HIST_R], sizeof hist.bins[0], hist.bins[LM_HIST_LUMA], sizeof hist.bins[0]);
}

/* lm_stretch_run on the CPU backend is the CPU map. */
static void
test_backend_cpu (void)
{
  float values[64 * 3];
  for (int i = 0; i < 64 * 3; i++)
    values[i] = (float) sin (i) * 100.0f;
  g_autoptr (LmImage) image = float_image (64, 3, values);
  g_autofree guint8 *table = g_malloc (LM_STRETCH_LEVELS);
  lm_stretch_table (LM_STRETCH_ASINH, table);
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmImage) a = lm_test_image_new (LM_FORMAT_RGBA8, 64, 3, 0x11);
  g_autoptr (LmImage) b = lm_test_image_new (LM_FORMAT_RGBA8, 64, 3, 0x22);
  g_assert_true (lm_stretch_cpu (image, -50.0, 80.0, table, TRUE, a, NULL));
  g_assert_true (lm_stretch_run (cpu, image, -50.0, 80.0, table, TRUE, b, NULL));
  lm_test_assert_same_pixels (a, b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/stretch/curves-known-values", test_curves_known_values);
  g_test_add_func ("/stretch/flip-and-poison", test_flip_and_poison);
  g_test_add_func ("/stretch/percentiles", test_percentiles);
  g_test_add_func ("/stretch/zscale-astropy", test_zscale_astropy);
  g_test_add_func ("/stretch/limits", test_limits);
  g_test_add_func ("/stretch/data-histogram", test_data_histogram);
  g_test_add_func ("/stretch/backend-cpu", test_backend_cpu);
  return g_test_run ();
}
