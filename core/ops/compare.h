/* Comparing two renders pixel by pixel (the CPU/GPU diff view) and the figures people read
 * from it. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "compare-math.h"

G_BEGIN_DECLS

typedef struct {
  guint max_abs;      /* largest |Δ| of a colour sample, in the images' units: 0..255 or 0..65535 */
  double mean_abs;    /* mean |Δ| over colour samples, in the same units */
  guint64 differing;  /* pixels with any colour sample differing */
  guint64 pixels;
  double psnr_db;     /* against the depth's peak (255 or 65535); INFINITY when equal */
  guint depth;        /* 8 or 16 */
} LmDiffStats;

/* MAX_ABS in 8-bit steps (a 16-bit |Δ| / 257), to read both depths on one scale. */
static inline double
lm_diff_stats_max_steps (const LmDiffStats *stats)
{
  return stats->depth == 16 ? stats->max_abs / 257.0 : (double) stats->max_abs;
}

void lm_diff_stats_from_sums (const LmDiffSums *sums, LmDiffStats *stats);

/* Checks that A and B can be compared: same size and format (8-bit or 16-bit). */
gboolean lm_diff_check (const LmImage *a, const LmImage *b, GError **error);

/* CPU reference: the sums, and the heatmap (RGBA8, same size) when HEAT is not NULL. */
void lm_diff_cpu (const LmImage *a, const LmImage *b, float gain, LmImage *heat, LmDiffSums *sums);

/* The heatmap at the view's scale, for drawing over the view: each view pixel of RECT shows
 * the largest |Δ| among the image pixels it covers (a single differing pixel stays visible
 * however far the view is zoomed out), in cairo's premultiplied ARGB32 (RGBA8 storage). */
void lm_diff_heat_view (const LmImage *a, const LmImage *b, const LmViewRect *rect, float gain,
                        LmImage *out);

/* One line for people: "max |Δ| 1, mean |Δ| 0.0021, 35 pixels differ (0.001 %), PSNR 78.4 dB";
 * 16-bit: "max |Δ| 300 u16 (1.167 8-bit steps), mean |Δ| 0.4 u16, …". */
char *lm_diff_stats_describe (const LmDiffStats *stats);

G_END_DECLS
