/* The pyramid of a large photo's view (core/render/pyramid.h): its levels are the halves by
 * area averaging (computed here independently, 8 and 16 bits), odd sides keep their last
 * row and column, and the level picked for a view is the one just finer than the view. */
#include <math.h>
#include <string.h>

#include "core/render/pyramid.h"
#include "test-util.h"

/* The average of the 2×2 block (or less, at an odd edge) at (2X, 2Y) of SRC, channel C. */
static double
block_mean (const LmImage *src, guint x, guint y, guint c)
{
  guint ch = lm_format_channels (src->format);
  gboolean deep = lm_format_depth (src->format) == 16;
  double sum = 0.0;
  int n = 0;
  for (guint j = 2 * y; j < MIN (2 * y + 2, src->height); j++)
    for (guint i = 2 * x; i < MIN (2 * x + 2, src->width); i++)
      {
        const guint8 *row = lm_image_row (src, j);
        sum += deep ? ((const guint16 *) row)[i * ch + c] : row[i * ch + c];
        n++;
      }
  return sum / n;
}

static void
check_halves (LmFormat format)
{
  /* Even sides: every level's pixel is its 2×2 block's mean. */
  g_autoptr (LmImage) src = NULL;
  if (lm_format_depth (format) == 8)
    src = lm_test_random_rgba (2400, 1600, 3, TRUE);
  else
    {
      src = lm_test_image_new (format, 2400, 1600, 0);
      guint32 s = 7;
      for (guint y = 0; y < src->height; y++)
        for (guint x = 0; x < src->width * 4; x++)
          ((guint16 *) lm_image_row (src, y))[x] = (guint16) ((s = s * 1664525u + 1013904223u) >> 16);
    }
  setenv ("LUMEN_VIEW_PYRAMID_ABOVE", "1000000", TRUE);
  g_assert_true (lm_pyramid_wanted (src));
  g_autoptr (LmPyramid) p = lm_pyramid_new (src, lm_allocator_host (), NULL);
  g_assert_nonnull (p);
  /* 2400 → 1200 → 600: the first of at most 1024 pixels on its longer side is the last. */
  g_assert_cmpuint (lm_pyramid_n_levels (p), ==, 3);
  g_assert_true (lm_pyramid_level (p, 0) == src);
  const LmImage *l1 = lm_pyramid_level (p, 1);
  g_assert_cmpuint (l1->width, ==, 1200);
  g_assert_cmpuint (l1->height, ==, 800);
  g_assert_cmpuint (l1->format, ==, format);
  double worst = 0.0;
  for (guint y = 0; y < l1->height; y += 7)
    for (guint x = 0; x < l1->width; x += 3)
      for (guint c = 0; c < 4; c++)
        {
          const guint8 *row = lm_image_row (l1, y);
          double got = lm_format_depth (format) == 16 ? ((const guint16 *) row)[x * 4 + c] : row[x * 4 + c];
          worst = MAX (worst, fabs (got - floor (block_mean (src, x, y, c) + 0.5)));
        }
  g_assert_cmpfloat (worst, ==, 0.0);
  g_assert_cmpuint (lm_pyramid_bytes (p), ==, lm_image_size_bytes (l1) + lm_image_size_bytes (lm_pyramid_level (p, 2)));
  g_assert_cmpfloat (lm_pyramid_factor (p, 2), ==, 4.0);
}

static void
test_halves_8 (void)
{
  check_halves (LM_FORMAT_RGBA8);
}

static void
test_halves_16 (void)
{
  check_halves (LM_FORMAT_RGBA16);
}

static void
test_odd_sides_and_pick (void)
{
  setenv ("LUMEN_VIEW_PYRAMID_ABOVE", "1000000", TRUE);
  g_autoptr (LmImage) src = lm_test_random_gray (3001, 1001, 5);
  g_autoptr (LmPyramid) p = lm_pyramid_new (src, lm_allocator_host (), NULL);
  guint w[] = { 3001, 1501, 751 }, h[] = { 1001, 501, 251 };
  g_assert_cmpuint (lm_pyramid_n_levels (p), ==, 3);
  for (guint k = 0; k < 3; k++)
    {
      g_assert_cmpuint (lm_pyramid_level (p, k)->width, ==, w[k]);
      g_assert_cmpuint (lm_pyramid_level (p, k)->height, ==, h[k]);
    }
  /* The odd sides' last pixels: means of what is left (2 pixels, or 1 at the corner). */
  const LmImage *l1 = lm_pyramid_level (p, 1);
  guint xs[] = { 0, 1499, 1500 }, ys[] = { 0, 499, 500 };
  for (guint a = 0; a < 3; a++)
    for (guint b = 0; b < 3; b++)
      g_assert_cmpfloat (*lm_test_pixel (l1, xs[a], ys[b]), ==, floor (block_mean (src, xs[a], ys[b], 0) + 0.5));
  /* The coarsest level with at least the view's pixels per photo pixel. */
  g_assert_cmpuint (lm_pyramid_pick (p, 1.0), ==, 0);
  g_assert_cmpuint (lm_pyramid_pick (p, 0.6), ==, 0);
  g_assert_cmpuint (lm_pyramid_pick (p, 0.45), ==, 1);
  g_assert_cmpuint (lm_pyramid_pick (p, 0.1), ==, 2);
  g_assert_cmpuint (lm_pyramid_pick_within (p, 1000000), ==, 1);
  g_assert_cmpuint (lm_pyramid_pick_within (p, 10), ==, 2);
  /* Not below the threshold, nor radiance. */
  setenv ("LUMEN_VIEW_PYRAMID_ABOVE", "4000000", TRUE);
  g_assert_false (lm_pyramid_wanted (src));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/pyramid-levels/halves-8", test_halves_8);
  g_test_add_func ("/pyramid-levels/halves-16", test_halves_16);
  g_test_add_func ("/pyramid-levels/odd-sides-and-pick", test_odd_sides_and_pick);
  return g_test_run ();
}
