/* Crop's ratio rule gives back what it made: the rectangle it cuts, stored as crop's
 * parameters (as the window stores the crop tool's, which the Width and Height fields show),
 * is cut again as it is. It used not to be: 1996 × 1330 at 3:2 is cut 1995 × 1330, and a
 * 6 × 3 it made at 16:9 from 6 × 4 became 5 × 3 when given back. Every size up to 240 × 240
 * at every ratio; then cases worked by hand. */
#include <math.h>

#include "core/ops/ops.h"
#include "test-util.h"

static LmCropRect
cut (unsigned x, unsigned y, unsigned w, unsigned h, int ratio, unsigned iw, unsigned ih)
{
  LmCropParams p = { (float) x, (float) y, (float) w, (float) h, ratio };
  return lm_crop_rect (&p, iw, ih);
}

static void
test_fixed_point (void)
{
  const int ratios[] = { LM_CROP_3_2, LM_CROP_4_3, LM_CROP_16_9, LM_CROP_1_1, LM_CROP_ORIGINAL };
  const unsigned iw = 451, ih = 300; /* ORIGINAL: 451:300 */
  for (guint k = 0; k < G_N_ELEMENTS (ratios); k++)
    for (unsigned w = 1; w <= 240; w++)
      for (unsigned h = 1; h <= 240; h++)
        {
          LmCropRect r = cut (3, 5, w, h, ratios[k], iw, ih);
          /* Inside what was asked for, and at the ratio as nearly as whole pixels allow. */
          g_assert_cmpuint (r.x, >=, 3);
          g_assert_cmpuint (r.y, >=, 5);
          g_assert_cmpuint (r.x + r.width, <=, 3 + w);
          g_assert_cmpuint (r.y + r.height, <=, 5 + h);
          double ratio = lm_crop_ratio_value (ratios[k], iw, ih);
          if ((r.height > r.width) != (ratio < 1.0) && ratio != 1.0)
            ratio = 1.0 / ratio;
          gboolean nearest = fabs (r.width - r.height * ratio) <= 0.5 || fabs (r.height - r.width / ratio) <= 0.5;
          if (!nearest)
            g_test_message ("%u × %u at ratio %d: %u × %u", w, h, ratios[k], r.width, r.height);
          g_assert_true (nearest);
          LmCropRect again = cut (r.x, r.y, r.width, r.height, ratios[k], iw, ih);
          if (again.width != r.width || again.height != r.height || again.x != r.x || again.y != r.y)
            g_test_message ("%u × %u at ratio %d: %u × %u, then %u × %u", w, h, ratios[k], r.width, r.height,
                            again.width, again.height);
          g_assert_cmpuint (again.x, ==, r.x);
          g_assert_cmpuint (again.y, ==, r.y);
          g_assert_cmpuint (again.width, ==, r.width);
          g_assert_cmpuint (again.height, ==, r.height);
        }
}

/* By hand: 1996 × 1330 is 1 px wider than 3:2 (1995): cut 1995, centred (the odd pixel goes
 * right); 1995 × 1330 is 3:2 and stays; 16:9 from 6 × 4: 6 × 3.375 → 6 × 3, which stays
 * (3 is the height nearest 6 / 16 × 9, though 5 is the width nearest 3 × 16 / 9). */
static void
test_by_hand (void)
{
  LmCropRect a = cut (2, 0, 1996, 1330, LM_CROP_3_2, 3000, 2000);
  g_assert_cmpuint (a.x, ==, 2);
  g_assert_cmpuint (a.width, ==, 1995);
  g_assert_cmpuint (a.height, ==, 1330);
  LmCropRect b = cut (2, 0, 1995, 1330, LM_CROP_3_2, 3000, 2000);
  g_assert_cmpuint (b.width, ==, 1995);
  LmCropRect c = cut (0, 0, 6, 4, LM_CROP_16_9, 100, 100);
  g_assert_cmpuint (c.width, ==, 6);
  g_assert_cmpuint (c.height, ==, 3);
  LmCropRect d = cut (c.x, c.y, c.width, c.height, LM_CROP_16_9, 100, 100);
  g_assert_cmpuint (d.width, ==, 6);
  g_assert_cmpuint (d.height, ==, 3);
}

/* A side typed into a crop of W0 × H0 at RATIO on a 1000 × 1000 image: the other follows and
 * the crop keeps the orientation it had. (It used to be taken from the typed side against
 * the old other one: 100 × 150 at 3:2 with 200 typed for the width became 200 × 133.) */
static void
follow (unsigned w0, unsigned h0, int ratio, int width_set, unsigned typed, unsigned want_w, unsigned want_h)
{
  LmCropParams before = { 0.0f, 0.0f, (float) w0, (float) h0, ratio }, p = before;
  if (width_set)
    p.width = (float) typed;
  else
    p.height = (float) typed;
  lm_crop_follow_ratio (&p, &before, width_set, 1000, 1000);
  g_test_message ("%u × %u, %s %u typed: %g × %g", w0, h0, width_set ? "width" : "height", typed, p.width,
                  p.height);
  g_assert_cmpfloat (p.width, ==, (float) want_w);
  g_assert_cmpfloat (p.height, ==, (float) want_h);
}

static void
test_follow_keeps_orientation (void)
{
  follow (100, 150, LM_CROP_3_2, TRUE, 200, 200, 300);  /* portrait, width past the old height */
  follow (150, 100, LM_CROP_3_2, FALSE, 300, 450, 300); /* landscape, height past the old width */
  follow (100, 150, LM_CROP_3_2, FALSE, 300, 200, 300); /* portrait, height: stays portrait */
  follow (150, 100, LM_CROP_3_2, TRUE, 300, 300, 200);  /* landscape, width */
  follow (90, 160, LM_CROP_16_9, TRUE, 180, 180, 320);  /* 9:16 portrait, width past the height */
  follow (160, 90, LM_CROP_16_9, FALSE, 180, 320, 180); /* 16:9, height past the width */
  follow (300, 400, LM_CROP_4_3, TRUE, 30, 30, 40);     /* portrait, width made small */
  follow (400, 300, LM_CROP_4_3, FALSE, 600, 800, 600); /* landscape, height past the width */
  follow (100, 100, LM_CROP_3_2, TRUE, 300, 300, 200);  /* a square counts as landscape */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/crop-ratio/fixed-point", test_fixed_point);
  g_test_add_func ("/crop-ratio/by-hand", test_by_hand);
  g_test_add_func ("/crop-ratio/follow-keeps-orientation", test_follow_keeps_orientation);
  return g_test_run ();
}
