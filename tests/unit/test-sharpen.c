/* Sharpen, CPU reference (core/ops/sharpen-math.h): flat images and amount 0 come back as
 * they are, a threshold above every detail leaves the image alone, the halo on a hard edge is
 * the bound of sharpen-math.h, colour steps are sharpened by their luminance with the photo's
 * weights, random images at 8 and 16 bits with alpha lie within one step of a definition in
 * double written out here, the tiled render equals the whole, and what it cannot take is
 * refused in one message.
 *
 * Operations run through their registration on poisoned outputs (lm_test_run_op), so an
 * unwritten sample fails. The NumPy/SciPy oracle on photos through lumen-cli is
 * tests/oracle/test_sharpen.py; CPU against CUDA, tests/gpu/test-parity.c. */
#include <math.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/edit/pipeline.h"
#include "core/error.h"
#include "core/ops/ops.h"
#include "core/ops/sharpen-math.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "test-util.h"

static LmSharpenParams
params (float amount, float radius, float threshold)
{
  LmSharpenParams p;
  lm_op_params_init (&lm_sharpen_op, &p);
  p.amount = amount, p.radius = radius, p.threshold = threshold;
  return p;
}

/* Sample I (channel c of pixel x, or the gray value) of IMAGE on the 0..255 scale. */
static double
sample (const LmImage *image, guint x, guint y, guint c)
{
  guint ch = lm_format_channels (image->format);
  if (lm_format_depth (image->format) == 16)
    return ((const guint16 *) lm_image_row (image, y))[x * ch + c] / 257.0;
  return lm_image_row (image, y)[x * ch + c];
}

static void
set_sample (LmImage *image, guint x, guint y, guint c, double v)
{
  guint ch = lm_format_channels (image->format);
  if (lm_format_depth (image->format) == 16)
    ((guint16 *) lm_image_row (image, y))[x * ch + c] = (guint16) lrint (v * 257.0);
  else
    lm_image_row (image, y)[x * ch + c] = (guint8) lrint (v);
}

static int
reflect (int i, int n)
{
  if (n == 1)
    return 0;
  while (i < 0 || i >= n)
    i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

/* The Gaussian's taps for σ, as OpenCV sizes them for 8-bit images: round(6σ + 1) | 1. */
static int
taps (double sigma, double *w)
{
  int radius = ((int) nearbyint (sigma * 6.0 + 1.0) | 1) / 2;
  double sum = 0.0;
  for (int i = 0; i <= radius; i++)
    {
      w[i] = exp (-(double) i * i / (2.0 * sigma * sigma));
      sum += i == 0 ? w[i] : 2.0 * w[i];
    }
  for (int i = 0; i <= radius; i++)
    w[i] /= sum;
  return radius;
}

/* The unsharp mask of SRC in double, unrounded: W × H × channels values on the 0..255 scale. */
static double *
reference (const LmImage *src, double amount, double sigma, double threshold, const double luma[3])
{
  double w[64];
  int radius = taps (sigma, w);
  int width = (int) src->width, height = (int) src->height, ch = (int) lm_format_channels (src->format);
  double *y = g_new (double, (gsize) width * height), *b = g_new0 (double, (gsize) width * height);
  double *out = g_new (double, (gsize) width * height * ch);
  for (int j = 0; j < height; j++)
    for (int i = 0; i < width; i++)
      y[j * width + i] = ch == 1 ? sample (src, i, j, 0)
                                 : luma[0] * sample (src, i, j, 0) + luma[1] * sample (src, i, j, 1)
                                     + luma[2] * sample (src, i, j, 2);
  for (int j = 0; j < height; j++)
    for (int i = 0; i < width; i++)
      for (int dy = -radius; dy <= radius; dy++)
        for (int dx = -radius; dx <= radius; dx++)
          b[j * width + i] += w[ABS (dx)] * w[ABS (dy)] * y[reflect (j + dy, height) * width + reflect (i + dx, width)];
  for (int j = 0; j < height; j++)
    for (int i = 0; i < width; i++)
      {
        double d = y[j * width + i] - b[j * width + i];
        d = d > 0 ? MAX (d - threshold, 0.0) : MIN (d + threshold, 0.0);
        for (int c = 0; c < ch; c++)
          out[((gsize) j * width + i) * ch + c] = c == 3 ? sample (src, i, j, 3)
                                                          : sample (src, i, j, c) + amount * d;
      }
  g_free (y);
  g_free (b);
  return out;
}

static const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_GRAY8, LM_FORMAT_GRAY16 };

