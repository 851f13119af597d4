/* Markers of detected sources over the image view: each an ellipse of its moments (3 a by
 * 3 b at θ, at least a few screen pixels), drawn where the view shows the source at its zoom
 * and pan, and the data's rows flipped as the view shows them. */
#pragma once

#include <gtk/gtk.h>


#include "core/astro/detect.h"
#include "image-view.h"

G_BEGIN_DECLS

/* HIGHLIGHT: the label of the source drawn apart (0: none). */
void lm_source_markers_draw (cairo_t *cr, LmImageView *view, const LmDetectResult *result, gboolean flip,
                             guint highlight);

/* Where the view shows source S's centroid (widget coordinates). */
void lm_source_markers_position (LmImageView *view, const LmDetectResult *result, gboolean flip,
                                 const LmSource *s, double *wx, double *wy);

G_END_DECLS
