/* The X-Trans demosaic (Markesteijn, 1 and 3 passes) and the third-size preview on the CPU
 * (core/raw/demosaic-xtrans.c): the pattern tables, flat fields, neutral edges, the
 * pattern's phase, every small size with poisoned outputs, tiles that do not show, and the
 * quality against the truth of linearised photos mosaicked through X-Pro1's pattern. */
#include <math.h>
#include <string.h>

#include "core/ops/demosaic-xtrans-math.h"
#include "core/raw/demosaic-xtrans.h"
#include "test-util.h"
#include "xtrans-scene.h"

static const float identity[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

/* An output of W × H RGBA floats, every sample NaN. */
static float *
poisoned (int w, int h)
{
  float *out = g_new (float, (gsize) w * h * 4);
  for (gsize i = 0; i < (gsize) w * h * 4; i++)
    out[i] = NAN;
  return out;
}

static float *
run (const float *plane, int w, int h, const LmCfa *cfa, int passes)
{
  float *out = poisoned (w, h);
  lm_demosaic_markesteijn_cpu (plane, w, h, cfa, passes, identity, out, (size_t) w * 4);
  return out;
}

/* Every phase of X-Pro1's pattern and its transpose are X-Trans as the method needs it: 4
 * solitary greens, 16 in blocks, 8 red, 8 blue per 6 × 6; Bayer is not. */
static void
test_prepare (void)
{
  for (int t = 0; t < 2; t++)
    for (int dy = 0; dy < 6; dy++)
      for (int dx = 0; dx < 6; dx++)
        {
          LmCfa cfa = xt_cfa_rolled (dx, dy);
          if (t)
            for (int y = 0; y < 6; y++)
              for (int x = 0; x < y; x++)
                {
                  unsigned char c = cfa.color[y][x];
                  cfa.color[y][x] = cfa.color[x][y], cfa.color[x][y] = c;
                }
          LmXtrans xt;
          g_assert_true (lm_xtrans_prepare (&cfa, &xt));
          int kinds[3] = { 0, 0, 0 }, colors[3] = { 0, 0, 0 };
          for (int y = 0; y < 6; y++)
            for (int x = 0; x < 6; x++)
              kinds[xt.site[y][x].kind]++, colors[xt.site[y][x].color]++;
          g_assert_cmpint (kinds[LM_XT_SOLO], ==, 4);
          g_assert_cmpint (kinds[LM_XT_BLOCK], ==, 16);
          g_assert_cmpint (colors[0], ==, 8);
          g_assert_cmpint (colors[2], ==, 8);
          /* The solitary greens sit on the symmetry axes. */
          for (int y = 0; y < 6; y++)
            for (int x = 0; x < 6; x++)
              if (xt.site[y][x].kind == LM_XT_SOLO)
                g_assert_true (x % 3 == xt.ax && y % 3 == xt.ay);
        }
  LmCfa bayer = { .w = 2, .h = 2, .color = { { 0, 1 }, { 3, 2 } } };
  LmXtrans xt;
  g_assert_false (lm_xtrans_prepare (&bayer, &xt));
  LmCfa bayer6 = { .w = 6, .h = 6 };
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < 6; x++)
      bayer6.color[y][x] = (unsigned char) ((y & 1) ? ((x & 1) ? 2 : 1) : ((x & 1) ? 1 : 0));
  g_assert_false (lm_xtrans_prepare (&bayer6, &xt));
}

/* A flat field of any colour comes back flat, to float rounding, at every pixel (the border
 * too), for both methods and several phases. */
