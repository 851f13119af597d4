/* The demosaic's refinement on the CPU (core/raw/demosaic-refine.c) by known answers: it
 * leaves a flat field of any colour as it is, keeps a hue edge whose green does not change (a plain colour-difference average smears it over the edge), writes the samples from
 * the mosaic and alpha 1 over a poisoned output, writes every pixel at every size from 1 × 1
 * (the sanitizer build catches a read outside), and on linearised photos mosaicked, Bayer and
 * X-Trans, improves on the export's demosaics by a margin. */
#include <math.h>
#include <string.h>

#include "core/raw/demosaic-refine.h"
#include "core/raw/demosaic-xtrans.h"
#include "core/raw/demosaic.h"
#include "demosaic-scene.h"
#include "test-util.h"

static const char *const phases[] = { "RGGB", "GRBG", "GBRG", "BGGR" };
static const unsigned char xtrans[6][6] = {
  { 1, 1, 0, 1, 1, 2 }, { 1, 1, 2, 1, 1, 0 }, { 2, 0, 1, 0, 2, 1 },
  { 1, 1, 2, 1, 1, 0 }, { 1, 1, 0, 1, 1, 2 }, { 0, 2, 1, 2, 0, 1 },
};

/* The four Bayer phases, then X-Trans. */
static LmCfa
pattern (int which)
{
  if (which < 4)
    return demosaic_cfa (phases[which]);
  LmCfa cfa = { 6, 6, { { 0 } } };
  memcpy (cfa.color, xtrans, sizeof xtrans);
  return cfa;
}

/* Per-pixel RGB (3 floats) as an RGBA "demosaic" (4 floats a pixel, alpha 1). */
static float *
as_rgba (const float *rgb, int w, int h)
{
  float *out = g_new (float, (gsize) 4 * w * h);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      memcpy (out + 4 * i, rgb + 3 * i, 3 * sizeof (float));
      out[4 * i + 3] = 1.0f;
    }
  return out;
}

/* A flat field of any colour: every colour difference is the same, so the refinement gives it
 * back (to the rounding of a weighted mean). */
