/* LmHistogramView: the R, G, B and luma histograms of the last render, linear or log, and
 * what is clipped: per channel, a marker at each end (lit when that channel has pixels at 0 /
 * at 255) and the share of the most clipped channel as text. */
#pragma once

#include <gtk/gtk.h>

#include "core/ops/histogram.h"

G_BEGIN_DECLS

#define LM_TYPE_HISTOGRAM_VIEW (lm_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (LmHistogramView, lm_histogram_view, LM, HISTOGRAM_VIEW, GtkDrawingArea)

typedef enum {
  LM_CLIP_SHADOWS,    /* at 0 */
  LM_CLIP_HIGHLIGHTS, /* at 255 */
  LM_CLIP_N_ENDS
} LmClipEnd;

/* The clipping the view shows. */
typedef struct {
  guint64 pixels[LM_CLIP_N_ENDS][3]; /* of channel R, G, B at that end: its marker is lit when > 0 */
  guint64 total;                     /* pixels counted, in each channel */
  char text[LM_CLIP_N_ENDS][32];     /* painted at that end: the most clipped channel's share, "" when none */
} LmHistogramClipping;

GtkWidget *lm_histogram_view_new (void);
void lm_histogram_view_set_histogram (LmHistogramView *self, const LmHistogram *histogram);
/* The histogram of the values as stored and, when not NULL, as seen on screen (through the
 * view transform): the "seen" property picks which is shown; as stored until one as seen
 * comes. */
void lm_histogram_view_set_histograms (LmHistogramView *self, const LmHistogram *stored,
                                       const LmHistogram *seen);
/* A line the tooltip adds on where the counts come from (a large photo's are of a level of
 * its pyramid); NULL: none (the whole photo at full size). */
void lm_histogram_view_set_origin (LmHistogramView *self, const char *origin);
/* TRUE when what is shown is the histogram as seen. */
gboolean lm_histogram_view_shows_seen (LmHistogramView *self);
/* The histogram shown; NULL until a histogram has been set. */
const LmHistogram *lm_histogram_view_get_histogram (LmHistogramView *self);
/* FALSE (and nothing shown) until a histogram has been set. */
gboolean lm_histogram_view_get_clipping (LmHistogramView *self, LmHistogramClipping *clipping);
/* Where the marker of CHANNEL (LM_HIST_R, _G or _B) at END is painted, in the widget's
 * coordinates. */
void lm_histogram_view_get_marker_area (LmHistogramView *self, LmClipEnd end, LmHistChannel channel,
                                        GdkRectangle *area);

G_END_DECLS