static void
test_flat (void)
{
  static const float colors[][3] = { { 0.37f, 0.37f, 0.37f }, { 0.2f, 0.5f, 0.9f }, { 1.7f, 1.0f, 0.0f } };
  const int w = 31, h = 29;
  for (guint k = 0; k < G_N_ELEMENTS (colors); k++)
    for (int phase = 0; phase < 3; phase++)
      for (int passes = 1; passes <= 3; passes += 2)
        {
          LmCfa cfa = xt_cfa_rolled (phase * 2, phase);
          float *plane = g_new (float, w * h);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              plane[y * w + x] = colors[k][lm_cfa_color (&cfa, x, y)];
          g_autofree float *out = run (plane, w, h, &cfa, passes);
          g_free (plane);
          for (int i = 0; i < w * h; i++)
            {
              for (int c = 0; c < 3; c++)
                g_assert_cmpfloat_with_epsilon (out[i * 4 + c], colors[k][c], 2e-6 * (1.0 + colors[k][c]));
              g_assert_cmpfloat (out[i * 4 + 3], ==, 1.0f);
              LM_TEST_RETURN_IF_FAILED ();
            }
          /* The third-size preview of a flat field is that colour. */
          int ow = (w + 2) / 3, oh = (h + 2) / 3;
          g_autofree float *third = poisoned (ow, oh);
          float *p2 = g_new (float, w * h);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              p2[y * w + x] = colors[k][lm_cfa_color (&cfa, x, y)];
          lm_demosaic_xtrans_third_cpu (p2, w, h, &cfa, third, (size_t) ow * 4);
          g_free (p2);
          for (int i = 0; i < ow * oh; i++)
            for (int c = 0; c < 4; c++)
              g_assert_cmpfloat_with_epsilon (third[i * 4 + c], c < 3 ? colors[k][c] : 1.0f, 1e-6);
        }
}

/* Mean chroma (largest |channel − mean| over the contrast HI − LO) of W × H RGBA pixels, and
 * how many pixels have more than 0.05. */
static double
chroma (const float *out, int w, int h, float lo, float hi, int *over)
{
  double sum = 0.0;
  *over = 0;
  for (int i = 0; i < w * h; i++)
    {
      const float *p = out + i * 4;
      double mean = ((double) p[0] + p[1] + p[2]) / 3.0;
      double c = MAX (MAX (fabs (p[0] - mean), fabs (p[1] - mean)), fabs (p[2] - mean)) / (hi - lo);
      sum += c;
      *over += c > 0.05;
    }
  return sum / (w * h);
}

/* Neutral (band-limited) edges keep their hue: a grey disk on grey, antialiased, at two
 * phases. Measured: mean chroma 0.0009 and 23 pixels of 9216 over 0.05 at 1 pass, 0.0006
 * and 12 at 3; the bilinear-class fill, the control, fails both bounds. */
static void
test_neutral_edges (void)
{
  const int w = 96, h = 96;
  const float lo = 0.05f, hi = 0.6f;
  float *plane = g_new (float, w * h);
  for (int phase = 0; phase < 2; phase++)
    {
      LmCfa cfa = xt_cfa_rolled (phase, 2 * phase);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          {
            double a = CLAMP (30.5 - hypot (x - 47.3, y - 45.8), 0.0, 1.0);
            plane[y * w + x] = (float) (lo + (hi - lo) * a);
          }
      for (int passes = 1; passes <= 3; passes += 2)
        {
          g_autofree float *out = run (plane, w, h, &cfa, passes);
          int over;
          double mean = chroma (out, w, h, lo, hi, &over);
          g_test_message ("phase %d, %d passes: mean chroma %.5f, %d pixels over 0.05", phase, passes, mean, over);
          g_assert_cmpfloat (mean, <, 0.003);
          g_assert_cmpint (over, <, w * h / 100);
        }
      g_autofree float *control = poisoned (w, h);
      lm_demosaic_xtrans_bilinear_cpu (plane, w, h, &cfa, control, (size_t) w * 4);
      int over;
      double mean = chroma (control, w, h, lo, hi, &over);
      g_test_message ("phase %d, bilinear: mean chroma %.5f, %d pixels over 0.05", phase, mean, over);
      g_assert_true (mean >= 0.003 && over >= w * h / 100);
    }
  g_free (plane);
}

/* The pattern rolled by (DX, DY) under the scene shifted by (DX, DY) gives the same image
 * shifted, bit for bit, away from the border (whose mirror axes move with the phase). */
