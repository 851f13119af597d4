/* Grayscale: every mode on pixels whose answers are worked out by hand, blending, alpha,
 * output formats, and the one rounding function lm_quantize_u8.
 *
 * Operations run through their registration (lm_gray_op.output_format, .run_cpu) on
 * poisoned destinations; lm_test_run_op fails when a pixel is left unwritten. */
#include <math.h>
#include <string.h>

#include "core/ops/gray-math.h"
#include "core/ops/histogram.h"
#include "core/ops/ops.h"
#include "test-util.h"

/* The seven test colours, in a 7×1 opaque row. */
static const guint8 colours[7][4] = {
  { 255, 0, 0, 255 },     /* 0: red */
  { 0, 255, 0, 255 },     /* 1: green */
  { 0, 0, 255, 255 },     /* 2: blue */
  { 100, 150, 200, 255 }, /* 3 */
  { 255, 255, 255, 255 }, /* 4: white */
  { 0, 0, 0, 255 },       /* 5: black */
  { 10, 20, 30, 255 },    /* 6 */
};

/* Hand-computed gray values (amount 1), half up:
 *   luminosity  .2126 R + .7152 G + .0722 B
 *     red   .2126·255 = 54.213 → 54      green .7152·255 = 182.376 → 182
 *     blue  .0722·255 = 18.411 → 18      (100,150,200): 21.26 + 107.28 + 14.44 = 142.98 → 143
 *     (10,20,30): 2.126 + 14.304 + 2.166 = 18.596 → 19
 *   bt601  .299 R + .587 G + .114 B
 *     red   76.245 → 76   green 149.685 → 150   blue 29.07 → 29
 *     (100,150,200): 29.9 + 88.05 + 22.8 = 140.75 → 141
 *     (10,20,30): 2.99 + 11.74 + 3.42 = 18.15 → 18
 *   average  (R + G + B) / 3
 *     red, green, blue 255/3 = 85; (100,150,200) 450/3 = 150; (10,20,30) 60/3 = 20
 *   mix 0.5 R + 0.25 G + 0.25 B (exact in binary, so the halves are true halves)
 *     red 127.5 → 128   green 63.75 → 64   blue 63.75 → 64
 *     (100,150,200): 50 + 37.5 + 50 = 137.5 → 138   (10,20,30): 5 + 5 + 7.5 = 17.5 → 18
 *   white → 255 and black → 0 in every mode. */
static const struct {
  LmGrayMode mode;
  const char *name;
  guint8 expected[7];
} mode_cases[] = {
  { LM_GRAY_LUMINOSITY, "luminosity", { 54, 182, 18, 143, 255, 0, 19 } },
  { LM_GRAY_BT601, "bt601", { 76, 150, 29, 141, 255, 0, 18 } },
  { LM_GRAY_AVERAGE, "average", { 85, 85, 85, 150, 255, 0, 20 } },
  { LM_GRAY_MIX, "mix", { 128, 64, 64, 138, 255, 0, 18 } },
};

static LmGrayParams
gray_params (LmGrayMode mode, float amount)
{
  LmGrayParams p;
  lm_op_params_init (&lm_gray_op, &p);
  p.mode = mode;
  p.amount = amount;
  p.red = 0.5f, p.green = 0.25f, p.blue = 0.25f;
  return p;
}

/* A W×H opaque image whose pixel (x, y) is colours[(x + y) % 7], so rows start on different
 * colours and the row stride (padding) is exercised. */
static LmImage *
colour_image (guint width, guint height, guint8 alpha_for_odd)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA8, width, height, 0xAB);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint8 *p = lm_test_pixel (image, x, y);
        memcpy (p, colours[(x + y) % 7], 4);
        if ((x + y) % 2 == 1)
          p[3] = alpha_for_odd;
      }
  image->opaque = alpha_for_odd == 255;
  return image;
}

