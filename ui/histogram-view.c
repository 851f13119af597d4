/* LmHistogramView: four curves drawn with cairo, scaled to the tallest bin (or its
 * logarithm, which shows the thin tails a photo's shadows and highlights live in). The
 * "log" property is bound to the histogram-log setting by the window. */
#include "histogram-view.h"

#include <math.h>

struct _LmHistogramView {
  GtkDrawingArea parent_instance;
  LmHistogram histogram;
  gboolean have;
  gboolean log;
};

G_DEFINE_FINAL_TYPE (LmHistogramView, lm_histogram_view, GTK_TYPE_DRAWING_AREA)

enum { PROP_0, PROP_LOG, N_PROPS };
static GParamSpec *props[N_PROPS];

static double
height_of (LmHistogramView *self, guint32 count, guint32 peak)
{
  if (peak == 0)
    return 0.0;
  return self->log ? log1p (count) / log1p (peak) : (double) count / peak;
}

static void
curve (LmHistogramView *self, cairo_t *cr, const guint32 *bins, guint32 peak, double w, double h)
{
  cairo_move_to (cr, 0, h);
  for (int i = 0; i < LM_HIST_BINS; i++)
    {
      double x0 = w * i / LM_HIST_BINS, x1 = w * (i + 1) / LM_HIST_BINS;
      double y = h - h * height_of (self, bins[i], peak);
      cairo_line_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
    }
  cairo_line_to (cr, w, h);
  cairo_close_path (cr);
}

static gboolean
lm_histogram_view_draw (GtkWidget *widget, cairo_t *cr)
{
  LmHistogramView *self = LM_HISTOGRAM_VIEW (widget);
  double w = gtk_widget_get_allocated_width (widget), h = gtk_widget_get_allocated_height (widget);
  cairo_set_source_rgb (cr, 0.13, 0.13, 0.13);
  cairo_paint (cr);
  if (!self->have)
    return GDK_EVENT_STOP;

  /* One scale for all curves, so that they compare; the tallest bin of any channel. */
  guint32 peak = 0;
  for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
    for (int i = 0; i < LM_HIST_BINS; i++)
      peak = MAX (peak, self->histogram.bins[c][i]);

  static const double colours[3][3] = { { 0.9, 0.2, 0.2 }, { 0.2, 0.8, 0.2 }, { 0.25, 0.4, 0.95 } };
  cairo_set_operator (cr, CAIRO_OPERATOR_ADD);
  for (int c = LM_HIST_R; c <= LM_HIST_B; c++)
    {
      curve (self, cr, self->histogram.bins[c], peak, w, h);
      cairo_set_source_rgba (cr, colours[c][0], colours[c][1], colours[c][2], 0.55);
      cairo_fill (cr);
    }
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
  curve (self, cr, self->histogram.bins[LM_HIST_LUMA], peak, w, h);
  cairo_set_source_rgba (cr, 0.95, 0.95, 0.95, 0.9);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  return GDK_EVENT_STOP;
}

static void
lm_histogram_view_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  LmHistogramView *self = LM_HISTOGRAM_VIEW (object);
  if (id == PROP_LOG)
    {
      self->log = g_value_get_boolean (value);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
}

static void
lm_histogram_view_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  LmHistogramView *self = LM_HISTOGRAM_VIEW (object);
  if (id == PROP_LOG)
    g_value_set_boolean (value, self->log);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
}

static void
lm_histogram_view_class_init (LmHistogramViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->set_property = lm_histogram_view_set_property;
  object_class->get_property = lm_histogram_view_get_property;
  widget_class->draw = lm_histogram_view_draw;
  props[PROP_LOG] = g_param_spec_boolean ("log", NULL, NULL, FALSE,
                                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_css_name (widget_class, "histogram");
}

static void
lm_histogram_view_init (LmHistogramView *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 256, 120);
}

GtkWidget *
lm_histogram_view_new (void)
{
  return g_object_new (LM_TYPE_HISTOGRAM_VIEW, NULL);
}

void
lm_histogram_view_set_histogram (LmHistogramView *self, const LmHistogram *histogram)
{
  self->histogram = *histogram;
  self->have = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const LmHistogram *
lm_histogram_view_get_histogram (LmHistogramView *self)
{
  return self->have ? &self->histogram : NULL;
}
