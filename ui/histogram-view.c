/* LmHistogramView: four curves drawn with cairo, scaled to the tallest bin (or its
 * logarithm, which shows the thin tails a photo's shadows and highlights live in). The
 * "log" property is bound to the histogram-log setting by the window. Clipping gets a row of
 * its own under the curves: the bins at 0 and 255 are one pixel wide at the frame's edges,
 * where a spike of clipped pixels cannot be seen. The "seen" property shows the values as the
 * screen gets them (through the view transform) instead of as stored, where a render brought
 * that histogram too. */
#include "histogram-view.h"

#include <math.h>
#include <glib/gi18n.h>

#define MARKER 8     /* a clipping marker's side (logical pixels) */
#define MARKER_GAP 2 /* between markers, and around their row */
#define MARKER_ROW (MARKER + 2 * MARKER_GAP)
#define MARKER_OFF_ALPHA 0.25 /* an unlit marker: there, but dim */
#define LABEL_MARGIN 3

struct _LmHistogramView {
  GtkDrawingArea parent_instance;
  LmHistogram histogram; /* the one shown: STORED, or SEEN where asked for and there */
  LmHistogram stored, seen;
  gboolean have, have_seen;
  gboolean log;
  gboolean seen_mode;
  LmHistogramClipping clipping;
  char *origin; /* where the counts come from, when not the whole photo at full size */
};

static const double colours[3][3] = { { 0.9, 0.2, 0.2 }, { 0.2, 0.8, 0.2 }, { 0.25, 0.4, 0.95 } };

G_DEFINE_FINAL_TYPE (LmHistogramView, lm_histogram_view, GTK_TYPE_DRAWING_AREA)

enum { PROP_0, PROP_LOG, PROP_SEEN, N_PROPS };
static GParamSpec *props[N_PROPS];

static void show (LmHistogramView *self);

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

static void
marker_area (int w, int h, LmClipEnd end, int channel, GdkRectangle *area)
{
  area->width = area->height = MARKER;
  area->y = h - MARKER_GAP - MARKER;
  /* R, G, B from left to right at both ends, each row against its edge. */
  area->x = end == LM_CLIP_SHADOWS ? MARKER_GAP + channel * (MARKER + MARKER_GAP)
                                   : w - (3 - channel) * (MARKER + MARKER_GAP);
}

/* A triangle per channel pointing out of its end, in the channel's colour, dim unless lit. */
static void
draw_markers (LmHistogramView *self, cairo_t *cr, int w, int h)
{
  for (int end = 0; end < LM_CLIP_N_ENDS; end++)
    for (int c = LM_HIST_R; c <= LM_HIST_B; c++)
      {
        GdkRectangle a;
        marker_area (w, h, end, c, &a);
        double tip = end == LM_CLIP_SHADOWS ? a.x : a.x + a.width;
        double base = end == LM_CLIP_SHADOWS ? a.x + a.width : a.x;
        cairo_move_to (cr, tip, a.y + a.height / 2.0);
        cairo_line_to (cr, base, a.y);
        cairo_line_to (cr, base, a.y + a.height);
        cairo_close_path (cr);
        gboolean lit = self->clipping.pixels[end][c] > 0;
        cairo_set_source_rgba (cr, colours[c][0], colours[c][1], colours[c][2], lit ? 1.0 : MARKER_OFF_ALPHA);
        cairo_fill (cr);
      }
}

/* The share of clipped pixels at each end, in the top corner above it, on a dark box so
 * that it reads over the curves. */
static void
draw_labels (LmHistogramView *self, cairo_t *cr, int w)
{
  for (int end = 0; end < LM_CLIP_N_ENDS; end++)
    {
      if (self->clipping.text[end][0] == '\0')
        continue;
      g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->clipping.text[end]);
      PangoAttrList *attrs = pango_attr_list_new ();
      pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      double x = end == LM_CLIP_SHADOWS ? LABEL_MARGIN : w - LABEL_MARGIN - tw;
      cairo_rectangle (cr, x - 2, LABEL_MARGIN - 1, tw + 4, th + 2);
      cairo_set_source_rgba (cr, 0.0, 0.0, 0.0, 0.6);
      cairo_fill (cr);
      cairo_move_to (cr, x, LABEL_MARGIN);
      cairo_set_source_rgb (cr, 0.95, 0.95, 0.95);
      pango_cairo_show_layout (cr, layout);
    }
}

static gboolean
lm_histogram_view_draw (GtkWidget *widget, cairo_t *cr)
{
  LmHistogramView *self = LM_HISTOGRAM_VIEW (widget);
  int aw = gtk_widget_get_allocated_width (widget), ah = gtk_widget_get_allocated_height (widget);
  double w = aw, h = ah - MARKER_ROW; /* the curves' height */
  cairo_set_source_rgb (cr, 0.13, 0.13, 0.13);
  cairo_paint (cr);
  if (!self->have)
    return GDK_EVENT_STOP;

  /* One scale for all curves, so that they compare; the tallest bin of any channel. */
  guint32 peak = 0;
  for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
    for (int i = 0; i < LM_HIST_BINS; i++)
      peak = MAX (peak, self->histogram.bins[c][i]);

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
  draw_markers (self, cr, aw, ah);
  draw_labels (self, cr, aw);
  if (self->seen_mode && self->have_seen)
    {
      /* TRANSLATORS: over the histogram when it counts the values as shown on screen */
      g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, _("as seen"));
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_move_to (cr, (aw - tw) / 2.0, LABEL_MARGIN);
      cairo_set_source_rgba (cr, 0.95, 0.95, 0.95, 0.7);
      pango_cairo_show_layout (cr, layout);
    }
  return GDK_EVENT_STOP;
}