/* Amount 1 on an opaque image: one gray byte per pixel. */
static void
test_modes_to_gray8 (void)
{
  /* 1029 wide: vectorized row loops meet a remainder at the end of each row. */
  g_autoptr (LmImage) src = colour_image (1029, 23, 255);
  for (guint m = 0; m < G_N_ELEMENTS (mode_cases); m++)
    {
      LmGrayParams p = gray_params (mode_cases[m].mode, 1.0f);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &p, src);
      g_assert_cmpstr (lm_format_name (out->format), ==, "gray8");
      for (guint y = 0; y < out->height; y++)
        for (guint x = 0; x < out->width; x++)
          {
            guint8 want = mode_cases[m].expected[(x + y) % 7];
            if (*lm_test_pixel (out, x, y) != want)
              g_test_message ("mode %s, colour %u", mode_cases[m].name, (x + y) % 7);
            g_assert_cmpuint (*lm_test_pixel (out, x, y), ==, want);
            LM_TEST_RETURN_IF_FAILED ();
          }
    }
}

/* Amount 1 on an image with transparency: RGBA with R = G = B = gray, alpha as it was. */
static void
test_modes_keep_alpha (void)
{
  g_autoptr (LmImage) src = colour_image (19, 6, 77);
  for (guint m = 0; m < G_N_ELEMENTS (mode_cases); m++)
    {
      LmGrayParams p = gray_params (mode_cases[m].mode, 1.0f);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &p, src);
      g_assert_cmpstr (lm_format_name (out->format), ==, "rgba8");
      for (guint y = 0; y < out->height; y++)
        for (guint x = 0; x < out->width; x++)
          {
            const guint8 *o = lm_test_pixel (out, x, y);
            guint8 want = mode_cases[m].expected[(x + y) % 7];
            g_assert_cmpuint (o[0], ==, want);
            g_assert_cmpuint (o[1], ==, want);
            g_assert_cmpuint (o[2], ==, want);
            g_assert_cmpuint (o[3], ==, (x + y) % 2 ? 77 : 255);
            LM_TEST_RETURN_IF_FAILED ();
          }
    }
}

/* Mix weights are used as given: not normalised, negative allowed, results clamped; and a
 * true half rounds up (126.5 → 127, where round-half-even would give 126). */
static void
test_mix_weights (void)
{
  static const struct {
    float r, g, b;
    guint8 in[4];
    guint8 expected;
  } cases[] = {
    { 1, 1, 1, { 100, 150, 200, 255 }, 255 },   /* 450 → clamped to 255 */
    { -1, 0.5f, 0, { 100, 150, 200, 255 }, 0 }, /* −100 + 75 = −25 → 0 */
    { 2, 0, 0, { 10, 20, 30, 255 }, 20 },       /* 2 · 10 = 20 */
    { 0.5f, 0, 0, { 253, 9, 9, 255 }, 127 },    /* 126.5 → 127 (half up) */
    { 0, 0, 0.5f, { 9, 9, 5, 255 }, 3 },        /* 2.5 → 3 (half up; even would be 2) */
    { 0, -2, 0, { 0, 255, 0, 255 }, 0 },        /* −510 → 0 */
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (LmImage) src = lm_test_rgba_from (1, 1, cases[i].in);
      LmGrayParams p = gray_params (LM_GRAY_MIX, 1.0f);
      p.red = cases[i].r, p.green = cases[i].g, p.blue = cases[i].b;
      g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &p, src);
      g_assert_cmpstr (lm_format_name (out->format), ==, "gray8");
      g_assert_cmpuint (*lm_test_pixel (out, 0, 0), ==, cases[i].expected);
    }
}

/* Amount 0.5, bt601: each channel goes halfway to the gray value, alpha stays.
 *   red (255,0,0), Y = 76.245:  R 255 + .5·(76.245 − 255) = 165.6225 → 166,
 *                               G = B = .5 · 76.245 = 38.1225 → 38
 *   (100,150,200), Y = 140.75:  R 120.375 → 120, G 145.375 → 145, B 170.375 → 170
 *   (10,20,30), Y = 18.15:      R 14.075 → 14, G 19.075 → 19, B 24.075 → 24
 * Amount 0.5 keeps colour, so the output is RGBA even for an opaque image. */
