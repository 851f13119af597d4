/* Histogram equalization: OpenCV's equalizeHist LUT rule (first non-empty bin → 0, float
 * scale 255 / (total − that bin), round half to even), GRAY8 and RGBA8 inputs, luma and rgb
 * modes, amount blending, alpha. Every expected value below is worked out by hand. */
#include <math.h>
#include <string.h>

#include "core/ops/equalize-math.h"
#include "core/ops/ops.h"
#include "test-util.h"

/* The LUT of a histogram given as a list of pixel values. */
static void
lut_of (const guint8 *values, guint n, guint8 lut[LM_HIST_BINS])
{
  uint32_t hist[LM_HIST_BINS] = { 0 };
  for (guint i = 0; i < n; i++)
    hist[values[i]]++;
  memset (lut, 0xAB, LM_HIST_BINS);
  lm_equalize_lut (hist, n, lut);
}

/* Values {10, 10, 20, 30}: first non-empty bin 10 (2 pixels), scale 255 / (4 − 2) = 127.5.
 *   i ≤ 19: cumulative count after bin 10 is 0 → 0
 *   20..29: 1 · 127.5 = 127.5 → rint → 128 (128 is even)
 *   ≥ 30:   2 · 127.5 = 255 */
static void
test_lut_known (void)
{
  const guint8 values[] = { 10, 10, 20, 30 };
  guint8 lut[LM_HIST_BINS];
  lut_of (values, G_N_ELEMENTS (values), lut);
  for (int i = 0; i < LM_HIST_BINS; i++)
    {
      guint8 want = i < 20 ? 0 : i < 30 ? 128 : 255;
      if (lut[i] != want)
        g_test_message ("LUT[%d]", i);
      g_assert_cmpuint (lut[i], ==, want);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* Values 0..6, one pixel each: first bin 0 (1 pixel), scale 255 / 6 = 42.5 exactly.
 *   LUT[1] = rint (42.5) = 42     (half to even; half up would give 43)
 *   LUT[2] = 85, LUT[3] = rint (127.5) = 128, LUT[4] = 170,
 *   LUT[5] = rint (212.5) = 212   (even; half up 213), LUT[6..255] = 255 */
static void
test_lut_half_to_even (void)
{
  const guint8 values[] = { 0, 1, 2, 3, 4, 5, 6 };
  const guint8 expected[] = { 0, 42, 85, 128, 170, 212, 255 };
  guint8 lut[LM_HIST_BINS];
  lut_of (values, G_N_ELEMENTS (values), lut);
  g_assert_cmpmem (lut, 7, expected, 7);
  for (int i = 7; i < LM_HIST_BINS; i++)
    g_assert_cmpuint (lut[i], ==, 255);
}

/* A one-valued histogram maps every value to itself (no division by zero), at any value;
 * an empty histogram too. */
static void
test_lut_one_valued (void)
{
  const guint8 at[] = { 0, 1, 77, 254, 255 };
  for (guint k = 0; k < G_N_ELEMENTS (at); k++)
    {
      guint8 values[5];
      memset (values, at[k], sizeof values);
      guint8 lut[LM_HIST_BINS];
      lut_of (values, G_N_ELEMENTS (values), lut);
      for (int i = 0; i < LM_HIST_BINS; i++)
        g_assert_cmpuint (lut[i], ==, i);
    }

  guint8 lut[LM_HIST_BINS];
  lut_of (NULL, 0, lut);
  for (int i = 0; i < LM_HIST_BINS; i++)
    g_assert_cmpuint (lut[i], ==, i);
}

/* Two values where the first holds most pixels: {100 ×3, 200}: scale 255 / 1, so 100 → 0,
 * 200 → 255; values between stay 0 and values after are 255. */
static void
test_lut_two_values (void)
{
  const guint8 values[] = { 100, 100, 100, 200 };
  guint8 lut[LM_HIST_BINS];
  lut_of (values, G_N_ELEMENTS (values), lut);
  g_assert_cmpuint (lut[0], ==, 0);
  g_assert_cmpuint (lut[100], ==, 0);
  g_assert_cmpuint (lut[199], ==, 0);
  g_assert_cmpuint (lut[200], ==, 255);
  g_assert_cmpuint (lut[255], ==, 255);
}

static LmEqualizeParams
eq_params (LmEqualizeMode mode, float amount)
{
  LmEqualizeParams p;
  lm_op_params_init (&lm_equalize_op, &p);
  p.mode = mode;
  p.amount = amount;
  return p;
}

/* GRAY8 through the registration: {10, 10, 20, 30} → {0, 0, 128, 255} and 0..6 →
 * {0, 42, 85, 128, 170, 212, 255} (the LUTs above); amount 0.5 on the first:
 *   10 → 10 + .5 · (0 − 10) = 5,  20 → 20 + .5 · 108 = 74,  30 → 30 + .5 · 225 = 142.5 → 143.
 * The mode does not matter for one channel. */
static void
test_gray8 (void)
{
  const guint8 in4[] = { 10, 10, 20, 30 };
  const guint8 out4[] = { 0, 0, 128, 255 };
  const guint8 half4[] = { 5, 5, 74, 143 };
  g_autoptr (LmImage) src = lm_test_gray_from (2, 2, in4);
  const LmEqualizeMode modes[] = { LM_EQUALIZE_LUMA, LM_EQUALIZE_RGB };
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      LmEqualizeParams p = eq_params (modes[m], 1.0f);
      g_assert_true (lm_equalize_op.output_format (&p, LM_FORMAT_GRAY8, TRUE) == LM_FORMAT_GRAY8);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_equalize_op, &p, src);
      g_assert_cmpstr (lm_format_name (out->format), ==, "gray8");
      g_assert_cmpmem (lm_image_row (out, 0), 2, out4, 2);
      g_assert_cmpmem (lm_image_row (out, 1), 2, out4 + 2, 2);

      p.amount = 0.5f;
      g_autoptr (LmImage) half = lm_test_run_op (&lm_equalize_op, &p, src);
      g_assert_cmpmem (lm_image_row (half, 0), 2, half4, 2);
      g_assert_cmpmem (lm_image_row (half, 1), 2, half4 + 2, 2);

      /* A quarter of the way: 10 → 7.5 → 8 (half up), 20 → 20 + 27 = 47,
       * 30 → 30 + 56.25 = 86.25 → 86. */
      const guint8 quarter4[] = { 8, 8, 47, 86 };
      p.amount = 0.25f;
      g_autoptr (LmImage) quarter = lm_test_run_op (&lm_equalize_op, &p, src);
      g_assert_cmpmem (lm_image_row (quarter, 0), 2, quarter4, 2);
      g_assert_cmpmem (lm_image_row (quarter, 1), 2, quarter4 + 2, 2);
    }

  const guint8 in7[] = { 3, 0, 6, 1, 5, 2, 4 };
  const guint8 out7[] = { 128, 0, 255, 42, 212, 85, 170 };
  g_autoptr (LmImage) src7 = lm_test_gray_from (7, 1, in7);
  LmEqualizeParams p = eq_params (LM_EQUALIZE_LUMA, 1.0f);
  g_autoptr (LmImage) out7img = lm_test_run_op (&lm_equalize_op, &p, src7);
  g_assert_cmpmem (lm_image_row (out7img, 0), 7, out7, 7);
}

