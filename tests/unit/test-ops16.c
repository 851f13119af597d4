/* 16-bit sources (RGBA16, GRAY16) through every operation's CPU reference: the depth kept,
 * known answers on the 0..255 scale (v / 257) with lm_quantize_u16 at the end, and images
 * whose low bits vary, so that a path that quietly drops to 8 bits fails. Outputs are
 * poisoned twice (lm_test_run_op). The OpenCV oracles on photos are tests/oracle/
 * test_oracle16.py; CPU against CUDA, tests/gpu/test-parity.c. */
#include <math.h>
#include <string.h>

#include "core/ops/equalize-math.h"
#include "core/ops/gray-math.h"
#include "core/ops/histogram.h"
#include "core/ops/ops.h"
#include "core/ops/point.h"
#include "test-util.h"

/* Reproducible 16-bit pixels, every bit varying. */
static LmImage *
random16 (LmFormat format, guint w, guint h, guint32 seed)
{
  LmImage *image = lm_test_image_new (format, w, h, 0x77);
  GRand *rand = g_rand_new_with_seed (seed);
  guint ch = lm_format_channels (format);
  for (guint y = 0; y < h; y++)
    {
      guint16 *row = (guint16 *) lm_image_row (image, y);
      for (guint i = 0; i < w * ch; i++)
        row[i] = ch == 4 && i % 4 == 3 ? 65535 : (guint16) g_rand_int_range (rand, 0, 65536);
    }
  image->opaque = TRUE;
  g_rand_free (rand);
  return image;
}

static guint16
px16 (const LmImage *image, guint x, guint y, guint c)
{
  return ((const guint16 *) lm_image_row (image, y))[x * lm_format_channels (image->format) + c];
}

/* Written out here, not taken from the code under test: clamp(round-half-up(x · 257)). */
static guint16
expect_u16 (float x)
{
  float s = x * 257.0f;
  if (!(s > 0.0f))
    return 0;
  return s >= 65535.0f ? 65535 : (guint16) floorf (s + 0.5f);
}

static void
test_quantize (void)
{
  g_assert_cmpuint (lm_quantize_u16 (0.0f), ==, 0);
  g_assert_cmpuint (lm_quantize_u16 (255.0f), ==, 65535);
  g_assert_cmpuint (lm_quantize_u16 (127.5f), ==, 32768); /* 32767.5: half up */
  g_assert_cmpuint (lm_quantize_u16 (-3.0f), ==, 0);
  g_assert_cmpuint (lm_quantize_u16 (300.0f), ==, 65535);
  g_assert_cmpuint (lm_quantize_u16 (NAN), ==, 0);
  guint bad_round_trip = 0, bad_bin = 0;
  for (guint v = 0; v < 65536; v++)
    {
      bad_round_trip += lm_quantize_u16 (lm_u16_value (v)) != v;
      /* The histogram's integer bin against the float rounding it stands for. */
      bad_bin += lm_u16_bin8 (v) != lm_quantize_u8 (lm_u16_value (v));
    }
  g_assert_cmpuint (bad_round_trip, ==, 0);
  g_assert_cmpuint (bad_bin, ==, 0);
  for (guint v = 0; v < 256; v++)
    g_assert_cmpfloat (lm_u16_value (v * 257), ==, (float) v);
}