static void
test_amount_half (void)
{
  const guint8 in[] = {
    255, 0, 0, 255, 100, 150, 200, 40, 10, 20, 30, 0, 255, 255, 255, 255,
  };
  const guint8 expected[] = {
    166, 38, 38, 255, 120, 145, 170, 40, 14, 19, 24, 0, 255, 255, 255, 255,
  };
  g_autoptr (LmImage) src = lm_test_rgba_from (4, 1, in);
  LmGrayParams p = gray_params (LM_GRAY_BT601, 0.5f);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &p, src);
  g_assert_cmpstr (lm_format_name (out->format), ==, "rgba8");
  g_assert_cmpmem (lm_image_row (out, 0), 16, expected, 16);

  /* The same pixels, opaque (alpha 255): still RGBA8 at amount 0.5. */
  const guint8 opaque_in[] = { 100, 150, 200, 255 };
  g_autoptr (LmImage) src2 = lm_test_rgba_from (1, 1, opaque_in);
  g_assert_true (src2->opaque);
  g_autoptr (LmImage) out2 = lm_test_run_op (&lm_gray_op, &p, src2);
  g_assert_cmpstr (lm_format_name (out2->format), ==, "rgba8");
  const guint8 opaque_expected[] = { 120, 145, 170, 255 };
  g_assert_cmpmem (lm_image_row (out2, 0), 4, opaque_expected, 4);
}

/* Amount 0.25 is a quarter of the way from the colour to the gray, not three quarters:
 *   red, bt601 Y = 76.245:  R 255 + .25 · (76.245 − 255) = 210.31 → 210,
 *                           G = B = .25 · 76.245 = 19.06 → 19
 *   (100,150,200), Y = 140.75: R 100 + 10.1875 = 110.19 → 110, G 150 − 2.3125 = 147.69 → 148,
 *                              B 200 − 14.8125 = 185.19 → 185 */
static void
test_amount_quarter (void)
{
  const guint8 in[] = { 255, 0, 0, 255, 100, 150, 200, 255 };
  const guint8 expected[] = { 210, 19, 19, 255, 110, 148, 185, 255 };
  g_autoptr (LmImage) src = lm_test_rgba_from (2, 1, in);
  LmGrayParams p = gray_params (LM_GRAY_BT601, 0.25f);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &p, src);
  g_assert_cmpstr (lm_format_name (out->format), ==, "rgba8");
  g_assert_cmpmem (lm_image_row (out, 0), 8, expected, 8);
}

/* Amount 0 leaves every byte as it was, in every mode. */
static void
test_amount_zero_is_identity (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (53, 17, 7, TRUE);
  for (guint m = 0; m < G_N_ELEMENTS (mode_cases); m++)
    {
      LmGrayParams p = gray_params (mode_cases[m].mode, 0.0f);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &p, src);
      lm_test_assert_same_pixels (out, src);
    }
}

/* The stored format, as gray-math.h promises: one channel only for a full grayscale with no
 * alpha to keep, or when the input has one channel already. */
static void
test_output_format (void)
{
  LmGrayParams full = gray_params (LM_GRAY_LUMINOSITY, 1.0f);
  LmGrayParams part = gray_params (LM_GRAY_LUMINOSITY, 0.5f);
  LmGrayParams almost = gray_params (LM_GRAY_LUMINOSITY, 0.999f);
  g_assert_true (lm_gray_op.output_format (&full, LM_FORMAT_RGBA8, TRUE) == LM_FORMAT_GRAY8);
  g_assert_true (lm_gray_op.output_format (&full, LM_FORMAT_RGBA8, FALSE) == LM_FORMAT_RGBA8);
  g_assert_true (lm_gray_op.output_format (&part, LM_FORMAT_RGBA8, TRUE) == LM_FORMAT_RGBA8);
  g_assert_true (lm_gray_op.output_format (&almost, LM_FORMAT_RGBA8, TRUE) == LM_FORMAT_RGBA8);
  g_assert_true (lm_gray_op.output_format (&part, LM_FORMAT_RGBA8, FALSE) == LM_FORMAT_RGBA8);
  g_assert_true (lm_gray_op.output_format (&full, LM_FORMAT_GRAY8, TRUE) == LM_FORMAT_GRAY8);
  g_assert_true (lm_gray_op.output_format (&part, LM_FORMAT_GRAY8, TRUE) == LM_FORMAT_GRAY8);
  g_assert_true (lm_gray_op.output_format (&part, LM_FORMAT_GRAY8, FALSE) == LM_FORMAT_GRAY8);
}

