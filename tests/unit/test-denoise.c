/* Noise reduction (core/ops/denoise-math.h): the band gains against the transform of a
 * delta, the noise estimate on flat images of known σ, strength 0 as a byte copy, chroma
 * alone on pure colour noise, every format, poisoned outputs, tiles against one piece, and
 * parameters out of range refused. */
#include <math.h>
#include <string.h>

#include "core/ops/denoise.h"
#include "core/ops/ops.h"
#include "test-util.h"

#define SIDE 256

static LmDenoiseParams
params (float luma, float chroma, float noise)
{
  LmDenoiseParams p;
  lm_op_params_init (&lm_denoise_op, &p);
  p.luma = luma, p.chroma = chroma, p.noise = noise;
  return p;
}

/* A seeded standard normal (Box–Muller on GRand). */
static double
normal (GRand *rand)
{
  double u = g_rand_double_range (rand, 1e-12, 1.0), v = g_rand_double (rand);
  return sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

/* Sample C of pixel (X, Y) on the 0..255 scale, whatever the format. */
static double
sample (const LmImage *im, guint x, guint y, int c)
{
  const guint8 *p = lm_test_pixel (im, x, y);
  switch (im->format)
    {
    case LM_FORMAT_RGBA8: return p[c];
    case LM_FORMAT_GRAY8: return p[0];
    case LM_FORMAT_RGBA16: return ((const guint16 *) p)[c] / 257.0;
    case LM_FORMAT_GRAY16: return ((const guint16 *) p)[0] / 257.0;
    default: return 255.0 * lm_linear_to_srgb_d (((const float *) p)[c]);
    }
}

static void
put (LmImage *im, guint x, guint y, int c, double v)
{
  guint8 *p = lm_test_pixel (im, x, y);
  double clamped = CLAMP (v, 0.0, 255.0);
  switch (im->format)
    {
    case LM_FORMAT_RGBA8: p[c] = (guint8) (clamped + 0.5); break;
    case LM_FORMAT_GRAY8: p[0] = (guint8) (clamped + 0.5); break;
    case LM_FORMAT_RGBA16: ((guint16 *) p)[c] = (guint16) (clamped * 257.0 + 0.5); break;
    case LM_FORMAT_GRAY16: ((guint16 *) p)[0] = (guint16) (clamped * 257.0 + 0.5); break;
    default: ((float *) p)[c] = (float) lm_srgb_to_linear_d (v / 255.0); break;
    }
}

/* A flat gray of LEVEL with Gaussian noise of SIGMA on each channel, alpha opaque. */
static LmImage *
flat_noise (LmFormat format, guint side, double level, double sigma, guint32 seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  LmImage *im = lm_test_image_new (format, side, side, 0);
  int channels = (int) lm_format_channels (format);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        for (int c = 0; c < MIN (channels, 3); c++)
          put (im, x, y, c, level + sigma * normal (rand));
        if (channels == 4)
          put (im, x, y, 3, 255.0);
      }
  im->opaque = TRUE;
  return im;
}

/* A scene: soft gradients, a disc and a hard step, noise of SIGMA, and alpha that varies. */
static LmImage *
scene (LmFormat format, guint w, guint h, double sigma, guint32 seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  LmImage *im = lm_test_image_new (format, w, h, 0);
  int channels = (int) lm_format_channels (format);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        double dx = x - w / 3.0, dy = y - h / 2.0;
        double base[3] = { 40.0 + 150.0 * x / w, 90.0 + 100.0 * y / h, dx * dx + dy * dy < 900.0 ? 210.0 : 60.0 };
        if (x > 2 * w / 3)
          base[0] += 50.0;
        for (int c = 0; c < MIN (channels, 3); c++)
          put (im, x, y, c, base[c] + sigma * normal (rand));
        if (channels == 4)
          put (im, x, y, 3, format == LM_FORMAT_RGBA_F32 ? 255.0 : (double) ((x * 7 + y * 3) % 256));
      }
  im->opaque = FALSE;
  return im;
}

