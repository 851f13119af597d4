/* The diff and the view resampler on the CPU: known answers worked out by hand. */
#include <math.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/ops/compare.h"
#include "core/ops/view.h"
#include "test-util.h"

static void
diff_of (const LmImage *a, const LmImage *b, LmImage *heat, LmDiffStats *stats)
{
  LmDiffSums sums;
  lm_diff_cpu (a, b, 10.0f, heat, &sums);
  lm_diff_stats_from_sums (&sums, stats);
}

/* Equal images: every figure says so. */
static void
test_diff_identical (void)
{
  g_autoptr (LmImage) a = lm_test_random_rgba (37, 11, 7, FALSE);
  g_autoptr (LmImage) heat = lm_test_image_new (LM_FORMAT_RGBA8, 37, 11, 0xAB);
  LmDiffStats s;
  diff_of (a, a, heat, &s);
  g_assert_cmpuint (s.max_abs, ==, 0);
  g_assert_cmpuint (s.differing, ==, 0);
  g_assert_cmpfloat (s.mean_abs, ==, 0.0);
  g_assert_true (isinf (s.psnr_db));
  for (guint y = 0; y < 11; y++)
    for (guint x = 0; x < 37; x++)
      g_assert_cmpuint (*(guint32 *) lm_test_pixel (heat, x, y), ==, 0); /* transparent */
}

/* One pixel changed on purpose must show: green +3 at (5, 2) of a 10×4 RGBA image.
 * Samples compared: 10·4·3 = 120; Σ|Δ| = 3, Σ|Δ|² = 9; mean 3/120 = 0.025;
 * MSE 9/120 = 0.075, PSNR = 10·log10(65025/0.075) = 59.38 dB. */
static void
test_diff_one_pixel (void)
{
  g_autoptr (LmImage) a = lm_test_random_rgba (10, 4, 3, FALSE);
  g_autoptr (LmImage) b = lm_test_random_rgba (10, 4, 3, FALSE);
  guint8 *p = lm_test_pixel (b, 5, 2);
  p[1] = p[1] > 200 ? p[1] - 3 : p[1] + 3;
  lm_test_pixel (b, 7, 1)[3] ^= 0x55; /* alpha is not compared */
  g_autoptr (LmImage) heat = lm_test_image_new (LM_FORMAT_RGBA8, 10, 4, 0xAB);
  LmDiffStats s;
  diff_of (a, b, heat, &s);
  g_assert_cmpuint (s.max_abs, ==, 3);
  g_assert_cmpuint (s.differing, ==, 1);
  g_assert_cmpuint (s.pixels, ==, 40);
  g_assert_cmpfloat_with_epsilon (s.mean_abs, 0.025, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.psnr_db, 10.0 * log10 (65025.0 / 0.075), 1e-9);
  for (guint y = 0; y < 4; y++)
    for (guint x = 0; x < 10; x++)
      {
        guint32 h = *(guint32 *) lm_test_pixel (heat, x, y);
        if (x == 5 && y == 2)
          g_assert_cmpuint (h >> 24, ==, 255); /* opaque: shown */
        else
          g_assert_cmpuint (h, ==, 0);
      }
}

/* Gray images compare their one channel: values 10, 20 vs 13, 20 → max 3, mean 1.5. */
static void
test_diff_gray (void)
{
  const guint8 pa[] = { 10, 20 }, pb[] = { 13, 20 };
  g_autoptr (LmImage) a = lm_test_gray_from (2, 1, pa);
  g_autoptr (LmImage) b = lm_test_gray_from (2, 1, pb);
  LmDiffStats s;
  diff_of (a, b, NULL, &s);
  g_assert_cmpuint (s.max_abs, ==, 3);
  g_assert_cmpuint (s.differing, ==, 1);
  g_assert_cmpfloat_with_epsilon (s.mean_abs, 1.5, 1e-12);
}

static void
test_diff_mismatch (void)
{
  g_autoptr (LmImage) a = lm_test_random_rgba (10, 4, 1, FALSE);
  g_autoptr (LmImage) b = lm_test_random_rgba (4, 10, 1, FALSE);
  g_autoptr (LmImage) g = lm_test_random_gray (10, 4, 1);
  GError *e = NULL;
  g_assert_false (lm_diff_check (a, b, &e));
  g_assert_nonnull (strstr (e->message, "10×4"));
  g_clear_error (&e);
  g_assert_false (lm_diff_check (a, g, &e));
  g_clear_error (&e);
}

/* The heatmap's colour grows with the difference and saturates at white. */
static void
test_heat_ramp (void)
{
  guint32 prev = 0;
  for (guint d = 1; d < 40; d++)
    {
      guint32 h = lm_heat_rgba (d, 10.0f);
      guint sum = (h & 0xff) + ((h >> 8) & 0xff) + ((h >> 16) & 0xff);
      guint prev_sum = (prev & 0xff) + ((prev >> 8) & 0xff) + ((prev >> 16) & 0xff);
      g_assert_cmpuint (sum, >=, prev_sum);
      prev = h;
    }
  g_assert_cmpuint (lm_heat_rgba (200, 10.0f) & 0xffffff, ==, 0xffffff);
}

