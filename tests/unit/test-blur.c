/* Gaussian blur: OpenCV's 8-bit kernel size rule, the weights, the reflect-101 border, and
 * the CPU reference against a brute-force 2-D convolution written here in double precision
 * (within 1 on 8-bit output, the contract's tolerance). */
#include <math.h>
#include <string.h>

#include "core/ops/blur-math.h"
#include "core/ops/ops.h"
#include "test-util.h"

/* Taps: round (6σ + 1) | 1, radius = taps / 2 (OpenCV's createGaussianKernel for CV_8U):
 *   σ 0.8:  5.8 → 6 → 7 taps → 3       σ 2.5: 16 → 17 → 8       σ 10: 61 → 61 → 30
 *   σ 1:    7 → 7 → 3                   σ 0.5: 4 → 5 → 2          σ 0.1: 1.6 → 2 → 3 → 1
 *   σ 0.25: 2.5 → 2 (half to even, as cvRound) → 3 → 1            σ 0.75: 5.5 → 6 → 7 → 3
 *   σ 200: 1201 → 600 = LM_BLUR_RADIUS_MAX;  σ ≤ 0 or NaN: 0 (no blur) */
static void
test_radius_rule (void)
{
  static const struct {
    float sigma;
    int radius;
  } cases[] = {
    { 0.8f, 3 }, { 2.5f, 8 },  { 10.0f, 30 }, { 1.0f, 3 },   { 0.5f, 2 },   { 0.1f, 1 },
    { 0.25f, 1 }, { 0.75f, 3 }, { 200.0f, 600 }, { 0.0f, 0 }, { -1.0f, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (lm_blur_radius (cases[i].sigma) != cases[i].radius)
        g_test_message ("sigma %g", cases[i].sigma);
      g_assert_cmpint (lm_blur_radius (cases[i].sigma), ==, cases[i].radius);
    }
  g_assert_cmpint (lm_blur_radius (NAN), ==, 0);
  g_assert_cmpint (lm_blur_radius (LM_BLUR_SIGMA_MAX), <=, LM_BLUR_RADIUS_MAX);
}

/* σ = 1, radius 3: exp (−i²/2) = 1, 0.60653066, 0.13533528, 0.01110900; the sum over the
 * 7 taps is 1 + 2 · 0.75297494 = 2.50594988, so the weights are
 * 0.39905028, 0.24203623, 0.05400558, 0.00443305 (as cv2.getGaussianKernel (7, 1)). */
static void
test_weights_known (void)
{
  float w[4];
  lm_blur_weights (1.0f, 3, w);
  g_assert_cmpfloat_with_epsilon (w[0], 0.39905028, 1e-6);
  g_assert_cmpfloat_with_epsilon (w[1], 0.24203623, 1e-6);
  g_assert_cmpfloat_with_epsilon (w[2], 0.05400558, 1e-6);
  g_assert_cmpfloat_with_epsilon (w[3], 0.00443305, 1e-6);
}

/* For any σ: the symmetric kernel (centre + 2 · each side) sums to 1, the weights fall
 * with distance and follow exp (−i²/2σ²) relative to the centre. */
static void
test_weights_sum_and_shape (void)
{
  const float sigmas[] = { 0.1f, 0.8f, 1.0f, 2.5f, 10.0f, 50.0f, 200.0f };
  for (guint s = 0; s < G_N_ELEMENTS (sigmas); s++)
    {
      float sigma = sigmas[s];
      int radius = lm_blur_radius (sigma);
      float *w = g_new0 (float, radius + 2);
      w[radius + 1] = -1.0f; /* sentinel: the function must write 0..radius only */
      lm_blur_weights (sigma, radius, w);
      g_assert_cmpfloat (w[radius + 1], ==, -1.0f);

      double sum = w[0];
      for (int i = 1; i <= radius; i++)
        {
          sum += 2.0 * w[i];
          g_assert_cmpfloat (w[i], <, w[i - 1]);
          g_assert_cmpfloat (w[i], >, 0.0f);
          double want = exp (-(double) i * i / (2.0 * sigma * sigma));
          g_assert_cmpfloat_with_epsilon (w[i] / w[0], want, 1e-5 * want + 1e-12);
        }
      g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-5);
      g_free (w);
    }
}

