/* The diff on 16-bit images (RGBA16, GRAY16), CPU reference: figures in u16 and in 8-bit
 * steps worked out by hand, and a change of one u16 value, made on purpose, reported by the
 * figures, the full-size heatmap and the view's heatmap however far it is zoomed out. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/ops/compare.h"
#include "test-util.h"

static LmImage *
random16 (LmFormat format, guint w, guint h, guint32 seed)
{
  LmImage *image = lm_test_image_new (format, w, h, 0x77);
  GRand *rand = g_rand_new_with_seed (seed);
  guint ch = lm_format_channels (format);
  for (guint y = 0; y < h; y++)
    for (guint i = 0; i < w * ch; i++)
      ((guint16 *) lm_image_row (image, y))[i] = (guint16) g_rand_int_range (rand, 0, 65536);
  g_rand_free (rand);
  return image;
}

static LmImage *
copy16 (const LmImage *src)
{
  LmImage *image = lm_test_image_new (src->format, src->width, src->height, 0x33);
  for (guint y = 0; y < src->height; y++)
    memcpy (lm_image_row (image, y), lm_image_row (src, y), src->width * lm_format_bytes_per_pixel (src->format));
  return image;
}

static guint16 *
sample16 (LmImage *image, guint x, guint y, guint c)
{
  return (guint16 *) lm_test_pixel (image, x, y) + c;
}

static void
diff_of (const LmImage *a, const LmImage *b, LmImage *heat, LmDiffStats *stats)
{
  g_assert_true (lm_diff_check (a, b, NULL));
  LmDiffSums sums;
  memset (&sums, 0x5a, sizeof sums);
  lm_diff_cpu (a, b, 10.0f, heat, &sums);
  lm_diff_stats_from_sums (&sums, stats);
}

/* Equal: zero everywhere, PSNR infinite, heatmap transparent. */
static void
test_identical (void)
{
  g_autoptr (LmImage) a = random16 (LM_FORMAT_RGBA16, 23, 9, 1);
  g_autoptr (LmImage) b = copy16 (a);
  g_autoptr (LmImage) heat = lm_test_image_new (LM_FORMAT_RGBA8, 23, 9, 0xAB);
  LmDiffStats s;
  diff_of (a, b, heat, &s);
  g_assert_cmpuint (s.depth, ==, 16);
  g_assert_cmpuint (s.max_abs, ==, 0);
  g_assert_cmpuint (s.differing, ==, 0);
  g_assert_true (isinf (s.psnr_db));
  for (guint y = 0; y < 9; y++)
    for (guint x = 0; x < 23; x++)
      g_assert_cmpuint (*(guint32 *) lm_test_pixel (heat, x, y), ==, 0);
}

/* One u16 value off by one at (5, 2), blue, of a 10×4 RGBA16 image: 120 samples, Σ|Δ| 1,
 * Σ|Δ|² 1; mean 1/120; MSE 1/120, PSNR 10·log10(65535² · 120) = 117.12 dB; max 1 u16 =
 * 1/257 = 0.0039 8-bit steps. An 8-bit view of the same images would report nothing. Then a
 * second change of 600 (2.33 steps) at (1, 3), red. Alpha is not compared. */