/* A W × H image of FORMAT with every colour sample V and alpha 255. */
static LmImage *
flat (LmFormat format, guint w, guint h, double v)
{
  LmImage *image = lm_test_image_new (format, w, h, 0x3c);
  guint ch = lm_format_channels (format);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      for (guint c = 0; c < ch; c++)
        set_sample (image, x, y, c, c == 3 ? 255.0 : v);
  image->opaque = TRUE;
  return image;
}

static void
test_identities (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (LmImage) same = flat (formats[f], 23, 17, 77.0);
      LmSharpenParams p = params (5.0f, 3.0f, 0.0f);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_sharpen_op, &p, same);
      lm_test_assert_same_pixels (same, out);

      g_autoptr (LmImage) random = lm_test_random_rgba (31, 19, 7, TRUE);
      g_autoptr (LmImage) src = lm_image_new (formats[f], 31, 19, lm_allocator_host (), NULL);
      for (guint y = 0; y < 19; y++)
        for (guint x = 0; x < 31; x++)
          for (guint c = 0; c < lm_format_channels (formats[f]); c++)
            set_sample (src, x, y, c, lm_test_pixel (random, x, y)[c]);
      p = params (0.0f, 2.0f, 0.0f);
      g_autoptr (LmImage) copy = lm_test_run_op (&lm_sharpen_op, &p, src);
      lm_test_assert_same_pixels (src, copy);
      /* a detail of 20 levels, all below a threshold of 32 */
      g_autoptr (LmImage) small = flat (formats[f], 31, 19, 100.0);
      for (guint c = 0; c < MIN (3u, lm_format_channels (formats[f])); c++)
        set_sample (small, 9, 7, c, 120.0);
      p = params (5.0f, 2.0f, 32.0f);
      g_autoptr (LmImage) below = lm_test_run_op (&lm_sharpen_op, &p, small);
      lm_test_assert_same_pixels (small, below);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* A vertical step from LOW to HIGH between columns 15 and 16 of a 32 × 9 gray-coloured image:
 * the overshoot at column 16 and the undershoot at column 15 are the bound of sharpen-math.h
 * within one step (of the format: the bound holds on the 0..255 scale), no pixel overshoots
 * more, and pixels farther than the kernel's radius from the edge are unchanged. */
static void
check_halo (LmFormat format, float amount, float sigma, float threshold, double low, double high)
{
  guint w = 32, h = 9, edge = 16;
  g_autoptr (LmImage) src = flat (format, w, h, low);
  for (guint y = 0; y < h; y++)
    for (guint x = edge; x < w; x++)
      for (guint c = 0; c < MIN (3u, lm_format_channels (format)); c++)
        set_sample (src, x, y, c, high);
  LmSharpenParams p = params (amount, sigma, threshold);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_sharpen_op, &p, src);

  double w0[64];
  int radius = taps (sigma, w0);
  double bound = amount * MAX (0.0, fabs (high - low) * (1.0 - w0[0]) / 2.0 - threshold);
  double step = lm_format_depth (format) == 16 ? 1.0 / 257.0 : 1.0;
  g_test_message ("%s: step %g → %g, amount %g, σ %g, threshold %g: bound %.3f, at the edge %.3f and %.3f",
                  lm_format_name (format), low, high, amount, sigma, threshold, bound,
                  sample (out, edge - 1, 4, 0) - low, sample (out, edge, 4, 0) - high);
  double top = MAX (low, high), bottom = MIN (low, high);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      for (guint c = 0; c < MIN (3u, lm_format_channels (format)); c++)
        {
          double v = sample (out, x, y, c), in = x < edge ? low : high;
          /* away from the edge on the bright side, towards it on the dark one */
          double push = in == top ? bound : -bound;
          if (x == edge || x == edge - 1)
            g_assert_cmpfloat (fabs (v - (in + push)), <=, step);
          g_assert_cmpfloat (v - top, <=, bound + step);
          g_assert_cmpfloat (bottom - v, <=, bound + step);
          if (x + radius < edge || x >= edge + radius)
            g_assert_cmpfloat (v, ==, in);
          LM_TEST_RETURN_IF_FAILED ();
        }
}

