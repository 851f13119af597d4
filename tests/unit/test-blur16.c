/* Blur on 16-bit sources (RGBA16, GRAY16), CPU reference: the depth kept, a double-precision
 * Gaussian written out here as the known answer, and 8-bit photos widened to 16 bits (v · 257)
 * against the 8-bit blur. Outputs are poisoned twice (lm_test_run_op), so a sample the blur
 * does not write fails. The bound against the double reference is 1 u16: the rounding
 * (½) plus float's error, ≲ 60 taps × 255 × 2⁻²⁴ ≈ 10⁻³ on the 0..255 scale, a quarter of
 * a u16 step at most. The OpenCV oracle on photos is tests/oracle/test_oracle16.py; CPU
 * against CUDA, tests/gpu/test-parity.c. */
#include <math.h>
#include <string.h>

#include "core/ops/blur-math.h"
#include "core/ops/ops.h"
#include "test-util.h"

/* Reproducible 16-bit pixels, every bit varying; alpha varies too unless OPAQUE. */
static LmImage *
random16 (LmFormat format, guint w, guint h, guint32 seed, gboolean opaque)
{
  LmImage *image = lm_test_image_new (format, w, h, 0x77);
  GRand *rand = g_rand_new_with_seed (seed);
  guint ch = lm_format_channels (format);
  for (guint y = 0; y < h; y++)
    {
      guint16 *row = (guint16 *) lm_image_row (image, y);
      for (guint i = 0; i < w * ch; i++)
        row[i] = opaque && ch == 4 && i % 4 == 3 ? 65535 : (guint16) g_rand_int_range (rand, 0, 65536);
    }
  image->opaque = opaque || ch == 1;
  g_rand_free (rand);
  return image;
}

static guint16
px16 (const LmImage *image, guint x, guint y, guint c)
{
  return ((const guint16 *) lm_image_row (image, y))[x * lm_format_channels (image->format) + c];
}

static int
reflect101 (int i, int n)
{
  if (n == 1)
    return 0;
  while (i < 0 || i >= n)
    i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

static LmImage *
blur16 (const LmImage *src, float sigma)
{
  LmBlurParams p;
  lm_op_params_init (&lm_blur_op, &p);
  p.sigma = sigma;
  g_assert_true (lm_blur_op.output_format (&p, src->format, src->opaque) == src->format);
  return lm_test_run_op (&lm_blur_op, &p, src);
}

/* The Gaussian of SRC in double on the u16 scale (OpenCV's kernel size and reflect-101):
 * vertical, then horizontal, which is the 2-D sum reordered. */
static double *
reference16 (const LmImage *src, double sigma)
{
  int radius = (int) nearbyint (sigma * 6.0 + 1.0) / 2; /* the odd size's half, as OpenCV */
  double *w = g_new (double, radius + 1), sum = 0.0;
  for (int i = 0; i <= radius; i++)
    {
      w[i] = exp (-(double) i * i / (2.0 * sigma * sigma));
      sum += i == 0 ? w[i] : 2.0 * w[i];
    }
  for (int i = 0; i <= radius; i++)
    w[i] /= sum;
  int ch = (int) lm_format_channels (src->format), width = (int) src->width, height = (int) src->height;
  gsize n = (gsize) width * height * ch;
  double *vert = g_new0 (double, n), *out = g_new0 (double, n);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < ch; c++)
        for (int j = -radius; j <= radius; j++)
          vert[((gsize) y * width + x) * ch + c] += w[ABS (j)] * px16 (src, x, reflect101 (y + j, height), c);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < ch; c++)
        for (int j = -radius; j <= radius; j++)
          out[((gsize) y * width + x) * ch + c]
            += w[ABS (j)] * vert[((gsize) y * width + reflect101 (x + j, width)) * ch + c];
  g_free (w);
  g_free (vert);
  return out;
}

/* The largest |OUT − the double reference| in u16. */
static double
distance_to_reference (const LmImage *src, const LmImage *out, double sigma)
{
  double *want = reference16 (src, sigma);
  int ch = (int) lm_format_channels (src->format);
  double worst = 0.0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      for (int c = 0; c < ch; c++)
        worst = MAX (worst, fabs (px16 (out, x, y, c) - want[((gsize) y * src->width + x) * ch + c]));
  g_free (want);
  return worst;
}