static guint32
view_pixel (const LmImage *view, guint x, guint y)
{
  return *(const guint32 *) lm_test_pixel (view, x, y);
}

/* 4×4 shown at 2×2: each view pixel averages a 2×2 block. Block (0,0) of the gray image
 * holds 0, 10, 40, 50 → 25; cairo RGB24 repeats it in R, G and B. */
static void
test_view_average (void)
{
  const guint8 px[16] = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150 };
  g_autoptr (LmImage) img = lm_test_gray_from (4, 4, px);
  g_autoptr (LmImage) view = lm_test_image_new (LM_FORMAT_RGBA8, 2, 2, 0xAB);
  LmViewRect r = { 0, 0, 4, 4, 2, 2 };
  g_assert_true (lm_view_check (img, &r, view, NULL));
  lm_view_cpu (img, &r, view);
  /* blocks: (0,10,40,50) 25; (20,30,60,70) 45; (80,90,120,130) 105; (100,110,140,150) 125 */
  g_assert_cmphex (view_pixel (view, 0, 0), ==, 0x191919);
  g_assert_cmphex (view_pixel (view, 1, 0), ==, 0x2d2d2d);
  g_assert_cmphex (view_pixel (view, 0, 1), ==, 0x696969);
  g_assert_cmphex (view_pixel (view, 1, 1), ==, 0x7d7d7d);
}

/* 3 pixels shown as 2: each view pixel covers 1.5 source pixels. Row 0, 90, 180:
 * left = (1·0 + 0.5·90)/1.5 = 30, right = (0.5·90 + 1·180)/1.5 = 150. */
static void
test_view_fractional (void)
{
  const guint8 px[3] = { 0, 90, 180 };
  g_autoptr (LmImage) img = lm_test_gray_from (3, 1, px);
  g_autoptr (LmImage) view = lm_test_image_new (LM_FORMAT_RGBA8, 2, 1, 0xAB);
  LmViewRect r = { 0, 0, 3, 1, 2, 1 };
  lm_view_cpu (img, &r, view);
  g_assert_cmphex (view_pixel (view, 0, 0), ==, 0x1e1e1e);
  g_assert_cmphex (view_pixel (view, 1, 0), ==, 0x969696);
}

/* Zoomed in 4×, from pixel (1, 0): each source pixel becomes a 4×4 block, colour channels
 * in cairo's order (R in bits 16..23). */
static void
test_view_zoom_and_colour (void)
{
  const guint8 px[] = { 10, 20, 30, 255, 200, 100, 50, 255 };
  g_autoptr (LmImage) img = lm_test_rgba_from (2, 1, px);
  g_autoptr (LmImage) view = lm_test_image_new (LM_FORMAT_RGBA8, 4, 4, 0xAB);
  LmViewRect r = { 1, 0, 1, 1, 4, 4 };
  lm_view_cpu (img, &r, view);
  for (guint y = 0; y < 4; y++)
    for (guint x = 0; x < 4; x++)
      g_assert_cmphex (view_pixel (view, x, y), ==, 0xc86432);
  LmViewRect both = { 0, 0, 2, 1, 8, 4 };
  g_autoptr (LmImage) wide = lm_test_image_new (LM_FORMAT_RGBA8, 8, 4, 0xAB);
  lm_view_cpu (img, &both, wide);
  g_assert_cmphex (view_pixel (wide, 3, 2), ==, 0x0a141e);
  g_assert_cmphex (view_pixel (wide, 4, 2), ==, 0xc86432);
}

static void
test_view_rejects_outside (void)
{
  g_autoptr (LmImage) img = lm_test_random_gray (10, 10, 2);
  g_autoptr (LmImage) view = lm_test_image_new (LM_FORMAT_RGBA8, 5, 5, 0);
  LmViewRect r = { 6, 0, 5, 5, 5, 5 };
  GError *e = NULL;
  g_assert_false (lm_view_check (img, &r, view, &e));
  g_clear_error (&e);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/diff/identical", test_diff_identical);
  g_test_add_func ("/diff/one-pixel", test_diff_one_pixel);
  g_test_add_func ("/diff/gray", test_diff_gray);
  g_test_add_func ("/diff/mismatch", test_diff_mismatch);
  g_test_add_func ("/diff/heat-ramp", test_heat_ramp);
  g_test_add_func ("/view/average", test_view_average);
  g_test_add_func ("/view/fractional", test_view_fractional);
  g_test_add_func ("/view/zoom-and-colour", test_view_zoom_and_colour);
  g_test_add_func ("/view/rejects-outside", test_view_rejects_outside);
  return g_test_run ();
}
