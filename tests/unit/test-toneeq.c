/* The tone equalizer (core/ops/toneeq.c) against known answers: all zones at 0 EV give back
 * the photo's bytes, 8 and 16 bits, colour and gray, and scene light's floats; a flat gray
 * gets exactly its zone's gain; lifting the shadows of a textured dark region keeps its texture
 * (the mask gives the region one gain) and leaves a bright region alone; formats it cannot
 * work on are refused; tiles give the whole render's bytes. Outputs are poisoned (two runs
 * under different poisons, NaN for floats), so that an unwritten pixel shows. */
#include <math.h>
#include <string.h>
#include <omp.h>

#include "core/backend/backend.h"
#include "core/edit/pipeline.h"
#include "core/error.h"
#include "core/ops/ops.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "test-util.h"

static LmToneeqParams
defaults (void)
{
  LmToneeqParams p;
  lm_op_params_init (&lm_toneeq_op, &p);
  return p;
}

/* A W × H RGBA_F32 image whose pixel (x, y) is gray at 2^LEVEL (x, y), alpha 0.5. */
static LmImage *
scene_new (guint w, guint h, double (*level) (guint x, guint y))
{
  LmImage *img = lm_image_new (LM_FORMAT_RGBA_F32, w, h, lm_allocator_host (), NULL);
  for (guint y = 0; y < h; y++)
    {
      float *row = (float *) lm_image_row (img, y);
      for (guint x = 0; x < w; x++)
        {
          row[4 * x] = row[4 * x + 1] = row[4 * x + 2] = (float) exp2 (level (x, y));
          row[4 * x + 3] = 0.5f;
        }
    }
  img->opaque = FALSE;
  return img;
}

/* OP on SRC into a destination whose every float is NaN (a zero poison passes on dark
 * pixels); fails unless every value of the result is finite. */
static LmImage *
run_nan_poisoned (const LmToneeqParams *p, const LmImage *src)
{
  LmImage *dst = lm_test_image_new (src->format, src->width, src->height, 0xff);
  g_autoptr (GError) error = NULL;
  g_assert_true (lm_toneeq_op.run_cpu (p, src, dst, &error));
  g_assert_no_error (error);
  for (guint y = 0; y < dst->height; y++)
    {
      const float *row = (const float *) lm_image_row (dst, y);
      for (guint i = 0; i < dst->width * lm_format_channels (dst->format); i++)
        if (!isfinite (row[i]))
          {
            g_test_message ("value %u of row %u not written", i, y);
            g_test_fail ();
            return dst;
          }
    }
  return dst;
}

static double
textured (guint x, guint y)
{
  return ((x / 4 + y / 4) % 2 ? 0.15 : -0.15) + (x < 300 ? -5.5 : -1.0);
}

static double
ramp_levels (guint x, guint y)
{
  return -12.0 + 14.0 * x / 63.0 + 0.1 * (y % 3);
}

/* All zones at 0 EV: the photo's own bytes (8- and 16-bit, colour, alpha, gray) and floats. */
static void
test_identity (void)
{
  LmToneeqParams p = defaults ();
  const char *names[] = { "chelsea.png", "coffee-alpha.png", "camera-gray.png" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (LmImage) photo = lm_test_load_photo (names[i]);
      g_autoptr (LmImage) deep = lm_test_deepen (photo);
      g_autoptr (LmImage) out8 = lm_test_run_op (&lm_toneeq_op, &p, photo);
      lm_test_assert_same_pixels (out8, photo);
      g_autoptr (LmImage) out16 = lm_test_run_op (&lm_toneeq_op, &p, deep);
      lm_test_assert_same_pixels (out16, deep);
      LM_TEST_RETURN_IF_FAILED ();
    }
  g_autoptr (LmImage) scene = scene_new (64, 48, ramp_levels);
  g_autoptr (LmImage) out = run_nan_poisoned (&p, scene);
  lm_test_assert_same_pixels (out, scene);
}

/* A flat gray at a zone's centre gets that zone's gain: on scene light 2⁻³ (the dark
 * highlights) at +1 EV is exactly 2⁻², whatever the other zones say; 8- and 16-bit grays of
 * the sRGB code nearest a zone's centre come out as that light times the zone's gain,
 * encoded and rounded (the zone is a peak or a dip among its neighbours, where the curve is
 * flat). */
