/* The raw development's first steps (core/raw/prep.c) against their definition worked out
 * here: sites at black, at white and half way give 0, the multiplier and half of it, with a
 * black table whose period is not the CFA's and a white level per channel; clip turns an area
 * where green clipped neutral; reconstruction returns the hue of a clipped gradient of a
 * known colour where clip loses it, through Bayer and X-Trans arrays; an area where every
 * colour clipped turns neutral; outputs start as NaN; images down to 1 × 1; the
 * demosaic-free layouts; damaged levels. */
#include <math.h>

#include "core/error.h"
#include "core/raw/prep.h"
#include "test-util.h"

static gint
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static const guint8 rggb[2][2] = { { LM_CFA_R, LM_CFA_G }, { LM_CFA_G2, LM_CFA_B } };
static const guint8 xtrans[6][6] = {
  { 1, 1, 0, 1, 1, 2 }, { 1, 1, 2, 1, 1, 0 }, { 2, 0, 1, 0, 2, 1 },
  { 1, 1, 2, 1, 1, 0 }, { 1, 1, 0, 1, 1, 2 }, { 0, 2, 1, 2, 0, 1 },
};

static LmRawInfo *
bayer_info (void)
{
  LmRawInfo *info = lm_raw_info_new ();
  info->layout = LM_RAW_BAYER;
  info->cfa_w = info->cfa_h = 2;
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 2; x++)
      info->cfa[y][x] = rggb[y][x];
  /* Black repeating every 3 columns and 1 row: not the CFA's period. */
  info->black_w = 3, info->black_h = 1;
  info->black[0][0] = 500.0f, info->black[0][1] = 520.0f, info->black[0][2] = 510.0f;
  info->white[0] = 4500.0f, info->white[1] = 4520.0f, info->white[2] = 4000.0f, info->white[3] = 4100.0f;
  return info;
}

static const float balance[4] = { 2.0f, 1.0f, 1.5f, 1.0f };

static LmImage *
cfa_image (guint w, guint h)
{
  LmImage *image = lm_image_new (LM_FORMAT_CFA16, w, h, lm_allocator_host (), NULL);
  g_assert_nonnull (image);
  return image;
}

static guint16 *
site (LmImage *image, guint x, guint y)
{
  return (guint16 *) (lm_image_row (image, y)) + x;
}

static float *
poisoned_plane (guint w, guint h)
{
  float *plane = g_new (float, (gsize) w * h);
  for (gsize i = 0; i < (gsize) w * h; i++)
    plane[i] = NAN;
  return plane;
}

static float
info_black (const LmRawInfo *info, guint x, guint y)
{
  return info->black[y % info->black_h][x % info->black_w];
}

static int
info_color (const LmRawInfo *info, guint x, guint y)
{
  return info->cfa[y % info->cfa_h][x % info->cfa_w];
}

/* Black → 0, white → the multiplier, half way → half of it, for each site of a 6 × 4 Bayer
 * image whose black comes from a table of period 3 × 1 and whose white is per colour. */
static void
test_known_sites (void)
{
  g_autoptr (LmRawInfo) info = bayer_info ();
  LmRawPrep prep;
  lm_raw_prep_init (&prep, info, balance, LM_RAW_HIGHLIGHTS_RECONSTRUCT);
  for (int level = 0; level < 3; level++)
    {
      g_autoptr (LmImage) image = cfa_image (6, 4);
      for (guint y = 0; y < 4; y++)
        for (guint x = 0; x < 6; x++)
          {
            float b = info_black (info, x, y), w = info->white[info_color (info, x, y)];
            *site (image, x, y) = (guint16) (level == 0 ? b : level == 1 ? (b + w) / 2 : w - 1);
          }
      g_autofree float *plane = poisoned_plane (6, 4);
      g_assert_true (lm_raw_prep_cpu (&prep, image, plane, NULL));
      for (guint y = 0; y < 4; y++)
        for (guint x = 0; x < 6; x++)
          {
            int c = info_color (info, x, y);
            float b = info_black (info, x, y), w = info->white[c];
            double want = level == 0 ? 0.0 : level == 1 ? 0.5 * balance[c] : (w - 1 - b) / (double) (w - b) * balance[c];
            g_assert_cmpfloat_with_epsilon (plane[y * 6 + x], want, 1e-6);
          }
    }
}

