/* core/detect/crop-suggest: answers worked out by hand (a face on a crossing of the thirds
 * already, one in the middle, one near a corner, a standing person that only a thirds line can
 * take, boxes too far apart for the aspect), the rounding to whole pixels, and on random
 * scenes the promises: the crop inside the photo at the aspect, every box inside it, the
 * subject on a crossing or a line where it says so, and no crossing that allows a wider crop
 * than the one chosen (checked by a search over widths). */
#include <math.h>

#include "core/detect/crop-suggest.h"

#define CLOSE(a, b) (fabs ((a) - (b)) < 1e-6)

static void
check (const LmCropSuggestion *s, double x, double y, double w, double h, LmCropPlacement placement)
{
  g_test_message ("crop %.4f, %.4f, %.4f × %.4f (placement %d), expected %.4f, %.4f, %.4f × %.4f (%d)", s->x, s->y,
                  s->width, s->height, s->placement, x, y, w, h, placement);
  g_assert_cmpint (s->placement, ==, placement);
  g_assert_true (CLOSE (s->x, x) && CLOSE (s->y, y) && CLOSE (s->width, w) && CLOSE (s->height, h));
}

/* A face whose centre is the photo's upper-left crossing: the whole photo. */
static void
test_already_placed (void)
{
  LmCascadeBox face = { 290, 190, 20, 20, 5 };
  LmCropSuggestion s;
  lm_crop_suggest (900, 600, &face, 1, 0.0, &s);
  check (&s, 0, 0, 900, 600, LM_CROP_SUBJECT_POINT);
}

/* A face in the middle of 900 × 600: each crossing allows 675 wide (the subject 450 from the
 * far side is 2/3 of it); the upper-left crossing is taken first. */
static void
test_middle (void)
{
  LmCascadeBox face = { 440, 290, 20, 20, 5 };
  LmCropSuggestion s;
  lm_crop_suggest (900, 600, &face, 1, 0.0, &s);
  check (&s, 225, 150, 675, 450, LM_CROP_SUBJECT_POINT);
  g_assert_true (CLOSE (s.x + s.width / 3, 450) && CLOSE (s.y + s.height / 3, 300));
}

/* A face centred at (130, 130): its crossing at a third of the crop allows 3 · 130 = 390
 * wide (the left edge at 0), 260 high; the top at 130 − 260/3. Rounded: 0, 43, 390 × 260. */
static void
test_corner (void)
{
  LmCascadeBox face = { 100, 100, 60, 60, 5 };
  LmCropSuggestion s;
  lm_crop_suggest (900, 600, &face, 1, 0.0, &s);
  check (&s, 0, 130 - 260.0 / 3, 390, 260, LM_CROP_SUBJECT_POINT);
  int x, y, w, h;
  lm_crop_suggest_pixels (&s, 900, 600, &face, 1, &x, &y, &w, &h);
  g_assert_cmpint (x, ==, 0);
  g_assert_cmpint (y, ==, 43);
  g_assert_cmpint (w, ==, 390);
  g_assert_cmpint (h, ==, 260);
}

/* A person 600 high in a 1200 × 600 photo, square crop: no crossing can hold the full height
 * (the crop is at most 600 high), the vertical line at a third can: 400..1000. */
static void
test_line (void)
{
  LmCascadeBox person = { 500, 0, 200, 600, 5 };
  LmCropSuggestion s;
  lm_crop_suggest (1200, 600, &person, 1, 1.0, &s);
  check (&s, 400, 0, 600, 600, LM_CROP_SUBJECT_LINE);
}

/* Two faces 700 apart vertically; a 2:1 crop of 1000 × 1000 is 500 high: they cannot both be
 * in, and it is centred on them (their centre 450 down: 200..700). */
static void
test_too_far_apart (void)
{
  LmCascadeBox faces[] = { { 100, 100, 50, 50, 5 }, { 800, 750, 50, 50, 5 } };
  LmCropSuggestion s;
  lm_crop_suggest (1000, 1000, faces, 2, 2.0, &s);
  check (&s, 0, 200, 1000, 500, LM_CROP_SUBJECT_NONE);
}

/* Two faces that fill most of a 3:2 photo's width: no thirds line at all, the whole width, the
 * subject's row as near a third as the boxes allow. */
static void
test_near (void)
{
  LmCascadeBox faces[] = { { 10, 100, 80, 80, 5 }, { 800, 280, 80, 80, 5 } };
  LmCropSuggestion s;
  lm_crop_suggest (900, 600, faces, 2, 0.0, &s);
  g_test_message ("near: %.2f, %.2f, %.2f × %.2f, placement %d", s.x, s.y, s.width, s.height, s.placement);
  /* The union is 10..880 × 100..360: centre (445, 230). 3:2 of 900 × 600 is the whole photo,
   * and a vertical line would need 445 = 300 or 600. The row: 230 is 30 below the upper third
   * (200) of the whole photo, which cannot move. */
  check (&s, 0, 0, 900, 600, LM_CROP_SUBJECT_NEAR);
}

/* Rounding never cuts a box: a crop starting at 100.6 over a box from 100 starts at 100. */
static void
test_pixels_hold_boxes (void)
{
  LmCascadeBox face = { 100, 50, 40, 40, 3 };
  LmCropSuggestion s = { 100.6, 49.6, 300.0, 200.0, LM_CROP_SUBJECT_POINT, 120, 70 };
  int x, y, w, h;
  lm_crop_suggest_pixels (&s, 1000, 1000, &face, 1, &x, &y, &w, &h);
  g_assert_cmpint (x, ==, 100);
  g_assert_cmpint (y, ==, 50);
  g_assert_cmpint (x + w, ==, 401);
  g_assert_cmpint (y + h, ==, 250);
  /* And never leaves the photo. */
  LmCropSuggestion out = { -0.4, 799.7, 300.4, 200.6, LM_CROP_SUBJECT_NEAR, 0, 0 };
  lm_crop_suggest_pixels (&out, 300, 1000, &face, 1, &x, &y, &w, &h);
  g_assert_cmpint (x, ==, 0);
  g_assert_cmpint (x + w, ==, 300);
  g_assert_cmpint (y + h, ==, 1000);
}