static void
test_refine_flat (void)
{
  static const float colours[][3] = { { 0, 0, 0 }, { 0.3f, 0.3f, 0.3f }, { 0.8f, 0.1f, 0.02f }, { 0.01f, 0.5f, 1.4f } };
  const int w = 23, h = 19;
  for (int p = 0; p < 5; p++)
    for (guint k = 0; k < G_N_ELEMENTS (colours); k++)
      {
        LmCfa cfa = pattern (p);
        g_autofree float *plane = g_new (float, w * h);
        g_autofree float *rgba = g_new (float, 4 * w * h);
        for (int i = 0; i < w * h; i++)
          {
            plane[i] = colours[k][lm_cfa_color (&cfa, i % w, i / w)];
            memcpy (rgba + 4 * i, colours[k], sizeof colours[k]);
            rgba[4 * i + 3] = 1.0f;
          }
        lm_demosaic_refine_cpu (plane, w, h, &cfa, rgba, 4 * w);
        for (int i = 0; i < w * h; i++)
          for (int c = 0; c < 4; c++)
            {
              float want = c < 3 ? colours[k][c] : 1.0f;
              g_assert_cmpfloat (fabsf (rgba[4 * i + c] - want), <=, 4e-7f * (1.0f + want));
            }
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* An orange | blue edge with one green (the colour star's case: a hue edge with no luminance
 * edge), demosaiced ideally: the refinement keeps it. The neighbours across the edge differ in
 * R − G by 0.7; a plain average of the 3 × 3 differences would move the edge's pixels by a third
 * of that. */
static void
test_refine_hue_edge (void)
{
  const int w = 16, h = 12;
  static const float left[3] = { 0.8f, 0.3f, 0.05f }, right[3] = { 0.08f, 0.3f, 0.75f };
  for (int p = 0; p < 5; p++)
    for (int edge = 7; edge <= 12; edge++)
      for (int across = 0; across < 2; across++)
      {
        LmCfa cfa = pattern (p);
        float rgb[16 * 12 * 3], plane[16 * 12];
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++)
            {
              const float *v = (across ? y : x) < edge - 2 * across ? left : right;
              memcpy (rgb + 3 * (y * w + x), v, 3 * sizeof (float));
              plane[y * w + x] = v[lm_cfa_color (&cfa, x, y)];
            }
        g_autofree float *rgba = as_rgba (rgb, w, h);
        lm_demosaic_refine_cpu (plane, w, h, &cfa, rgba, 4 * w);
        float worst = 0.0f;
        for (int i = 0; i < w * h; i++)
          for (int c = 0; c < 3; c++)
            worst = MAX (worst, fabsf (rgba[4 * i + c] - rgb[3 * i + c]));
        g_assert_cmpfloat (worst, <, 0.01f);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* The samples and alpha of the demosaic's output NaN: the refinement writes them from the mosaic
 * (negative and NaN samples as 0, as the demosaics read them) and alpha 1; nothing NaN is left. */
static void
test_refine_poisoned (void)
{
  const int w = 13, h = 11;
  for (int p = 0; p < 5; p++)
    {
      LmCfa cfa = pattern (p);
      g_autofree float *plane = g_new (float, w * h);
      g_autofree float *rgba = g_new (float, 4 * w * h);
      GRand *rand = g_rand_new_with_seed (p + 1);
      for (int i = 0; i < w * h; i++)
        {
          plane[i] = (float) g_rand_double_range (rand, -0.05, 1.0);
          int c = lm_cfa_color (&cfa, i % w, i / w);
          for (int k = 0; k < 3; k++)
            rgba[4 * i + k] = k == c ? NAN : (float) g_rand_double (rand);
          rgba[4 * i + 3] = NAN;
        }
      g_rand_free (rand);
      plane[5] = NAN;
      lm_demosaic_refine_cpu (plane, w, h, &cfa, rgba, 4 * w);
      for (int i = 0; i < w * h; i++)
        {
          int c = lm_cfa_color (&cfa, i % w, i / w);
          float sample = plane[i] > 0.0f ? plane[i] : 0.0f;
          g_assert_cmpfloat (rgba[4 * i + c], ==, sample);
          g_assert_cmpfloat (rgba[4 * i + 3], ==, 1.0f);
          for (int k = 0; k < 3; k++)
            g_assert_false (isnan (rgba[4 * i + k]));
        }
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* Every size from 1 × 1 to 9 × 9, in a wider buffer whose padding is NaN and must stay so:
 * every pixel finite, the padding untouched (and, under the sanitizers, no read outside). */
static void
test_refine_sizes (void)
{
  for (int p = 0; p < 5; p++)
    for (int h = 1; h <= 9; h++)
      for (int w = 1; w <= 9; w++)
        {
          LmCfa cfa = pattern (p);
          size_t stride = 4 * (size_t) w + 4;
          g_autofree float *plane = g_new (float, w * h);
          g_autofree float *rgba = g_new (float, stride * h);
          for (int i = 0; i < w * h; i++)
            plane[i] = 0.1f + 0.01f * (float) ((i * 7) % 13);
          for (size_t i = 0; i < stride * h; i++)
            rgba[i] = i % stride < 4 * (size_t) w ? 0.2f : NAN;
          lm_demosaic_refine_cpu (plane, w, h, &cfa, rgba, stride);
          for (int y = 0; y < h; y++)
            for (size_t i = 0; i < stride; i++)
              if (i < 4 * (size_t) w)
                g_assert_true (isfinite (rgba[y * stride + i]));
              else
                g_assert_true (isnan (rgba[y * stride + i]));
          LM_TEST_RETURN_IF_FAILED ();
        }
}

/* Linearised photos, mosaicked through a Bayer and an X-Trans array and demosaiced by the
 * export's methods (RCD, Markesteijn 3-pass): the refinement raises their CPSNR by a margin. */
static void
test_refine_photos (void)
{
  static const char *const names[] = { "forest-path.jpg", "astronaut.tif" };
  /* Linear sRGB → XYZ (D65), for Markesteijn's Lab homogeneity test. */
  static const float srgb_to_xyz[3][3] = { { 0.4124f, 0.3576f, 0.1805f },
                                           { 0.2126f, 0.7152f, 0.0722f },
                                           { 0.0193f, 0.1192f, 0.9505f } };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (int p = 1; p < 5; p += 3)
      {
        int w, h;
        g_autofree float *truth = demosaic_scene (names[i], &w, &h);
        if (truth == NULL)
          return;
        LmCfa cfa = pattern (p);
        g_autofree float *plane = demosaic_mosaic (truth, w, h, &cfa);
        g_autofree float *rgba = g_new (float, (gsize) 4 * w * h);
        if (p == 4)
          lm_demosaic_markesteijn_cpu (plane, w, h, &cfa, 3, srgb_to_xyz, rgba, 4 * w);
        else
          lm_demosaic_rcd_cpu (plane, w, h, &cfa, rgba, 4 * w);
        double before = demosaic_cpsnr (rgba, 4 * w, truth, w, h, 16);
        lm_demosaic_refine_cpu (plane, w, h, &cfa, rgba, 4 * w);
        double after = demosaic_cpsnr (rgba, 4 * w, truth, w, h, 16);
        g_test_message ("%s (%d × %d, %s): %s %.3f dB, refined %.3f dB", names[i], w, h, p == 4 ? "X-Trans" : "Bayer",
                        p == 4 ? "Markesteijn" : "RCD", before, after);
        g_assert_cmpfloat (after, >=, before + 0.5);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/demosaic-refine/flat", test_refine_flat);
  g_test_add_func ("/demosaic-refine/hue-edge", test_refine_hue_edge);
  g_test_add_func ("/demosaic-refine/poisoned", test_refine_poisoned);
  g_test_add_func ("/demosaic-refine/sizes", test_refine_sizes);
  g_test_add_func ("/demosaic-refine/photos", test_refine_photos);
  return g_test_run ();
}