/* OpenCV's borderInterpolate for BORDER_REFLECT_101, copied from its definition: reflect
 * about the end pixels, again and again until the index falls inside. */
static int
border_interpolate_101 (int p, int len)
{
  if ((unsigned) p < (unsigned) len)
    return p;
  if (len == 1)
    return 0;
  do
    {
      if (p < 0)
        p = -p;
      else
        p = len - 1 - (p - len) - 1;
    }
  while ((unsigned) p >= (unsigned) len);
  return p;
}

static void
test_reflect101 (void)
{
  /* A few by hand, for n = 4 (… c b | a b c d | c b a b …):
   *   −1 → 1, −2 → 2, −3 → 3, −4 → 2, 4 → 2, 5 → 1, 6 → 0, 7 → 1 */
  const int hand[][2] = { { -1, 1 }, { -2, 2 }, { -3, 3 }, { -4, 2 }, { 4, 2 },
                          { 5, 1 },  { 6, 0 },  { 7, 1 },  { 0, 0 },  { 3, 3 } };
  for (guint i = 0; i < G_N_ELEMENTS (hand); i++)
    g_assert_cmpint (lm_reflect101 (hand[i][0], 4), ==, hand[i][1]);

  /* Every index from far left to far right, radius up to six times the size. */
  for (int n = 1; n <= 40; n++)
    for (int i = -6 * n - 7; i <= 7 * n + 7; i++)
      {
        int want = border_interpolate_101 (i, n);
        if (lm_reflect101 (i, n) != want)
          g_test_message ("lm_reflect101 (%d, %d)", i, n);
        g_assert_cmpint (lm_reflect101 (i, n), ==, want);
        LM_TEST_RETURN_IF_FAILED ();
      }

  /* The widest kernel on the smallest images. */
  for (int i = -LM_BLUR_RADIUS_MAX; i <= LM_BLUR_RADIUS_MAX; i++)
    {
      g_assert_cmpint (lm_reflect101 (i, 1), ==, 0);
      g_assert_cmpint (lm_reflect101 (i, 2), ==, border_interpolate_101 (i, 2));
      g_assert_cmpint (lm_reflect101 (i, 3), ==, border_interpolate_101 (i, 3));
      LM_TEST_RETURN_IF_FAILED ();
    }
}

static LmBlurParams
blur_params (float sigma)
{
  LmBlurParams p;
  lm_op_params_init (&lm_blur_op, &p);
  p.sigma = sigma;
  return p;
}

/* Gaussian weights in double, normalised over 2r + 1 taps, computed here. */
static double *
reference_weights (double sigma, int radius)
{
  double *w = g_new (double, radius + 1), sum = 0.0;
  for (int i = 0; i <= radius; i++)
    {
      w[i] = exp (-(double) i * i / (2.0 * sigma * sigma));
      sum += i == 0 ? w[i] : 2.0 * w[i];
    }
  for (int i = 0; i <= radius; i++)
    w[i] /= sum;
  return w;
}

/* Brute-force separable-in-theory but 2-D-in-practice Gaussian with reflect-101 borders, in
 * double, and a check that OUT is within 1 of it everywhere. RADIUS is given by the test
 * (worked out by hand from the rule above). */
static void
assert_matches_reference (const LmImage *src, const LmImage *out, double sigma, int radius)
{
  g_assert_true (lm_image_same_shape (src, out));
  double *w = reference_weights (sigma, radius);
  int ch = (int) lm_format_channels (src->format);
  int width = (int) src->width, height = (int) src->height;
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < ch; c++)
        {
          double acc = 0.0;
          for (int j = -radius; j <= radius; j++)
            for (int k = -radius; k <= radius; k++)
              {
                int sx = border_interpolate_101 (x + k, width);
                int sy = border_interpolate_101 (y + j, height);
                acc += w[ABS (j)] * w[ABS (k)] * lm_test_pixel (src, sx, sy)[c];
              }
          int got = lm_test_pixel (out, x, y)[c];
          if (fabs (got - acc) > 1.0)
            g_test_message ("sigma %g, pixel (%d, %d) channel %d: want %.3f", sigma, x, y, c, acc);
          g_assert_cmpfloat (fabs (got - acc), <=, 1.0);
          if (g_test_failed ())
            {
              g_free (w);
              return;
            }
        }
  g_free (w);
}