/* The worst case of any neighbourhood within LOW..HIGH: one HIGH pixel on a LOW ground, whose
 * Gaussian holds it with the weight w₀² alone, overshoots by amount·max(0, h·(1 − w₀²) − T);
 * no other pixel leaves LOW..HIGH by more. */
static void
check_dot (LmFormat format, float amount, float sigma, float threshold, double low, double high)
{
  g_autoptr (LmImage) src = flat (format, 25, 25, low);
  for (guint c = 0; c < MIN (3u, lm_format_channels (format)); c++)
    set_sample (src, 12, 12, c, high);
  LmSharpenParams p = params (amount, sigma, threshold);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_sharpen_op, &p, src);
  double w0[64];
  taps (sigma, w0);
  double bound = amount * MAX (0.0, (high - low) * (1.0 - w0[0] * w0[0]) - threshold);
  double step = lm_format_depth (format) == 16 ? 1.0 / 257.0 : 1.0;
  g_test_message ("%s: dot %g on %g, amount %g, σ %g, threshold %g: bound %.3f, overshoot %.3f",
                  lm_format_name (format), high, low, amount, sigma, threshold, bound, sample (out, 12, 12, 0) - high);
  g_assert_cmpfloat (fabs (sample (out, 12, 12, 0) - MIN (high + bound, 255.0)), <=, step);
  for (guint y = 0; y < 25; y++)
    for (guint x = 0; x < 25; x++)
      {
        g_assert_cmpfloat (sample (out, x, y, 0) - high, <=, bound + step);
        g_assert_cmpfloat (low - sample (out, x, y, 0), <=, bound + step);
      }
}

static void
test_halo (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      check_halo (formats[f], 1.0f, 1.0f, 2.0f, 60.0, 180.0);
      check_halo (formats[f], 2.5f, 2.5f, 0.0f, 90.0, 140.0);
      check_halo (formats[f], 0.7f, 0.6f, 5.5f, 200.0, 120.0);
      check_dot (formats[f], 1.0f, 1.0f, 2.0f, 60.0, 140.0);
      check_dot (formats[f], 0.5f, 0.5f, 0.0f, 30.0, 200.0);
    }
}

/* A step of red alone: its luminance step is l_R·h, with the weights the commit gives (Rec.
 * 2020's here; BT.709's without), and all three channels move by the same amount·D'. */