/* An image of one value is left as it is, in every mode, format and amount. */
static void
test_constant_unchanged (void)
{
  const float amounts[] = { 1.0f, 0.5f };
  const LmEqualizeMode modes[] = { LM_EQUALIZE_LUMA, LM_EQUALIZE_RGB };
  for (guint a = 0; a < G_N_ELEMENTS (amounts); a++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      {
        LmEqualizeParams p = eq_params (modes[m], amounts[a]);

        g_autoptr (LmImage) gray = lm_test_image_new (LM_FORMAT_GRAY8, 13, 9, 0xAB);
        for (guint y = 0; y < 9; y++)
          memset (lm_image_row (gray, y), 77, 13);
        g_autoptr (LmImage) gray_out = lm_test_run_op (&lm_equalize_op, &p, gray);
        lm_test_assert_same_pixels (gray_out, gray);

        g_autoptr (LmImage) rgba = lm_test_image_new (LM_FORMAT_RGBA8, 13, 9, 0xAB);
        for (guint y = 0; y < 9; y++)
          for (guint x = 0; x < 13; x++)
            memcpy (lm_test_pixel (rgba, x, y), (guint8[]) { 30, 60, 90, 200 }, 4);
        rgba->opaque = FALSE;
        g_autoptr (LmImage) rgba_out = lm_test_run_op (&lm_equalize_op, &p, rgba);
        lm_test_assert_same_pixels (rgba_out, rgba);
      }
}

/* RGB mode: each channel on its own histogram, alpha untouched.
 *   R {10, 10, 20, 30} → {0, 0, 128, 255}                       (the first LUT above)
 *   G {50, 60, 60, 60}: first bin 50 (1), scale 255 / 3 = 85; 60 → 3 · 85 = 255
 *   B {77, 77, 77, 77}: one value → unchanged
 * Amount 0.5: R {5, 5, 74, 143}; G 50 → 25, 60 → 60 + .5 · 195 = 157.5 → 158. */
static void
test_rgb_mode (void)
{
  const guint8 in[] = {
    10, 50, 77, 0, 10, 60, 77, 17, 20, 60, 77, 128, 30, 60, 77, 255,
  };
  const guint8 full[] = {
    0, 0, 77, 0, 0, 255, 77, 17, 128, 255, 77, 128, 255, 255, 77, 255,
  };
  const guint8 half[] = {
    5, 25, 77, 0, 5, 158, 77, 17, 74, 158, 77, 128, 143, 158, 77, 255,
  };
  g_autoptr (LmImage) src = lm_test_rgba_from (2, 2, in);
  LmEqualizeParams p = eq_params (LM_EQUALIZE_RGB, 1.0f);
  g_assert_true (lm_equalize_op.output_format (&p, LM_FORMAT_RGBA8, FALSE) == LM_FORMAT_RGBA8);

  g_autoptr (LmImage) out = lm_test_run_op (&lm_equalize_op, &p, src);
  g_assert_cmpstr (lm_format_name (out->format), ==, "rgba8");
  g_assert_cmpmem (lm_image_row (out, 0), 8, full, 8);
  g_assert_cmpmem (lm_image_row (out, 1), 8, full + 8, 8);

  p.amount = 0.5f;
  g_autoptr (LmImage) out_half = lm_test_run_op (&lm_equalize_op, &p, src);
  g_assert_cmpmem (lm_image_row (out_half, 0), 8, half, 8);
  g_assert_cmpmem (lm_image_row (out_half, 1), 8, half + 8, 8);
}

/* Luma mode: the BT.601 Y of each pixel is equalized and R, G, B move by the same amount.
 *   (50, 50, 50)    Y = 50
 *   (100, 150, 200) Y = 29.9 + 88.05 + 22.8 = 140.75 → 141
 *   (200, 100, 10)  Y = 59.8 + 58.7 + 1.14 = 119.64 → 120
 *   (30, 60, 90)    Y = 8.97 + 35.22 + 10.26 = 54.45 → 54
 * Y histogram {50, 54, 120, 141}: first bin 50 → 0, scale 255 / 3 = 85:
 *   54 → 85 (+31), 120 → 170 (+50), 141 → 255 (+114), 50 → 0 (−50)
 * Amount 1:   (0, 0, 0), (214, 264→255, 314→255), (250, 150, 60), (61, 91, 121)
 * Amount 0.5: shifts −25, +57, +25, +15.5:
 *   (25, 25, 25), (157, 207, 257→255), (225, 125, 35), (45.5→46, 75.5→76, 105.5→106) */
static void
test_luma_mode (void)
{
  const guint8 in[] = {
    50, 50, 50, 255, 100, 150, 200, 9, 200, 100, 10, 0, 30, 60, 90, 128,
  };
  const guint8 full[] = {
    0, 0, 0, 255, 214, 255, 255, 9, 250, 150, 60, 0, 61, 91, 121, 128,
  };
  const guint8 half[] = {
    25, 25, 25, 255, 157, 207, 255, 9, 225, 125, 35, 0, 46, 76, 106, 128,
  };
  g_autoptr (LmImage) src = lm_test_rgba_from (4, 1, in);
  LmEqualizeParams p = eq_params (LM_EQUALIZE_LUMA, 1.0f);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_equalize_op, &p, src);
  g_assert_cmpstr (lm_format_name (out->format), ==, "rgba8");
  g_assert_cmpmem (lm_image_row (out, 0), 16, full, 16);

  p.amount = 0.5f;
  g_autoptr (LmImage) out_half = lm_test_run_op (&lm_equalize_op, &p, src);
  g_assert_cmpmem (lm_image_row (out_half, 0), 16, half, 16);
}