static void
test_phase_shift (void)
{
  int w, h;
  g_autofree float *scene = xt_scene_load ("chelsea.png", 120, &w, &h);
  if (scene == NULL)
    return;
  static const int shifts[][2] = { { 1, 0 }, { 0, 1 }, { 2, 3 }, { 5, 5 }, { 3, 0 }, { 4, 2 } };
  LmCfa cfa0 = xt_cfa_rolled (0, 0);
  for (int passes = 1; passes <= 3; passes += 2)
    {
      g_autofree float *mosaic0 = xt_mosaic (scene, w, h, &cfa0);
      g_autofree float *want = run (mosaic0, w, h, &cfa0, passes);
      int margin = (passes == 1 ? LM_XT_HALO_1 : LM_XT_HALO_3) + 6;
      for (guint s = 0; s < G_N_ELEMENTS (shifts); s++)
        {
          int dx = shifts[s][0], dy = shifts[s][1], sw = w - dx, sh = h - dy;
          LmCfa cfa = xt_cfa_rolled (dx, dy);
          float *shifted = g_new (float, (gsize) sw * sh * 3);
          for (int y = 0; y < sh; y++)
            memcpy (shifted + (gsize) y * sw * 3, scene + ((gsize) (y + dy) * w + dx) * 3, sizeof (float) * sw * 3);
          g_autofree float *mosaic = xt_mosaic (shifted, sw, sh, &cfa);
          g_free (shifted);
          g_autofree float *got = run (mosaic, sw, sh, &cfa, passes);
          int differ = 0;
          for (int y = margin; y < sh - margin; y++)
            for (int x = margin; x < sw - margin; x++)
              differ += memcmp (got + ((gsize) y * sw + x) * 4, want + ((gsize) (y + dy) * w + x + dx) * 4,
                                4 * sizeof (float))
                        != 0;
          if (differ)
            g_test_message ("%d passes, shift (%d, %d): %d pixels differ", passes, dx, dy, differ);
          g_assert_cmpint (differ, ==, 0);
        }
    }
}

/* Every size from 1 × 1 to 19 × 19, both methods, bilinear and the preview, two phases:
 * inputs and outputs allocated to the byte (ASan sees any read or write outside), outputs
 * poisoned with NaN and then all finite, alpha 1, each site's own colour kept where the
 * image is too small for the method. */
static void
test_sizes (void)
{
  for (int phase = 0; phase < 2; phase++)
    for (int h = 1; h <= 19; h++)
      for (int w = 1; w <= 19; w++)
        {
          LmCfa cfa = xt_cfa_rolled (3 * phase, 5 * phase);
          float *plane = g_new (float, w * h);
          for (int i = 0; i < w * h; i++)
            plane[i] = (float) ((i * 7919 + 13 * phase) % 101) / 100.0f;
          for (int passes = 1; passes <= 3; passes += 2)
            {
              g_autofree float *out = run (plane, w, h, &cfa, passes);
              for (int i = 0; i < w * h * 4; i++)
                {
                  if (!isfinite (out[i]) || out[i] < 0.0f || out[i] > 4.0f || (i % 4 == 3 && out[i] != 1.0f))
                    g_test_message ("%d × %d, %d passes, sample %d: %g", w, h, passes, i, out[i]);
                  g_assert_true (isfinite (out[i]) && out[i] >= 0.0f && out[i] <= 4.0f);
                  g_assert_true (i % 4 != 3 || out[i] == 1.0f);
                  LM_TEST_RETURN_IF_FAILED ();
                }
              if (w < 4 || h < 4)
                for (int y = 0; y < h; y++)
                  for (int x = 0; x < w; x++)
                    g_assert_cmpfloat (out[(y * w + x) * 4 + lm_cfa_color (&cfa, x, y)], ==, plane[y * w + x]);
            }
          g_autofree float *bilinear = poisoned (w, h);
          lm_demosaic_xtrans_bilinear_cpu (plane, w, h, &cfa, bilinear, (size_t) w * 4);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              {
                const float *p = bilinear + (y * w + x) * 4;
                g_assert_cmpfloat (p[lm_cfa_color (&cfa, x, y)], ==, plane[y * w + x]);
                g_assert_true (isfinite (p[0]) && isfinite (p[1]) && isfinite (p[2]) && p[3] == 1.0f);
              }
          int ow = (w + 2) / 3, oh = (h + 2) / 3;
          g_autofree float *third = poisoned (ow, oh);
          lm_demosaic_xtrans_third_cpu (plane, w, h, &cfa, third, (size_t) ow * 4);
          for (int i = 0; i < ow * oh * 4; i++)
            g_assert_true (isfinite (third[i]) && third[i] >= 0.0f && third[i] <= 1.0f);
          g_free (plane);
          LM_TEST_RETURN_IF_FAILED ();
        }
}

