/* Vignette, CPU reference (core/ops/vignette-math.h): a corner worked out by hand, the centre
 * and amount 0 unchanged, mirror symmetry to the bit, random images at 8 and 16 bits (RGBA
 * with alpha, gray) within one step of a definition in double written out here, the photo's
 * own curve used for linear light, the crop's centre as the vignette's, the tiled render equal
 * to the whole, and what it cannot take refused.
 *
 * Operations run through their registration on poisoned outputs (lm_test_run_op). The
 * NumPy oracle through lumen-cli is tests/oracle/test_vignette.py; CPU against CUDA,
 * tests/gpu/test-parity.c. */
#include <math.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/edit/pipeline.h"
#include "core/error.h"
#include "core/ops/ops.h"
#include "core/ops/vignette-math.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "test-util.h"

static LmVignetteParams
params (float amount, float midpoint, float feather, float roundness)
{
  LmVignetteParams p;
  lm_op_params_init (&lm_vignette_op, &p);
  p.amount = amount, p.midpoint = midpoint, p.feather = feather, p.roundness = roundness;
  return p;
}

static guint
code (const LmImage *image, guint x, guint y, guint c)
{
  guint ch = lm_format_channels (image->format);
  if (lm_format_depth (image->format) == 16)
    return ((const guint16 *) lm_image_row (image, y))[x * ch + c];
  return lm_image_row (image, y)[x * ch + c];
}

static void
set_code (LmImage *image, guint x, guint y, guint c, guint v)
{
  guint ch = lm_format_channels (image->format);
  if (lm_format_depth (image->format) == 16)
    ((guint16 *) lm_image_row (image, y))[x * ch + c] = (guint16) v;
  else
    lm_image_row (image, y)[x * ch + c] = (guint8) v;
}

/* sRGB's curve as a profile's (test-util's, written out there). */
static double
srgb_to_linear (const void *space, int c, double v)
{
  return lm_test_srgb_decode (v);
}

static double
srgb_from_linear (const void *space, int c, double l)
{
  return lm_test_srgb_encode (l);
}

/* A profile's curve unlike sRGB's: a pure power of 2.2 on red and blue, 1.8 on green. */
static double
gamma_to_linear (const void *space, int c, double v)
{
  return pow (v, c == 1 ? 1.8 : 2.2);
}

static double
gamma_from_linear (const void *space, int c, double l)
{
  return pow (l, 1.0 / (c == 1 ? 1.8 : 2.2));
}

/* The vignette of SRC's pixel (X, Y) of a W × H whole, channel C, in double, rounded half up. */
static guint
reference (const LmImage *src, guint x, guint y, guint c, const LmVignetteParams *p, double w, double h,
           double (*to) (const void *, int, double), double (*from) (const void *, int, double))
{
  guint n = lm_format_depth (src->format) == 16 ? 65535 : 255;
  if (c == 3)
    return code (src, x, y, 3);
  int curve = lm_format_channels (src->format) == 1 ? 1 : (int) c;
  double rho = p->roundness, r = 0.5 * sqrt (w * w + h * h);
  double ax = (1 - rho) * w / sqrt (2.0) + rho * r, ay = (1 - rho) * h / sqrt (2.0) + rho * r;
  double u = (x - (w - 1) / 2) / ax, v = (y - (h - 1) / 2) / ay, d = sqrt (u * u + v * v);
  double lo = p->midpoint - p->feather / 2, t = CLAMP ((d - lo) / p->feather, 0.0, 1.0);
  double l = to (NULL, curve, code (src, x, y, c) / (double) n) * exp2 (p->amount * t * t * (3 - 2 * t));
  return (guint) floor (CLAMP (from (NULL, curve, l) * n, 0.0, (double) n) + 0.5);
}

static const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_GRAY8, LM_FORMAT_GRAY16 };

/* Random codes, alpha too, in FORMAT. */
static LmImage *
random_image (LmFormat format, guint w, guint h, guint32 seed)
{
  LmImage *image = lm_test_image_new (format, w, h, 0x6b);
  GRand *rand = g_rand_new_with_seed (seed);
  guint n = lm_format_depth (format) == 16 ? 65536 : 256;
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      for (guint c = 0; c < lm_format_channels (format); c++)
        set_code (image, x, y, c, (guint) g_rand_int_range (rand, 0, (gint32) n));
  image->opaque = lm_format_channels (format) == 1;
  g_rand_free (rand);
  return image;
}

/* 118 in the corner of a flat 8-bit 101 × 67 image, amount -1 (gain ½ there, where d ≥ 0.75):
 * ((118/255 + 0.055)/1.055)^2.4 = 0.18117 of light, halved 0.090585, encoded
 * 1.055·0.090585^(1/2.4) − 0.055 = 0.33289 → 84.89 → 85. The centre keeps its 118. */