static void
test_luma_weights (void)
{
  const double rec2020[3] = { 0.2627, 0.6780, 0.0593 }, bt709[3] = { 0.2126, 0.7152, 0.0722 };
  for (int committed = 0; committed < 2; committed++)
    {
      g_autoptr (LmImage) src = flat (LM_FORMAT_RGBA16, 24, 5, 50.0);
      for (guint y = 0; y < 5; y++)
        for (guint x = 12; x < 24; x++)
          set_sample (src, x, y, 0, 250.0);
      LmSharpenParams p = params (1.5f, 1.2f, 1.0f);
      if (committed)
        {
          LmOpContext context = { { .space = &context, .luminance = { rec2020[0], rec2020[1], rec2020[2] } } };
          lm_sharpen_op.commit (&p, &context);
        }
      g_autoptr (LmImage) out = lm_test_run_op (&lm_sharpen_op, &p, src);
      g_autofree double *want = reference (src, 1.5, 1.2, 1.0, committed ? rec2020 : bt709);
      for (guint x = 8; x < 16; x++)
        for (guint c = 0; c < 3; c++)
          g_assert_cmpfloat (fabs (sample (out, x, 2, c) - CLAMP (want[(2 * 24 + x) * 4 + c], 0, 255)), <=, 1.0 / 257);
      /* green and blue moved together, by red's luminance step */
      g_assert_cmpfloat (sample (out, 12, 2, 1) - 50.0, >, 10.0);
      g_assert_cmpfloat (fabs (sample (out, 12, 2, 1) - sample (out, 12, 2, 2)), <=, 1.0 / 257);
    }
}

/* Random pixels with alpha, at each format and a few settings: within one step of the double
 * definition (the rounding's half plus float's error), alpha as it was. */
static void
test_reference (void)
{
  static const float sets[][3] = { { 0.5f, 1.0f, 1.0f }, { 5.0f, 0.3f, 0.0f }, { 2.0f, 3.7f, 4.0f }, { 1.0f, 10.0f, 32.0f } };
  const double bt709[3] = { 0.2126, 0.7152, 0.0722 };
  g_autoptr (LmImage) random = lm_test_random_rgba (45, 33, 11, TRUE);
  GRand *rand = g_rand_new_with_seed (3);
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      LmFormat format = formats[f];
      guint ch = lm_format_channels (format);
      gboolean deep = lm_format_depth (format) == 16;
      g_autoptr (LmImage) src = lm_test_image_new (format, 45, 33, 0x5a);
      for (guint y = 0; y < src->height; y++)
        for (guint x = 0; x < src->width; x++)
          for (guint c = 0; c < ch; c++)
            {
              /* smooth shapes and noise, so that details fall on both sides of the threshold */
              double v = 128 + 90 * sin (x / 5.0 + c) * cos (y / 7.0) + (lm_test_pixel (random, x, y)[c] - 128) / 8.0;
              if (deep)
                ((guint16 *) lm_image_row (src, y))[x * ch + c] = (guint16) g_rand_int_range (rand, 0, 65536) % 257
                                                                  + 257 * (guint) CLAMP (v, 0, 254);
              else
                lm_image_row (src, y)[x * ch + c] = (guint8) CLAMP (v, 0, 255);
            }
      src->opaque = FALSE;
      for (guint s = 0; s < G_N_ELEMENTS (sets); s++)
        {
          LmSharpenParams p = params (sets[s][0], sets[s][1], sets[s][2]);
          g_autoptr (LmImage) out = lm_test_run_op (&lm_sharpen_op, &p, src);
          g_autofree double *want = reference (src, sets[s][0], sets[s][1], sets[s][2], bt709);
          double worst = 0.0, scale = deep ? 257.0 : 1.0;
          for (guint y = 0; y < src->height; y++)
            for (guint x = 0; x < src->width; x++)
              for (guint c = 0; c < ch; c++)
                {
                  double exact = CLAMP (want[((gsize) y * src->width + x) * ch + c], 0.0, 255.0) * scale;
                  double got = sample (out, x, y, c) * scale;
                  worst = MAX (worst, fabs (got - exact));
                  if (c == 3)
                    g_assert_cmpfloat (got, ==, sample (src, x, y, c) * scale);
                }
          g_test_message ("%s amount %g σ %g threshold %g: max |Δ| %.3f steps from the double definition",
                          lm_format_name (format), sets[s][0], sets[s][1], sets[s][2], worst);
          g_assert_cmpfloat (worst, <=, 1.0);
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
  g_rand_free (rand);
}

/* The tiled render (core/render/tiled.c, from sharpen's source_rect) against the untiled one,
 * byte for byte: a photo at 8 and 16 bits, odd tiles, one-pixel rows and columns. */
static void
check_tiled (LmBackend *cpu, const LmImage *source, const LmPipeline *pipeline, guint tw, guint th)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, (LmImage *) source);
  g_autoptr (LmImage) whole = lm_render_cache_run (cache, pipeline, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (LmImage) out = lm_test_image_new (whole->format, whole->width, whole->height, 0xa5);
  LmTileOptions options = { tw, th, 1 };
  LmTimings timings;
  lm_timings_init (&timings);
  g_assert_true (lm_render_tiled (cpu, source, pipeline, NULL, NULL, out, &options, &timings, &error));
  g_assert_no_error (error);
  lm_timings_clear (&timings);
  lm_test_assert_same_pixels (whole, out);
}