/* The third-size preview's known answer: each block's colours averaged, the last column and
 * row of blocks ending at the edge (10 × 8 sites give 4 × 3 pixels, from columns 0, 3, 6, 7
 * and rows 0, 3, 5). */
static void
test_third_known (void)
{
  const int w = 10, h = 8, ow = 4, oh = 3;
  LmCfa cfa = xt_cfa_rolled (1, 4);
  float plane[10 * 8];
  for (int i = 0; i < w * h; i++)
    plane[i] = (float) (i % 17) / 16.0f;
  float out[4 * 3 * 4];
  lm_demosaic_xtrans_third_cpu (plane, w, h, &cfa, out, ow * 4);
  for (int Y = 0; Y < oh; Y++)
    for (int X = 0; X < ow; X++)
      for (int c = 0; c < 3; c++)
        {
          static const int x0[] = { 0, 3, 6, 7 }, y0[] = { 0, 3, 5 };
          double sum = 0.0;
          int n = 0;
          for (int y = y0[Y]; y < y0[Y] + 3; y++)
            for (int x = x0[X]; x < x0[X] + 3; x++)
              if (xt_xpro1[(y + 4) % 6][(x + 1) % 6] == c)
                sum += plane[y * w + x], n++;
          g_assert_cmpint (n, >, 0);
          g_assert_cmpfloat_with_epsilon (out[(Y * ow + X) * 4 + c], sum / n, 1e-6);
        }
}

/* Tiles do not show: odd tile sizes give the default tiling's bits, for both methods. */
static void
test_tiles (void)
{
  int w, h;
  g_autofree float *scene = xt_scene_load ("astronaut.tif", 97, &w, &h);
  if (scene == NULL)
    return;
  h = MIN (h, 83);
  LmCfa cfa = xt_cfa_rolled (4, 1);
  g_autofree float *mosaic = xt_mosaic (scene, w, h, &cfa);
  for (int passes = 1; passes <= 3; passes += 2)
    {
      g_autofree float *want = run (mosaic, w, h, &cfa, passes);
      static const int tiles[] = { 7, 13, 50 };
      for (guint t = 0; t < G_N_ELEMENTS (tiles); t++)
        {
          g_autofree float *got = poisoned (w, h);
          lm_demosaic_markesteijn_cpu_tiled (mosaic, w, h, &cfa, passes, identity, got, (size_t) w * 4, tiles[t]);
          int differ = 0;
          for (int i = 0; i < w * h; i++)
            differ += memcmp (got + i * 4, want + i * 4, 4 * sizeof (float)) != 0;
          if (differ)
            g_test_message ("%d passes, tiles of %d: %d pixels differ", passes, tiles[t], differ);
          g_assert_cmpint (differ, ==, 0);
        }
    }
}

/* CPSNR over the pixels at least 16 from every edge, against the truth. */
static double
cpsnr (const float *rgba, size_t stride, const float *truth, int w, int h, int scale)
{
  double mse = 0.0;
  long n = 0;
  for (int y = 16; y < h - 16; y++)
    for (int x = 16; x < w - 16; x++, n++)
      for (int c = 0; c < 3; c++)
        {
          double got = rgba[(size_t) (y / scale) * stride + (size_t) (x / scale) * 4 + c];
          double d = got - truth[((size_t) y * w + x) * 3 + c];
          mse += d * d;
        }
  return 10.0 * log10 (1.0 / (mse / (3.0 * n)));
}

