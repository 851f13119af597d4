/* Rotate: every angle and mirror moves labelled pixels where a photo viewer puts them (known
 * answers written out by hand), four quarter turns give the image back, the sides swap, the
 * format and alpha stay. */
#include "core/ops/ops.h"
#include "test-util.h"

/* A 3 × 2 gray image whose pixels are the letters
 *   a b c
 *   d e f
 * and what each angle/mirror must make of it, row by row. */
static const struct {
  int angle, flip;
  guint w, h;
  const char *rows;
} cases[] = {
  { LM_ROTATE_0, LM_FLIP_NONE, 3, 2, "abcdef" },
  { LM_ROTATE_90, LM_FLIP_NONE, 2, 3, "daebfc" },   /* clockwise: the left column becomes the top row */
  { LM_ROTATE_180, LM_FLIP_NONE, 3, 2, "fedcba" },
  { LM_ROTATE_270, LM_FLIP_NONE, 2, 3, "cfbead" },  /* counter-clockwise */
  { LM_ROTATE_0, LM_FLIP_HORIZONTAL, 3, 2, "cbafed" },
  { LM_ROTATE_0, LM_FLIP_VERTICAL, 3, 2, "defabc" },
  { LM_ROTATE_90, LM_FLIP_HORIZONTAL, 2, 3, "adbecf" }, /* the transpose */
  { LM_ROTATE_90, LM_FLIP_VERTICAL, 2, 3, "fcebda" },
  { LM_ROTATE_180, LM_FLIP_HORIZONTAL, 3, 2, "defabc" }, /* = a vertical mirror */
  { LM_ROTATE_270, LM_FLIP_HORIZONTAL, 2, 3, "fcebda" },
  { LM_ROTATE_270, LM_FLIP_VERTICAL, 2, 3, "adbecf" },
};

static void
test_known_moves (void)
{
  g_autoptr (LmImage) gray = lm_test_gray_from (3, 2, (const guint8 *) "abcdef");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      LmRotateParams p = { cases[i].angle, cases[i].flip };
      g_test_message ("angle %d flip %d", cases[i].angle, cases[i].flip);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_rotate_op, &p, gray);
      g_assert_cmpuint (out->width, ==, cases[i].w);
      g_assert_cmpuint (out->height, ==, cases[i].h);
      LM_TEST_RETURN_IF_FAILED ();
      for (guint y = 0; y < out->height; y++)
        for (guint x = 0; x < out->width; x++)
          g_assert_cmpint (*lm_test_pixel (out, x, y), ==, cases[i].rows[y * out->width + x]);

      /* The same moves on RGBA: whole pixels (alpha included) move together. */
      guint8 rgba[6 * 4];
      for (int k = 0; k < 6; k++)
        rgba[4 * k] = (guint8) ("abcdef"[k]), rgba[4 * k + 1] = (guint8) (k * 10), rgba[4 * k + 2] = 7,
        rgba[4 * k + 3] = (guint8) (200 + k);
      g_autoptr (LmImage) src = lm_test_rgba_from (3, 2, rgba);
      g_autoptr (LmImage) colour = lm_test_run_op (&lm_rotate_op, &p, src);
      g_assert_true (colour->format == LM_FORMAT_RGBA8);
      for (guint y = 0; y < colour->height; y++)
        for (guint x = 0; x < colour->width; x++)
          {
            const guint8 *px = lm_test_pixel (colour, x, y);
            int k = cases[i].rows[y * colour->width + x] - 'a';
            g_assert_cmpint (px[0], ==, 'a' + k);
            g_assert_cmpint (px[1], ==, k * 10);
            g_assert_cmpint (px[3], ==, 200 + k);
          }
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* Four quarter turns (and two half turns, and a mirror twice) give the image back. */
static void
test_round_trips (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (150, 77, 5, TRUE); /* several 64 × 64 tiles, partial ones too */
  LmRotateParams quarter = { LM_ROTATE_90, LM_FLIP_NONE }, half = { LM_ROTATE_180, LM_FLIP_NONE };
  LmRotateParams mirror = { LM_ROTATE_0, LM_FLIP_HORIZONTAL };
  LmImage *img = lm_image_ref (src);
  for (int i = 0; i < 4; i++)
    {
      LmImage *next = lm_test_run_op (&lm_rotate_op, &quarter, img);
      g_assert_cmpuint (next->width, ==, i % 2 ? 150 : 77);
      lm_image_unref (img);
      img = next;
    }
  lm_test_assert_same_pixels (img, src);
  lm_image_unref (img);

  g_autoptr (LmImage) h1 = lm_test_run_op (&lm_rotate_op, &half, src);
  g_autoptr (LmImage) h2 = lm_test_run_op (&lm_rotate_op, &half, h1);
  lm_test_assert_same_pixels (h2, src);
  g_autoptr (LmImage) m1 = lm_test_run_op (&lm_rotate_op, &mirror, src);
  g_autoptr (LmImage) m2 = lm_test_run_op (&lm_rotate_op, &mirror, m1);
  lm_test_assert_same_pixels (m2, src);

  /* 90° clockwise then 90° counter-clockwise, on gray. */
  g_autoptr (LmImage) gray = lm_test_random_gray (5, 11, 9);
  LmRotateParams back = { LM_ROTATE_270, LM_FLIP_NONE };
  g_autoptr (LmImage) g1 = lm_test_run_op (&lm_rotate_op, &quarter, gray);
  g_autoptr (LmImage) g2 = lm_test_run_op (&lm_rotate_op, &back, g1);
  g_assert_true (g1->format == LM_FORMAT_GRAY8);
  lm_test_assert_same_pixels (g2, gray);
}

/* A corner pixel on a larger, odd-sized image: 90° clockwise takes the top-left corner to the
 * top-right, whatever the size. */
static void
test_corner (void)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_GRAY8, 137, 19, 0);
  *lm_test_pixel (src, 0, 0) = 255;
  *lm_test_pixel (src, 136, 0) = 128;
  LmRotateParams p = { LM_ROTATE_90, LM_FLIP_NONE };
  g_autoptr (LmImage) out = lm_test_run_op (&lm_rotate_op, &p, src);
  g_assert_cmpuint (*lm_test_pixel (out, 18, 0), ==, 255);  /* top-left → top-right */
  g_assert_cmpuint (*lm_test_pixel (out, 18, 136), ==, 128); /* top-right → bottom-right */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/rotate/known-moves", test_known_moves);
  g_test_add_func ("/rotate/round-trips", test_round_trips);
  g_test_add_func ("/rotate/corner", test_corner);
  return g_test_run ();
}