/* A flat patch: each site at FRACTION of its colour's range from black to white (1 and above: clipped). */
static LmImage *
patch (const LmRawInfo *info, guint w, guint h, const double fraction[3])
{
  LmImage *image = cfa_image (w, h);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        int c = info_color (info, x, y);
        float b = info_black (info, x, y), white = info->white[c];
        double v = b + fraction[c == LM_CFA_G2 ? 1 : c] * (white - b);
        *site (image, x, y) = (guint16) MIN (v, 65535.0);
      }
  return image;
}

/* Green clipped, red and blue not: balanced, the patch would be (1.6, 1, 1.2), a colour made
 * by the clipping. Clip makes every site 1 (the least multiplier): neutral. */
static void
test_clip_neutral (void)
{
  g_autoptr (LmRawInfo) info = bayer_info ();
  g_autoptr (LmImage) image = patch (info, 9, 7, (const double[3]) { 0.8, 1.2, 0.8 });
  LmRawPrep prep;
  lm_raw_prep_init (&prep, info, balance, LM_RAW_HIGHLIGHTS_CLIP);
  g_assert_cmpfloat (prep.clip, ==, 1.0f);
  g_autofree float *plane = poisoned_plane (9, 7);
  g_assert_true (lm_raw_prep_cpu (&prep, image, plane, NULL));
  for (guint i = 0; i < 9 * 7; i++)
    g_assert_cmpfloat (plane[i], ==, 1.0f);
}

/* Every colour at its white level: nothing is known of the hue, and reconstruction makes the area
 * neutral at the last channel's clip level (the greatest multiplier, 2). */
static void
test_all_clipped_neutral (void)
{
  g_autoptr (LmRawInfo) info = bayer_info ();
  g_autoptr (LmImage) image = patch (info, 8, 6, (const double[3]) { 1.0, 1.0, 1.0 });
  LmRawPrep prep;
  lm_raw_prep_init (&prep, info, balance, LM_RAW_HIGHLIGHTS_RECONSTRUCT);
  g_assert_cmpfloat (prep.clip_max, ==, 2.0f);
  g_autofree float *plane = poisoned_plane (8, 6);
  g_assert_true (lm_raw_prep_cpu (&prep, image, plane, NULL));
  for (guint y = 0; y < 6; y++)
    for (guint x = 0; x < 8; x++)
      {
        int c = info_color (info, x, y);
        float b = info_black (info, x, y), w = info->white[c];
        double own = (*site (image, x, y) - b) / (double) (w - b) * balance[c];
        g_assert_cmpfloat (own, <=, 2.0);
        g_assert_cmpfloat_with_epsilon (plane[y * 8 + x], 2.0, 1e-6);
      }
}

/* A gradient of one hue: balanced camera RGB (0.5, 1, 0.7) × s, s from 0.3 to 2 across the
 * image, with ±0.25 % noise; green clips from s = 1, red and blue never. */
#define GRADIENT_W 96
#define GRADIENT_H 24

static const double gradient_hue[3] = { 0.5, 1.0, 0.7 };

static double
gradient_s (guint x)
{
  return 0.3 + 1.7 * x / (GRADIENT_W - 1.0);
}

static LmImage *
gradient (const LmRawInfo *info)
{
  LmImage *image = cfa_image (GRADIENT_W, GRADIENT_H);
  guint32 state = 12345;
  for (guint y = 0; y < GRADIENT_H; y++)
    for (guint x = 0; x < GRADIENT_W; x++)
      {
        state = state * 1664525u + 1013904223u;
        double noise = 1.0 + 0.005 * ((state >> 8) / 16777216.0 - 0.5);
        int c = info_color (info, x, y), k = c == LM_CFA_G2 ? 1 : c;
        float b = info_black (info, x, y), w = info->white[c];
        double v = b + gradient_hue[k] * gradient_s (x) * noise / balance[c] * (w - b);
        *site (image, x, y) = (guint16) MIN (floor (v + 0.5), (double) w);
      }
  return image;
}

