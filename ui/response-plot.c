/* LmResponsePlot (response-plot.h). Drawn with cairo: value 0..255 across, ln(exposure) up,
 * the range of the three curves with a margin; values a calibration left non-positive (no
 * logarithm) are gaps in the curve. */
#include "response-plot.h"

#include <math.h>
#include <glib/gi18n.h>

struct _LmResponsePlot {
  GtkDrawingArea parent_instance;
  LmResponse response;
  gboolean has_response;
};

G_DEFINE_FINAL_TYPE (LmResponsePlot, lm_response_plot, GTK_TYPE_DRAWING_AREA)

#define MARGIN_LEFT 40.0
#define MARGIN 10.0
#define MARGIN_BOTTOM 28.0

static void
draw_text (cairo_t *cr, GtkWidget *widget, const char *text, double x, double y, double xalign)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - xalign * w, y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static gboolean
log_range (const LmResponse *r, double *lo, double *hi)
{
  *lo = INFINITY, *hi = -INFINITY;
  for (int c = 0; c < 3; c++)
    for (int z = 0; z < LM_HDR_LEVELS; z++)
      if (r->value[c][z] > 0.0f)
        {
          double l = log (r->value[c][z]);
          *lo = MIN (*lo, l), *hi = MAX (*hi, l);
        }
  return *hi > *lo;
}

static gboolean
lm_response_plot_draw (GtkWidget *widget, cairo_t *cr)
{
  LmResponsePlot *self = LM_RESPONSE_PLOT (widget);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  double width = gtk_widget_get_allocated_width (widget), height = gtk_widget_get_allocated_height (widget);
  gtk_render_background (style, cr, 0, 0, width, height);
  GdkRGBA fg;
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &fg);

  double lo, hi;
  if (!self->has_response || !log_range (&self->response, &lo, &hi))
    {
      gdk_cairo_set_source_rgba (cr, &fg);
      draw_text (cr, widget, _("The camera response appears here after calibration."), width / 2,
                 height / 2 - 8, 0.5);
      return GDK_EVENT_PROPAGATE;
    }
  double pad = 0.05 * (hi - lo);
  lo -= pad, hi += pad;
  double x0 = MARGIN_LEFT, x1 = width - MARGIN, y0 = height - MARGIN_BOTTOM, y1 = MARGIN;

  /* Axes and their labels. */
  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.35);
  cairo_rectangle (cr, x0 + 0.5, y1 + 0.5, x1 - x0, y0 - y1);
  cairo_stroke (cr);
  gdk_cairo_set_source_rgba (cr, &fg);
  draw_text (cr, widget, "0", x0, y0 + 2, 0.0);
  draw_text (cr, widget, "255", x1, y0 + 2, 1.0);
  draw_text (cr, widget, _("pixel value"), (x0 + x1) / 2, y0 + 2, 0.5);
  g_autofree char *top = g_strdup_printf ("%.1f", hi), *bottom = g_strdup_printf ("%.1f", lo);
  draw_text (cr, widget, top, x0 - 4, y1, 1.0);
  draw_text (cr, widget, bottom, x0 - 4, y0 - 16, 1.0);
  draw_text (cr, widget, _("ln E"), x0 - 4, (y0 + y1) / 2 - 8, 1.0);

  static const double colours[3][3] = { { 0.85, 0.2, 0.2 }, { 0.2, 0.7, 0.25 }, { 0.25, 0.4, 0.9 } };
  cairo_set_line_width (cr, 1.5);
  for (int c = 0; c < 3; c++)
    {
      cairo_set_source_rgb (cr, colours[c][0], colours[c][1], colours[c][2]);
      gboolean pen_down = FALSE;
      for (int z = 0; z < LM_HDR_LEVELS; z++)
        {
          float v = self->response.value[c][z];
          if (!(v > 0.0f))
            {
              pen_down = FALSE;
              continue;
            }
          double x = x0 + (x1 - x0) * z / (LM_HDR_LEVELS - 1.0);
          double y = y0 - (y0 - y1) * (log (v) - lo) / (hi - lo);
          if (pen_down)
            cairo_line_to (cr, x, y);
          else
            cairo_move_to (cr, x, y);
          pen_down = TRUE;
        }
      cairo_stroke (cr);
    }
  return GDK_EVENT_PROPAGATE;
}

static void
lm_response_plot_class_init (LmResponsePlotClass *klass)
{
  GTK_WIDGET_CLASS (klass)->draw = lm_response_plot_draw;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "responseplot");
}

static void
lm_response_plot_init (LmResponsePlot *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 180);
}

GtkWidget *
lm_response_plot_new (void)
{
  return g_object_new (LM_TYPE_RESPONSE_PLOT, NULL);
}

void
lm_response_plot_set_response (LmResponsePlot *self, const LmResponse *response)
{
  self->has_response = response != NULL;
  if (response)
    self->response = *response;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const LmResponse *
lm_response_plot_get_response (LmResponsePlot *self)
{
  return self->has_response ? &self->response : NULL;
}