/* On a larger image: wherever no channel was clipped, luma mode moved R, G and B by the same
 * amount (chroma kept), and pixels of equal Y moved by the same amount; alpha is untouched.
 * RGB mode instead gives a different result on a coloured image (it shifts colours). */
static void
test_luma_keeps_chroma (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (61, 29, 99, TRUE);
  /* Squeeze the colours into 64..191 so that most pixels are not clipped. */
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      for (int c = 0; c < 3; c++)
        lm_test_pixel (src, x, y)[c] = 64 + lm_test_pixel (src, x, y)[c] / 2;

  LmEqualizeParams p = eq_params (LM_EQUALIZE_LUMA, 1.0f);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_equalize_op, &p, src);

  int shift_of_y[256];
  for (int i = 0; i < 256; i++)
    shift_of_y[i] = G_MININT;
  guint unclipped = 0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *i = lm_test_pixel (src, x, y), *o = lm_test_pixel (out, x, y);
        g_assert_cmpuint (o[3], ==, i[3]);
        gboolean clipped = FALSE;
        for (int c = 0; c < 3; c++)
          clipped = clipped || o[c] == 0 || o[c] == 255;
        if (clipped)
          continue;
        unclipped++;
        int shift = (int) o[0] - i[0];
        g_assert_cmpint ((int) o[1] - i[1], ==, shift);
        g_assert_cmpint ((int) o[2] - i[2], ==, shift);
        guint8 luma = lm_test_luma601 (i[0], i[1], i[2]);
        if (shift_of_y[luma] == G_MININT)
          shift_of_y[luma] = shift;
        g_assert_cmpint (shift_of_y[luma], ==, shift);
        LM_TEST_RETURN_IF_FAILED ();
      }
  /* The check above must have seen a good part of the image to mean anything. */
  g_assert_cmpuint (unclipped, >, src->width * src->height / 2);

  p.mode = LM_EQUALIZE_RGB;
  g_autoptr (LmImage) rgb = lm_test_run_op (&lm_equalize_op, &p, src);
  gboolean differs = FALSE;
  for (guint y = 0; y < src->height && !differs; y++)
    differs = memcmp (lm_image_row (rgb, y), lm_image_row (out, y), src->width * 4) != 0;
  g_assert_true (differs);
}