static float *
developed (const LmRawInfo *info, const LmImage *image, LmRawHighlights mode)
{
  LmRawPrep prep;
  lm_raw_prep_init (&prep, info, balance, mode);
  float *plane = poisoned_plane (GRADIENT_W, GRADIENT_H);
  g_assert_true (lm_raw_prep_cpu (&prep, image, plane, NULL));
  return plane;
}

/* The hue of each 2 × 2 cell whose greens clipped (r/g and b/g of its sites) against the
 * truth's 0.5 and 0.7. */
static double
hue_error (LmRawHighlights mode, int *cells)
{
  g_autoptr (LmRawInfo) info = bayer_info ();
  g_autoptr (LmImage) image = gradient (info);
  g_autofree float *plane = developed (info, image, mode);
  double worst = 0.0;
  *cells = 0;
  for (guint y = 0; y + 1 < GRADIENT_H; y += 2)
    for (guint x = 0; x + 1 < GRADIENT_W; x += 2)
      {
        if (*site (image, x + 1, y) < info->white[1] || *site (image, x, y + 1) < info->white[3])
          continue;
        const float *r0 = plane + (gsize) y * GRADIENT_W + x, *r1 = r0 + GRADIENT_W;
        double g = 0.5 * (r0[1] + r1[0]);
        worst = MAX (worst, fabs (r0[0] / g / gradient_hue[0] - 1.0));
        worst = MAX (worst, fabs (r1[1] / g / gradient_hue[2] - 1.0));
        ++*cells;
      }
  return worst;
}

static void
test_reconstruct_hue (void)
{
  int cells_clip, cells;
  double clip = hue_error (LM_RAW_HIGHLIGHTS_CLIP, &cells_clip);
  double reconstructed = hue_error (LM_RAW_HIGHLIGHTS_RECONSTRUCT, &cells);
  g_test_message ("%d clipped cells: hue off by up to %.4f with clip, %.4f reconstructed", cells, clip, reconstructed);
  g_assert_cmpint (cells, >, 200);
  g_assert_cmpfloat (clip, >, 0.5);
  /* Measured 0.0108: the noise of single sites, and the 3 × 3 means at the image's edges. */
  g_assert_cmpfloat (reconstructed, <, 0.02);
}

/* The same gradient through X-Trans: each clipped green against the light that reached it
 * (the median and the worst of the relative errors). */
static void
xtrans_errors (LmRawHighlights mode, double *median, double *worst)
{
  g_autoptr (LmRawInfo) info = bayer_info ();
  info->layout = LM_RAW_XTRANS;
  info->cfa_w = info->cfa_h = 6;
  memcpy (info->cfa, xtrans, sizeof xtrans);
  g_autoptr (LmImage) image = gradient (info);
  g_autofree float *plane = developed (info, image, mode);
  g_autoptr (GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint y = 0; y < GRADIENT_H; y++)
    for (guint x = 0; x < GRADIENT_W; x++)
      if (info_color (info, x, y) == LM_CFA_G && *site (image, x, y) >= info->white[1])
        {
          double e = fabs (plane[y * GRADIENT_W + x] / gradient_s (x) - 1.0);
          g_array_append_val (errors, e);
        }
  g_assert_cmpuint (errors->len, >, 400);
  g_array_sort (errors, (GCompareFunc) compare_double);
  *median = g_array_index (errors, double, errors->len / 2);
  *worst = g_array_index (errors, double, errors->len - 1);
}

