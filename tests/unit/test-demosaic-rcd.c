/* RCD on the CPU (core/raw/demosaic-rcd.c) by its properties and against ground truth: a flat
 * field stays flat within the bias its ratio step's epsilon implies; a neutral edge stays
 * neutral; the four CFA phases and shifts across tile edges give the same pixels, shifted; one
 * site's reach is exactly the halo; every size from 1 × 1 to 17 × 17 writes every pixel of a
 * NaN-poisoned output (the sanitizer build catches a read outside); and on linearised photos
 * of the corpus, mosaicked, RCD's CPSNR holds floors measured against the truth and beats
 * bilinear by a margin. Bilinear and half size are held to their definitions too. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/ops/demosaic-rcd-math.h"
#include "core/raw/demosaic.h"
#include "demosaic-scene.h"
#include "test-util.h"

static const char *const phases[] = { "RGGB", "GRBG", "GBRG", "BGGR" };

typedef void (*Demosaic) (const float *, int, int, const LmCfa *, float *, size_t);

/* An output of W × H pixels and STRIDE floats a row, NaN everywhere. */
static float *
poisoned (int w, int h, size_t stride)
{
  float *out = g_new (float, stride * h);
  for (size_t i = 0; i < stride * h; i++)
    out[i] = NAN;
  return out;
}

static float *
random_plane (int w, int h, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  float *p = g_new (float, (gsize) w * h);
  for (gsize i = 0; i < (gsize) w * h; i++)
    p[i] = (float) g_rand_double (rand);
  g_rand_free (rand);
  return p;
}

/* A flat field: green's estimate is c · 2L / (ε + 2L) with L = 4c, so every colour comes out
 * within ε/8 of c (less the further steps' colour differences cancel), plus the rounding of
 * a few operations. Measured: 1.25e-6 at 0.37, 0 at 0. */
static void
test_flat (void)
{
  static const float values[] = { 0.0f, 1e-4f, 0.02f, 0.37f, 1.0f, 2.5f };
  const int w = 41, h = 37;
  float worst = 0.0f;
  for (guint p = 0; p < G_N_ELEMENTS (phases); p++)
    for (guint v = 0; v < G_N_ELEMENTS (values); v++)
      {
        LmCfa cfa = demosaic_cfa (phases[p]);
        g_autofree float *plane = g_new (float, w * h);
        for (int i = 0; i < w * h; i++)
          plane[i] = values[v];
        g_autofree float *out = poisoned (w, h, 4 * w);
        lm_demosaic_rcd_cpu (plane, w, h, &cfa, out, 4 * w);
        float bound = LM_RCD_EPS / 8.0f + 8.0f * values[v] * FLT_EPSILON;
        for (int i = 0; i < w * h; i++)
          {
            for (int c = 0; c < 3; c++)
              {
                float d = fabsf (out[4 * i + c] - values[v]);
                worst = MAX (worst, d);
                g_assert_cmpfloat (d, <=, bound);
              }
            g_assert_cmpfloat (out[4 * i + 3], ==, 1.0f);
            LM_TEST_RETURN_IF_FAILED ();
          }
      }
  g_test_message ("flat field: largest error %.3g (ε/8 = %.3g)", worst, LM_RCD_EPS / 8.0f);
}

/* The largest chroma of a demosaiced neutral image: max |R − G|, |B − G|, relative to the
 * image's brightest value (1 − 0.05). */
static double
worst_chroma (Demosaic demosaic, const float *gray, int w, int h, const LmCfa *cfa)
{
  g_autofree float *rgb = g_new (float, (gsize) w * h * 3);
  for (int i = 0; i < w * h * 3; i++)
    rgb[i] = gray[i / 3];
  g_autofree float *plane = demosaic_mosaic (rgb, w, h, cfa);
  g_autofree float *out = poisoned (w, h, 4 * w);
  demosaic (plane, w, h, cfa, out, 4 * w);
  double worst = 0.0;
  for (int i = 0; i < w * h; i++)
    {
      double g = out[4 * i + 1];
      double d = MAX (fabs (out[4 * i] - g), fabs (out[4 * i + 2] - g)) / 0.8;
      worst = isnan (d) ? INFINITY : MAX (worst, d);
    }
  return worst;
}

/* Neutral edges between 0.05 and 0.8 at several angles, as a lens draws them (a logistic step
 * of scale 1 site; a sharper step than the sensor samples aliases for any method): RCD keeps
 * them neutral where bilinear makes colour fringes. Measured (worst pixel, of the range):
 * RCD 0 along the axes, at most 0.035 at 20°, 45°, 71° and 135°; bilinear 0.041 and 0.075 to
 * 0.164 there. */