/* σ = 0 leaves every byte as it was (a copy, not the source itself). */
static void
test_sigma_zero_copies (void)
{
  g_autoptr (LmImage) rgba = lm_test_random_rgba (31, 9, 3, TRUE);
  g_autoptr (LmImage) gray = lm_test_random_gray (31, 9, 4);
  LmBlurParams p = blur_params (0.0f);
  g_assert_true (lm_blur_op.output_format (&p, LM_FORMAT_RGBA8, FALSE) == LM_FORMAT_RGBA8);
  g_assert_true (lm_blur_op.output_format (&p, LM_FORMAT_GRAY8, TRUE) == LM_FORMAT_GRAY8);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_blur_op, &p, rgba);
  lm_test_assert_same_pixels (out, rgba);
  g_autoptr (LmImage) gout = lm_test_run_op (&lm_blur_op, &p, gray);
  lm_test_assert_same_pixels (gout, gray);
}

/* A constant image stays constant at every σ, including kernels hundreds of times wider
 * than the image (the border reflects again and again): the weights sum to 1. */
static void
test_constant_stays_constant (void)
{
  const guint sizes[][2] = { { 1, 1 }, { 7, 5 }, { 3, 1000 }, { 1000, 3 }, { 2, 2 } };
  const float sigmas[] = { 0.5f, 1.0f, 2.5f, 10.0f, 50.0f, 200.0f };
  const guint8 rgba_value[4] = { 0, 128, 255, 77 };
  const guint8 gray_values[] = { 0, 1, 254, 255, 200 };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint k = 0; k < G_N_ELEMENTS (sigmas); k++)
      {
        guint w = sizes[s][0], h = sizes[s][1];
        LmBlurParams p = blur_params (sigmas[k]);

        g_autoptr (LmImage) rgba = lm_test_image_new (LM_FORMAT_RGBA8, w, h, 0xAB);
        for (guint y = 0; y < h; y++)
          for (guint x = 0; x < w; x++)
            memcpy (lm_test_pixel (rgba, x, y), rgba_value, 4);
        rgba->opaque = FALSE;
        g_autoptr (LmImage) out = lm_test_run_op (&lm_blur_op, &p, rgba);
        if (memcmp (lm_test_pixel (out, 0, 0), rgba_value, 4) != 0)
          g_test_message ("%ux%u, sigma %g", w, h, sigmas[k]);
        lm_test_assert_same_pixels (out, rgba);

        guint8 v = gray_values[(s + k) % G_N_ELEMENTS (gray_values)];
        g_autoptr (LmImage) gray = lm_test_image_new (LM_FORMAT_GRAY8, w, h, 0xAB);
        for (guint y = 0; y < h; y++)
          memset (lm_image_row (gray, y), v, w);
        g_autoptr (LmImage) gout = lm_test_run_op (&lm_blur_op, &p, gray);
        if (*lm_test_pixel (gout, 0, 0) != v)
          g_test_message ("gray %u, %ux%u, sigma %g", v, w, h, sigmas[k]);
        lm_test_assert_same_pixels (gout, gray);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* An opaque photo is blurred on its RGB alone (the rows packed and unpacked around the
 * passes): the same bytes as the blur of all four channels, alpha 255, at widths that end
 * the packing's eight-pixel steps and the passes' blocks anywhere. */
static void
test_opaque_packed_same_as_rgba (void)
{
  const guint sizes[][2] = { { 1, 1 }, { 5, 7 }, { 3, 300 }, { 300, 3 }, { 257, 33 }, { 1030, 9 } };
  const float sigmas[] = { 0.5f, 1.0f, 2.5f, 10.0f };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint k = 0; k < G_N_ELEMENTS (sigmas); k++)
      {
        guint w = sizes[s][0], h = sizes[s][1];
        g_autoptr (LmImage) opaque = lm_test_image_new (LM_FORMAT_RGBA8, w, h, 0xAB);
        g_autoptr (LmImage) four = lm_test_image_new (LM_FORMAT_RGBA8, w, h, 0xAB);
        for (guint y = 0; y < h; y++)
          for (guint x = 0; x < w; x++)
            {
              guint8 *p = lm_test_pixel (opaque, x, y);
              for (int c = 0; c < 3; c++)
                p[c] = (guint8) g_test_rand_int_range (0, 256);
              p[3] = 255;
              memcpy (lm_test_pixel (four, x, y), p, 4);
            }
        four->opaque = FALSE; /* the blur of every channel */
        LmBlurParams p = blur_params (sigmas[k]);
        g_autoptr (LmImage) got = lm_test_run_op (&lm_blur_op, &p, opaque);
        g_autoptr (LmImage) want = lm_test_run_op (&lm_blur_op, &p, four);
        g_test_message ("%ux%u, sigma %g", w, h, sigmas[k]);
        lm_test_assert_same_pixels (got, want);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* A single 255 in the middle of a black image answers with the kernel itself: the outer
 * product of the weights × 255 (within 1), zero beyond the radius, and mirror symmetric
 * exactly. Radii from the rule: σ 1 → 3, 2.5 → 8, 5 → 15 (31 → 31 taps); 41 × 41 keeps
 * every tap inside. */
static void
test_impulse_response (void)
{
  const struct {
    float sigma;
    int radius;
  } cases[] = { { 1.0f, 3 }, { 2.5f, 8 }, { 5.0f, 15 } };
  const int size = 41, c0 = 20;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_GRAY8, size, size, 0xAB);
      for (int y = 0; y < size; y++)
        memset (lm_image_row (src, y), 0, size);
      *lm_test_pixel (src, c0, c0) = 255;

      LmBlurParams p = blur_params (cases[i].sigma);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_blur_op, &p, src);
      double *w = reference_weights (cases[i].sigma, cases[i].radius);
      for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
          {
            int dx = ABS (x - c0), dy = ABS (y - c0);
            double want = dx <= cases[i].radius && dy <= cases[i].radius ? 255.0 * w[dx] * w[dy] : 0.0;
            int got = *lm_test_pixel (out, x, y);
            if (fabs (got - want) > 1.0)
              g_test_message ("sigma %g at (%d, %d): want %.3f", cases[i].sigma, x, y, want);
            g_assert_cmpfloat (fabs (got - want), <=, 1.0);
            g_assert_cmpuint (got, ==, *lm_test_pixel (out, 2 * c0 - x, y));
            g_assert_cmpuint (got, ==, *lm_test_pixel (out, x, 2 * c0 - y));
            if (g_test_failed ())
              {
                g_free (w);
                return;
              }
          }
      /* The centre: σ 1 gives 255 · 0.39905028² = 40.61 → 41 (±1). */
      if (i == 0)
        g_assert_cmpint (ABS ((int) *lm_test_pixel (out, c0, c0) - 41), <=, 1);
      g_free (w);
    }
}