/* GRAY8 input: a gray pixel v is (v, v, v). Weights that sum to 1 (luminosity, bt601,
 * average) give v back for all 256 values; mix (1, 1, 1) gives 3v, clamped; amount 0.5 goes
 * halfway. */
static void
test_gray8_input (void)
{
  guint8 ramp[256];
  for (guint i = 0; i < 256; i++)
    ramp[i] = (guint8) i;
  g_autoptr (LmImage) src = lm_test_gray_from (16, 16, ramp);

  const LmGrayMode unit_modes[] = { LM_GRAY_LUMINOSITY, LM_GRAY_BT601, LM_GRAY_AVERAGE };
  for (guint m = 0; m < G_N_ELEMENTS (unit_modes); m++)
    {
      LmGrayParams p = gray_params (unit_modes[m], 1.0f);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &p, src);
      lm_test_assert_same_pixels (out, src);
    }

  /* v = 50: 3 · 50 = 150; v = 100: 300 → 255; amount .5 at v = 50: 50 + .5 · 100 = 100;
   * at v = 7: 7 + .5 · 14 = 14; at v = 60: 60 + .5 · 120 = 120. */
  LmGrayParams mix = gray_params (LM_GRAY_MIX, 1.0f);
  mix.red = mix.green = mix.blue = 1.0f;
  g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &mix, src);
  g_assert_cmpstr (lm_format_name (out->format), ==, "gray8");
  g_assert_cmpuint (*lm_test_pixel (out, 50 % 16, 50 / 16), ==, 150);
  g_assert_cmpuint (*lm_test_pixel (out, 100 % 16, 100 / 16), ==, 255);
  g_assert_cmpuint (*lm_test_pixel (out, 0, 0), ==, 0);

  mix.amount = 0.5f;
  g_autoptr (LmImage) half = lm_test_run_op (&lm_gray_op, &mix, src);
  g_assert_cmpstr (lm_format_name (half->format), ==, "gray8");
  g_assert_cmpuint (*lm_test_pixel (half, 50 % 16, 50 / 16), ==, 100);
  g_assert_cmpuint (*lm_test_pixel (half, 7, 0), ==, 14);
  g_assert_cmpuint (*lm_test_pixel (half, 60 % 16, 60 / 16), ==, 120);
}