/* The widest crop with the subject on the crossing (A, B), found by stepping through widths:
 * what on_point's bounds must agree with. */
static double
widest_by_search (guint W, guint H, double r, double x0, double y0, double x1, double y1, double a, double b)
{
  double px = (x0 + x1) / 2, py = (y0 + y1) / 2, best = 0;
  for (double cw = 1; cw <= W; cw += 0.25)
    {
      double ch = cw / r, x = px - a * cw, y = py - b * ch;
      if (x >= -1e-9 && y >= -1e-9 && x + cw <= W + 1e-9 && y + ch <= H + 1e-9 && x <= x0 + 1e-9 && y <= y0 + 1e-9
          && x + cw >= x1 - 1e-9 && y + ch >= y1 - 1e-9)
        best = cw;
    }
  return best;
}

static void
test_random (void)
{
  GRand *rand = g_rand_new_with_seed (34);
  guint points = 0, lines = 0, others = 0;
  for (int t = 0; t < 300; t++)
    {
      guint W = g_rand_int_range (rand, 200, 1200), H = g_rand_int_range (rand, 200, 1200);
      double r = g_rand_boolean (rand) ? 0.0 : g_rand_double_range (rand, 0.5, 2.0);
      guint n = g_rand_int_range (rand, 1, 4);
      LmCascadeBox boxes[4];
      double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = 0, y1 = 0;
      for (guint i = 0; i < n; i++)
        {
          int w = g_rand_int_range (rand, 10, W / 4 + 11), h = g_rand_int_range (rand, 10, H / 4 + 11);
          boxes[i] = (LmCascadeBox) { g_rand_int_range (rand, 0, W - w + 1), g_rand_int_range (rand, 0, H - h + 1), w,
                                      h, 3 };
          x0 = MIN (x0, boxes[i].x), y0 = MIN (y0, boxes[i].y);
          x1 = MAX (x1, boxes[i].x + w), y1 = MAX (y1, boxes[i].y + h);
        }
      LmCropSuggestion s;
      lm_crop_suggest (W, H, boxes, n, r, &s);
      double aspect = r > 0 ? r : (double) W / H;
      g_assert_true (CLOSE (s.width / s.height, aspect));
      g_assert_true (s.x >= -1e-6 && s.y >= -1e-6 && s.x + s.width <= W + 1e-6 && s.y + s.height <= H + 1e-6);
      double fx = (s.subject_x - s.x) / s.width, fy = (s.subject_y - s.y) / s.height;
      gboolean fx3 = CLOSE (fx, 1.0 / 3) || CLOSE (fx, 2.0 / 3), fy3 = CLOSE (fy, 1.0 / 3) || CLOSE (fy, 2.0 / 3);
      if (s.placement != LM_CROP_SUBJECT_NONE)
        g_assert_true (s.x <= x0 + 1e-6 && s.y <= y0 + 1e-6 && s.x + s.width >= x1 - 1e-6
                       && s.y + s.height >= y1 - 1e-6);
      double widest = 0;
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
          widest = MAX (widest, widest_by_search (W, H, aspect, x0, y0, x1, y1, (i + 1) / 3.0, (j + 1) / 3.0));
      if (s.placement == LM_CROP_SUBJECT_POINT)
        {
          points++;
          g_assert_true (fx3 && fy3);
          g_assert_cmpfloat (s.width, >=, widest - 1e-6); /* no crossing allows a wider one */
          if (widest > 0) /* the search's step may miss a range of widths narrower than itself */
            g_assert_cmpfloat (s.width, <, widest + 0.25 + 1e-6);
        }
      else
        {
          g_assert_cmpfloat (widest, ==, 0); /* no crossing could hold the boxes */
          if (s.placement == LM_CROP_SUBJECT_LINE)
            {
              lines++;
              g_assert_true (fx3 || fy3);
            }
          else
            others++;
        }
      int px, py, pw, ph;
      lm_crop_suggest_pixels (&s, W, H, boxes, n, &px, &py, &pw, &ph);
      g_assert_true (px >= 0 && py >= 0 && px + pw <= (int) W && py + ph <= (int) H);
      if (s.placement != LM_CROP_SUBJECT_NONE)
        g_assert_true (px <= x0 && py <= y0 && px + pw >= x1 && py + ph >= y1);
    }
  g_test_message ("300 scenes: %u on a crossing, %u on a line, %u otherwise", points, lines, others);
  g_assert_cmpuint (points, >, 0);
  g_assert_cmpuint (lines + others, >, 0);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/crop-suggest/already-placed", test_already_placed);
  g_test_add_func ("/crop-suggest/middle", test_middle);
  g_test_add_func ("/crop-suggest/corner", test_corner);
  g_test_add_func ("/crop-suggest/line", test_line);
  g_test_add_func ("/crop-suggest/too-far-apart", test_too_far_apart);
  g_test_add_func ("/crop-suggest/near", test_near);
  g_test_add_func ("/crop-suggest/pixels-hold-boxes", test_pixels_hold_boxes);
  g_test_add_func ("/crop-suggest/random", test_random);
  return g_test_run ();
}