static void
test_known (void)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA8, 101, 67, 0);
  for (guint y = 0; y < 67; y++)
    for (guint x = 0; x < 101; x++)
      for (guint c = 0; c < 4; c++)
        set_code (src, x, y, c, c == 3 ? 255 : 118);
  src->opaque = TRUE;
  LmVignetteParams p = params (-1.0f, 0.5f, 0.5f, 0.0f);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_vignette_op, &p, src);
  for (guint c = 0; c < 3; c++)
    {
      g_assert_cmpuint (code (out, 0, 0, c), ==, 85);
      g_assert_cmpuint (code (out, 100, 66, c), ==, 85);
      g_assert_cmpuint (code (out, 50, 33, c), ==, 118);
    }
  g_assert_cmpuint (code (out, 0, 0, 3), ==, 255);

  /* amount 0 and the inner part (d below midpoint − feather/2) unchanged, at every format */
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (LmImage) random = random_image (formats[f], 41, 29, 5 + f);
      LmVignetteParams none = params (0.0f, 0.5f, 0.5f, 0.0f);
      g_autoptr (LmImage) copy = lm_test_run_op (&lm_vignette_op, &none, random);
      lm_test_assert_same_pixels (random, copy);
      LmVignetteParams strong = params (3.0f, 0.6f, 0.4f, 1.0f);
      g_autoptr (LmImage) lit = lm_test_run_op (&lm_vignette_op, &strong, random);
      for (guint y = 10; y < 19; y++)
        for (guint x = 15; x < 26; x++)
          for (guint c = 0; c < lm_format_channels (formats[f]); c++)
            g_assert_cmpuint (code (lit, x, y, c), ==, code (random, x, y, c));
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* An image symmetric under both flips stays so, to the bit. */
static void
test_symmetry (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (LmImage) src = random_image (formats[f], 40, 23, 9 + f);
      guint ch = lm_format_channels (formats[f]);
      for (guint y = 0; y < 23; y++)
        for (guint x = 0; x < 40; x++)
          for (guint c = 0; c < ch; c++)
            set_code (src, x, y, c, code (src, MIN (x, 39 - x), MIN (y, 22 - y), c));
      LmVignetteParams p = params (-2.3f, 0.3f, 0.8f, 0.4f);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_vignette_op, &p, src);
      for (guint y = 0; y < 23; y++)
        for (guint x = 0; x < 40; x++)
          for (guint c = 0; c < ch; c++)
            {
              g_assert_cmpuint (code (out, x, y, c), ==, code (out, 39 - x, y, c));
              g_assert_cmpuint (code (out, x, y, c), ==, code (out, x, 22 - y, c));
            }
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* Random images against the double definition: within one step (of 8 or 16 bits). With a
 * profile (COMMITTED) its own curves, per channel. */
static void
check_reference (gboolean committed)
{
  static const float sets[][4] = {
    { -1.0f, 0.5f, 0.5f, 0.0f }, { 3.0f, 0.2f, 1.0f, 1.0f }, { -3.0f, 0.9f, 0.05f, 0.5f }, { 0.4f, 0.0f, 0.3f, 0.2f },
  };
  int dummy;
  LmOpContext context = { { .space = &dummy, .to_linear = gamma_to_linear, .from_linear = gamma_from_linear } };
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (LmImage) src = random_image (formats[f], 53, 31, 21 + f);
      for (guint s = 0; s < G_N_ELEMENTS (sets); s++)
        {
          LmVignetteParams p = params (sets[s][0], sets[s][1], sets[s][2], sets[s][3]);
          if (committed)
            lm_vignette_op.commit (&p, &context);
          g_autoptr (LmImage) out = lm_test_run_op (&lm_vignette_op, &p, src);
          guint worst = 0, moved = 0, ch = lm_format_channels (formats[f]);
          for (guint y = 0; y < src->height; y++)
            for (guint x = 0; x < src->width; x++)
              for (guint c = 0; c < ch; c++)
                {
                  guint want = committed ? reference (src, x, y, c, &p, 53, 31, gamma_to_linear, gamma_from_linear)
                                         : reference (src, x, y, c, &p, 53, 31, srgb_to_linear, srgb_from_linear);
                  guint got = code (out, x, y, c);
                  worst = MAX (worst, (guint) ABS ((int) got - (int) want));
                  moved += got != code (src, x, y, c);
                }
          g_test_message ("%s%s amount %g midpoint %g feather %g roundness %g: max |Δ| %u, %u samples moved",
                          lm_format_name (formats[f]), committed ? " (γ 2.2/1.8 profile)" : "", sets[s][0], sets[s][1],
                          sets[s][2], sets[s][3], worst, moved);
          g_assert_cmpuint (worst, <=, 1);
          g_assert_cmpuint (moved, >, src->width * src->height / 50);
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
}

static void
test_reference (void)
{
  check_reference (FALSE);
}

static void
test_profile_curve (void)
{
  check_reference (TRUE);
}

static void
enable (LmPipeline *pipeline, LmOpId id, const char *const *settings)
{
  lm_test_set_param (pipeline, lm_op_info (id)->name, NULL, NULL);
  for (int i = 0; settings[i]; i += 2)
    lm_test_set_param (pipeline, lm_op_info (id)->name, settings[i], settings[i + 1]);
}

static LmImage *
render_whole (LmBackend *cpu, const LmImage *source, const LmPipeline *pipeline)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, (LmImage *) source);
  LmImage *whole = lm_render_cache_run (cache, pipeline, NULL, &error);
  g_assert_no_error (error);
  return whole;
}

