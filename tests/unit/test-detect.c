/* Source detection's CPU reference (core/astro): labelling on hand-made patterns with known
 * answers (SciPy's numbering), the minimum area, κ-σ clipping by hand, the parameters, and the
 * whole pipeline on a synthetic field with known truth. The oracles for real sizes (SciPy,
 * astropy, photutils, sep) are in tests/astro/test_detect_oracle.py. */
#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "core/astro/detect.h"
#include "core/backend/backend.h"
#include "core/render/astro-run.h"
#include "core/error.h"
#include "test-util.h"

#define POISON_LABEL 0xdeadbeefu

/* Labels MASK (rows of '#' and '.') with CONNECTIVITY and compares with WANT (digits, '.' for
 * 0, letters a… for 10…). */
static void
check_labels (const char *const *mask_rows, const char *const *want_rows, int connectivity, guint want_n)
{
  guint height = g_strv_length ((char **) mask_rows), width = (guint) strlen (mask_rows[0]);
  g_autofree guint8 *mask = g_new (guint8, width * height);
  g_autofree guint32 *labels = g_new (guint32, width * height);
  for (guint i = 0; i < width * height; i++)
    labels[i] = POISON_LABEL;
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      mask[y * width + x] = mask_rows[y][x] == '#';
  guint n = lm_label (mask, width, height, connectivity, labels);
  g_assert_cmpuint (n, ==, want_n);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        char c = want_rows[y][x];
        guint32 want = c == '.' ? 0 : c <= '9' ? (guint32) (c - '0') : (guint32) (c - 'a' + 10);
        if (labels[y * width + x] != want)
          g_test_message ("connectivity %d, (%u, %u): %u, want %u", connectivity, x, y,
                          labels[y * width + x], want);
        g_assert_cmpuint (labels[y * width + x], ==, want);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

static void
test_label_u_shape (void)
{
  /* The two arms open labels 1 and 2 and meet only on the last row: one component, and the
   * later shape numbered 2 after it. The third row's right arm opens before the left one. */
  const char *mask[] = { "#...#..##",
                         "#...#....",
                         "#.#.#..#.",
                         "#####..#.",
                         NULL };
  const char *want[] = { "1...1..22",
                         "1...1....",
                         "1.1.1..3.",
                         "11111..3.",
                         NULL };
  check_labels (mask, want, 4, 3);
  check_labels (mask, want, 8, 3);
  /* A spiral whose inner end is found first: every later label merges into it. */
  const char *spiral[] = { "#######",
                           "......#",
                           "#####.#",
                           "#...#.#",
                           "#.###.#",
                           "#.....#",
                           "#######",
                           NULL };
  const char *spiral_want[] = { "1111111",
                                "......1",
                                "11111.1",
                                "1...1.1",
                                "1.111.1",
                                "1.....1",
                                "1111111",
                                NULL };
  check_labels (spiral, spiral_want, 4, 1);
}

static void
test_label_diagonals (void)
{
  const char *mask[] = { "#...#",
                         ".#.#.",
                         "..#..",
                         ".#.#.",
                         "#...#",
                         NULL };
  const char *four[] = { "1...2",
                         ".3.4.",
                         "..5..",
                         ".6.7.",
                         "8...9",
                         NULL };
  const char *eight[] = { "1...1",
                          ".1.1.",
                          "..1..",
                          ".1.1.",
                          "1...1",
                          NULL };
  check_labels (mask, four, 4, 9);
  check_labels (mask, eight, 8, 1);
  /* Anti-diagonal joined through up-right only, found after a separate source. */
  const char *anti[] = { "#..#",
                         "..#.",
                         ".#..",
                         "#..#",
                         NULL };
  const char *anti4[] = { "1..2",
                          "..3.",
                          ".4..",
                          "5..6",
                          NULL };
  const char *anti8[] = { "1..2",
                          "..2.",
                          ".2..",
                          "2..3",
                          NULL };
  check_labels (anti, anti4, 4, 6);
  check_labels (anti, anti8, 8, 3);
}

static void
test_label_full_and_empty (void)
{
  const char *full[] = { "####", "####", "####", NULL };
  const char *full_want[] = { "1111", "1111", "1111", NULL };
  check_labels (full, full_want, 4, 1);
  check_labels (full, full_want, 8, 1);
  const char *empty[] = { "....", "....", NULL };
  check_labels (empty, empty, 4, 0);
  /* A checkerboard: the most labels 4-connectivity can make, one for 8. */
  const char *board[] = { "#.#.#", ".#.#.", "#.#.#", NULL };
  const char *board4[] = { "1.2.3", ".4.5.", "6.7.8", NULL };
  const char *board8[] = { "1.1.1", ".1.1.", "1.1.1", NULL };
  check_labels (board, board4, 4, 8);
  check_labels (board, board8, 8, 1);
  /* One column and one row: edges on both sides. */
  const char *column[] = { "#", "#", ".", "#", NULL };
  const char *column_want[] = { "1", "1", ".", "2", NULL };
  check_labels (column, column_want, 4, 2);
  const char *row[] = { "##.#.##", NULL };
  const char *row_want[] = { "11.2.33", NULL };
  check_labels (row, row_want, 8, 3);
}

static void
test_label_min_area (void)
{
  const guint32 in[] = { 1, 1, 0, 2, 0, 3, 3, 3,
                         1, 0, 0, 0, 0, 0, 3, 0,
                         4, 4, 0, 5, 5, 0, 0, 0 };
  const guint32 want[] = { 1, 1, 0, 0, 0, 2, 2, 2,
                           1, 0, 0, 0, 0, 0, 2, 0,
                           0, 0, 0, 0, 0, 0, 0, 0 };
  guint32 labels[G_N_ELEMENTS (in)];
  memcpy (labels, in, sizeof in);
  g_assert_cmpuint (lm_label_min_area (labels, 8, 3, 5, 3), ==, 2);
  g_assert_cmpmem (labels, sizeof labels, want, sizeof want);
  memcpy (labels, in, sizeof in);
  g_assert_cmpuint (lm_label_min_area (labels, 8, 3, 5, 1), ==, 5);
  g_assert_cmpmem (labels, sizeof labels, in, sizeof in);
}

static void
test_clip_by_hand (void)
{
  /* κ = 2: pass 1, median 3, σ 39.01 keeps [−75, 81]: 100 goes; pass 2 on 1…4: median 2.5,
   * σ √1.25, bounds 2.5 ± 2.236 keep all: two passes. */
  const float values[] = { 4, 100, 2, NAN, 1, 3 };
  LmClipStats stats;
  g_assert_true (lm_clip_stats (values, G_N_ELEMENTS (values), 2.0, 10, &stats));
  g_assert_cmpuint (stats.count, ==, 4);
  g_assert_cmpint (stats.iterations, ==, 2);
  g_assert_cmpfloat_with_epsilon (stats.mean, 2.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.median, 2.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.std, sqrt (1.25), 1e-12);
  /* One pass at most: 100 is gone, the statistics are of what that pass kept. */
  g_assert_true (lm_clip_stats (values, G_N_ELEMENTS (values), 2.0, 1, &stats));
  g_assert_cmpuint (stats.count, ==, 4);
  g_assert_cmpint (stats.iterations, ==, 1);
  const float blank[] = { NAN, NAN };
  g_assert_false (lm_clip_stats (blank, 2, 3.0, 10, &stats));
}

static void
test_params (void)
{
  LmDetectParams p;
  lm_detect_params_init (&p);
  g_assert_true (lm_detect_params_check (&p, NULL));
  g_assert_cmpfloat (p.kappa, ==, 3.0);
  g_assert_cmpfloat (p.threshold, ==, 5.0);
  g_assert_cmpuint (p.min_area, ==, 5);
  g_assert_cmpint (p.connectivity, ==, 4);
  g_assert_cmpuint (p.mesh, ==, 64);
  g_assert_cmpuint (p.mesh_filter, ==, 3);
  /* Each case spoils one parameter. */
  const guint n_cases = 7;
  for (guint i = 0; i < n_cases; i++)
    {
      g_autoptr (GError) error = NULL;
      lm_detect_params_init (&p);
      switch (i)
        {
        case 0: p.kappa = 0; break;
        case 1: p.connectivity = 6; break;
        case 2: p.threshold = NAN; break;
        case 3: p.mesh = 1; break;
        case 4: p.filter_sigma = -1; break;
        case 5: p.min_area = 0; break;
        default: p.max_iterations = 0; break;
        }
      g_assert_false (lm_detect_params_check (&p, &error));
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
    }
}

/* A pixel-integrated circular Gaussian of FLUX at (X, Y). */
static void
add_star (float *image, guint width, guint height, double x, double y, double flux, double sigma)
{
  int r = (int) ceil (6 * sigma) + 1;
  double s = sigma * G_SQRT2;
  for (int py = MAX ((int) y - r, 0); py <= MIN ((int) y + r, (int) height - 1); py++)
    for (int px = MAX ((int) x - r, 0); px <= MIN ((int) x + r, (int) width - 1); px++)
      {
        double fx = 0.5 * (erf ((px + 0.5 - x) / s) - erf ((px - 0.5 - x) / s));
        double fy = 0.5 * (erf ((py + 0.5 - y) / s) - erf ((py - 0.5 - y) / s));
        image[(gsize) py * width + px] += (float) (flux * fx * fy);
      }
}

typedef struct {
  double x, y, flux;
} Star;

static void
test_synthetic_field (void)
{
  const guint width = 256, height = 192;
  const double noise = 2.0, psf_sigma = 1.3;
  g_autoptr (GRand) rand = g_rand_new_with_seed (17);
  g_autoptr (LmImage) image = lm_image_new (LM_FORMAT_GRAY_F32, width, height, lm_allocator_host (), NULL);
  g_autofree float *pixels = g_new (float, width * height);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        /* Box-Muller: Gaussian noise from the seeded generator. */
        double u = g_rand_double_range (rand, 1e-12, 1.0), v = g_rand_double (rand);
        double gauss = sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
        pixels[y * width + x] = (float) (200.0 + 0.03 * x - 0.02 * y + noise * gauss);
      }
  /* Stars on a 5 × 4 grid, sub-pixel offsets and fluxes from the generator: S/N over 50. */
  Star stars[20];
  for (guint i = 0; i < G_N_ELEMENTS (stars); i++)
    {
      stars[i].x = 24 + 50 * (i % 5) + g_rand_double (rand);
      stars[i].y = 24 + 45 * (i / 5) + g_rand_double (rand);
      stars[i].flux = g_rand_double_range (rand, 2e4, 6e4);
      add_star (pixels, width, height, stars[i].x, stars[i].y, stars[i].flux, psf_sigma);
    }
  for (guint y = 0; y < height; y++)
    memcpy (lm_image_row (image, y), pixels + y * width, width * sizeof (float));

  LmDetectParams params;
  lm_detect_params_init (&params);
  params.threshold = 3.0;
  params.mesh = 32;
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LmDetectResult) result = lm_detect (backend, image, &params, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpuint (result->n_sources, ==, G_N_ELEMENTS (stars));
  LM_TEST_RETURN_IF_FAILED ();
  double squares = 0.0, worst_flux = 0.0;
  for (guint i = 0; i < G_N_ELEMENTS (stars); i++)
    {
      /* The nearest source: raster order of first pixels need not be the grid's order. */
      const LmSource *s = NULL;
      double best = G_MAXDOUBLE;
      for (guint j = 0; j < result->n_sources; j++)
        {
          const LmSource *c = &result->sources[j];
          g_assert_cmpuint (c->label, ==, j + 1);
          double d2 = (c->x - stars[i].x) * (c->x - stars[i].x) + (c->y - stars[i].y) * (c->y - stars[i].y);
          if (d2 < best)
            {
              best = d2;
              s = c;
            }
        }
      squares += (s->x - stars[i].x) * (s->x - stars[i].x) + (s->y - stars[i].y) * (s->y - stars[i].y);
      worst_flux = MAX (worst_flux, fabs (s->flux / stars[i].flux - 1.0));
      g_assert_cmpfloat (fabs (s->fwhm - 2.3548 * psf_sigma), <, 0.25 * 2.3548 * psf_sigma);
      g_assert_cmpfloat (s->b, <=, s->a);
      g_assert_true (s->xmin <= s->peak_x && s->peak_x <= s->xmax);
    }
  double rms = sqrt (squares / G_N_ELEMENTS (stars));
  g_test_message ("position rms %.4f px, worst flux %.4f", rms, worst_flux);
  g_assert_cmpfloat (rms, <, 0.05);
  g_assert_cmpfloat (worst_flux, <, 0.01);
  /* The maps: the noise within 10 % of the truth; the background within 0.5 σ everywhere (a
   * box of 32² pixels measures its level to σ/32, its mode estimate a few times less well, and
   * the spline extends the edge boxes outwards). */
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        gsize i = (gsize) y * width + x;
        g_assert_cmpfloat (fabs (result->noise[i] - noise), <, 0.1 * noise);
        g_assert_cmpfloat (fabs (result->background[i] - (200.0 + 0.03 * x - 0.02 * y)), <, 0.5 * noise);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

static void
test_steps_write_everything (void)
{
  /* Outputs poisoned with NaN and odd bytes: every element must be written. */
  const guint width = 40, height = 30;
  g_autofree float *data = g_new (float, width * height);
  for (guint i = 0; i < width * height; i++)
    data[i] = (float) ((i * 7919) % 13) - 6.0f;
  data[5] = NAN;
  data[20 * width + 20] = 1000.0f;
  data[20 * width + 21] = 800.0f;
  LmDetectParams params;
  lm_detect_params_init (&params);
  params.mesh = 16;
  g_autofree float *background = g_new (float, width * height);
  g_autofree float *noise = g_new (float, width * height);
  g_autofree guint8 *mask = g_new (guint8, width * height);
  for (guint i = 0; i < width * height; i++)
    background[i] = noise[i] = NAN;
  memset (mask, 0xaa, width * height);
  LmClipStats global;
  g_assert_true (lm_background_map (data, width, height, &params, background, noise, &global, NULL));
  g_assert_true (lm_segment (data, background, noise, width, height, 5.0, 1.0, mask, NULL));
  for (guint i = 0; i < width * height; i++)
    {
      g_assert_true (isfinite (background[i]) && isfinite (noise[i]));
      g_assert_cmpuint (mask[i], <=, 1);
      LM_TEST_RETURN_IF_FAILED ();
    }
  g_assert_cmpuint (mask[5], ==, 0);
  g_assert_cmpuint (mask[20 * width + 20], ==, 1);
  g_autofree guint32 *labels = g_new (guint32, width * height);
  memset (labels, 0xee, width * height * sizeof (guint32));
  guint n = lm_label (mask, width, height, 8, labels);
  g_assert_cmpuint (n, >=, 1);
  LmSource sources[64];
  memset (sources, 0xff, sizeof sources);
  g_assert_cmpuint (n, <=, G_N_ELEMENTS (sources));
  lm_measure (data, background, labels, width, height, n, sources);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (sources[i].label, ==, i + 1);
      g_assert_true (isfinite (sources[i].flux) && sources[i].area >= 1);
    }
}