/* Channels are blurred independently: an impulse in green leaves red, blue and alpha at their
 * constant values. */
static void
test_impulse_rgba_channels (void)
{
  const int size = 21, c0 = 10;
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA8, size, size, 0xAB);
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      memcpy (lm_test_pixel (src, x, y), (guint8[]) { 10, 0, 200, 255 }, 4);
  lm_test_pixel (src, c0, c0)[1] = 255;

  LmBlurParams p = blur_params (1.0f);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_blur_op, &p, src);
  double *w = reference_weights (1.0, 3);
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      {
        const guint8 *o = lm_test_pixel (out, x, y);
        int dx = ABS (x - c0), dy = ABS (y - c0);
        double want = dx <= 3 && dy <= 3 ? 255.0 * w[dx] * w[dy] : 0.0;
        g_assert_cmpuint (o[0], ==, 10);
        g_assert_cmpfloat (fabs (o[1] - want), <=, 1.0);
        g_assert_cmpuint (o[2], ==, 200);
        g_assert_cmpuint (o[3], ==, 255);
        if (g_test_failed ())
          {
            g_free (w);
            return;
          }
      }
  g_free (w);
}

/* Near and beyond the borders, against the brute-force reference: an impulse on the edge
 * of a row and of a column, kernels wider than the image (3×1 at σ 10: radius 30; 2×2 at
 * σ 3: 19 taps, radius 9), and random images where most taps fall outside. */