/* After a crop, the vignette is the cropped photo's (its centre, its corners), and the tiled
 * render (tile frame) gives the whole render's bytes, at 8 and 16 bits. */
static void
test_crop_and_tiles (void)
{
  g_autoptr (LmImage) photo = lm_test_load_photo ("coffee-alpha.png");
  g_autoptr (LmImage) photo16 = lm_test_deepen (photo);
  g_autoptr (GError) error = NULL;
  LmBackend *cpu = lm_backend_cpu_new ();
  const LmImage *sources[] = { photo, photo16 };
  static const char *const crop[] = { "x", "61", "y", "40", "width", "173", "height", "111", NULL };
  static const char *const vignette[] = { "amount", "-2", "roundness", "0.3", "midpoint", "0.35", NULL };
  for (guint s = 0; s < G_N_ELEMENTS (sources); s++)
    {
      LmPipeline cropped, alone;
      lm_pipeline_init (&cropped);
      enable (&cropped, LM_OP_CROP, crop);
      g_autoptr (LmImage) part = render_whole (cpu, sources[s], &cropped);
      enable (&cropped, LM_OP_VIGNETTE, vignette);
      g_autoptr (LmImage) whole = render_whole (cpu, sources[s], &cropped);
      lm_pipeline_init (&alone);
      enable (&alone, LM_OP_VIGNETTE, vignette);
      g_autoptr (LmImage) direct = render_whole (cpu, part, &alone);
      lm_test_assert_same_pixels (direct, whole);

      static const guint tiles[][2] = { { 37, 53 }, { 1, 111 }, { 173, 1 }, { 64, 64 } };
      /* one-pixel tiles at 8 bits only: each tile builds the 16-bit tables again */
      for (guint t = 0; t < G_N_ELEMENTS (tiles); t++)
        {
          if (s == 1 && (tiles[t][0] == 1 || tiles[t][1] == 1))
            continue;
          g_autoptr (LmImage) out = lm_test_image_new (whole->format, whole->width, whole->height, 0xa5);
          LmTileOptions options = { tiles[t][0], tiles[t][1], 1 };
          LmTimings timings;
          lm_timings_init (&timings);
          g_assert_true (lm_render_tiled (cpu, sources[s], &cropped, NULL, NULL, out, &options, &timings, &error));
          g_assert_no_error (error);
          lm_timings_clear (&timings);
          lm_test_assert_same_pixels (whole, out);
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
  lm_backend_free (cpu);
}

static void
test_refused (void)
{
  LmVignetteParams p = params (-1.0f, 0.5f, 0.5f, 0.0f);
  const char *bad[][2] = { { "amount", "-3.5" }, { "amount", "inf" }, { "midpoint", "1.2" }, { "feather", "0" },
                           { "roundness", "-0.1" } };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    for (guint k = 0; k < lm_vignette_op.n_params; k++)
      if (g_str_equal (lm_vignette_op.params[k].name, bad[i][0]))
        {
          g_autoptr (GError) error = NULL;
          g_assert_false (lm_op_param_parse (&lm_vignette_op, &lm_vignette_op.params[k], &p, bad[i][1], &error));
          g_assert_nonnull (error);
        }
  g_autoptr (LmImage) radiance = lm_test_image_new (LM_FORMAT_RGBA_F32, 4, 4, 0);
  g_autoptr (LmImage) dst = lm_test_image_new (LM_FORMAT_RGBA_F32, 4, 4, 0);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_vignette_op.run_cpu (&p, radiance, dst, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/vignette/known", test_known);
  g_test_add_func ("/vignette/symmetry", test_symmetry);
  g_test_add_func ("/vignette/reference", test_reference);
  g_test_add_func ("/vignette/profile-curve", test_profile_curve);
  g_test_add_func ("/vignette/crop-and-tiles", test_crop_and_tiles);
  g_test_add_func ("/vignette/refused", test_refused);
  return g_test_run ();
}