static void
test_neutral_edge (void)
{
  const int w = 48, h = 40;
  static const double angles[] = { 0.0, 90.0, 45.0, 135.0, 20.0, 71.0 };
  g_autofree float *gray = g_new (float, w * h);
  for (guint a = 0; a < G_N_ELEMENTS (angles); a++)
    {
      double nx = cos (angles[a] * G_PI / 180.0), ny = sin (angles[a] * G_PI / 180.0);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          {
            double d = (x - w / 2 + 0.3) * nx + (y - h / 2 + 0.3) * ny;
            gray[y * w + x] = (float) (0.05 + 0.75 / (1.0 + exp (-d)));
          }
      for (guint p = 0; p < G_N_ELEMENTS (phases); p++)
        {
          LmCfa cfa = demosaic_cfa (phases[p]);
          double rcd = worst_chroma (lm_demosaic_rcd_cpu, gray, w, h, &cfa);
          double bilinear = worst_chroma (lm_demosaic_bilinear_cpu, gray, w, h, &cfa);
          g_test_message ("edge at %g°, %s: worst chroma RCD %.4f, bilinear %.4f", angles[a], phases[p], rcd,
                          bilinear);
          g_assert_cmpfloat (rcd, <, fmod (angles[a], 90.0) == 0.0 ? 1e-5 : 0.05);
          g_assert_cmpfloat (bilinear, >, 2.0 * rcd);
        }
    }
}

/* The mosaic of a random RGB image through CFA, cut at (DX, DY): the same scene seen by a
 * sensor whose CFA is the pattern moved by (DX, DY). Each phase, and shifts by 2 that move the
 * tile edges (128) across the scene, give the same pixels away from the borders. */
static void
test_phases_shift (void)
{
  const int w = 300, h = 270, margin = LM_RCD_HALO + 2;
  g_autofree float *rgb = random_plane (3 * w, h, 7);
  LmCfa rggb = demosaic_cfa ("RGGB");
  g_autofree float *plane = demosaic_mosaic (rgb, w, h, &rggb);
  g_autofree float *ref = poisoned (w, h, 4 * w);
  lm_demosaic_rcd_cpu (plane, w, h, &rggb, ref, 4 * w);
  static const int shifts[][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 2, 0 }, { 0, 2 }, { 3, 2 }, { 31, 17 } };
  for (guint i = 0; i < G_N_ELEMENTS (shifts); i++)
    {
      int dx = shifts[i][0], dy = shifts[i][1], sw = w - dx, sh = h - dy;
      /* The pattern seen from (DX, DY), and the scene cut there. */
      char name[5];
      for (int k = 0; k < 4; k++)
        name[k] = "RGGB"[((k / 2 + dy) % 2) * 2 + (k % 2 + dx) % 2];
      name[4] = 0;
      LmCfa cfa = demosaic_cfa (name);
      g_autofree float *cut = g_new (float, (gsize) sw * sh * 3);
      for (int y = 0; y < sh; y++)
        memcpy (cut + (gsize) y * sw * 3, rgb + ((gsize) (y + dy) * w + dx) * 3, sw * 3 * sizeof (float));
      g_autofree float *cut_plane = demosaic_mosaic (cut, sw, sh, &cfa);
      g_autofree float *out = poisoned (sw, sh, 4 * sw);
      lm_demosaic_rcd_cpu (cut_plane, sw, sh, &cfa, out, 4 * sw);
      guint64 differ = 0;
      for (int y = margin; y < sh - margin; y++)
        for (int x = margin; x < sw - margin; x++)
          differ += memcmp (out + ((gsize) y * sw + x) * 4, ref + ((gsize) (y + dy) * w + x + dx) * 4, 16) != 0;
      g_test_message ("shift (%d, %d), %s: %" G_GUINT64_FORMAT " pixels differ", dx, dy, name, differ);
      g_assert_cmpuint (differ, ==, 0);
    }
}