static void
test_borders_against_reference (void)
{
  /* 20×1, impulse at x = 1, σ 1 (radius 3). */
  g_autoptr (LmImage) row = lm_test_image_new (LM_FORMAT_GRAY8, 20, 1, 0xAB);
  memset (lm_image_row (row, 0), 0, 20);
  lm_image_row (row, 0)[1] = 255;
  LmBlurParams p1 = blur_params (1.0f);
  g_autoptr (LmImage) row_out = lm_test_run_op (&lm_blur_op, &p1, row);
  assert_matches_reference (row, row_out, 1.0, 3);
  /* By hand: x = 0 is reached from x = 1 by taps +1 and −1 (−1 reflects to 1):
   * 255 · 2 · 0.24203623 = 123.44 → 123 (±1). */
  g_assert_cmpint (ABS ((int) lm_image_row (row_out, 0)[0] - 123), <=, 1);

  /* 1×20, impulse at y = 0. */
  g_autoptr (LmImage) col = lm_test_image_new (LM_FORMAT_GRAY8, 1, 20, 0xAB);
  for (int y = 0; y < 20; y++)
    *lm_test_pixel (col, 0, y) = y == 0 ? 255 : 0;
  g_autoptr (LmImage) col_out = lm_test_run_op (&lm_blur_op, &p1, col);
  assert_matches_reference (col, col_out, 1.0, 3);

  /* 3×1 (0, 100, 255) at σ 10: 61 taps over 3 pixels. */
  const guint8 tiny[] = { 0, 100, 255 };
  g_autoptr (LmImage) three = lm_test_gray_from (3, 1, tiny);
  LmBlurParams p10 = blur_params (10.0f);
  g_autoptr (LmImage) three_out = lm_test_run_op (&lm_blur_op, &p10, three);
  assert_matches_reference (three, three_out, 10.0, 30);

  /* 2×2 at σ 3: 6 · 3 + 1 = 19 taps, radius 9. */
  const guint8 quad[] = { 0, 255, 60, 7 };
  g_autoptr (LmImage) two = lm_test_gray_from (2, 2, quad);
  LmBlurParams p3 = blur_params (3.0f);
  g_autoptr (LmImage) two_out = lm_test_run_op (&lm_blur_op, &p3, two);
  assert_matches_reference (two, two_out, 3.0, 9);

  /* Random 9×7 RGBA with alpha at σ 2 (6 · 2 + 1 = 13 taps, radius 6) and σ 0.8 (radius 3). */
  g_autoptr (LmImage) rnd = lm_test_random_rgba (9, 7, 11, TRUE);
  LmBlurParams p2 = blur_params (2.0f);
  g_autoptr (LmImage) rnd_out = lm_test_run_op (&lm_blur_op, &p2, rnd);
  assert_matches_reference (rnd, rnd_out, 2.0, 6);
  LmBlurParams p08 = blur_params (0.8f);
  g_autoptr (LmImage) rnd_out2 = lm_test_run_op (&lm_blur_op, &p08, rnd);
  assert_matches_reference (rnd, rnd_out2, 0.8, 3);

  /* Random 23×17 GRAY8 at σ 2.5 (radius 8). */
  g_autoptr (LmImage) grnd = lm_test_random_gray (23, 17, 12);
  LmBlurParams p25 = blur_params (2.5f);
  g_autoptr (LmImage) grnd_out = lm_test_run_op (&lm_blur_op, &p25, grnd);
  assert_matches_reference (grnd, grnd_out, 2.5, 8);
}

