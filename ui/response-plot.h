/* LmResponsePlot: a camera response as three curves (R, G, B): the log of the exposure that
 * makes each 8-bit value, as a calibration recovered it. */
#pragma once

#include <gtk/gtk.h>

#include "core/hdr/response.h"

G_BEGIN_DECLS

#define LM_TYPE_RESPONSE_PLOT (lm_response_plot_get_type ())
G_DECLARE_FINAL_TYPE (LmResponsePlot, lm_response_plot, LM, RESPONSE_PLOT, GtkDrawingArea)

GtkWidget *lm_response_plot_new (void);

/* RESPONSE (copied), or NULL for none: the plot then says that there is none yet. */
void lm_response_plot_set_response (LmResponsePlot *self, const LmResponse *response);
const LmResponse *lm_response_plot_get_response (LmResponsePlot *self);

G_END_DECLS