/* OpenCV's equalizeHist, transcribed from its source (imgproc/src/histogram.cpp): the LUT
 * after the first non-empty bin i is saturate_cast<uchar> (sum · scale), which rounds half
 * to even (lrintf), with scale = 255.f / (total − hist[i]). */
static void
opencv_lut (const guint32 hist[256], guint32 total, guint8 lut[256])
{
  int i = 0;
  while (!hist[i])
    ++i;
  if (hist[i] == total)
    {
      for (int k = 0; k < 256; k++)
        lut[k] = (guint8) k; /* OpenCV sets the image to i; the same for a one-valued image */
      return;
    }
  float scale = (256 - 1.f) / (float) (total - hist[i]);
  int sum = 0;
  for (int k = 0; k <= i; k++)
    lut[k] = 0;
  for (++i; i < 256; ++i)
    {
      sum += (int) hist[i];
      long v = lrintf ((float) sum * scale);
      lut[i] = (guint8) CLAMP (v, 0, 255);
    }
}

static guint8
half_up (float v)
{
  v = CLAMP (v, 0.0f, 255.0f);
  return (guint8) (int) (v + 0.5f);
}

/* The whole operation written out here, independently, for one image and mode. */
static LmImage *
reference_equalize (const LmImage *src, LmEqualizeMode mode, float amount)
{
  guint ch = lm_format_channels (src->format);
  gboolean luma = mode == LM_EQUALIZE_LUMA || ch == 1;
  guint32 hist[4][256] = { { 0 } };
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *p = lm_test_pixel (src, x, y);
        if (ch == 1)
          hist[0][p[0]]++;
        else if (luma)
          hist[0][lm_test_luma601 (p[0], p[1], p[2])]++;
        else
          for (int c = 0; c < 3; c++)
            hist[c][p[c]]++;
      }
  guint8 lut[4][256];
  guint32 total = src->width * src->height;
  for (int c = 0; c < (luma ? 1 : 3); c++)
    opencv_lut (hist[c], total, lut[c]);

  LmImage *out = lm_test_image_new (src->format, src->width, src->height, 0);
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *i = lm_test_pixel (src, x, y);
        guint8 *o = lm_test_pixel (out, x, y);
        if (ch == 1)
          o[0] = amount >= 1.0f ? lut[0][i[0]] : half_up (i[0] + amount * (lut[0][i[0]] - i[0]));
        else if (luma)
          {
            guint8 yv = lm_test_luma601 (i[0], i[1], i[2]);
            float shift = (float) (lut[0][yv] - yv);
            if (amount < 1.0f)
              shift *= amount;
            for (int c = 0; c < 3; c++)
              o[c] = half_up ((float) i[c] + shift);
            o[3] = i[3];
          }
        else
          {
            for (int c = 0; c < 3; c++)
              o[c] = amount >= 1.0f ? lut[c][i[c]]
                                    : half_up (i[c] + amount * (float) (lut[c][i[c]] - i[c]));
            o[3] = i[3];
          }
      }
  return out;
}