/* One site changed reaches exactly LM_RCD_HALO sites (Chebyshev) from a red or blue site. */
static void
test_reach (void)
{
  const int n = 64;
  LmCfa cfa = demosaic_cfa ("RGGB");
  g_autofree float *plane = random_plane (n, n, 11);
  g_autofree float *ref = poisoned (n, n, 4 * n), *out = poisoned (n, n, 4 * n);
  lm_demosaic_rcd_cpu (plane, n, n, &cfa, ref, 4 * n);
  int widest = 0;
  for (int k = 0; k < 4; k++)
    {
      int sx = 32 + k % 2, sy = 32 + k / 2;
      float kept = plane[sy * n + sx];
      plane[sy * n + sx] = kept + 0.3f;
      lm_demosaic_rcd_cpu (plane, n, n, &cfa, out, 4 * n);
      plane[sy * n + sx] = kept;
      int reach = 0;
      for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
          if (memcmp (out + 4 * (y * n + x), ref + 4 * (y * n + x), 12) != 0)
            reach = MAX (reach, MAX (abs (x - sx), abs (y - sy)));
      g_test_message ("site (%d, %d): reach %d", sx, sy, reach);
      g_assert_cmpint (reach, <=, LM_RCD_HALO);
      widest = MAX (widest, reach);
    }
  g_assert_cmpint (widest, ==, LM_RCD_HALO);
}

/* Every size up to 17 × 17 and every phase: each pixel written (the poison gone), finite, not
 * negative, alpha 1, the padding after each row untouched; a flat input stays flat. Buffers are
 * exactly as large as the image, for the sanitizers. */
static void
check_sizes (Demosaic demosaic, gboolean half)
{
  for (int h = 1; h <= 17; h++)
    for (int w = 1; w <= 17; w++)
      for (guint p = 0; p < G_N_ELEMENTS (phases); p++)
        for (int flat = 0; flat < 2; flat++)
          {
            LmCfa cfa = demosaic_cfa (phases[p]);
            g_autofree float *plane = random_plane (w, h, w * 100 + h);
            if (flat)
              for (int i = 0; i < w * h; i++)
                plane[i] = 0.25f;
            int ow = half ? (w + 1) / 2 : w, oh = half ? (h + 1) / 2 : h;
            size_t stride = 4 * ow + 4;
            g_autofree float *out = poisoned (ow, oh, stride);
            demosaic (plane, w, h, &cfa, out, stride);
            for (int y = 0; y < oh; y++)
              {
                for (int x = 0; x < ow; x++)
                  {
                    const float *px = out + y * stride + 4 * x;
                    for (int c = 0; c < 3; c++)
                      {
                        g_assert_true (isfinite (px[c]) && px[c] >= 0.0f);
                        if (flat)
                          g_assert_cmpfloat (fabsf (px[c] - 0.25f), <=, LM_RCD_EPS / 8.0f + 2.0f * FLT_EPSILON);
                      }
                    g_assert_cmpfloat (px[3], ==, 1.0f);
                  }
                for (int i = 4 * ow; i < (int) stride; i++)
                  g_assert_true (isnan (out[y * stride + i]));
                if (g_test_failed ())
                  {
                    g_test_message ("size %d × %d, %s, %s", w, h, phases[p], flat ? "flat" : "random");
                    return;
                  }
              }
          }
}

static void
test_sizes_rcd (void)
{
  check_sizes (lm_demosaic_rcd_cpu, FALSE);
}

static void
test_sizes_bilinear (void)
{
  check_sizes (lm_demosaic_bilinear_cpu, FALSE);
}

static void
test_sizes_half (void)
{
  check_sizes (lm_demosaic_half_cpu, TRUE);
}

/* Bilinear and half size by their definitions on a 6 × 4 RGGB mosaic of distinct values. */
static void
test_fast_known (void)
{
  const int w = 6, h = 4;
  LmCfa cfa = demosaic_cfa ("RGGB");
  float plane[24];
  for (int i = 0; i < 24; i++)
    plane[i] = (float) (i + 1);
  float out[4 * 24];
  lm_demosaic_bilinear_cpu (plane, w, h, &cfa, out, 4 * w);
  /* (2, 2): red; green the mean of its 4 neighbours, blue of its 4 diagonals. */
  const float *px = out + 4 * (2 * w + 2);
  g_assert_cmpfloat (px[0], ==, plane[2 * w + 2]);
  g_assert_cmpfloat (px[1], ==, (plane[w + 2] + plane[3 * w + 2] + plane[2 * w + 1] + plane[2 * w + 3]) / 4.0f);
  g_assert_cmpfloat (px[2], ==, (plane[w + 1] + plane[w + 3] + plane[3 * w + 1] + plane[3 * w + 3]) / 4.0f);
  /* (3, 2): green in a red row; red left and right, blue above and below. */
  px = out + 4 * (2 * w + 3);
  g_assert_cmpfloat (px[0], ==, (plane[2 * w + 2] + plane[2 * w + 4]) / 2.0f);
  g_assert_cmpfloat (px[1], ==, plane[2 * w + 3]);
  g_assert_cmpfloat (px[2], ==, (plane[w + 3] + plane[3 * w + 3]) / 2.0f);
  /* (0, 0) at the corner: reflect-101 reads (1, 0) for (−1, 0), so green is (G(1,0) + G(0,1)) / 2. */
  g_assert_cmpfloat (out[1], ==, (plane[1] + plane[w]) / 2.0f);
  g_assert_cmpfloat (out[2], ==, plane[w + 1]);

  lm_demosaic_half_cpu (plane, w, h, &cfa, out, 4 * 3);
  px = out + 4 * (1 * 3 + 2); /* quad (4, 2) */
  g_assert_cmpfloat (px[0], ==, plane[2 * w + 4]);
  g_assert_cmpfloat (px[1], ==, (plane[2 * w + 5] + plane[3 * w + 4]) * 0.5f);
  g_assert_cmpfloat (px[2], ==, plane[3 * w + 5]);
  g_assert_cmpfloat (px[3], ==, 1.0f);
}

