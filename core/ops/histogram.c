/* Histograms, CPU reference: each thread counts its rows into its own bins, then the bins
 * are summed; integer counts make the result independent of the thread count. Luma is
 * computed a strip at a time in a vectorized loop, then counted. */
#include "histogram.h"

#include <omp.h>
#include <string.h>

#include "gray-row.h"
#include "simd.h"

#define STRIP 1024

LM_SIMD_CLONES void
lm_luma_row (const guint32 *restrict in, guint8 *restrict out, guint n)
{
  lm_weighted_row_u8 (in, out, n, LM_BT601_R, LM_BT601_G, LM_BT601_B);
}

/* Photos repeat values from one pixel to the next; counting neighbours into four separate
 * sets of bins keeps each increment from waiting on the previous one's store. The values are
 * read eight at a time as one word: a load per pixel fewer, which is what the counting's
 * loads and stores are short of. */
typedef guint32 Ways[4][LM_HIST_BINS];

static void
count (const guint8 *restrict v, guint n, Ways ways)
{
  guint x = 0;
  for (; x + 8 <= n; x += 8)
    {
      guint64 w;
      memcpy (&w, v + x, sizeof w);
      ways[0][w & 0xff]++;
      ways[1][(w >> 8) & 0xff]++;
      ways[2][(w >> 16) & 0xff]++;
      ways[3][(w >> 24) & 0xff]++;
      ways[0][(w >> 32) & 0xff]++;
      ways[1][(w >> 40) & 0xff]++;
      ways[2][(w >> 48) & 0xff]++;
      ways[3][w >> 56]++;
    }
  for (; x < n; x++)
    ways[0][v[x]]++;
}

static void
add_ways (guint32 *restrict bins, Ways ways)
{
  for (int i = 0; i < LM_HIST_BINS; i++)
    bins[i] += ways[0][i] + ways[1][i] + ways[2][i] + ways[3][i];
}

static void
count_rgba_rows (const LmImage *image, guint y0, guint y1, LmHistWant want,
                 guint32 (*bins)[LM_HIST_BINS], Ways luma_ways)
{
  guint8 luma[STRIP];
  for (guint y = y0; y < y1; y++)
    {
      const guint32 *row = (const guint32 *) lm_image_row (image, y);
      if (want & LM_HIST_WANT_RGB)
        for (guint x = 0; x < image->width; x++)
          {
            guint32 p = row[x];
            bins[LM_HIST_R][p & 0xff]++;
            bins[LM_HIST_G][(p >> 8) & 0xff]++;
            bins[LM_HIST_B][(p >> 16) & 0xff]++;
          }
      if (want & LM_HIST_WANT_LUMA)
        for (guint x0 = 0; x0 < image->width; x0 += STRIP)
          {
            guint n = MIN (STRIP, image->width - x0);
            lm_luma_row (row + x0, luma, n);
            count (luma, n, luma_ways);
          }
    }
}

/* 16-bit rows into the 256 bins, each value in the bin of its 8-bit rounding; luma as the
 * 8-bit luma of the values on the 0..255 scale. */
static void
count16_rows (const LmImage *image, guint y0, guint y1, LmHistWant want, guint32 (*bins)[LM_HIST_BINS])
{
  for (guint y = y0; y < y1; y++)
    {
      if (image->format == LM_FORMAT_GRAY16)
        {
          const guint16 *row = (const guint16 *) lm_image_row (image, y);
          for (guint x = 0; x < image->width; x++)
            bins[LM_HIST_LUMA][lm_u16_bin8 (row[x])]++;
          continue;
        }
      const guint64 *row = (const guint64 *) lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++)
        {
          guint64 p = row[x];
          if (want & LM_HIST_WANT_RGB)
            for (int c = 0; c < 3; c++)
              bins[c][lm_u16_bin8 ((p >> (16 * c)) & 0xffff)]++;
          if (want & LM_HIST_WANT_LUMA)
            bins[LM_HIST_LUMA][lm_luma_u8_of16 (p)]++;
        }
    }
}

void
lm_histogram16_cpu (const LmImage *image, LmHistWant want, guint32 *bins)
{
  g_return_if_fail (lm_format_depth (image->format) == 16);
  memset (bins, 0, LM_HIST_N_CHANNELS * LM_HIST16_BINS * sizeof *bins);
#pragma omp parallel
  {
    g_autofree guint32 *local = g_new0 (guint32, LM_HIST_N_CHANNELS * LM_HIST16_BINS);
    guint32 *luma = local + LM_HIST_LUMA * LM_HIST16_BINS;
    guint n = omp_get_num_threads (), t = omp_get_thread_num ();
    guint y0 = (guint) ((guint64) image->height * t / n);
    guint y1 = (guint) ((guint64) image->height * (t + 1) / n);
    for (guint y = y0; y < y1; y++)
      {
        if (image->format == LM_FORMAT_GRAY16)
          {
            const guint16 *row = (const guint16 *) lm_image_row (image, y);
            for (guint x = 0; x < image->width; x++)
              luma[row[x]]++;
            continue;
          }
        const guint64 *row = (const guint64 *) lm_image_row (image, y);
        for (guint x = 0; x < image->width; x++)
          {
            guint64 p = row[x];
            if (want & LM_HIST_WANT_RGB)
              for (int c = 0; c < 3; c++)
                local[c * LM_HIST16_BINS + ((p >> (16 * c)) & 0xffff)]++;
            if (want & LM_HIST_WANT_LUMA)
              luma[lm_luma_u16 (p)]++;
          }
      }
#pragma omp critical
    for (int i = 0; i < LM_HIST_N_CHANNELS * LM_HIST16_BINS; i++)
      bins[i] += local[i];
  }
}

void
lm_histogram_cpu (const LmImage *image, LmHistWant want, LmHistogram *hist)
{
  g_return_if_fail (image->format != LM_FORMAT_RGBA_F32);
  memset (hist, 0, sizeof *hist);
  guint32 (*total)[LM_HIST_BINS] = hist->bins;

#pragma omp parallel
  {
    guint32 local[LM_HIST_N_CHANNELS][LM_HIST_BINS] = { { 0 } };
    Ways ways = { { 0 } }; /* luma, or the gray channel */
    guint n = omp_get_num_threads (), t = omp_get_thread_num ();
    guint y0 = (guint) ((guint64) image->height * t / n);
    guint y1 = (guint) ((guint64) image->height * (t + 1) / n);
    if (lm_format_depth (image->format) == 16)
      count16_rows (image, y0, y1, want, local);
    else if (image->format == LM_FORMAT_GRAY8)
      for (guint y = y0; y < y1; y++)
        count (lm_image_row (image, y), image->width, ways);
    else
      count_rgba_rows (image, y0, y1, want, local, ways);
    add_ways (local[LM_HIST_LUMA], ways);
#pragma omp critical
    for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
      for (int i = 0; i < LM_HIST_BINS; i++)
        total[c][i] += local[c][i];
  }

  if (image->format == LM_FORMAT_GRAY8 || image->format == LM_FORMAT_GRAY16)
    for (int c = LM_HIST_R; c <= LM_HIST_B; c++)
      memcpy (hist->bins[c], hist->bins[LM_HIST_LUMA], sizeof hist->bins[c]);
  hist->total = (guint64) image->width * image->height;
}

gboolean
lm_histogram_equal (const LmHistogram *a, const LmHistogram *b)
{
  return a->total == b->total && memcmp (a->bins, b->bins, sizeof a->bins) == 0;
}
