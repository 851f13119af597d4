/* Straighten: angle 0 gives the image back, the output size against hand-worked largest
 * upright rectangles, the rectangle's corners inside the turned image, a turned constant
 * image stays constant, OpenCV's cubic weights at known points, and a mirror symmetry of
 * the sampling (turning a mirrored image by -a is the mirror of turning it by a). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ops/ops.h"
#include "test-util.h"

static void
size_of (float angle, guint w, guint h, guint *ow, guint *oh)
{
  LmStraightenParams p = { angle };
  lm_op_output_size (&lm_straighten_op, &p, w, h, ow, oh);
}

static void
test_identity (void)
{
  LmStraightenParams p = { 0.0f };
  g_autoptr (LmImage) rgba = lm_test_random_rgba (31, 17, 2, TRUE);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_straighten_op, &p, rgba);
  lm_test_assert_same_pixels (out, rgba);
  g_autoptr (LmImage) gray = lm_test_random_gray (8, 13, 3);
  g_autoptr (LmImage) gout = lm_test_run_op (&lm_straighten_op, &p, gray);
  g_assert_true (gout->format == LM_FORMAT_GRAY8);
  lm_test_assert_same_pixels (gout, gray);
}

/* Worked by hand (a = |angle|, S and L the short and long sides):
 * - 100 × 100 at 45°: a square in a square turned 45° has side 100 / √2 = 70.71 → 70 × 70;
 * - 1000 × 100 at 30°: S = 100 ≤ 2 sin a cos a L = 866, so the short side alone binds:
 *   50 / sin 30° = 100 by 50 / cos 30° = 57.74 → 100 × 57;
 * - 200 × 100 at 10°: S = 100 > 2 sin a cos a L = 68.4, all four sides bind:
 *   (200 cos 10° - 100 sin 10°) / cos 20° = 191.12 by (100 cos 10° - 200 sin 10°) / cos 20°
 *   = 67.84 → 191 × 67; the same at -10° (the sign only turns the other way);
 * - 100 × 200 at 10°: the same rectangle on its side → 67 × 191. */