/* A sensor line (one row) and a single site: the colours it has, the missing ones neutral. */
static void
test_lines (void)
{
  LmCfa cfa = demosaic_cfa ("RGGB");
  const float row[5] = { 0.5f, 0.25f, 0.5f, 0.25f, 0.5f };
  float out[4 * 5];
  lm_demosaic_rcd_cpu (row, 5, 1, &cfa, out, 20);
  for (int x = 0; x < 5; x++)
    {
      g_assert_cmpfloat (out[4 * x], ==, 0.5f);
      g_assert_cmpfloat (out[4 * x + 1], ==, 0.25f);
      g_assert_cmpfloat (out[4 * x + 2], ==, 0.25f); /* no blue on the line: green's */
    }
  float one = 0.3f;
  lm_demosaic_rcd_cpu (&one, 1, 1, &cfa, out, 4);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat (out[c], ==, 0.3f);
  lm_demosaic_half_cpu (&one, 1, 1, &cfa, out, 4);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat (out[c], ==, 0.3f);
}

/* CPSNR against the linear scene, border 16, as measured at this commit: RCD (RGGB and BGGR)
 * and bilinear. The floors sit 0.1 dB below RCD's figures (JPEG decoders may differ by a
 * level); RCD must beat bilinear by 2.5 dB on each (the smallest gap measured is 3.0). */
static const struct {
  const char *name;
  double rcd_floor;
} photos[] = {
  { "chelsea.png", 37.56 },
  { "astronaut.tif", 33.81 },
  { "forest-path.jpg", 34.48 },
  { "pier-fog.jpg", 46.77 },
};

static void
test_photos (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (photos); i++)
    for (int p = 0; p < 4; p += 3)
      {
        int w, h;
        g_autofree float *truth = demosaic_scene (photos[i].name, &w, &h);
        if (truth == NULL)
          return;
        LmCfa cfa = demosaic_cfa (phases[p]);
        g_autofree float *plane = demosaic_mosaic (truth, w, h, &cfa);
        g_autofree float *rcd = poisoned (w, h, 4 * w), *bilinear = poisoned (w, h, 4 * w);
        lm_demosaic_rcd_cpu (plane, w, h, &cfa, rcd, 4 * w);
        lm_demosaic_bilinear_cpu (plane, w, h, &cfa, bilinear, 4 * w);
        double a = demosaic_cpsnr (rcd, 4 * w, truth, w, h, 16);
        double b = demosaic_cpsnr (bilinear, 4 * w, truth, w, h, 16);
        g_test_message ("%s (%d × %d, %s): CPSNR RCD %.3f dB, bilinear %.3f dB", photos[i].name, w, h, phases[p], a, b);
        g_assert_cmpfloat (a, >=, photos[i].rcd_floor);
        g_assert_cmpfloat (a, >=, b + 2.5);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/demosaic-rcd/flat", test_flat);
  g_test_add_func ("/demosaic-rcd/neutral-edge", test_neutral_edge);
  g_test_add_func ("/demosaic-rcd/phases-shift", test_phases_shift);
  g_test_add_func ("/demosaic-rcd/reach", test_reach);
  g_test_add_func ("/demosaic-rcd/sizes", test_sizes_rcd);
  g_test_add_func ("/demosaic-bilinear/sizes", test_sizes_bilinear);
  g_test_add_func ("/demosaic-half/sizes", test_sizes_half);
  g_test_add_func ("/demosaic-fast/known", test_fast_known);
  g_test_add_func ("/demosaic-rcd/lines", test_lines);
  g_test_add_func ("/demosaic-rcd/photos", test_photos);
  return g_test_run ();
}