static LmImage *
run (const LmDenoiseParams *p, const LmImage *src, guint8 poison)
{
  g_autoptr (GError) error = NULL;
  LmImage *dst = lm_test_image_new (src->format, src->width, src->height, poison);
  gboolean ok = lm_denoise_op.run_cpu (p, src, dst, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  return dst;
}

/* Band j's white-noise gain is the ℓ² norm of its response to a delta; the coarse remainder
 * keeps the delta's sum (the B3 taps sum to 1). A delta in the middle of 256² reaches 62 pixels
 * each way: no border in reach. */
static void
test_band_gains (void)
{
  g_autofree float *delta = g_new0 (float, SIDE * SIDE), *band = g_new (float, SIDE * SIDE);
  delta[SIDE / 2 * SIDE + SIDE / 2] = 1.0f;
  for (int j = 0; j <= LM_DENOISE_LEVELS; j++)
    {
      lm_denoise_band (delta, SIDE, SIDE, j, band);
      double sum = 0.0, sq = 0.0;
      for (int i = 0; i < SIDE * SIDE; i++)
        sum += band[i], sq += (double) band[i] * band[i];
      if (j == LM_DENOISE_LEVELS)
        g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-5);
      else
        {
          g_assert_cmpfloat_with_epsilon (sum, 0.0, 1e-5);
          g_test_message ("band %d: gain %.5f, table %.4f", j, sqrt (sq), lm_denoise_band_gain (j));
          g_assert_cmpfloat_with_epsilon (sqrt (sq), lm_denoise_band_gain (j), 0.0006);
        }
    }
}

/* The opponent transform is orthonormal: Mᵀ·M = I. */
static void
test_transform_inverse (void)
{
  float y, u, v, r, g, b;
  lm_denoise_to_yuv (200.0f, 30.0f, 90.0f, &y, &u, &v);
  g_assert_cmpfloat_with_epsilon (y, 320.0 / sqrt (3.0), 1e-3);
  g_assert_cmpfloat_with_epsilon (u, 110.0 / sqrt (2.0), 1e-3);
  g_assert_cmpfloat_with_epsilon (v, 230.0 / sqrt (6.0), 1e-3);
  lm_denoise_to_rgb (y, u, v, &r, &g, &b);
  g_assert_cmpfloat_with_epsilon (r, 200.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (g, 30.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (b, 90.0, 1e-3);
}

/* Flat images with Gaussian noise of σ 4, 8 and 20 (16-bit, so rounding adds nothing that
 * counts; 8-bit at σ 8 adds 1/12 of a level² of rounding): the estimate within 5 %. */
static void
test_estimate_known_sigma (void)
{
  static const struct {
    LmFormat format;
    double sigma;
  } cases[] = { { LM_FORMAT_RGBA16, 4.0 }, { LM_FORMAT_RGBA16, 8.0 }, { LM_FORMAT_RGBA16, 20.0 },
                { LM_FORMAT_RGBA8, 8.0 },  { LM_FORMAT_GRAY16, 8.0 } };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (LmImage) im = flat_noise (cases[i].format, SIDE, 120.0, cases[i].sigma, 7 + i);
      g_autoptr (GError) error = NULL;
      double est = 0.0;
      g_assert_true (lm_denoise_estimate_cpu (im, &est, &error));
      g_assert_no_error (error);
      g_test_message ("σ %.1f: estimated %.3f", cases[i].sigma, est);
      g_assert_cmpfloat (fabs (est / cases[i].sigma - 1.0), <, 0.05);
    }
}

/* Clipped pixels do not count: a flat black (all clipped) gives 0, no division by zero. */
static void
test_estimate_clipped (void)
{
  g_autoptr (LmImage) im = flat_noise (LM_FORMAT_RGBA8, 64, 0.0, 0.0, 1);
  double est = -1.0;
  g_assert_true (lm_denoise_estimate_cpu (im, &est, NULL));
  g_assert_cmpfloat (est, ==, 0.0);
}

/* At the defaults, with σ estimated, the noise of a flat 16-bit image of σ 8 falls to under
 * 0.3σ. */
static void
test_flat_residual (void)
{
  g_autoptr (LmImage) im = flat_noise (LM_FORMAT_RGBA16, SIDE, 120.0, 8.0, 3);
  LmDenoiseParams p;
  lm_op_params_init (&lm_denoise_op, &p);
  g_autoptr (LmImage) out = run (&p, im, 0x5a);
  double sq = 0.0;
  for (guint y = 0; y < SIDE; y++)
    for (guint x = 0; x < SIDE; x++)
      for (int c = 0; c < 3; c++)
        sq += pow (sample (out, x, y, c) - 120.0, 2);
  double rms = sqrt (sq / (3.0 * SIDE * SIDE));
  g_test_message ("residual rms %.3f", rms);
  g_assert_cmpfloat (rms, <, 0.3 * 8.0);
}

/* luma = chroma = 0 is a byte copy in every format; so is chroma alone on gray. */
static void
test_zero_strength_copies (void)
{
  const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_RGBA_F32, LM_FORMAT_GRAY8,
                               LM_FORMAT_GRAY16 };
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr (LmImage) im = scene (formats[i], 61, 37, 10.0, 5);
      LmDenoiseParams p = params (0.0f, 0.0f, 12.0f);
      g_autoptr (LmImage) out = run (&p, im, 0xc3);
      lm_test_assert_same_pixels (im, out);
      if (lm_format_channels (formats[i]) == 1)
        {
          LmDenoiseParams c = params (0.0f, 2.0f, 12.0f);
          g_autoptr (LmImage) out2 = run (&c, im, 0x3c);
          lm_test_assert_same_pixels (im, out2);
        }
    }
}