/* lm_quantize_u8: clamp to 0..255, then round half up; NaN becomes 0. */
static void
test_quantize (void)
{
  static const struct {
    float in;
    guint8 out;
  } cases[] = {
    { 0.0f, 0 },     { -0.0f, 0 },   { 0.49f, 0 },   { 0.5f, 1 },     { 1.5f, 2 },
    { 2.5f, 3 },     /* half up: round-half-even would give 2 */
    { 126.5f, 127 }, { 127.5f, 128 }, { 127.49f, 127 }, { 254.4f, 254 }, { 254.5f, 255 },
    { 255.0f, 255 }, { 255.7f, 255 }, { 256.0f, 255 }, { 1000.0f, 255 }, { 1e30f, 255 },
    { -0.4f, 0 },    { -0.6f, 0 },    { -1.0f, 0 },    { -300.0f, 0 },    { -1e30f, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (lm_quantize_u8 (cases[i].in) != cases[i].out)
        g_test_message ("lm_quantize_u8 (%g)", cases[i].in);
      g_assert_cmpuint (lm_quantize_u8 (cases[i].in), ==, cases[i].out);
    }
  g_assert_cmpuint (lm_quantize_u8 (NAN), ==, 0);
  g_assert_cmpuint (lm_quantize_u8 (-NAN), ==, 0);
  g_assert_cmpuint (lm_quantize_u8 (INFINITY), ==, 255);
  g_assert_cmpuint (lm_quantize_u8 (-INFINITY), ==, 0);

  /* Every integer maps to itself. */
  for (int v = 0; v <= 255; v++)
    {
      g_assert_cmpuint (lm_quantize_u8 ((float) v), ==, v);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* Every one of the 2^24 colours, converted by the vectorized row loops (gray.c, and
 * equalize's luma in histogram.c), gives the bytes of the scalar functions that define them
 * (gray-math.h, pixel-math.h), in each mode and with weights whose sums leave 0..255 (the
 * clamp's two sides). The row is 4093 pixels: each ends in a remainder. */
static void
test_all_colours_match_scalar (void)
{
  const guint width = 4093, height = (0x1000000 + width - 1) / width;
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA8, width, height, 0xAB);
  for (guint y = 0; y < height; y++)
    {
      guint32 *row = (guint32 *) lm_image_row (src, y);
      for (guint x = 0; x < width; x++)
        row[x] = (((guint32) y * width + x) & 0xffffff) | 0xff000000u;
    }
  src->opaque = TRUE;

  struct {
    LmGrayMode mode;
    float red, green, blue;
  } cases[] = {
    { LM_GRAY_BT601 }, { LM_GRAY_LUMINOSITY }, { LM_GRAY_AVERAGE },
    { LM_GRAY_MIX, 1.7f, -0.9f, 0.6f }, { LM_GRAY_MIX, -0.3f, 0.45f, 1.9f },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      LmGrayParams p = gray_params (cases[c].mode, 1.0f);
      if (cases[c].mode == LM_GRAY_MIX)
        p.red = cases[c].red, p.green = cases[c].green, p.blue = cases[c].blue;
      LmGrayWeights w = lm_gray_weights (&p);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, &p, src);
      guint64 wrong = 0;
      for (guint y = 0; y < height; y++)
        {
          const guint32 *in = (const guint32 *) lm_image_row (src, y);
          const guint8 *row = lm_image_row (out, y);
          for (guint x = 0; x < width; x++)
            wrong += row[x] != lm_gray_of_rgba (in[x], w);
        }
      if (wrong)
        g_test_message ("case %u: %" G_GUINT64_FORMAT " colours differ", c, wrong);
      g_assert_cmpuint (wrong, ==, 0);
    }

  g_autofree guint8 *luma = g_malloc (width);
  guint64 wrong = 0;
  for (guint y = 0; y < height; y++)
    {
      const guint32 *in = (const guint32 *) lm_image_row (src, y);
      memset (luma, 0xAB, width);
      lm_luma_row (in, luma, width);
      for (guint x = 0; x < width; x++)
        wrong += luma[x] != lm_luma_u8 (in[x]);
    }
  g_assert_cmpuint (wrong, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/gray/modes-to-gray8", test_modes_to_gray8);
  g_test_add_func ("/gray/modes-keep-alpha", test_modes_keep_alpha);
  g_test_add_func ("/gray/mix-weights", test_mix_weights);
  g_test_add_func ("/gray/amount-half", test_amount_half);
  g_test_add_func ("/gray/amount-quarter", test_amount_quarter);
  g_test_add_func ("/gray/amount-zero-is-identity", test_amount_zero_is_identity);
  g_test_add_func ("/gray/output-format", test_output_format);
  g_test_add_func ("/gray/gray8-input", test_gray8_input);
  g_test_add_func ("/gray/quantize", test_quantize);
  g_test_add_func ("/gray/all-colours-match-scalar", test_all_colours_match_scalar);
  return g_test_run ();
}