/* Wide images cross the implementation's internal strips of samples; the reference still
 * holds at the joins (checked on one 1200-pixel RGBA row band, σ 1.5 → 10 taps → 11 → 5). */
static void
test_wide_image (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (1200, 4, 21, FALSE);
  LmBlurParams p = blur_params (1.5f);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_blur_op, &p, src);
  assert_matches_reference (src, out, 1.5, 5);
}

/* The CPU backend keeps one scratch across blurs (ops.h): a run at one σ, format or size
 * after another must give the bytes of a run on a fresh scratch, whatever the scratch held.
 * Before each run its nodes are poisoned with NaN, which a node read before it is written
 * carries into the output (as 0). And the first run on the grid reserves all that any σ and
 * format need on that size: later edits do not grow it. */
static void
test_scratch_reuse (void)
{
  g_autoptr (LmImage) big_rgba = lm_test_random_rgba (131, 93, 31, TRUE);
  g_autoptr (LmImage) big_gray = lm_test_random_gray (131, 93, 32);
  g_autoptr (LmImage) small_rgba = lm_test_random_rgba (67, 41, 33, FALSE);
  const struct {
    float sigma;
    const LmImage *src;
  } runs[] = {
    { 20.0f, big_rgba }, { 2.0f, big_rgba },  { 20.0f, big_rgba }, { 17.0f, big_gray },
    { 45.0f, big_rgba }, { 20.0f, small_rgba }, { 200.0f, big_gray }, { 24.0f, big_rgba },
    { 16.0f, big_gray }, { 33.5f, small_rgba }, { 20.0f, big_rgba },
  };
  LmBlurScratch scratch = { NULL, 0 };
  gsize reserved = 0;
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      const LmImage *src = runs[i].src;
      LmBlurParams p = blur_params (runs[i].sigma);
      g_autoptr (LmImage) fresh = lm_test_run_op (&lm_blur_op, &p, src);
      g_autoptr (LmImage) out = lm_test_image_new (src->format, src->width, src->height, 0x5A);
      if (scratch.nodes != NULL)
        memset (scratch.nodes, 0xFF, scratch.size); /* quiet NaN in every float */
      GError *error = NULL;
      g_assert_true (lm_blur_run_cpu_scratch (&p, src, out, &scratch, &error));
      g_assert_no_error (error);
      lm_test_assert_same_pixels (out, fresh);
      if (g_test_failed ())
        g_test_message ("run %u: sigma %g on %ux%u %s", i, runs[i].sigma, src->width, src->height,
                        lm_format_name (src->format));
      if (reserved == 0 && scratch.size > 0)
        reserved = scratch.size;
      g_assert_cmpuint (scratch.size, ==, reserved);
      LM_TEST_RETURN_IF_FAILED ();
    }
  /* The reservation: the finest grid (step 2) of four channels on the larger size. */
  g_assert_cmpuint (reserved, ==, (gsize) lm_blur_grid_count (131, 2) * lm_blur_grid_count (93, 2) * 4 * sizeof (float));
  lm_blur_scratch_clear (&scratch);
  g_assert_null (scratch.nodes);
  g_assert_cmpuint (scratch.size, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/blur/radius-rule", test_radius_rule);
  g_test_add_func ("/blur/weights/known", test_weights_known);
  g_test_add_func ("/blur/weights/sum-and-shape", test_weights_sum_and_shape);
  g_test_add_func ("/blur/reflect101", test_reflect101);
  g_test_add_func ("/blur/sigma-zero-copies", test_sigma_zero_copies);
  g_test_add_func ("/blur/constant-stays-constant", test_constant_stays_constant);
  g_test_add_func ("/blur/opaque-packed-same-as-rgba", test_opaque_packed_same_as_rgba);
  g_test_add_func ("/blur/impulse-response", test_impulse_response);
  g_test_add_func ("/blur/impulse-rgba-channels", test_impulse_rgba_channels);
  g_test_add_func ("/blur/borders-against-reference", test_borders_against_reference);
  g_test_add_func ("/blur/wide-image", test_wide_image);
  g_test_add_func ("/blur/scratch-reuse", test_scratch_reuse);
  return g_test_run ();
}