/* COUNT of TOTAL as a percentage; a clipped share too small to show as one is not "0.0 %". */
static void
share_text (guint64 count, guint64 total, char *text, gsize size)
{
  double percent = total ? 100.0 * count / total : 0.0;
  if (count > 0 && percent < 0.05)
    /* TRANSLATORS: a share of pixels too small to show, e.g. 3 pixels of a photo's millions;
     * the number is 0.1, written by printf as the locale writes numbers */
    g_snprintf (text, size, _("<%.1f %%"), 0.1);
  else
    /* TRANSLATORS: a share of pixels, in percent */
    g_snprintf (text, size, _("%.1f %%"), percent);
}

/* Each channel's share at each end, as a tooltip: the markers say which, this says how much. */
static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, gpointer data)
{
  LmHistogramView *self = LM_HISTOGRAM_VIEW (widget);
  if (!self->have)
    return FALSE;
  char shares[LM_CLIP_N_ENDS][3][32];
  for (int end = 0; end < LM_CLIP_N_ENDS; end++)
    for (int c = 0; c < 3; c++)
      share_text (self->clipping.pixels[end][c], self->clipping.total, shares[end][c], sizeof shares[end][c]);
  g_autofree char *text = g_strdup_printf (
      /* TRANSLATORS: pixels at 0 (shadows) and at 255 (highlights), per channel */
      _("Clipped shadows: red %s, green %s, blue %s\nClipped highlights: red %s, green %s, blue %s"),
      shares[0][0], shares[0][1], shares[0][2], shares[1][0], shares[1][1], shares[1][2]);
  if (self->origin)
    {
      g_autofree char *with = g_strdup_printf ("%s\n%s", text, self->origin);
      gtk_tooltip_set_text (tooltip, with);
      return TRUE;
    }
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
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
  else if (id == PROP_SEEN)
    {
      if (self->seen_mode == g_value_get_boolean (value))
        return;
      self->seen_mode = g_value_get_boolean (value);
      show (self);
      g_object_notify_by_pspec (object, pspec);
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
  else if (id == PROP_SEEN)
    g_value_set_boolean (value, self->seen_mode);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
}

static void
lm_histogram_view_finalize (GObject *object)
{
  g_free (LM_HISTOGRAM_VIEW (object)->origin);
  G_OBJECT_CLASS (lm_histogram_view_parent_class)->finalize (object);
}

static void
lm_histogram_view_class_init (LmHistogramViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->finalize = lm_histogram_view_finalize;
  object_class->set_property = lm_histogram_view_set_property;
  object_class->get_property = lm_histogram_view_get_property;
  widget_class->draw = lm_histogram_view_draw;
  props[PROP_LOG] = g_param_spec_boolean ("log", NULL, NULL, FALSE,
                                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  props[PROP_SEEN] = g_param_spec_boolean ("seen", NULL, NULL, FALSE,
                                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_css_name (widget_class, "histogram");
}

static void
lm_histogram_view_init (LmHistogramView *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 256, 120 + MARKER_ROW);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

GtkWidget *
lm_histogram_view_new (void)
{
  return g_object_new (LM_TYPE_HISTOGRAM_VIEW, NULL);
}

/* The histogram to show (as stored, or as seen where asked for and there) and its clipping. */
static void
show (LmHistogramView *self)
{
  if (!self->have)
    return;
  const LmHistogram *histogram = self->seen_mode && self->have_seen ? &self->seen : &self->stored;
  self->histogram = *histogram;
  LmHistogramClipping *clip = &self->clipping;
  clip->total = histogram->total;
  for (int end = 0; end < LM_CLIP_N_ENDS; end++)
    {
      guint64 most = 0;
      for (int c = LM_HIST_R; c <= LM_HIST_B; c++)
        {
          clip->pixels[end][c] = histogram->bins[c][end == LM_CLIP_SHADOWS ? 0 : LM_HIST_BINS - 1];
          most = MAX (most, clip->pixels[end][c]);
        }
      clip->text[end][0] = '\0';
      if (most > 0)
        share_text (most, clip->total, clip->text[end], sizeof clip->text[end]);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
lm_histogram_view_set_histogram (LmHistogramView *self, const LmHistogram *histogram)
{
  lm_histogram_view_set_histograms (self, histogram, NULL);
}

void
lm_histogram_view_set_origin (LmHistogramView *self, const char *origin)
{
  g_free (self->origin);
  self->origin = g_strdup (origin);
}

void
lm_histogram_view_set_histograms (LmHistogramView *self, const LmHistogram *stored, const LmHistogram *seen)
{
  self->stored = *stored;
  self->have = TRUE;
  self->have_seen = seen != NULL;
  if (seen)
    self->seen = *seen;
  show (self);
}

gboolean
lm_histogram_view_shows_seen (LmHistogramView *self)
{
  return self->have && self->seen_mode && self->have_seen;
}

const LmHistogram *
lm_histogram_view_get_histogram (LmHistogramView *self)
{
  return self->have ? &self->histogram : NULL;
}

gboolean
lm_histogram_view_get_clipping (LmHistogramView *self, LmHistogramClipping *clipping)
{
  g_return_val_if_fail (LM_IS_HISTOGRAM_VIEW (self), FALSE);
  if (!self->have)
    return FALSE;
  *clipping = self->clipping;
  return TRUE;
}

void
lm_histogram_view_get_marker_area (LmHistogramView *self, LmClipEnd end, LmHistChannel channel, GdkRectangle *area)
{
  g_return_if_fail (LM_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (end < LM_CLIP_N_ENDS && channel <= LM_HIST_B);
  marker_area (gtk_widget_get_allocated_width (GTK_WIDGET (self)), gtk_widget_get_allocated_height (GTK_WIDGET (self)),
               end, channel, area);
}