/* Pixels far above the background but without a usable noise estimate (σ 0, negative, NaN, as
 * a map's overshoot or a box of constant values gives) are never in the mask; beside them the
 * same residual over a positive σ is, and one just under its threshold is not. */
static void
test_segment_needs_noise (void)
{
  const guint width = 6, height = 1;
  const float data[] = { 500, 500, 500, 500, 500, 104 };
  const float noise[] = { 0.0f, -3.0f, NAN, -0.0f, 1.0f, 1.0f };
  float background[6];
  guint8 mask[6];
  for (guint i = 0; i < width; i++)
    background[i] = 100.0f;
  memset (mask, 0xaa, sizeof mask);
  g_assert_true (lm_segment (data, background, noise, width, height, 5.0, 0.0, mask, NULL));
  const guint8 want[] = { 0, 0, 0, 0, 1, 0 };
  for (guint i = 0; i < width; i++)
    g_assert_cmpuint (mask[i], ==, want[i]);
}

static void
test_detect_refuses (void)
{
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  LmDetectParams params;
  lm_detect_params_init (&params);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) gray = lm_image_new (LM_FORMAT_GRAY8, 8, 8, lm_allocator_host (), NULL);
  g_assert_null (lm_detect (backend, gray, &params, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);

  g_autoptr (LmImage) blank = lm_image_new (LM_FORMAT_GRAY_F32, 8, 8, lm_allocator_host (), NULL);
  for (guint y = 0; y < 8; y++)
    for (guint x = 0; x < 8; x++)
      ((float *) lm_image_row (blank, y))[x] = NAN;
  g_assert_null (lm_detect (backend, blank, &params, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);

  for (guint y = 0; y < 8; y++)
    for (guint x = 0; x < 8; x++)
      ((float *) lm_image_row (blank, y))[x] = (float) (x + y);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  g_assert_null (lm_detect (backend, blank, &params, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/detect/label/u-shape", test_label_u_shape);
  g_test_add_func ("/detect/label/diagonals", test_label_diagonals);
  g_test_add_func ("/detect/label/full-and-empty", test_label_full_and_empty);
  g_test_add_func ("/detect/label/min-area", test_label_min_area);
  g_test_add_func ("/detect/clip/by-hand", test_clip_by_hand);
  g_test_add_func ("/detect/params", test_params);
  g_test_add_func ("/detect/synthetic-field", test_synthetic_field);
  g_test_add_func ("/detect/steps-write-everything", test_steps_write_everything);
  g_test_add_func ("/detect/segment-needs-noise", test_segment_needs_noise);
  g_test_add_func ("/detect/refuses", test_detect_refuses);
  return g_test_run ();
}
