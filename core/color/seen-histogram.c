/* The "as seen" histogram on the CPU (seen-histogram.h). */
#include "seen-histogram.h"

#include <string.h>

#include "../ops/view.h"

void
lm_seen_histogram_cpu (const LmImage *image, const LmLut3d *lut, LmHistogram *hist)
{
  LmViewSource s = lm_view_source (image);
  memset (hist, 0, sizeof *hist);
#pragma omp parallel
  {
    /* Each thread counts apart and adds its counts once: integers, so the order of the
     * additions does not matter. */
    guint32 (*mine)[LM_HIST_BINS] = g_malloc0 (sizeof (guint32) * LM_HIST_N_CHANNELS * LM_HIST_BINS);
#pragma omp for schedule(static)
    for (int y = 0; y < s.height; y++)
      for (int x = 0; x < s.width; x++)
        {
          guint32 p = lm_view_source_seen (&s, lut, x, y);
          mine[LM_HIST_R][p & 0xff]++;
          mine[LM_HIST_G][(p >> 8) & 0xff]++;
          mine[LM_HIST_B][(p >> 16) & 0xff]++;
          mine[LM_HIST_LUMA][lm_luma_u8 (p)]++;
        }
#pragma omp critical
    for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
      for (int i = 0; i < LM_HIST_BINS; i++)
        hist->bins[c][i] += mine[c][i];
    g_free (mine);
  }
  hist->total = (guint64) s.width * s.height;
}