/* Pure colour noise on a flat 16-bit gray (noise only along U and V): chroma alone (luma 0)
 * leaves each pixel's R + G + B as it was, within the output's rounding (3 × ½ of a 16-bit
 * step), and cuts the chroma variance at least fourfold. */
static void
test_chroma_only (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  g_autoptr (LmImage) im = lm_test_image_new (LM_FORMAT_RGBA16, 128, 128, 0);
  for (guint y = 0; y < 128; y++)
    for (guint x = 0; x < 128; x++)
      {
        double u = 10.0 * normal (rand), v = 10.0 * normal (rand);
        put (im, x, y, 0, 128.0 + u / sqrt (2.0) + v / sqrt (6.0));
        put (im, x, y, 1, 128.0 - 2.0 * v / sqrt (6.0));
        put (im, x, y, 2, 128.0 - u / sqrt (2.0) + v / sqrt (6.0));
        put (im, x, y, 3, 255.0);
      }
  LmDenoiseParams p = params (0.0f, 1.5f, 10.0f);
  g_autoptr (LmImage) out = run (&p, im, 0x77);
  double var_in = 0.0, var_out = 0.0, worst = 0.0;
  for (guint y = 0; y < 128; y++)
    for (guint x = 0; x < 128; x++)
      {
        double a[3], b[3];
        for (int c = 0; c < 3; c++)
          a[c] = sample (im, x, y, c), b[c] = sample (out, x, y, c);
        worst = MAX (worst, fabs ((a[0] + a[1] + a[2]) - (b[0] + b[1] + b[2])));
        var_in += pow ((a[0] - a[2]) / sqrt (2.0), 2) + pow ((a[0] + a[2] - 2 * a[1]) / sqrt (6.0), 2);
        var_out += pow ((b[0] - b[2]) / sqrt (2.0), 2) + pow ((b[0] + b[2] - 2 * b[1]) / sqrt (6.0), 2);
      }
  g_test_message ("R+G+B moved by %.5f at most; chroma variance %.2f → %.2f", worst, var_in / (128 * 128),
                  var_out / (128 * 128));
  g_assert_cmpfloat (worst, <=, 1.5 / 257.0 + 1e-4);
  g_assert_cmpfloat (var_out * 4.0, <, var_in);
}

/* Every format: every output sample written (two poisons give the same bytes), alpha as it
 * was, the noise reduced, and 8-bit, 16-bit and scene light agreeing on the same picture
 * (16-bit within ½ level of 8-bit's rounding, scene light within 0.05 level of 16-bit's). */
