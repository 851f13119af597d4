/* LmHistogramView: the R, G, B and luma histograms of the last render, linear or log. */
#pragma once

#include <gtk/gtk.h>

#include "core/ops/histogram.h"

G_BEGIN_DECLS

#define LM_TYPE_HISTOGRAM_VIEW (lm_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (LmHistogramView, lm_histogram_view, LM, HISTOGRAM_VIEW, GtkDrawingArea)

GtkWidget *lm_histogram_view_new (void);
void lm_histogram_view_set_histogram (LmHistogramView *self, const LmHistogram *histogram);
/* NULL until a histogram has been set. */
const LmHistogram *lm_histogram_view_get_histogram (LmHistogramView *self);

G_END_DECLS
