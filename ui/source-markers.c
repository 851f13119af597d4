/* Source markers (source-markers.h). */
#include "source-markers.h"

#include <math.h>

#define MIN_RADIUS 4.0 /* screen pixels: a faint point source stays visible */

void
lm_source_markers_position (LmImageView *view, const LmDetectResult *result, gboolean flip, const LmSource *s,
                            double *wx, double *wy)
{
  /* Array position x is the centre of pixel x: the view's pixel x spans [x, x + 1). */
  double iy = flip ? (double) result->height - 1.0 - s->y : s->y;
  lm_image_view_to_widget (view, s->x + 0.5, iy + 0.5, wx, wy);
}

void
lm_source_markers_draw (cairo_t *cr, LmImageView *view, const LmDetectResult *result, gboolean flip,
                        guint highlight)
{
  if (result == NULL || result->n_sources == 0)
    return;
  double x0, y0, x1, y1;
  lm_image_view_to_widget (view, 0, 0, &x0, &y0);
  lm_image_view_to_widget (view, 1, 0, &x1, &y1);
  double scale = x1 - x0; /* screen pixels an image pixel */
  cairo_save (cr);
  for (int pass = 0; pass < 2; pass++) /* the highlighted one last, over the others */
    for (guint i = 0; i < result->n_sources; i++)
      {
        const LmSource *s = &result->sources[i];
        gboolean lit = s->label == highlight;
        if (lit != (pass == 1))
          continue;
        double wx, wy;
        lm_source_markers_position (view, result, flip, s, &wx, &wy);
        double ra = MAX (3.0 * s->a * scale, MIN_RADIUS), rb = MAX (3.0 * s->b * scale, MIN_RADIUS);
        cairo_save (cr);
        cairo_translate (cr, wx, wy);
        /* θ turns from +x towards +y of the array; flipped rows turn it the other way on screen. */
        cairo_rotate (cr, flip ? -s->theta : s->theta);
        cairo_scale (cr, ra, rb);
        cairo_arc (cr, 0, 0, 1.0, 0, 2 * G_PI);
        cairo_restore (cr);
        if (lit)
          cairo_set_source_rgb (cr, 1.0, 0.1, 0.9); /* magenta: seen on any gray */
        else
          cairo_set_source_rgb (cr, 0.1, 1.0, 0.2);
        cairo_set_line_width (cr, lit ? 3.0 : 1.5);
        cairo_stroke (cr);
      }
  cairo_restore (cr);
}