static void
test_formats (void)
{
  const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_RGBA_F32, LM_FORMAT_GRAY8,
                               LM_FORMAT_GRAY16 };
  LmImage *outs[G_N_ELEMENTS (formats)] = { NULL };
  g_autoptr (LmImage) clean = scene (LM_FORMAT_RGBA16, 97, 83, 0.0, 9);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      /* the same 8-bit picture in each format */
      g_autoptr (LmImage) eight = scene (lm_format_channels (formats[i]) == 1 ? LM_FORMAT_GRAY8 : LM_FORMAT_RGBA8,
                                         97, 83, 12.0, 9);
      g_autoptr (LmImage) im = lm_test_image_new (formats[i], 97, 83, 0);
      int channels = (int) lm_format_channels (formats[i]);
      for (guint y = 0; y < 83; y++)
        for (guint x = 0; x < 97; x++)
          for (int c = 0; c < channels; c++)
            put (im, x, y, c, sample (eight, x, y, c));
      LmDenoiseParams p = params (1.2f, 1.5f, 12.0f);
      outs[i] = run (&p, im, 0x00);
      if (formats[i] == LM_FORMAT_RGBA_F32)
        {
          /* NaN poison, then another: the same bytes */
          g_autoptr (LmImage) nan_dst = lm_test_image_new (formats[i], 97, 83, 0xff);
          g_assert_true (lm_denoise_op.run_cpu (&p, im, nan_dst, NULL));
          lm_test_assert_same_pixels (outs[i], nan_dst);
        }
      else
        {
          g_autoptr (LmImage) again = run (&p, im, 0xa5);
          lm_test_assert_same_pixels (outs[i], again);
        }
      double err_in = 0.0, err_out = 0.0;
      for (guint y = 0; y < 83; y++)
        for (guint x = 0; x < 97; x++)
          {
            for (int c = 0; c < MIN (channels, 3); c++)
              {
                double want = sample (clean, x, y, channels == 1 ? 0 : c);
                err_in += pow (sample (im, x, y, c) - want, 2);
                err_out += pow (sample (outs[i], x, y, c) - want, 2);
              }
            if (channels == 4)
              g_assert_cmpfloat (sample (outs[i], x, y, 3), ==, sample (im, x, y, 3));
          }
      g_test_message ("format %d: squared error %.0f → %.0f", formats[i], err_in, err_out);
      g_assert_cmpfloat (err_out * 4.0, <, err_in);
    }
  for (guint y = 0; y < 83; y++)
    for (guint x = 0; x < 97; x++)
      for (int c = 0; c < 3; c++)
        {
          double v8 = sample (outs[0], x, y, c), v16 = sample (outs[1], x, y, c), vf = sample (outs[2], x, y, c);
          g_assert_cmpfloat (fabs (v16 - v8), <=, 0.5 + 1e-3);
          g_assert_cmpfloat (fabs (vf - v16), <=, 0.05);
        }
  for (guint y = 0; y < 83; y++)
    for (guint x = 0; x < 97; x++)
      g_assert_cmpfloat (fabs (sample (outs[4], x, y, 0) - sample (outs[3], x, y, 0)), <=, 0.5 + 1e-3);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    lm_image_unref (outs[i]);
}

/* Images smaller than the taps' reach (1×1, a row, a column, 3×2): reflected again and again,
 * every sample written (two poisons, the same bytes), σ estimated or given. */
static void
test_tiny_sizes (void)
{
  const guint sizes[][2] = { { 1, 1 }, { 7, 1 }, { 1, 9 }, { 3, 2 }, { 2, 70 } };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (int est = 0; est < 2; est++)
      {
        g_autoptr (LmImage) im = scene (LM_FORMAT_RGBA8, sizes[i][0], sizes[i][1], 20.0, 40 + i);
        LmDenoiseParams p = params (1.2f, 1.5f, est ? 0.0f : 15.0f);
        g_autoptr (LmImage) a = run (&p, im, 0x00);
        g_autoptr (LmImage) b = run (&p, im, 0xff);
        lm_test_assert_same_pixels (a, b);
      }
}

/* A piece of the input: RECT of SRC as an image of its own. */
static LmImage *
cut (const LmImage *src, const LmRect *rect)
{
  LmImage *part = lm_test_image_new (src->format, rect->width, rect->height, 0);
  gsize bpp = lm_format_bytes_per_pixel (src->format);
  for (guint y = 0; y < rect->height; y++)
    memcpy (lm_image_row (part, y), lm_image_row (src, rect->y + y) + rect->x * bpp, rect->width * bpp);
  part->opaque = src->opaque;
  return part;
}

/* Tiles: an output rectangle computed from source_rect's piece of the input with the whole
 * input's σ equals the same rectangle of the whole render, byte for byte, at the corners and
 * inside; and the estimate's counts made by pieces (each with its halo) add up to the whole
 * one's. */