static void
test_reconstruct_xtrans (void)
{
  double clip_median, clip_worst, median, worst;
  xtrans_errors (LM_RAW_HIGHLIGHTS_CLIP, &clip_median, &clip_worst);
  xtrans_errors (LM_RAW_HIGHLIGHTS_RECONSTRUCT, &median, &worst);
  g_test_message ("X-Trans clipped greens off by %.4f (median), %.4f (worst) with clip; %.4f, %.4f reconstructed",
                  clip_median, clip_worst, median, worst);
  g_assert_cmpfloat (clip_median, >, 0.2);
  /* Measured 0.0035 and 0.021: X-Trans's 3 × 3 holds red and blue off the site's centre. */
  g_assert_cmpfloat (median, <, 0.01);
  g_assert_cmpfloat (worst, <, 0.05);
}

/* Every size from 1 × 1 to 7 × 7 on Bayer and X-Trans, both modes, bright random data: every
 * output written and finite, clip's equal to its formula. */
static void
test_small_sizes (void)
{
  g_autoptr (LmRawInfo) info = bayer_info ();
  g_autoptr (LmRawInfo) fuji = bayer_info ();
  fuji->layout = LM_RAW_XTRANS;
  fuji->cfa_w = fuji->cfa_h = 6;
  memcpy (fuji->cfa, xtrans, sizeof xtrans);
  LmRawInfo *infos[2] = { info, fuji };
  guint32 state = 7;
  for (int k = 0; k < 2; k++)
    for (guint h = 1; h <= 7; h++)
      for (guint w = 1; w <= 7; w++)
        {
          g_autoptr (LmImage) image = cfa_image (w, h);
          for (guint y = 0; y < h; y++)
            for (guint x = 0; x < w; x++)
              {
                state = state * 1664525u + 1013904223u;
                *site (image, x, y) = 3000 + (state >> 16) % 2000;
              }
          for (int mode = 0; mode < 2; mode++)
            {
              LmRawPrep prep;
              lm_raw_prep_init (&prep, infos[k], balance, mode);
              g_autofree float *plane = poisoned_plane (w, h);
              g_assert_true (lm_raw_prep_cpu (&prep, image, plane, NULL));
              for (guint y = 0; y < h; y++)
                for (guint x = 0; x < w; x++)
                  {
                    float v = plane[y * w + x];
                    g_assert_true (isfinite (v));
                    if (mode == LM_RAW_HIGHLIGHTS_CLIP)
                      {
                        int c = info_color (infos[k], x, y);
                        float b = info_black (infos[k], x, y);
                        double want = MIN ((*site (image, x, y) - b) / (double) (infos[k]->white[c] - b) * balance[c], 1.0);
                        g_assert_cmpfloat_with_epsilon (v, want, 1e-6);
                      }
                    LM_TEST_RETURN_IF_FAILED ();
                  }
            }
        }
}

/* Camera RGB (LinearRaw) and monochrome data: each channel scaled as a site of its colour,
 * alpha 1; reconstruction raises a clipped channel to the mean of the unclipped ones. */