/* Each point operation alone: output = lm_quantize_u16 (channel part (v / 257)), 16-bit out. */
static void
test_point_known (void)
{
  g_autoptr (LmImage) src = random16 (LM_FORMAT_RGBA16, 61, 7, 1);
  LmExposureParams ev = { .ev = 0.7f };
  g_autoptr (LmImage) out = lm_test_run_op (&lm_exposure_op, &ev, src);
  g_assert_cmpint (out->format, ==, LM_FORMAT_RGBA16);
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        for (guint c = 0; c < 3; c++)
          {
            float v = (float) px16 (src, x, y, c) / 257.0f;
            g_assert_cmpuint (px16 (out, x, y, c), ==, expect_u16 (lm_exposure_channel (&ev, c, v)));
          }
        g_assert_cmpuint (px16 (out, x, y, 3), ==, px16 (src, x, y, 3));
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* The whole fused pass (every point operation, curve in luma mode with its pixel part, and
 * saturation) on a 16-bit image of 8-bit values (v · 257) against the pass on the 8-bit
 * image: the same float before the rounding (the 8-bit pass adds the rounding's half inside
 * the curve-and-saturation pair, an ulp's difference at most), so the 16-bit result is
 * within half an 8-bit step (257 / 2 + ½) of 257 × the 8-bit one; and on values 1 apart in the low bits, results
 * that differ (a table of 256 would give the same). */
static void
test_point_pass_depths (void)
{
  LmPointPass pass;
  lm_point_pass_init (&pass);
  LmWbParams wb;
  lm_op_params_init (&lm_wb_op, &wb);
  wb.temperature = 4100, wb.tint = 12;
  LmExposureParams ev = { .ev = 0.4f };
  LmContrastParams contrast;
  lm_op_params_init (&lm_contrast_op, &contrast);
  contrast.contrast = 0.3f;
  LmCurveParams curve;
  lm_op_params_init (&lm_curve_op, &curve);
  curve.mode = LM_CURVE_MODE_LUMA;
  curve.points.n = 3;
  curve.points.x[1] = 100, curve.points.y[1] = 80, curve.points.x[2] = 255, curve.points.y[2] = 255;
  LmSaturationParams sat = { .saturation = 0.3f, .vibrance = 0.2f };
  lm_point_pass_add (&pass, &lm_wb_op, &wb);
  lm_point_pass_add (&pass, &lm_exposure_op, &ev);
  lm_point_pass_add (&pass, &lm_contrast_op, &contrast);
  lm_point_pass_add (&pass, &lm_curve_op, &curve);
  lm_point_pass_add (&pass, &lm_saturation_op, &sat);

  g_autoptr (LmImage) src8 = lm_test_random_rgba (97, 13, 5, FALSE);
  g_autoptr (LmImage) src16 = lm_test_image_new (LM_FORMAT_RGBA16, 97, 13, 0);
  for (guint y = 0; y < 13; y++)
    for (guint i = 0; i < 97 * 4; i++)
      ((guint16 *) lm_image_row (src16, y))[i] = lm_image_row (src8, y)[i] * 257;
  g_autoptr (LmImage) out8 = lm_test_image_new (LM_FORMAT_RGBA8, 97, 13, 0x3c);
  g_autoptr (LmImage) out16 = lm_test_image_new (LM_FORMAT_RGBA16, 97, 13, 0x3c);
  lm_point_run_cpu (&pass, src8, out8);
  lm_point_run_cpu (&pass, src16, out16);
  int worst = 0;
  for (guint y = 0; y < 13; y++)
    for (guint i = 0; i < 97 * 4; i++)
      worst = MAX (worst, abs ((int) ((guint16 *) lm_image_row (out16, y))[i] - 257 * lm_image_row (out8, y)[i]));
  g_test_message ("16-bit of 8-bit values against 257 × 8-bit: max |Δ| %d", worst);
  g_assert_cmpint (worst, <=, 129);

  /* Low bits: a ramp of consecutive 16-bit values, one a pixel. */
  g_autoptr (LmImage) ramp = lm_test_image_new (LM_FORMAT_GRAY16, 4096, 1, 0);
  for (guint x = 0; x < 4096; x++)
    ((guint16 *) lm_image_row (ramp, 0))[x] = 20000 + x;
  g_autoptr (LmImage) rout = lm_test_image_new (LM_FORMAT_GRAY16, 4096, 1, 0x3c); /* gray stays gray */
  lm_point_run_cpu (&pass, ramp, rout);
  guint distinct = 1;
  for (guint x = 1; x < 4096; x++)
    distinct += px16 (rout, x, 0, 0) != px16 (rout, x - 1, 0, 0);
  g_test_message ("4096 consecutive 16-bit values give %u distinct grays", distinct);
  g_assert_cmpuint (distinct, >, 2000); /* 16 values at most through an 8-bit table */
}

static void
test_gray16 (void)
{
  /* (r, g, b) · 257 + low bits; expectations written out in single precision. */
  static const guint16 rgb[3][3] = { { 25700 + 7, 38550 + 100, 51400 + 200 }, { 65535, 0, 1 }, { 3, 5, 65534 } };
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA16, 3, 1, 0);
  for (guint x = 0; x < 3; x++)
    {
      guint16 *p = (guint16 *) lm_image_row (src, 0) + 4 * x;
      p[0] = rgb[x][0], p[1] = rgb[x][1], p[2] = rgb[x][2], p[3] = 65535;
    }
  src->opaque = TRUE;
  LmGrayParams p;
  lm_op_params_init (&lm_gray_op, &p);
  p.mode = LM_GRAY_BT601;
  g_autoptr (LmImage) gray = lm_test_run_op (&lm_gray_op, &p, src);
  g_assert_cmpint (gray->format, ==, LM_FORMAT_GRAY16);
  for (guint x = 0; x < 3; x++)
    {
      float r = rgb[x][0] / 257.0f, g = rgb[x][1] / 257.0f, b = rgb[x][2] / 257.0f;
      g_assert_cmpuint (px16 (gray, x, 0, 0), ==, expect_u16 ((0.299f * r + 0.587f * g) + 0.114f * b));
    }
  /* (100, 150, 200) · 257 + (7, 100, 200): about 141.076 on the 0..255 scale, · 257 → 36256 */
  g_assert_cmpuint (px16 (gray, 0, 0, 0), ==, 36256);

  p.amount = 0.35f; /* partial: RGBA16, each channel towards the gray */
  g_autoptr (LmImage) part = lm_test_run_op (&lm_gray_op, &p, src);
  g_assert_cmpint (part->format, ==, LM_FORMAT_RGBA16);
  for (guint x = 0; x < 3; x++)
    {
      float r = rgb[x][0] / 257.0f, g = rgb[x][1] / 257.0f, b = rgb[x][2] / 257.0f;
      float y = (0.299f * r + 0.587f * g) + 0.114f * b;
      y = y > 255.0f ? 255.0f : y;
      float v[3] = { r, g, b };
      for (int c = 0; c < 3; c++)
        g_assert_cmpuint (px16 (part, x, 0, c), ==, expect_u16 (v[c] + 0.35f * (y - v[c])));
      g_assert_cmpuint (px16 (part, x, 0, 3), ==, 65535);
    }

  g_autoptr (LmImage) g16 = random16 (LM_FORMAT_GRAY16, 33, 3, 9);
  p.mode = LM_GRAY_MIX, p.amount = 1, p.red = 0.5f, p.green = 0.25f, p.blue = 0.5f; /* ×1.25, clipped */
  g_autoptr (LmImage) gg = lm_test_run_op (&lm_gray_op, &p, g16);
  g_assert_cmpint (gg->format, ==, LM_FORMAT_GRAY16);
  for (guint x = 0; x < 33; x++)
    {
      float v = px16 (g16, x, 1, 0) / 257.0f, y = (0.5f * v + 0.25f * v) + 0.5f * v;
      g_assert_cmpuint (px16 (gg, x, 1, 0), ==, expect_u16 (y > 255.0f ? 255.0f : y));
    }
}

/* The definition of 16-bit equalize on hand-made histograms: N = 4, first bin 0 holding 1:
 * lut[1000] = round (65535 · 2 / 3) = 43690, lut[65535] = 65535; and a true half, N − first
 * count = 2: 65535 / 2 = 32767.5 → 32768. */
static void
test_equalize16_known (void)
{
  static const guint16 a[4] = { 0, 1000, 1000, 65535 }, a_eq[4] = { 0, 43690, 43690, 65535 };
  static const guint16 b[3] = { 5, 6, 7 }, b_eq[3] = { 0, 32768, 65535 };
  LmEqualizeParams p = { .mode = LM_EQUALIZE_LUMA, .amount = 1 };
  g_autoptr (LmImage) ia = lm_test_image_new (LM_FORMAT_GRAY16, 4, 1, 0);
  memcpy (lm_image_row (ia, 0), a, sizeof a);
  g_autoptr (LmImage) oa = lm_test_run_op (&lm_equalize_op, &p, ia);
  g_assert_cmpint (oa->format, ==, LM_FORMAT_GRAY16);
  for (int i = 0; i < 4; i++)
    g_assert_cmpuint (px16 (oa, i, 0, 0), ==, a_eq[i]);
  g_autoptr (LmImage) ib = lm_test_image_new (LM_FORMAT_GRAY16, 3, 1, 0);
  memcpy (lm_image_row (ib, 0), b, sizeof b);
  g_autoptr (LmImage) ob = lm_test_run_op (&lm_equalize_op, &p, ib);
  for (int i = 0; i < 3; i++)
    g_assert_cmpuint (px16 (ob, i, 0, 0), ==, b_eq[i]);
  /* One value: unchanged. */
  g_autoptr (LmImage) flat = lm_test_image_new (LM_FORMAT_GRAY16, 5, 2, 0);
  for (guint y = 0; y < 2; y++)
    for (guint x = 0; x < 5; x++)
      ((guint16 *) lm_image_row (flat, y))[x] = 12345;
  g_autoptr (LmImage) of = lm_test_run_op (&lm_equalize_op, &p, flat);
  g_assert_cmpuint (px16 (of, 4, 1, 0), ==, 12345);
}

/* On 8-bit values (v · 257) 16-bit equalize rounds 65535 · f, OpenCV's 8-bit one 255 · f:
 * the 16-bit result's 8-bit rounding equals the 8-bit result except where 255 · f is within
 * float rounding of a half. */
static void
test_equalize16_vs_8 (void)
{
  g_autoptr (LmImage) g8 = lm_test_random_gray (301, 199, 21);
  g_autoptr (LmImage) g16 = lm_test_image_new (LM_FORMAT_GRAY16, 301, 199, 0);
  for (guint y = 0; y < 199; y++)
    for (guint x = 0; x < 301; x++)
      ((guint16 *) lm_image_row (g16, y))[x] = lm_image_row (g8, y)[x] * 257;
  LmEqualizeParams p = { .mode = LM_EQUALIZE_LUMA, .amount = 1 };
  g_autoptr (LmImage) o8 = lm_test_run_op (&lm_equalize_op, &p, g8);
  g_autoptr (LmImage) o16 = lm_test_run_op (&lm_equalize_op, &p, g16);
  guint differ = 0, worst = 0;
  for (guint y = 0; y < 199; y++)
    for (guint x = 0; x < 301; x++)
      {
        guint v16 = px16 (o16, x, y, 0), v8 = lm_image_row (o8, y)[x];
        guint d = (guint) abs ((int) lm_u16_bin8 (v16) - (int) v8);
        differ += d != 0;
        worst = MAX (worst, d);
      }
  g_test_message ("equalize 16 against 8 on 8-bit values: %u of %u pixels differ, max %u", differ, 301 * 199,
                  worst);
  g_assert_cmpuint (worst, <=, 1);
  g_assert_cmpuint (differ, <=, 301 * 199 / 100);
}

/* Luma mode on RGBA16 moves each channel by lut[Y] − Y (16-bit luma), rgb mode each channel
 * through its own table: checked against the tables built here with lm_equalize_lut16. */
static void
test_equalize16_modes (void)
{
  g_autoptr (LmImage) src = random16 (LM_FORMAT_RGBA16, 64, 48, 3);
  guint64 total = 64 * 48;
  g_autofree guint32 *hist = g_new0 (guint32, 4 * LM_HIST16_BINS);
  for (guint y = 0; y < 48; y++)
    for (guint x = 0; x < 64; x++)
      {
        guint64 px = ((const guint64 *) lm_image_row (src, y))[x];
        for (int c = 0; c < 3; c++)
          hist[c * LM_HIST16_BINS + ((px >> (16 * c)) & 0xffff)]++;
        hist[3 * LM_HIST16_BINS + lm_luma_u16 (px)]++;
      }
  g_autofree guint16 *lut = g_new (guint16, 4 * LM_HIST16_BINS);
  for (int c = 0; c < 4; c++)
    lm_equalize_lut16 (hist + c * LM_HIST16_BINS, total, lut + c * LM_HIST16_BINS);
  LmEqualizeParams rgb = { .mode = LM_EQUALIZE_RGB, .amount = 1 }, luma = { .mode = LM_EQUALIZE_LUMA, .amount = 1 };
  g_autoptr (LmImage) orgb = lm_test_run_op (&lm_equalize_op, &rgb, src);
  g_autoptr (LmImage) oluma = lm_test_run_op (&lm_equalize_op, &luma, src);
  g_assert_cmpint (orgb->format, ==, LM_FORMAT_RGBA16);
  for (guint y = 0; y < 48; y++)
    for (guint x = 0; x < 64; x++)
      {
        guint64 px = ((const guint64 *) lm_image_row (src, y))[x];
        guint16 l = lm_luma_u16 (px);
        float shift = (float) ((int) lut[3 * LM_HIST16_BINS + l] - (int) l) / 257.0f;
        for (int c = 0; c < 3; c++)
          {
            guint16 v = px16 (src, x, y, c);
            g_assert_cmpuint (px16 (orgb, x, y, c), ==, lut[c * LM_HIST16_BINS + v]);
            g_assert_cmpuint (px16 (oluma, x, y, c), ==, expect_u16 ((float) v / 257.0f + shift));
          }
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* Index moves carry 16-bit pixels whole: each output pixel's (x, y) code, written in the
 * source's channels, against the same operation's 8-bit result on the same codes. */
static void
check_index_move (const LmOpInfo *op, const void *params, LmFormat f16, LmFormat f8)
{
  guint w = 37, h = 23;
  g_autoptr (LmImage) s16 = lm_test_image_new (f16, w, h, 0);
  g_autoptr (LmImage) s8 = lm_test_image_new (f8, w, h, 0);
  guint ch = lm_format_channels (f16);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint code = y * w + x;
        for (guint c = 0; c < ch; c++)
          {
            ((guint16 *) lm_image_row (s16, y))[x * ch + c] = (guint16) (code * 61 + c * 7919 + 12345);
            lm_image_row (s8, y)[x * ch + c] = (guint8) (ch == 1 ? code : c == 0 ? x : c == 1 ? y : 255);
          }
      }
  s16->opaque = s8->opaque = TRUE;
  if (ch == 1) /* codes up to 850 do not fit 8 bits: keep the image small enough */
    g_assert_cmpuint (w * h, >, 255);
  g_autoptr (LmImage) o16 = lm_test_run_op (op, params, s16);
  g_autoptr (LmImage) o8 = lm_test_run_op (op, params, s8);
  g_assert_cmpint (o16->format, ==, f16);
  g_assert_cmpuint (o16->width, ==, o8->width);
  g_assert_cmpuint (o16->height, ==, o8->height);
  if (ch == 1)
    return; /* gray: shape and poison only */
  for (guint y = 0; y < o8->height; y++)
    for (guint x = 0; x < o8->width; x++)
      {
        guint sx = lm_image_row (o8, y)[4 * x], sy = lm_image_row (o8, y)[4 * x + 1];
        for (guint c = 0; c < 4; c++)
          g_assert_cmpuint (px16 (o16, x, y, c), ==, px16 (s16, sx, sy, c));
        LM_TEST_RETURN_IF_FAILED ();
      }
}

static void
test_index_moves (void)
{
  static const char *const rotations[] = { "angle=90", "angle=180 flip=horizontal", "angle=270 flip=vertical",
                                           "angle=0 flip=vertical" };
  for (guint i = 0; i < G_N_ELEMENTS (rotations); i++)
    {
      guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
      lm_op_params_init (&lm_rotate_op, params);
      g_auto (GStrv) pairs = g_strsplit (rotations[i], " ", -1);
      for (int k = 0; pairs[k]; k++)
        {
          g_auto (GStrv) kv = g_strsplit (pairs[k], "=", 2);
          for (guint n = 0; n < lm_rotate_op.n_params; n++)
            if (g_str_equal (lm_rotate_op.params[n].name, kv[0]))
              g_assert_true (lm_op_param_parse (&lm_rotate_op, &lm_rotate_op.params[n], params, kv[1], NULL));
        }
      check_index_move (&lm_rotate_op, params, LM_FORMAT_RGBA16, LM_FORMAT_RGBA8);
      check_index_move (&lm_rotate_op, params, LM_FORMAT_GRAY16, LM_FORMAT_GRAY8);
    }
  guint8 crop[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  lm_op_params_init (&lm_crop_op, crop);
  for (guint n = 0; n < lm_crop_op.n_params; n++)
    {
      const char *name = lm_crop_op.params[n].name;
      const char *v = g_str_equal (name, "x") ? "5" : g_str_equal (name, "y") ? "3"
                      : g_str_equal (name, "width") ? "20" : g_str_equal (name, "height") ? "11" : NULL;
      if (v)
        g_assert_true (lm_op_param_parse (&lm_crop_op, &lm_crop_op.params[n], crop, v, NULL));
    }
  check_index_move (&lm_crop_op, crop, LM_FORMAT_RGBA16, LM_FORMAT_RGBA8);
  check_index_move (&lm_crop_op, crop, LM_FORMAT_GRAY16, LM_FORMAT_GRAY8);
}

/* The 256-bin histogram of a 16-bit image: each value in the bin of its 8-bit rounding. */
static void
test_histogram16 (void)
{
  g_autoptr (LmImage) src = random16 (LM_FORMAT_RGBA16, 50, 40, 17);
  LmHistogram hist, expect;
  lm_histogram_cpu (src, LM_HIST_WANT_ALL, &hist);
  memset (&expect, 0, sizeof expect);
  for (guint y = 0; y < 40; y++)
    for (guint x = 0; x < 50; x++)
      {
        float v[3];
        for (int c = 0; c < 3; c++)
          {
            v[c] = px16 (src, x, y, c) / 257.0f;
            expect.bins[c][(guint) floorf (v[c] + 0.5f)]++;
          }
        expect.bins[LM_HIST_LUMA][(guint) floorf ((0.299f * v[0] + 0.587f * v[1]) + 0.114f * v[2] + 0.5f)]++;
      }
  expect.total = 2000;
  g_assert_true (lm_histogram_equal (&hist, &expect));
}

/* Resampling on 8-bit values (v · 257) against the 8-bit result: the same float sums, so
 * within half an 8-bit step (129) of 257 × it; and on a 16-bit image the low bits reach the
 * output (an 8-bit path would give only multiples of 257 on 8-bit steps). */
static void
check_resampler (const LmOpInfo *op, const void *params)
{
  g_autoptr (LmImage) s8 = lm_test_random_rgba (83, 61, 41, FALSE);
  g_autoptr (LmImage) s16 = lm_test_image_new (LM_FORMAT_RGBA16, 83, 61, 0);
  for (guint y = 0; y < 61; y++)
    for (guint i = 0; i < 83 * 4; i++)
      ((guint16 *) lm_image_row (s16, y))[i] = lm_image_row (s8, y)[i] * 257;
  s16->opaque = TRUE;
  g_autoptr (LmImage) o8 = lm_test_run_op (op, params, s8);
  g_autoptr (LmImage) o16 = lm_test_run_op (op, params, s16);
  g_assert_cmpint (o16->format, ==, LM_FORMAT_RGBA16);
  g_assert_cmpuint (o16->width, ==, o8->width);
  LM_TEST_RETURN_IF_FAILED ();
  int worst = 0;
  for (guint y = 0; y < o8->height; y++)
    for (guint i = 0; i < o8->width * 4; i++)
      worst = MAX (worst, abs ((int) ((guint16 *) lm_image_row (o16, y))[i] - 257 * lm_image_row (o8, y)[i]));
  g_test_message ("%s: 16-bit of 8-bit values against 257 × 8-bit: max |Δ| %d", op->name, worst);
  g_assert_cmpint (worst, <=, 129);

  g_autoptr (LmImage) r16 = random16 (LM_FORMAT_GRAY16, 83, 61, 43);
  g_autoptr (LmImage) g16 = lm_test_run_op (op, params, r16);
  g_assert_cmpint (g16->format, ==, LM_FORMAT_GRAY16);
  guint off_step = 0;
  for (guint y = 0; y < g16->height; y++)
    for (guint x = 0; x < g16->width; x++)
      off_step += px16 (g16, x, y, 0) % 257 != 0;
  g_assert_cmpuint (off_step, >, g16->width * g16->height / 2);
}

static void
test_resamplers (void)
{
  LmStraightenParams st;
  lm_op_params_init (&lm_straighten_op, &st);
  st.angle = 7.5f;
  check_resampler (&lm_straighten_op, &st);
  LmResizeParams shrink, grow;
  lm_op_params_init (&lm_resize_op, &shrink);
  shrink.width = 30; /* area */
  check_resampler (&lm_resize_op, &shrink);
  lm_op_params_init (&lm_resize_op, &grow);
  grow.width = 120; /* Lanczos-3 */
  check_resampler (&lm_resize_op, &grow);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/ops16/quantize", test_quantize);
  g_test_add_func ("/ops16/point-known", test_point_known);
  g_test_add_func ("/ops16/point-pass-depths", test_point_pass_depths);
  g_test_add_func ("/ops16/gray", test_gray16);
  g_test_add_func ("/ops16/equalize-known", test_equalize16_known);
  g_test_add_func ("/ops16/equalize-vs-8", test_equalize16_vs_8);
  g_test_add_func ("/ops16/equalize-modes", test_equalize16_modes);
  g_test_add_func ("/ops16/index-moves", test_index_moves);
  g_test_add_func ("/ops16/histogram", test_histogram16);
  g_test_add_func ("/ops16/resamplers", test_resamplers);
  return g_test_run ();
}