static void
test_tiles (void)
{
  const guint w = 300, h = 220;
  g_autoptr (LmImage) im = scene (LM_FORMAT_RGBA16, w, h, 9.0, 21);
  LmDenoiseParams p = params (1.4f, 2.0f, 0.0f);
  p.luma_detail = 0.1f;
  g_autoptr (LmImage) whole = run (&p, im, 0);
  double sigma = 0.0;
  g_assert_true (lm_denoise_estimate_cpu (im, &sigma, NULL));
  g_assert_cmpfloat (sigma, >, 5.0);

  const LmRect outs[] = { { 0, 0, 70, 50 }, { 120, 90, 40, 30 }, { 230, 170, 70, 50 }, { 0, 100, 300, 20 } };
  for (guint i = 0; i < G_N_ELEMENTS (outs); i++)
    {
      LmRect in;
      lm_denoise_op.source_rect (&p, w, h, &outs[i], &in);
      g_autoptr (LmImage) piece = cut (im, &in);
      LmDenoiseParams tp = p;
      tp.sigma_est = (float) sigma, tp.sigma_known = 1;
      g_autoptr (LmImage) got = run (&tp, piece, 0x99);
      LmRect inside = { outs[i].x - in.x, outs[i].y - in.y, outs[i].width, outs[i].height };
      g_autoptr (LmImage) a = cut (got, &inside);
      g_autoptr (LmImage) b = cut (whole, &outs[i]);
      lm_test_assert_same_pixels (a, b);
    }

  g_autofree guint32 *all = g_new0 (guint32, LM_DENOISE_HIST_SIZE);
  g_autofree guint32 *sum = g_new0 (guint32, LM_DENOISE_HIST_SIZE);
  LmRect everything = { 0, 0, w, h };
  g_assert_true (lm_denoise_histogram_cpu (im, &everything, all, NULL));
  for (guint ty = 0; ty < h; ty += 64)
    for (guint tx = 0; tx < w; tx += 100)
      {
        LmRect own = { tx, ty, MIN (100u, w - tx), MIN (64u, h - ty) };
        guint x0 = tx > LM_DENOISE_EST_HALO ? tx - LM_DENOISE_EST_HALO : 0;
        guint y0 = ty > LM_DENOISE_EST_HALO ? ty - LM_DENOISE_EST_HALO : 0;
        LmRect in = { x0, y0, MIN (w, own.x + own.width + LM_DENOISE_EST_HALO) - x0,
                      MIN (h, own.y + own.height + LM_DENOISE_EST_HALO) - y0 };
        g_autoptr (LmImage) piece = cut (im, &in);
        LmRect rel = { own.x - x0, own.y - y0, own.width, own.height };
        g_assert_true (lm_denoise_histogram_cpu (piece, &rel, sum, NULL));
      }
  g_assert_cmpmem (all, LM_DENOISE_HIST_SIZE * sizeof (guint32), sum, LM_DENOISE_HIST_SIZE * sizeof (guint32));
  g_assert_cmpfloat (lm_denoise_sigma_from_histogram (sum), ==, sigma);
}

/* A step of 100 levels keeps its height within 2 levels at σ 6. */
static void
test_edge_kept (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (4);
  g_autoptr (LmImage) im = lm_test_image_new (LM_FORMAT_RGBA16, 128, 64, 0);
  for (guint y = 0; y < 64; y++)
    for (guint x = 0; x < 128; x++)
      {
        for (int c = 0; c < 3; c++)
          put (im, x, y, c, (x < 64 ? 70.0 : 170.0) + 6.0 * normal (rand));
        put (im, x, y, 3, 255.0);
      }
  LmDenoiseParams p = params (1.2f, 1.5f, 6.0f);
  g_autoptr (LmImage) out = run (&p, im, 0);
  double left = 0.0, right = 0.0;
  for (guint y = 0; y < 64; y++)
    for (int c = 0; c < 3; c++)
      left += sample (out, 62, y, c), right += sample (out, 65, y, c);
  double step = (right - left) / (64.0 * 3.0);
  g_test_message ("step height %.2f", step);
  g_assert_cmpfloat (fabs (step - 100.0), <=, 2.0);
}

static void
test_bad_params (void)
{
  LmDenoiseParams p;
  lm_op_params_init (&lm_denoise_op, &p);
  const char *bad[][2] = { { "luma", "-0.1" }, { "chroma", "3.5" }, { "noise", "65" }, { "luma_detail", "1.5" },
                           { "noise", "nan" } };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const LmParamSpec *spec = NULL;
      for (guint k = 0; k < lm_denoise_op.n_params; k++)
        if (g_str_equal (lm_denoise_op.params[k].name, bad[i][0]))
          spec = &lm_denoise_op.params[k];
      g_assert_nonnull (spec);
      g_autoptr (GError) error = NULL;
      g_assert_false (lm_op_param_parse (&lm_denoise_op, spec, &p, bad[i][1], &error));
      g_assert_nonnull (error);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/denoise/band-gains", test_band_gains);
  g_test_add_func ("/denoise/transform-inverse", test_transform_inverse);
  g_test_add_func ("/denoise/estimate-known-sigma", test_estimate_known_sigma);
  g_test_add_func ("/denoise/estimate-clipped", test_estimate_clipped);
  g_test_add_func ("/denoise/flat-residual", test_flat_residual);
  g_test_add_func ("/denoise/zero-strength-copies", test_zero_strength_copies);
  g_test_add_func ("/denoise/chroma-only", test_chroma_only);
  g_test_add_func ("/denoise/formats", test_formats);
  g_test_add_func ("/denoise/tiny-sizes", test_tiny_sizes);
  g_test_add_func ("/denoise/tiles", test_tiles);
  g_test_add_func ("/denoise/edge-kept", test_edge_kept);
  g_test_add_func ("/denoise/bad-params", test_bad_params);
  return g_test_run ();
}