/* Wide random images (rows longer than any strip the implementation works in) agree with
 * the transcription above, exactly, in every mode and at two amounts. */
static void
test_matches_reference (void)
{
  g_autoptr (LmImage) rgba = lm_test_random_rgba (2100, 3, 31, TRUE);
  g_autoptr (LmImage) gray = lm_test_random_gray (2100, 3, 32);
  /* Random bytes give a flat histogram; squeeze one image into 50..177 so the LUT moves
   * values a long way. */
  g_autoptr (LmImage) squeezed = lm_test_random_rgba (1500, 4, 33, FALSE);
  for (guint y = 0; y < squeezed->height; y++)
    for (guint x = 0; x < squeezed->width; x++)
      for (int c = 0; c < 3; c++)
        lm_test_pixel (squeezed, x, y)[c] = 50 + lm_test_pixel (squeezed, x, y)[c] / 2;

  const LmImage *images[] = { rgba, gray, squeezed };
  const LmEqualizeMode modes[] = { LM_EQUALIZE_LUMA, LM_EQUALIZE_RGB };
  const float amounts[] = { 1.0f, 0.7f };
  for (guint i = 0; i < G_N_ELEMENTS (images); i++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      for (guint a = 0; a < G_N_ELEMENTS (amounts); a++)
        {
          LmEqualizeParams p = eq_params (modes[m], amounts[a]);
          g_autoptr (LmImage) out = lm_test_run_op (&lm_equalize_op, &p, images[i]);
          g_autoptr (LmImage) want = reference_equalize (images[i], modes[m], amounts[a]);
          lm_test_assert_same_pixels (out, want);
          if (g_test_failed ())
            {
              g_test_message ("image %u, mode %d, amount %g", i, modes[m], amounts[a]);
              return;
            }
        }
}

/* Amount 0 leaves every byte as it was. */
static void
test_amount_zero (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (33, 7, 5, TRUE);
  g_autoptr (LmImage) gray = lm_test_random_gray (33, 7, 5);
  const LmEqualizeMode modes[] = { LM_EQUALIZE_LUMA, LM_EQUALIZE_RGB };
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      LmEqualizeParams p = eq_params (modes[m], 0.0f);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_equalize_op, &p, src);
      lm_test_assert_same_pixels (out, src);
      g_autoptr (LmImage) gout = lm_test_run_op (&lm_equalize_op, &p, gray);
      lm_test_assert_same_pixels (gout, gray);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/equalize/lut/known", test_lut_known);
  g_test_add_func ("/equalize/lut/half-to-even", test_lut_half_to_even);
  g_test_add_func ("/equalize/lut/one-valued", test_lut_one_valued);
  g_test_add_func ("/equalize/lut/two-values", test_lut_two_values);
  g_test_add_func ("/equalize/gray8", test_gray8);
  g_test_add_func ("/equalize/constant-unchanged", test_constant_unchanged);
  g_test_add_func ("/equalize/rgb-mode", test_rgb_mode);
  g_test_add_func ("/equalize/luma-mode", test_luma_mode);
  g_test_add_func ("/equalize/luma-keeps-chroma", test_luma_keeps_chroma);
  g_test_add_func ("/equalize/amount-zero", test_amount_zero);
  g_test_add_func ("/equalize/matches-reference", test_matches_reference);
  return g_test_run ();
}