/* A flat area comes back as itself at every method and depth of detail, low bits included. */
static void
test_flat (void)
{
  const float sigmas[] = { 0.8f, 2.5f, 16.0f, 20.0f, 50.0f };
  const guint16 values[] = { 0, 1, 12345, 32768, 65534, 65535 };
  for (guint f = 0; f < 2; f++)
    {
      LmFormat format = f ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16;
      guint ch = lm_format_channels (format);
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          g_autoptr (LmImage) src = lm_test_image_new (format, 37, 29, 0);
          for (guint y = 0; y < src->height; y++)
            for (guint i = 0; i < src->width * ch; i++)
              ((guint16 *) lm_image_row (src, y))[i] = ch == 4 && i % 4 == 3 ? 65535 : values[v];
          src->opaque = TRUE;
          for (guint s = 0; s < G_N_ELEMENTS (sigmas); s++)
            {
              g_autoptr (LmImage) out = blur16 (src, sigmas[s]);
              g_assert_true (out->format == format);
              LM_TEST_RETURN_IF_FAILED ();
              for (guint y = 0; y < out->height; y++)
                for (guint x = 0; x < out->width; x++)
                  for (guint c = 0; c < ch; c++)
                    if (px16 (out, x, y, c) != px16 (src, x, y, c))
                      {
                        g_test_message ("σ %g, value %u: (%u, %u, %u) is %u", sigmas[s], values[v], x, y, c,
                                        px16 (out, x, y, c));
                        g_assert_cmpuint (px16 (out, x, y, c), ==, px16 (src, x, y, c));
                        return;
                      }
            }
        }
    }
}

/* One bright sample in the dark: the known answer is the kernel itself, scaled. σ 1: 65535 ·
 * 0.39905028² = 10435.9 → 10436 at the centre, 65535 · 0.39905028 · 0.24203623 = 6329.8 →
 * 6330 beside it (the weights of test-blur.c's /blur/weights, cv2.getGaussianKernel (7, 1)). */
static void
test_impulse (void)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_GRAY16, 15, 15, 0);
  for (guint y = 0; y < 15; y++)
    memset (lm_image_row (src, y), 0, 15 * 2);
  ((guint16 *) lm_image_row (src, 7))[7] = 65535;
  g_autoptr (LmImage) out = blur16 (src, 1.0f);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpint (ABS ((int) px16 (out, 7, 7, 0) - 10436), <=, 1);
  g_assert_cmpint (ABS ((int) px16 (out, 8, 7, 0) - 6330), <=, 1);
  g_assert_cmpint (ABS ((int) px16 (out, 7, 6, 0) - 6330), <=, 1);
  g_assert_cmpuint (px16 (out, 0, 0, 0), ==, 0);
  g_assert_cmpfloat (distance_to_reference (src, out, 1.0), <=, 1.0);
}

/* Random data of every format against the double reference, direct method: within 1 u16. */
static void
test_reference (void)
{
  static const struct {
    LmFormat format;
    gboolean opaque;
    guint w, h;
    float sigma;
  } cases[] = {
    { LM_FORMAT_RGBA16, TRUE, 41, 23, 0.8f },  { LM_FORMAT_RGBA16, FALSE, 41, 23, 2.5f },
    { LM_FORMAT_GRAY16, TRUE, 33, 19, 2.0f },  { LM_FORMAT_GRAY16, TRUE, 5, 3, 10.0f }, /* kernel ≫ image */
    { LM_FORMAT_RGBA16, TRUE, 67, 1, 1.5f },   { LM_FORMAT_RGBA16, FALSE, 29, 31, 16.0f },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (LmImage) src = random16 (cases[i].format, cases[i].w, cases[i].h, 1600 + i, cases[i].opaque);
      g_autoptr (LmImage) out = blur16 (src, cases[i].sigma);
      LM_TEST_RETURN_IF_FAILED ();
      double worst = distance_to_reference (src, out, cases[i].sigma);
      g_test_message ("%s %u×%u σ %g: max |Δ| %.3f u16 to the double Gaussian", lm_format_name (cases[i].format),
                      cases[i].w, cases[i].h, cases[i].sigma, worst);
      g_assert_cmpfloat (worst, <=, 1.0);
      if (cases[i].opaque && cases[i].format == LM_FORMAT_RGBA16)
        g_assert_cmpuint (px16 (out, 0, 0, 3), ==, 65535);
    }
}