static void
test_flat_gray (void)
{
  LmToneeqParams p = defaults ();
  float *zone = &p.blacks;
  static const float others[LM_TONEEQ_ZONES] = { -0.5f, 0.7f, 1.5f, -2.0f, 0.25f, 0.0f, 2.0f, -1.1f, 0.4f };
  memcpy (zone, others, sizeof others);
  p.dark_highlights = 1.0f;
  g_autoptr (LmImage) scene = lm_image_new (LM_FORMAT_RGBA_F32, 40, 30, lm_allocator_host (), NULL);
  for (guint y = 0; y < 30; y++)
    for (guint x = 0; x < 40; x++)
      for (int c = 0; c < 4; c++)
        ((float *) lm_image_row (scene, y))[4 * x + c] = c < 3 ? 0.125f : 1.0f;
  g_autoptr (LmImage) out = run_nan_poisoned (&p, scene);
  for (guint y = 0; y < 30; y++)
    for (guint x = 0; x < 40; x++)
      for (int c = 0; c < 4; c++)
        g_assert_cmpfloat (((float *) lm_image_row (out, y))[4 * x + c], ==, c < 3 ? 0.25f : 1.0f);
  LM_TEST_RETURN_IF_FAILED ();

  /* 8 and 16 bits, each zone a peak of +1 among zeros (or a dip of −1), then its code */
  for (int k = 0; k < LM_TONEEQ_ZONES; k++)
    for (int sign = -1; sign <= 1; sign += 2)
      for (int deep = 0; deep < 2; deep++)
        {
          LmToneeqParams q = defaults ();
          (&q.blacks)[k] = (float) sign;
          /* an end zone's curve is flat only when its neighbour says the same */
          if (k == 0 || k == LM_TONEEQ_ZONES - 1)
            (&q.blacks)[k == 0 ? 1 : k - 1] = (float) sign;
          double maxcode = deep ? 65535.0 : 255.0;
          int code = (int) floor (maxcode * lm_test_srgb_encode (exp2 (k - 8)) + 0.5);
          double want = floor (maxcode * lm_test_srgb_encode (fmin (1.0, lm_test_srgb_decode (code / maxcode) * exp2 (sign))) + 0.5);
          g_autoptr (LmImage) gray = lm_test_image_new (deep ? LM_FORMAT_RGBA16 : LM_FORMAT_RGBA8, 24, 20, 0);
          for (guint y = 0; y < 20; y++)
            for (guint i = 0; i < 24 * 4; i++)
              {
                guint v = i % 4 == 3 ? (guint) maxcode : (guint) code;
                if (deep)
                  ((guint16 *) lm_image_row (gray, y))[i] = (guint16) v;
                else
                  lm_image_row (gray, y)[i] = (guint8) v;
              }
          g_autoptr (LmImage) got = lm_test_run_op (&lm_toneeq_op, &q, gray);
          guint v = deep ? ((guint16 *) lm_image_row (got, 7))[4 * 5 + 1] : lm_image_row (got, 7)[4 * 5 + 1];
          if ((double) v != want)
            {
              g_test_message ("zone %d at %+d EV, %d bits: code %d gave %u, not %g", k, sign, deep ? 16 : 8, code,
                              v, want);
              g_test_fail ();
              return;
            }
        }
}

/* Mean and standard deviation of log2 of G over the columns [X0, X1) and rows [Y0, Y1). */
static void
level_stats (const LmImage *img, guint x0, guint x1, guint y0, guint y1, double *mean, double *sd)
{
  double s = 0.0, s2 = 0.0;
  for (guint y = y0; y < y1; y++)
    for (guint x = x0; x < x1; x++)
      {
        double l = log2 (((const float *) lm_image_row (img, y))[4 * x + 1]);
        s += l, s2 += l * l;
      }
  double n = (double) (x1 - x0) * (y1 - y0);
  *mean = s / n;
  *sd = sqrt (s2 / n - *mean * *mean);
}

/* 600 × 400 on scene light: a dark half at −5.5 EV and a bright one at −1 EV, each with a
 * ±0.15 EV checker of 4-pixel squares (its variance v = 0.0225 EV²). The shadows lifted along
 * a straight line (+2 EV at −8 falling by 0.5 EV a zone to 0 at −4), so that G = 0.75 − 0.5 (M
 * + 5.5) there. Away from the border (three mask radii): the dark half rises by 0.75 EV, and
 * its texture keeps 1 − 0.5 a of its spread, a = v / (v + edges) being how much of it the mask
 * follows: 0.91 at the default edges (0.1 EV²), 0.99 at 1 EV². Gains per pixel would leave
 * it 0.5; a mask blind to edges (a = 0) all of it. The bright half moves by < 0.001 EV. */