static void
test_linear (void)
{
  g_autoptr (LmRawInfo) info = bayer_info ();
  info->layout = LM_RAW_LINEAR;
  info->black_w = info->black_h = 1;
  info->black[0][0] = 500.0f;
  /* Two rows, the second the first's pixels swapped, into rows of 12 floats (a padded
   * stride, in floats as the demosaic's). */
  g_autoptr (LmImage) rgb = lm_image_new (LM_FORMAT_RGBA16, 2, 2, lm_allocator_host (), NULL);
  const guint16 px[8] = { 2500, 2510, 2250, 65535, 4000, 4520, 3800, 65535 }; /* 2nd: green clipped */
  memcpy (lm_image_row (rgb, 0), px, sizeof px);
  memcpy (lm_image_row (rgb, 1), px + 4, 4 * sizeof *px);
  memcpy (lm_image_row (rgb, 1) + 4 * sizeof *px, px, 4 * sizeof *px);
  for (int mode = 0; mode < 2; mode++)
    {
      LmRawPrep prep;
      lm_raw_prep_init (&prep, info, balance, mode);
      float out[24];
      for (int i = 0; i < 24; i++)
        out[i] = NAN;
      g_assert_true (lm_raw_prep_linear_cpu (&prep, rgb, out, 12, NULL));
      double r = 3500.0 / 4000.0 * 2.0, b = 3300.0 / 3500.0 * 1.5;
      gboolean rebuild = mode == LM_RAW_HIGHLIGHTS_RECONSTRUCT;
      /* (2500 − 500) / 4000 × 2, (2510 − 500) / 4020, (2250 − 500) / 3500 × 1.5; then the
       * clipped pixel. */
      const double want[8] = { 1.0, 0.5, 0.75, 1.0, rebuild ? r : 1.0, rebuild ? (r + b) / 2 : 1.0, rebuild ? b : 1.0, 1.0 };
      for (int i = 0; i < 8; i++)
        {
          g_assert_cmpfloat_with_epsilon (out[i], want[i], 1e-6);
          g_assert_cmpfloat_with_epsilon (out[12 + (i + 4) % 8], want[i], 1e-6);
        }
      for (int i = 8; i < 12; i++)
        g_assert_true (isnan (out[i]) && isnan (out[12 + i]));
    }

  info->layout = LM_RAW_MONO;
  g_autoptr (LmImage) gray = lm_image_new (LM_FORMAT_GRAY16, 3, 1, lm_allocator_host (), NULL);
  const guint16 g16[3] = { 500, 2510, 60000 };
  memcpy (gray->data, g16, sizeof g16);
  LmRawPrep prep;
  lm_raw_prep_init (&prep, info, balance, LM_RAW_HIGHLIGHTS_RECONSTRUCT);
  float out[12];
  for (int i = 0; i < 12; i++)
    out[i] = NAN;
  g_assert_true (lm_raw_prep_linear_cpu (&prep, gray, out, 12, NULL));
  const double want[3] = { 0.0, 0.5, 1.0 };
  for (int x = 0; x < 3; x++)
    {
      for (int c = 0; c < 3; c++)
        g_assert_cmpfloat_with_epsilon (out[4 * x + c], want[x], 1e-6);
      g_assert_cmpfloat (out[4 * x + 3], ==, 1.0f);
    }
}

/* A white level at or below the black, multipliers of 0 and NaN, a period of 0: usable
 * numbers, finite output; a source of another format: an error. */
static void
test_damaged_levels (void)
{
  g_autoptr (LmRawInfo) info = bayer_info ();
  g_autoptr (LmImage) image = patch (info, 4, 4, (const double[3]) { 0.5, 0.5, 0.5 });
  info->white[0] = 400.0f, info->white[2] = NAN;
  info->black_w = 0;
  LmRawPrep prep;
  lm_raw_prep_init (&prep, info, (const float[4]) { 0.0f, 1.0f, NAN, 0.0f }, LM_RAW_HIGHLIGHTS_RECONSTRUCT);
  g_autofree float *plane = poisoned_plane (4, 4);
  g_assert_true (lm_raw_prep_cpu (&prep, image, plane, NULL));
  for (int i = 0; i < 16; i++)
    g_assert_true (isfinite (plane[i]));

  GError *error = NULL;
  g_autoptr (LmImage) gray = lm_image_new (LM_FORMAT_GRAY16, 4, 4, lm_allocator_host (), NULL);
  g_assert_false (lm_raw_prep_cpu (&prep, gray, plane, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/raw-prep/known-sites", test_known_sites);
  g_test_add_func ("/raw-prep/clip-neutral", test_clip_neutral);
  g_test_add_func ("/raw-prep/all-clipped-neutral", test_all_clipped_neutral);
  g_test_add_func ("/raw-prep/reconstruct-hue", test_reconstruct_hue);
  g_test_add_func ("/raw-prep/reconstruct-xtrans", test_reconstruct_xtrans);
  g_test_add_func ("/raw-prep/small-sizes", test_small_sizes);
  g_test_add_func ("/raw-prep/linear", test_linear);
  g_test_add_func ("/raw-prep/damaged-levels", test_damaged_levels);
  return g_test_run ();
}