static void
test_tiled (void)
{
  g_autoptr (LmImage) full = lm_test_load_photo ("coffee-alpha.png");
  g_autoptr (LmImage) photo = lm_test_crop (full, 150, 120, 97, 61);
  g_autoptr (LmImage) photo16 = lm_test_deepen (photo);
  LmBackend *cpu = lm_backend_cpu_new ();

  static const char *radii[] = { "0.6", "4", "10" };
  for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
    {
      LmPipeline pipeline;
      lm_pipeline_init (&pipeline);
      LmStage *stage = lm_pipeline_stage (&pipeline, LM_OP_SHARPEN);
      stage->enabled = TRUE;
      g_assert_true (lm_op_param_parse (&lm_sharpen_op, &lm_sharpen_op.params[1], stage->params.bytes, radii[r], NULL));
      g_assert_true (lm_op_param_parse (&lm_sharpen_op, &lm_sharpen_op.params[0], stage->params.bytes, "3", NULL));
      check_tiled (cpu, photo, &pipeline, 37, 53);
      check_tiled (cpu, photo16, &pipeline, 37, 53);
      check_tiled (cpu, photo, &pipeline, 1, 61);
      check_tiled (cpu, photo16, &pipeline, 97, 1);
      LM_TEST_RETURN_IF_FAILED ();
    }
  lm_backend_free (cpu);
}

/* Parameters out of range and images it does not take: refused, each in one line. */
static void
test_refused (void)
{
  LmSharpenParams p = params (1.0f, 1.0f, 1.0f);
  const char *bad[][2] = { { "amount", "-0.1" }, { "amount", "nan" }, { "radius", "0.2" }, { "radius", "11" },
                           { "threshold", "33" }, { "threshold", "x" } };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    for (guint k = 0; k < lm_sharpen_op.n_params; k++)
      if (g_str_equal (lm_sharpen_op.params[k].name, bad[i][0]))
        {
          g_autoptr (GError) error = NULL;
          g_assert_false (lm_op_param_parse (&lm_sharpen_op, &lm_sharpen_op.params[k], &p, bad[i][1], &error));
          g_assert_nonnull (error);
          g_assert_null (strchr (error->message, '\n'));
        }
  g_autoptr (LmImage) radiance = lm_test_image_new (LM_FORMAT_RGBA_F32, 4, 4, 0);
  g_autoptr (LmImage) dst = lm_test_image_new (LM_FORMAT_RGBA_F32, 4, 4, 0);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_sharpen_op.run_cpu (&p, radiance, dst, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/sharpen/identities", test_identities);
  g_test_add_func ("/sharpen/halo", test_halo);
  g_test_add_func ("/sharpen/luma-weights", test_luma_weights);
  g_test_add_func ("/sharpen/reference", test_reference);
  g_test_add_func ("/sharpen/tiled", test_tiled);
  g_test_add_func ("/sharpen/refused", test_refused);
  return g_test_run ();
}