static void
test_size (void)
{
  static const struct {
    float angle;
    guint w, h, ow, oh;
  } cases[] = {
    { 45, 100, 100, 70, 70 },   { -45, 100, 100, 70, 70 }, { 30, 1000, 100, 100, 57 },
    { 10, 200, 100, 191, 67 },  { -10, 200, 100, 191, 67 }, { 10, 100, 200, 67, 191 },
    { 0, 123, 45, 123, 45 },    { 0, 1, 1, 1, 1 },          { 45, 1, 1, 1, 1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint ow, oh;
      size_of (cases[i].angle, cases[i].w, cases[i].h, &ow, &oh);
      g_test_message ("%g° on %u × %u: %u × %u", cases[i].angle, cases[i].w, cases[i].h, ow, oh);
      g_assert_cmpuint (ow, ==, cases[i].ow);
      g_assert_cmpuint (oh, ==, cases[i].oh);
    }
}

/* For many angles and shapes, the output's corners, turned back, lie inside the source
 * rectangle, and the real rectangle of the formula is maximal in its shape: 0.1 % larger
 * it would stick out. */
static gboolean
fits (double angle_deg, double w, double h, double rw, double rh)
{
  double a = angle_deg * G_PI / 180.0, c = cos (a), s = sin (a);
  for (int k = 0; k < 4; k++)
    {
      double x = (k & 1 ? 0.5 : -0.5) * rw, y = (k & 2 ? 0.5 : -0.5) * rh;
      if (fabs (c * x - s * y) > w / 2 + 1e-6 || fabs (s * x + c * y) > h / 2 + 1e-6)
        return FALSE;
    }
  return TRUE;
}

static void
test_size_fits (void)
{
  static const guint shapes[][2] = { { 640, 480 }, { 480, 640 }, { 1000, 100 }, { 333, 333 }, { 7, 10001 } };
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (float angle = -45.0f; angle <= 45.0f; angle += 2.25f)
      {
        guint ow, oh, w = shapes[s][0], h = shapes[s][1];
        double rw, rh;
        size_of (angle, w, h, &ow, &oh);
        lm_straighten_rect (angle, w, h, &rw, &rh);
        g_test_message ("%g° on %u × %u: %u × %u (%.3f × %.3f)", angle, w, h, ow, oh, rw, rh);
        g_assert_true (fits (angle, w, h, ow, oh));
        g_assert_true (fits (angle, w, h, rw, rh));
        g_assert_false (fits (angle, w, h, rw * 1.001, rh * 1.001));
        g_assert_cmpuint (ow, ==, MAX (1, (guint) floor (rw + 1e-6)));
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* OpenCV's interpolateCubic (a = -0.75) at t = 0 and t = 0.5, written out:
 * t = 0: 0, 1, 0, 0; t = 0.5: -0.09375, 0.59375, 0.59375, -0.09375. */
static void
test_cubic_weights (void)
{
  float k[4];
  lm_cubic_weights (0.0f, k);
  g_assert_cmpfloat (k[0], ==, 0.0f);
  g_assert_cmpfloat (k[1], ==, 1.0f);
  g_assert_cmpfloat (k[2], ==, 0.0f);
  g_assert_cmpfloat (k[3], ==, 0.0f);
  lm_cubic_weights (0.5f, k);
  g_assert_cmpfloat_with_epsilon (k[0], -0.09375f, 1e-7f);
  g_assert_cmpfloat_with_epsilon (k[1], 0.59375f, 1e-7f);
  g_assert_cmpfloat_with_epsilon (k[2], 0.59375f, 1e-7f);
  g_assert_cmpfloat_with_epsilon (k[3], -0.09375f, 1e-7f);
}

/* A constant image stays that constant at any angle: the weights sum to 1 (within float
 * rounding, which the final rounding absorbs). */
static void
test_constant (void)
{
  static const float angles[] = { 7.3f, -30.0f, 45.0f, -0.01f };
  g_autoptr (LmImage) rgba = lm_test_image_new (LM_FORMAT_RGBA8, 61, 40, 0);
  for (guint y = 0; y < 40; y++)
    for (guint x = 0; x < 61; x++)
      memcpy (lm_test_pixel (rgba, x, y), (guint8[]) { 200, 17, 93, 255 }, 4);
  rgba->opaque = TRUE;
  g_autoptr (LmImage) gray = lm_test_image_new (LM_FORMAT_GRAY8, 40, 61, 254);
  for (guint i = 0; i < G_N_ELEMENTS (angles); i++)
    {
      LmStraightenParams p = { angles[i] };
      g_autoptr (LmImage) out = lm_test_run_op (&lm_straighten_op, &p, rgba);
      g_autoptr (LmImage) gout = lm_test_run_op (&lm_straighten_op, &p, gray);
      for (guint y = 0; y < out->height; y++)
        for (guint x = 0; x < out->width; x++)
          g_assert_cmpmem (lm_test_pixel (out, x, y), 4, ((guint8[]) { 200, 17, 93, 255 }), 4);
      for (guint y = 0; y < gout->height; y++)
        for (guint x = 0; x < gout->width; x++)
          g_assert_cmpuint (*lm_test_pixel (gout, x, y), ==, 254);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* The turn's sense and centre: a left-right mirror of the source turned by -a is the mirror
 * of the source turned by a (counter-clockwise is clockwise in the mirror), within 1 level
 * (the float sample positions are mirrored only up to rounding). */
static void
test_mirror_symmetry (void)
{
  g_autoptr (LmImage) src = lm_test_random_gray (33, 21, 11);
  g_autoptr (LmImage) mirrored = lm_test_image_new (LM_FORMAT_GRAY8, 33, 21, 0);
  for (guint y = 0; y < 21; y++)
    for (guint x = 0; x < 33; x++)
      *lm_test_pixel (mirrored, 32 - x, y) = *lm_test_pixel (src, x, y);
  LmStraightenParams plus = { 12.5f }, minus = { -12.5f };
  g_autoptr (LmImage) a = lm_test_run_op (&lm_straighten_op, &plus, src);
  g_autoptr (LmImage) b = lm_test_run_op (&lm_straighten_op, &minus, mirrored);
  g_assert_cmpuint (a->width, ==, b->width);
  for (guint y = 0; y < a->height; y++)
    for (guint x = 0; x < a->width; x++)
      g_assert_cmpint (abs ((int) *lm_test_pixel (a, x, y) - (int) *lm_test_pixel (b, a->width - 1 - x, y)), <=, 1);
}

/* The sense of the turn: positive angles turn counter-clockwise, so a horizontal line
 * through the centre rises to the right: 40 px right of the output's centre it lies
 * 40 tan 10° = 7.05 px higher, 40 px left as much lower (the brightest pixel of each column,
 * within a pixel). */
static void
test_sense (void)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_GRAY8, 201, 101, 0);
  for (guint x = 0; x < 201; x++)
    *lm_test_pixel (src, x, 50) = 255;
  LmStraightenParams p = { 10.0f };
  g_autoptr (LmImage) out = lm_test_run_op (&lm_straighten_op, &p, src);
  double hx = (out->width - 1) / 2.0, hy = (out->height - 1) / 2.0;
  for (int side = -1; side <= 1; side += 2)
    {
      guint x = (guint) (hx + side * 40), best = 0;
      for (guint y = 1; y < out->height; y++)
        if (*lm_test_pixel (out, x, y) > *lm_test_pixel (out, x, best))
          best = y;
      double want = hy - (x - hx) * tan (10.0 * G_PI / 180.0);
      g_test_message ("column %u: line at %u, expected %.2f", x, best, want);
      g_assert_cmpfloat (fabs (best - want), <=, 1.0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/straighten/identity", test_identity);
  g_test_add_func ("/straighten/size", test_size);
  g_test_add_func ("/straighten/size-fits", test_size_fits);
  g_test_add_func ("/straighten/cubic-weights", test_cubic_weights);
  g_test_add_func ("/straighten/constant", test_constant);
  g_test_add_func ("/straighten/mirror-symmetry", test_mirror_symmetry);
  g_test_add_func ("/straighten/sense", test_sense);
  return g_test_run ();
}
