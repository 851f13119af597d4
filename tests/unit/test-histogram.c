/* Histograms: counts on small images worked out by hand, GRAY8 in all four channels, the
 * WANT flags, rows' padding never counted, and results independent of the thread count. */
#include <omp.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/ops/histogram.h"
#include "test-util.h"

/* Histogram into a struct filled with garbage first: the function must clear it. */
static void
histogram (const LmImage *image, LmHistWant want, LmHistogram *hist)
{
  memset (hist, 0xAB, sizeof *hist);
  lm_histogram_cpu (image, want, hist);
}

/* Checks that channel C holds exactly the (bin, count) pairs given, and zero elsewhere. */
static void
assert_bins (const LmHistogram *hist, int c, const guint pairs[][2], guint n_pairs)
{
  guint32 want[LM_HIST_BINS] = { 0 };
  for (guint i = 0; i < n_pairs; i++)
    want[pairs[i][0]] = pairs[i][1];
  for (int b = 0; b < LM_HIST_BINS; b++)
    {
      if (hist->bins[c][b] != want[b])
        g_test_message ("channel %d, bin %d", c, b);
      g_assert_cmpuint (hist->bins[c][b], ==, want[b]);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

static void
assert_channel_zero (const LmHistogram *hist, int c)
{
  for (int b = 0; b < LM_HIST_BINS; b++)
    {
      g_assert_cmpuint (hist->bins[c][b], ==, 0);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* A 3×2 RGBA image (rows padded to 64 bytes with 0xAB = 171, a value no pixel has):
 *   (255, 0, 0)     luma .299 · 255 = 76.245 → 76
 *   (0, 255, 0)     .587 · 255 = 149.685 → 150
 *   (0, 0, 255)     .114 · 255 = 29.07 → 29
 *   (100, 150, 200) 29.9 + 88.05 + 22.8 = 140.75 → 141   (twice, alpha 255 and 7)
 *   (10, 20, 30)    2.99 + 11.74 + 3.42 = 18.15 → 18
 * Alpha does not count. */
static LmImage *
small_rgba (void)
{
  const guint8 pixels[] = {
    255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 128,
    100, 150, 200, 255, 10, 20, 30, 255, 100, 150, 200, 7,
  };
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA8, 3, 2, 0xAB);
  memcpy (lm_image_row (image, 0), pixels, 12);
  memcpy (lm_image_row (image, 1), pixels + 12, 12);
  image->opaque = FALSE;
  return image;
}

static const guint r_bins[][2] = { { 255, 1 }, { 0, 2 }, { 100, 2 }, { 10, 1 } };
static const guint g_bins[][2] = { { 0, 2 }, { 255, 1 }, { 150, 2 }, { 20, 1 } };
static const guint b_bins[][2] = { { 0, 2 }, { 255, 1 }, { 200, 2 }, { 30, 1 } };
static const guint y_bins[][2] = { { 76, 1 }, { 150, 1 }, { 29, 1 }, { 141, 2 }, { 18, 1 } };

static void
test_rgba_known_counts (void)
{
  g_autoptr (LmImage) image = small_rgba ();
  LmHistogram hist;
  histogram (image, LM_HIST_WANT_ALL, &hist);
  g_assert_cmpuint (hist.total, ==, 6);
  assert_bins (&hist, LM_HIST_R, r_bins, G_N_ELEMENTS (r_bins));
  assert_bins (&hist, LM_HIST_G, g_bins, G_N_ELEMENTS (g_bins));
  assert_bins (&hist, LM_HIST_B, b_bins, G_N_ELEMENTS (b_bins));
  assert_bins (&hist, LM_HIST_LUMA, y_bins, G_N_ELEMENTS (y_bins));
}

/* WANT selects channels; the others are left zero. */
static void
test_want_flags (void)
{
  g_autoptr (LmImage) image = small_rgba ();
  LmHistogram hist;

  histogram (image, LM_HIST_WANT_RGB, &hist);
  g_assert_cmpuint (hist.total, ==, 6);
  assert_bins (&hist, LM_HIST_R, r_bins, G_N_ELEMENTS (r_bins));
  assert_bins (&hist, LM_HIST_G, g_bins, G_N_ELEMENTS (g_bins));
  assert_bins (&hist, LM_HIST_B, b_bins, G_N_ELEMENTS (b_bins));
  assert_channel_zero (&hist, LM_HIST_LUMA);

  histogram (image, LM_HIST_WANT_LUMA, &hist);
  g_assert_cmpuint (hist.total, ==, 6);
  assert_channel_zero (&hist, LM_HIST_R);
  assert_channel_zero (&hist, LM_HIST_G);
  assert_channel_zero (&hist, LM_HIST_B);
  assert_bins (&hist, LM_HIST_LUMA, y_bins, G_N_ELEMENTS (y_bins));
}

/* GRAY8 {0, 5, 5 / 255, 9, 5} (padding 0xAB): the same counts in all four channels. */
static void
test_gray8_all_channels (void)
{
  g_autoptr (LmImage) image = lm_test_image_new (LM_FORMAT_GRAY8, 3, 2, 0xAB);
  memcpy (lm_image_row (image, 0), (guint8[]) { 0, 5, 5 }, 3);
  memcpy (lm_image_row (image, 1), (guint8[]) { 255, 9, 5 }, 3);
  const guint bins[][2] = { { 0, 1 }, { 5, 3 }, { 9, 1 }, { 255, 1 } };
  LmHistogram hist;
  histogram (image, LM_HIST_WANT_ALL, &hist);
  g_assert_cmpuint (hist.total, ==, 6);
  for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
    assert_bins (&hist, c, bins, G_N_ELEMENTS (bins));
}

/* Counts made here, one pixel at a time. */
static void
brute_force (const LmImage *image, LmHistogram *hist)
{
  memset (hist, 0, sizeof *hist);
  for (guint y = 0; y < image->height; y++)
    for (guint x = 0; x < image->width; x++)
      {
        const guint8 *p = lm_test_pixel (image, x, y);
        if (image->format == LM_FORMAT_GRAY8)
          for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
            hist->bins[c][p[0]]++;
        else
          {
            hist->bins[LM_HIST_R][p[0]]++;
            hist->bins[LM_HIST_G][p[1]]++;
            hist->bins[LM_HIST_B][p[2]]++;
            hist->bins[LM_HIST_LUMA][lm_test_luma601 (p[0], p[1], p[2])]++;
          }
      }
  hist->total = (guint64) image->width * image->height;
}

/* 1, 2, 3 and 7 threads, and more threads than rows, give the same counts, and they are the
 * brute-force counts. Widths over 1024 cross any strip the implementation may use. */
static void
test_thread_count_independent (void)
{
  const guint shapes[][2] = { { 257, 131 }, { 2050, 5 }, { 5, 2 }, { 1, 1 } };
  int saved = omp_get_max_threads ();
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autoptr (LmImage) rgba = lm_test_random_rgba (shapes[s][0], shapes[s][1], 17 + s, TRUE);
      g_autoptr (LmImage) gray = lm_test_random_gray (shapes[s][0], shapes[s][1], 23 + s);
      LmImage *images[] = { rgba, gray };
      for (guint i = 0; i < G_N_ELEMENTS (images); i++)
        {
          LmHistogram want, got;
          brute_force (images[i], &want);
          const int threads[] = { 1, 3, 2, 7 };
          for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
            {
              omp_set_num_threads (threads[t]);
              histogram (images[i], LM_HIST_WANT_ALL, &got);
              if (!lm_histogram_equal (&got, &want))
                g_test_message ("%ux%u %s, %d threads", shapes[s][0], shapes[s][1],
                                lm_format_name (images[i]->format), threads[t]);
              g_assert_cmpuint (got.total, ==, want.total);
              g_assert_cmpmem (got.bins, sizeof got.bins, want.bins, sizeof want.bins);
            }
        }
    }
  omp_set_num_threads (saved);
}

static void
test_histogram_equal (void)
{
  g_autoptr (LmImage) image = small_rgba ();
  LmHistogram a, b;
  histogram (image, LM_HIST_WANT_ALL, &a);
  histogram (image, LM_HIST_WANT_ALL, &b);
  g_assert_true (lm_histogram_equal (&a, &b));
  b.bins[LM_HIST_LUMA][255]++;
  g_assert_false (lm_histogram_equal (&a, &b));
  b.bins[LM_HIST_LUMA][255]--;
  b.total++;
  g_assert_false (lm_histogram_equal (&a, &b));
}

/* The CPU backend's histogram is the reference's. */
static void
test_backend_histogram (void)
{
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  g_autoptr (LmImage) image = lm_test_random_rgba (100, 37, 5, FALSE);
  LmHistogram want, got;
  brute_force (image, &want);
  memset (&got, 0xAB, sizeof got);
  GError *error = NULL;
  g_assert_true (lm_backend_histogram (backend, image, LM_HIST_WANT_ALL, &got, &error));
  g_assert_no_error (error);
  g_assert_true (lm_histogram_equal (&got, &want));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/histogram/rgba-known-counts", test_rgba_known_counts);
  g_test_add_func ("/histogram/want-flags", test_want_flags);
  g_test_add_func ("/histogram/gray8-all-channels", test_gray8_all_channels);
  g_test_add_func ("/histogram/thread-count-independent", test_thread_count_independent);
  g_test_add_func ("/histogram/equal", test_histogram_equal);
  g_test_add_func ("/histogram/backend", test_backend_histogram);
  return g_test_run ();
}