static void
test_keeps_local_contrast (void)
{
  g_autoptr (LmImage) scene = scene_new (600, 400, textured);
  omp_set_num_threads (2);
  static const float edges[] = { 0.1f, 1.0f };
  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    {
      LmToneeqParams p = defaults ();
      p.blacks = 2.0f, p.deep_shadows = 1.5f, p.shadows = 1.0f, p.light_shadows = 0.5f;
      p.edges = edges[i];
      g_autoptr (LmImage) out = run_nan_poisoned (&p, scene);
      double m0, s0, m1, s1;
      level_stats (scene, 8, 210, 8, 392, &m0, &s0);
      level_stats (out, 8, 210, 8, 392, &m1, &s1);
      double a = 0.0225 / (0.0225 + edges[i]), want = 1.0 - 0.5 * a;
      g_test_message ("edges %g: dark %+.4f EV, texture ×%.4f (a %.4f: ×%.4f)", edges[i], m1 - m0, s1 / s0, a, want);
      g_assert_cmpfloat (fabs (m1 - m0 - 0.75), <, 0.01);
      g_assert_cmpfloat (fabs (s1 / s0 - want), <, 0.005);
      level_stats (scene, 392, 592, 8, 392, &m0, &s0);
      level_stats (out, 392, 592, 8, 392, &m1, &s1);
      g_test_message ("bright: %+.5f EV", m1 - m0);
      g_assert_cmpfloat (fabs (m1 - m0), <, 0.001);
    }
  omp_set_num_threads (1);
}

/* Every supported format works; the others are refused with a message naming the op. */
static void
test_formats (void)
{
  LmToneeqParams p = defaults ();
  p.shadows = 1.0f, p.highlights = -0.5f;
  g_autoptr (LmImage) rgba = lm_test_random_rgba (37, 23, 5, TRUE);
  g_autoptr (LmImage) gray = lm_test_random_gray (37, 23, 6);
  const LmImage *sources[] = { rgba, gray };
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autoptr (LmImage) deep = lm_test_deepen (sources[i]);
      g_autoptr (LmImage) a = lm_test_run_op (&lm_toneeq_op, &p, sources[i]);
      g_autoptr (LmImage) b = lm_test_run_op (&lm_toneeq_op, &p, deep);
      g_assert_nonnull (a);
      g_assert_nonnull (b);
    }
  g_autoptr (LmImage) rgbe = lm_test_image_new (LM_FORMAT_RGBE8, 4, 4, 0);
  g_autoptr (LmImage) dst = lm_test_image_new (LM_FORMAT_RGBE8, 4, 4, 0);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_toneeq_op.run_cpu (&p, rgbe, dst, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "toneeq"));
}

/* Tiles of the render (core/render/tiled.c) give the whole render's bytes: halos of two
 * nested boxes around the mask's blocks, blocks anchored at the whole image's origin. */
static void
test_tiled (void)
{
  LmBackend *cpu = lm_backend_cpu_new ();
  g_autoptr (LmImage) full = lm_test_load_photo ("chelsea.png");
  g_autoptr (LmImage) photo = lm_test_crop (full, 60, 40, 181, 127);
  g_autoptr (LmImage) deep = lm_test_deepen (photo);
  const char *smoothings[] = { "5", "20" }; /* blocks of 1 and of 2 pixels */
  for (guint i = 0; i < G_N_ELEMENTS (smoothings); i++)
    for (int d = 0; d < 2; d++)
      {
        const LmImage *src = d ? deep : photo;
        LmPipeline p;
        lm_pipeline_init (&p);
        lm_test_set_param (&p, "toneeq", "shadows", "1.5");
        lm_test_set_param (&p, "toneeq", "highlights", "-1");
        lm_test_set_param (&p, "toneeq", "smoothing", smoothings[i]);
        g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, (LmImage *) src);
        g_autoptr (GError) error = NULL;
        g_autoptr (LmImage) whole = lm_render_cache_run (cache, &p, NULL, &error);
        g_assert_no_error (error);
        const guint tiles[][2] = { { 37, 53 }, { 64, 64 }, { 181, 9 } };
        for (guint t = 0; t < G_N_ELEMENTS (tiles); t++)
          {
            g_autoptr (LmImage) out = lm_test_image_new (whole->format, whole->width, whole->height, 0xa5);
            LmTileOptions options = { tiles[t][0], tiles[t][1], 1 };
            g_assert_true (lm_render_tiled (cpu, src, &p, NULL, NULL, out, &options, NULL, &error));
            g_assert_no_error (error);
            g_test_message ("smoothing %s, %d bits, tiles %u×%u", smoothings[i], d ? 16 : 8, tiles[t][0],
                            tiles[t][1]);
            lm_test_assert_same_pixels (out, whole);
            if (g_test_failed ())
              break;
          }
      }
  lm_backend_free (cpu);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  /* Small images, a few OpenMP regions each: on a busy machine two threads spend most of it
   * waiting at barriers. The 600 × 400 test runs on two. */
  omp_set_num_threads (1);
  g_test_add_func ("/toneeq/identity", test_identity);
  g_test_add_func ("/toneeq/flat-gray", test_flat_gray);
  g_test_add_func ("/toneeq/keeps-local-contrast", test_keeps_local_contrast);
  g_test_add_func ("/toneeq/formats", test_formats);
  g_test_add_func ("/toneeq/tiled", test_tiled);
  return g_test_run ();
}