/* The grid method (σ > 16) on 16 bits, on a smooth image with noise (what the grid is for):
 * its distance to the exact Gaussian, measured 0.6–0.8 u16, is held within 8 u16 (1/32 of
 * an 8-bit step); a path that rounded to 8 bits anywhere would be off by up to 128. */
static void
test_grid (void)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA16, 90, 70, 0);
  GRand *rand = g_rand_new_with_seed (16);
  for (guint y = 0; y < src->height; y++)
    for (guint i = 0; i < src->width * 4; i++)
      ((guint16 *) lm_image_row (src, y))[i]
        = i % 4 == 3 ? 65535 : (guint16) (30000 + 20000 * sin (i / 4 / 9.0 + i % 4) * cos (y / 7.0)
                                          + g_rand_int_range (rand, -3000, 3000));
  g_rand_free (rand);
  src->opaque = TRUE;
  const float sigmas[] = { 17.0f, 24.0f, 50.0f };
  for (guint s = 0; s < G_N_ELEMENTS (sigmas); s++)
    {
      g_autoptr (LmImage) out = blur16 (src, sigmas[s]);
      LM_TEST_RETURN_IF_FAILED ();
      double worst = distance_to_reference (src, out, sigmas[s]);
      g_test_message ("grid, σ %g: max |Δ| %.2f u16 (%.3f 8-bit steps) to the exact Gaussian", sigmas[s], worst,
                      worst / 257.0);
      g_assert_cmpfloat (worst, <=, 8.0);
    }
}

/* An 8-bit image widened to 16 bits (v · 257) blurs to the 8-bit result widened, within one
 * 8-bit step (the two round the same sum at different places), mostly exactly; and the 16-bit
 * result keeps detail between the 8-bit steps: a path that dropped to 8 bits would give only
 * multiples of 257. Both methods, RGBA and gray. */
static void
test_vs_8bit (void)
{
  const float sigmas[] = { 1.2f, 6.0f, 20.0f };
  for (guint f = 0; f < 2; f++)
    for (guint s = 0; s < G_N_ELEMENTS (sigmas); s++)
      {
        g_autoptr (LmImage) src8 = f ? lm_test_random_gray (48, 40, 77) : lm_test_random_rgba (48, 40, 77, TRUE);
        LmFormat f16 = f ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16;
        guint ch = lm_format_channels (f16);
        g_autoptr (LmImage) src16 = lm_test_image_new (f16, 48, 40, 0x55);
        for (guint y = 0; y < 40; y++)
          for (guint i = 0; i < 48 * ch; i++)
            ((guint16 *) lm_image_row (src16, y))[i] = lm_image_row (src8, y)[i] * 257;
        src16->opaque = src8->opaque;
        LmBlurParams p;
        lm_op_params_init (&lm_blur_op, &p);
        p.sigma = sigmas[s];
        g_autoptr (LmImage) out8 = lm_test_run_op (&lm_blur_op, &p, src8);
        g_autoptr (LmImage) out16 = blur16 (src16, sigmas[s]);
        LM_TEST_RETURN_IF_FAILED ();
        guint64 same = 0, between = 0, total = 0;
        int worst = 0;
        for (guint y = 0; y < 40; y++)
          for (guint x = 0; x < 48; x++)
            for (guint c = 0; c < ch; c++)
              {
                guint v16 = px16 (out16, x, y, c);
                int d = ABS ((int) lm_u16_bin8 (v16) - (int) lm_test_pixel (out8, x, y)[c]);
                worst = MAX (worst, d);
                same += d == 0;
                between += v16 % 257 != 0;
                total++;
              }
        g_test_message ("%s σ %g: 8-bit bins of the 16-bit blur equal the 8-bit blur in %" G_GUINT64_FORMAT
                        " of %" G_GUINT64_FORMAT ", max |Δ| %d", lm_format_name (f16), sigmas[s], same, total, worst);
        g_assert_cmpint (worst, <=, 1);
        g_assert_cmpuint (same, >=, total * 99 / 100);
        g_assert_cmpuint (between, >, total / 2);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/blur16/flat", test_flat);
  g_test_add_func ("/blur16/impulse", test_impulse);
  g_test_add_func ("/blur16/reference", test_reference);
  g_test_add_func ("/blur16/grid", test_grid);
  g_test_add_func ("/blur16/vs-8bit", test_vs_8bit);
  return g_test_run ();
}