/* Quality against the truth: corpus photos, linear, 2× box-downscaled, mosaicked. Measured
 * CPSNR (dB) at 3 passes / 1 pass / bilinear / third-size repeated 3 × 3:
 *   chelsea (225 × 150)        37.79 / 37.73 / 33.00 / 28.84
 *   astronaut (256 × 256)      33.73 / 33.39 / 26.27 / 21.63
 *   forest-path (centre 320²)  35.55 / 35.46 / 34.71 / 32.33
 *   pier-fog (centre 320²)     40.68 / 39.99 / 30.55 / 28.75
 * (LibRaw 0.20's Markesteijn on the whole forest-path, 16-bit: 34.09 / 33.82 dB; ours 34.07 /
 * 33.78.) Each image must hold its floor: measured − 0.02 dB for the lossless PNG and TIFF,
 * whose decoding and our arithmetic are exact (the diagonals' solitary greens taking the
 * rougher axis cost 0.03 and 0.10 dB), − 0.3 for the JPEGs, whose decoders may differ; 3
 * passes must beat 1 by 0.1 dB on average (measured 0.29), 1 pass bilinear by 0.4 on each
 * (measured 0.75 .. 9.4) and 4 on average (5.5), bilinear the preview by 1 (1.8 .. 4.6). */
static void
test_quality (void)
{
  static const struct {
    const char *name;
    double floor3, floor1;
  } photos[] = {
    { "chelsea.png", 37.77, 37.71 },
    { "astronaut.tif", 33.71, 33.37 },
    { "forest-path.jpg", 35.25, 35.16 },
    { "pier-fog.jpg", 40.38, 39.69 },
  };
  double gain = 0.0, over_bilinear = 0.0;
  for (guint k = 0; k < G_N_ELEMENTS (photos); k++)
    {
      int w, h;
      g_autofree float *scene = xt_scene_load (photos[k].name, 320, &w, &h);
      if (scene == NULL)
        return;
      LmCfa cfa = xt_cfa_rolled (0, 0);
      g_autofree float *mosaic = xt_mosaic (scene, w, h, &cfa);
      g_autofree float *three = run (mosaic, w, h, &cfa, 3);
      g_autofree float *one = run (mosaic, w, h, &cfa, 1);
      int ow = (w + 2) / 3, oh = (h + 2) / 3;
      g_autofree float *third = poisoned (ow, oh);
      lm_demosaic_xtrans_third_cpu (mosaic, w, h, &cfa, third, (size_t) ow * 4);
      g_autofree float *bilinear = poisoned (w, h);
      lm_demosaic_xtrans_bilinear_cpu (mosaic, w, h, &cfa, bilinear, (size_t) w * 4);
      double q3 = cpsnr (three, (size_t) w * 4, scene, w, h, 1), q1 = cpsnr (one, (size_t) w * 4, scene, w, h, 1);
      double qt = cpsnr (third, (size_t) ow * 4, scene, w, h, 3), qb = cpsnr (bilinear, (size_t) w * 4, scene, w, h, 1);
      g_test_message ("%s %d × %d: 3 passes %.2f dB, 1 pass %.2f, bilinear %.2f, third-size %.2f", photos[k].name, w,
                      h, q3, q1, qb, qt);
      g_assert_cmpfloat (q3, >=, photos[k].floor3);
      g_assert_cmpfloat (q1, >=, photos[k].floor1);
      g_assert_cmpfloat (q1, >=, qb + 0.4);
      g_assert_cmpfloat (qb, >=, qt + 1.0);
      gain += (q3 - q1) / G_N_ELEMENTS (photos);
      over_bilinear += (q1 - qb) / G_N_ELEMENTS (photos);
    }
  g_test_message ("3 passes over 1: %+.2f dB on average; 1 pass over bilinear: %+.2f dB", gain, over_bilinear);
  g_assert_cmpfloat (gain, >=, 0.1);
  g_assert_cmpfloat (over_bilinear, >=, 4.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/demosaic-xtrans/prepare", test_prepare);
  g_test_add_func ("/demosaic-xtrans/flat", test_flat);
  g_test_add_func ("/demosaic-xtrans/neutral-edges", test_neutral_edges);
  g_test_add_func ("/demosaic-xtrans/phase-shift", test_phase_shift);
  g_test_add_func ("/demosaic-xtrans/sizes", test_sizes);
  g_test_add_func ("/demosaic-xtrans/third-known", test_third_known);
  g_test_add_func ("/demosaic-xtrans/tiles", test_tiles);
  g_test_add_func ("/demosaic-xtrans/quality", test_quality);
  return g_test_run ();
}
