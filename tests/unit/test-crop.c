/* Crop: an exact copy of the rectangle, the defaults keep everything, a rectangle beyond the
 * image is clamped (never below 1 × 1), fractional positions round to the nearest pixel, and
 * a ratio shrinks the rectangle about its centre in its own orientation (hand-worked). */
#include "core/ops/ops.h"
#include "test-util.h"

static LmCropRect
rect_of (float x, float y, float w, float h, int ratio, guint iw, guint ih)
{
  LmCropParams p = { x, y, w, h, ratio };
  return lm_crop_rect (&p, iw, ih);
}

#define ASSERT_RECT(r, X, Y, W, H)                                                                     \
  G_STMT_START                                                                                         \
  {                                                                                                    \
    g_assert_cmpuint ((r).x, ==, X);                                                                   \
    g_assert_cmpuint ((r).y, ==, Y);                                                                   \
    g_assert_cmpuint ((r).width, ==, W);                                                               \
    g_assert_cmpuint ((r).height, ==, H);                                                              \
  }                                                                                                    \
  G_STMT_END

/* Every pixel of the output is the source's at the offset, alpha and all. */
static void
test_exact_copy (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (41, 23, 3, TRUE);
  LmCropParams p = { 5, 7, 30, 11, LM_CROP_FREE };
  g_autoptr (LmImage) out = lm_test_run_op (&lm_crop_op, &p, src);
  g_assert_cmpuint (out->width, ==, 30);
  g_assert_cmpuint (out->height, ==, 11);
  for (guint y = 0; y < out->height; y++)
    for (guint x = 0; x < out->width; x++)
      g_assert_cmpmem (lm_test_pixel (out, x, y), 4, lm_test_pixel (src, x + 5, y + 7), 4);

  g_autoptr (LmImage) gray = lm_test_random_gray (9, 9, 4);
  LmCropParams q = { 8, 0, 0, 3, LM_CROP_FREE };
  g_autoptr (LmImage) col = lm_test_run_op (&lm_crop_op, &q, gray);
  g_assert_true (col->format == LM_FORMAT_GRAY8);
  g_assert_cmpuint (col->width, ==, 1);
  g_assert_cmpuint (col->height, ==, 3);
  for (guint y = 0; y < 3; y++)
    g_assert_cmpuint (*lm_test_pixel (col, 0, y), ==, *lm_test_pixel (gray, 8, y));

  /* The defaults keep the whole image. */
  LmCropParams all = { 0, 0, 0, 0, LM_CROP_FREE };
  g_autoptr (LmImage) same = lm_test_run_op (&lm_crop_op, &all, src);
  lm_test_assert_same_pixels (same, src);
}

static void
test_clamping (void)
{
  ASSERT_RECT (rect_of (0, 0, 0, 0, LM_CROP_FREE, 100, 50), 0, 0, 100, 50);
  ASSERT_RECT (rect_of (90, 40, 500, 500, LM_CROP_FREE, 100, 50), 90, 40, 10, 10); /* to the edges */
  ASSERT_RECT (rect_of (200, 70, 10, 10, LM_CROP_FREE, 100, 50), 99, 49, 1, 1);    /* outside: the last pixel */
  ASSERT_RECT (rect_of (10, 10, 0.2f, 0.3f, LM_CROP_FREE, 100, 50), 10, 10, 1, 1); /* at least 1 × 1 */
  ASSERT_RECT (rect_of (10, 20, 0, 0, LM_CROP_FREE, 100, 50), 10, 20, 90, 30);     /* 0: to the edge */
  /* Rounded to the nearest pixel, halves up: a preview's scaled parameters land on pixels. */
  ASSERT_RECT (rect_of (10.4f, 10.5f, 20.2f, 9.9f, LM_CROP_FREE, 100, 50), 10, 11, 21, 9);
}

/* Worked by hand: the ratio in the rectangle's orientation, the excess split about the centre
 * (the odd pixel to the right or bottom). */
static void
test_ratio (void)
{
  /* 100 × 50 to 1:1: 50 × 50, 25 cut on each side. */
  ASSERT_RECT (rect_of (0, 0, 100, 50, LM_CROP_1_1, 200, 200), 25, 0, 50, 50);
  /* 300 × 100 to 3:2: the height binds, width 150, 75 each side. */
  ASSERT_RECT (rect_of (10, 10, 300, 100, LM_CROP_3_2, 400, 400), 85, 10, 150, 100);
  /* A portrait 100 × 300 takes 2:3: height 150, 75 above and below. */
  ASSERT_RECT (rect_of (0, 0, 100, 300, LM_CROP_3_2, 400, 400), 0, 75, 100, 150);
  /* 16:9 on 1000 × 1000: 1000 × 562.5 → 563 (halves up), (1000 - 563) / 2 = 218 above. */
  ASSERT_RECT (rect_of (0, 0, 0, 0, LM_CROP_16_9, 1000, 1000), 0, 218, 1000, 563);
  /* 4:3 on 401 × 300 (too wide by one): 400 × 300, the odd pixel cut on the right. */
  ASSERT_RECT (rect_of (0, 0, 0, 0, LM_CROP_4_3, 401, 300), 0, 0, 400, 300);
  /* Original on a 200 × 100 image: 2:1; a 50 × 50 square becomes 50 × 25, 12 above. */
  ASSERT_RECT (rect_of (0, 0, 50, 50, LM_CROP_ORIGINAL, 200, 100), 0, 12, 50, 25);
  /* Original of a portrait image on a landscape rectangle: the rectangle's orientation wins. */
  ASSERT_RECT (rect_of (0, 0, 90, 30, LM_CROP_ORIGINAL, 100, 200), 15, 0, 60, 30);
  /* The output is the rectangle's size. */
  g_autoptr (LmImage) src = lm_test_random_rgba (64, 48, 8, FALSE);
  LmCropParams p = { 4, 4, 50, 40, LM_CROP_1_1 };
  g_autoptr (LmImage) out = lm_test_run_op (&lm_crop_op, &p, src);
  g_assert_cmpuint (out->width, ==, 40);
  g_assert_cmpuint (out->height, ==, 40);
  g_assert_cmpmem (lm_test_pixel (out, 0, 0), 4, lm_test_pixel (src, 9, 4), 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/crop/exact-copy", test_exact_copy);
  g_test_add_func ("/crop/clamping", test_clamping);
  g_test_add_func ("/crop/ratio", test_ratio);
  return g_test_run ();
}