static void
test_one_value (void)
{
  g_autoptr (LmImage) a = random16 (LM_FORMAT_RGBA16, 10, 4, 2);
  g_autoptr (LmImage) b = copy16 (a);
  guint16 *v = sample16 (b, 5, 2, 2);
  *v = *v == 65535 ? 65534 : *v + 1;
  *sample16 (b, 7, 1, 3) ^= 0x5555;
  g_autoptr (LmImage) heat = lm_test_image_new (LM_FORMAT_RGBA8, 10, 4, 0xAB);
  LmDiffStats s;
  diff_of (a, b, heat, &s);
  g_assert_cmpuint (s.max_abs, ==, 1);
  g_assert_cmpuint (s.differing, ==, 1);
  g_assert_cmpuint (s.pixels, ==, 40);
  g_assert_cmpfloat_with_epsilon (s.mean_abs, 1.0 / 120.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.psnr_db, 10.0 * log10 (65535.0 * 65535.0 * 120.0), 1e-9);
  g_assert_cmpfloat_with_epsilon (lm_diff_stats_max_steps (&s), 1.0 / 257.0, 1e-12);
  for (guint y = 0; y < 4; y++)
    for (guint x = 0; x < 10; x++)
      {
        guint32 h = *(guint32 *) lm_test_pixel (heat, x, y);
        if (x == 5 && y == 2)
          g_assert_cmpuint (h >> 24, ==, 255); /* shown, with the least colour */
        else
          g_assert_cmpuint (h, ==, 0);
      }
  g_assert_cmpuint (*(guint32 *) lm_test_pixel (heat, 5, 2), ==, lm_heat_rgba_of (10.0f / 257.0f));
  g_autofree char *line = lm_diff_stats_describe (&s);
  g_test_message ("%s", line);
  g_assert_nonnull (strstr (line, "(0.004 8-bit steps)"));
  g_assert_nonnull (strstr (line, "u16"));

  guint16 *r = sample16 (b, 1, 3, 0);
  *r = *r >= 600 ? *r - 600 : *r + 600;
  diff_of (a, b, heat, &s);
  g_assert_cmpuint (s.max_abs, ==, 600);
  g_assert_cmpuint (s.differing, ==, 2);
  g_assert_cmpfloat_with_epsilon (lm_diff_stats_max_steps (&s), 600.0 / 257.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.mean_abs, 601.0 / 120.0, 1e-12);
  /* the heat of 600 u16 equals the 8-bit heat of 2.33 steps: the gain means the same */
  g_assert_cmpuint (*(guint32 *) lm_test_pixel (heat, 1, 3), ==, lm_heat_rgba_of (600.0f / 257.0f * 10.0f));
  g_assert_cmpuint (lm_heat_rgba16 (257 * 3, 10.0f), ==, lm_heat_rgba (3, 10.0f));
}

/* Gray: one sample a pixel. 7×3, one value off by 65535 (black to white): max 65535, 255
 * steps, mean 65535/21, PSNR 10·log10(21) = 13.22 dB. */
static void
test_gray (void)
{
  g_autoptr (LmImage) a = lm_test_image_new (LM_FORMAT_GRAY16, 7, 3, 0);
  for (guint y = 0; y < 3; y++)
    memset (lm_image_row (a, y), 0, 7 * 2);
  g_autoptr (LmImage) b = copy16 (a);
  *sample16 (b, 6, 1, 0) = 65535;
  LmDiffStats s;
  diff_of (a, b, NULL, &s);
  g_assert_cmpuint (s.max_abs, ==, 65535);
  g_assert_cmpfloat (lm_diff_stats_max_steps (&s), ==, 255.0);
  g_assert_cmpuint (s.differing, ==, 1);
  g_assert_cmpfloat_with_epsilon (s.mean_abs, 65535.0 / 21.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s.psnr_db, 10.0 * log10 (21.0), 1e-9);
}

/* The view's heatmap: a 400×300 image shown at 20×15, one value off by one at (333, 211):
 * exactly the view pixel over it shows. */
static void
test_heat_view (void)
{
  g_autoptr (LmImage) a = random16 (LM_FORMAT_RGBA16, 400, 300, 3);
  g_autoptr (LmImage) b = copy16 (a);
  guint16 *v = sample16 (b, 333, 211, 1);
  *v = *v ? *v - 1 : 1;
  LmViewRect rect = { 0, 0, 400, 300, 20, 15 };
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA8, 20, 15, 0xCD);
  lm_diff_heat_view (a, b, &rect, 10.0f, out);
  for (guint y = 0; y < 15; y++)
    for (guint x = 0; x < 20; x++)
      {
        guint32 h = *(guint32 *) lm_test_pixel (out, x, y);
        if (x == 333 / 20 && y == 211 / 20)
          g_assert_cmpuint (h >> 24, ==, 255);
        else
          g_assert_cmpuint (h, ==, 0);
      }
}

/* 8-bit and 16-bit images are not compared with each other. */
static void
test_mismatch (void)
{
  g_autoptr (LmImage) a = random16 (LM_FORMAT_RGBA16, 4, 4, 4);
  g_autoptr (LmImage) b = lm_test_random_rgba (4, 4, 4, FALSE);
  GError *error = NULL;
  g_assert_false (lm_diff_check (a, b, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/diff16/identical", test_identical);
  g_test_add_func ("/diff16/one-value", test_one_value);
  g_test_add_func ("/diff16/gray", test_gray);
  g_test_add_func ("/diff16/heat-view", test_heat_view);
  g_test_add_func ("/diff16/mismatch", test_mismatch);
  return g_test_run ();
}
