/* LmImageView (image-view.h). The zoom is kept as screen pixels per image pixel and the
 * image point at the centre of the widget; a rendered view carries the region it was made
 * for, so that while the next one renders the old one is drawn where its region is now. */
#include "image-view.h"

#include <math.h>

#define ZOOM_MIN_FACTOR 0.25 /* of the fitting zoom */
#define ZOOM_MAX 32.0

struct _LmImageView {
  GtkDrawingArea parent_instance;

  guint image_width, image_height;
  gboolean fit;      /* follow the widget's size */
  double scale;      /* logical screen pixels per image pixel */
  double cx, cy;     /* image point at the centre */

  LmImage *pixels;   /* RGB24, of pixels_rect */
  LmViewRect pixels_rect;
  cairo_surface_t *surface;
  LmImage *overlay;  /* ARGB32, of overlay_rect */
  LmViewRect overlay_rect;
  cairo_surface_t *overlay_surface;

  gint64 changed_us, result_us; /* for LUMEN_TRACE */
  gboolean trace;

  GtkGesture *drag;
  double drag_cx, drag_cy;
};

G_DEFINE_FINAL_TYPE (LmImageView, lm_image_view, GTK_TYPE_DRAWING_AREA)

enum { VIEW_CHANGED, PAINTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static double
fit_scale (LmImageView *self)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  if (self->image_width == 0 || w <= 0 || h <= 0)
    return 1.0;
  /* A photo smaller than the window is shown at 100 %, not blown up. */
  double actual = 1.0 / gtk_widget_get_scale_factor (GTK_WIDGET (self));
  return MIN (actual, MIN ((double) w / self->image_width, (double) h / self->image_height));
}

static void
changed (LmImageView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
}

/* Keeps the centre where some of the image stays in view. */
static void
clamp_centre (LmImageView *self)
{
  self->cx = CLAMP (self->cx, 0.0, (double) self->image_width);
  self->cy = CLAMP (self->cy, 0.0, (double) self->image_height);
}

static void
set_scale_about (LmImageView *self, double scale, double px, double py)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  double min = fit_scale (self) * ZOOM_MIN_FACTOR;
  scale = CLAMP (scale, MIN (min, 1.0), ZOOM_MAX);
  /* The image point under (px, py) stays under it. */
  double ix = self->cx + (px - w / 2.0) / self->scale;
  double iy = self->cy + (py - h / 2.0) / self->scale;
  self->scale = scale;
  self->cx = ix - (px - w / 2.0) / scale;
  self->cy = iy - (py - h / 2.0) / scale;
  self->fit = FALSE;
  clamp_centre (self);
  changed (self);
}

gboolean
lm_image_view_get_rect (LmImageView *self, LmViewRect *rect)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  if (self->image_width == 0 || w < 2 || h < 2)
    return FALSE;
  int sf = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  double x0 = self->cx - w / (2.0 * self->scale), y0 = self->cy - h / (2.0 * self->scale);
  double x1 = self->cx + w / (2.0 * self->scale), y1 = self->cy + h / (2.0 * self->scale);
  rect->rx = MAX (0.0, x0);
  rect->ry = MAX (0.0, y0);
  rect->rw = MIN ((double) self->image_width, x1) - rect->rx;
  rect->rh = MIN ((double) self->image_height, y1) - rect->ry;
  if (rect->rw <= 0.0 || rect->rh <= 0.0)
    return FALSE;
  rect->out_w = MAX (1, (int) lround (rect->rw * self->scale * sf));
  rect->out_h = MAX (1, (int) lround (rect->rh * self->scale * sf));
  return TRUE;
}

static cairo_surface_t *
surface_of (LmImage *image, cairo_format_t format)
{
  return cairo_image_surface_create_for_data (image->data, format, (int) image->width,
                                              (int) image->height, (int) image->stride);
}

/* Paints SURFACE, made for RECT, where RECT lies on the screen now. */
static void
paint_region (LmImageView *self, cairo_t *cr, cairo_surface_t *surface, const LmViewRect *rect)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  double x0 = self->cx - w / (2.0 * self->scale), y0 = self->cy - h / (2.0 * self->scale);
  cairo_save (cr);
  cairo_translate (cr, (rect->rx - x0) * self->scale, (rect->ry - y0) * self->scale);
  cairo_scale (cr, rect->rw * self->scale / rect->out_w, rect->rh * self->scale / rect->out_h);
  cairo_set_source_surface (cr, surface, 0, 0);
  /* Pixel peeping wants blocks when enlarging; otherwise smooth. */
  cairo_pattern_set_filter (cairo_get_source (cr),
                            self->scale >= 2.0 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_rectangle (cr, 0, 0, rect->out_w, rect->out_h);
  cairo_fill (cr);
  cairo_restore (cr);
}

static gboolean
lm_image_view_draw (GtkWidget *widget, cairo_t *cr)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  gtk_render_background (style, cr, 0, 0, gtk_widget_get_allocated_width (widget),
                         gtk_widget_get_allocated_height (widget));
  if (self->surface)
    paint_region (self, cr, self->surface, &self->pixels_rect);
  if (self->overlay_surface)
    paint_region (self, cr, self->overlay_surface, &self->overlay_rect);

  if (self->changed_us != 0)
    {
      gint64 now = g_get_monotonic_time ();
      if (self->trace)
        g_printerr ("lumen-trace: change→result %.2f ms, change→paint %.2f ms\n",
                    (self->result_us - self->changed_us) / 1000.0, (now - self->changed_us) / 1000.0);
      g_signal_emit (self, signals[PAINTED], 0, self->changed_us, self->result_us, now);
      self->changed_us = 0;
    }
  return GDK_EVENT_STOP;
}

static void
lm_image_view_size_allocate (GtkWidget *widget, GtkAllocation *allocation)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  int old_w = gtk_widget_get_allocated_width (widget), old_h = gtk_widget_get_allocated_height (widget);
  GTK_WIDGET_CLASS (lm_image_view_parent_class)->size_allocate (widget, allocation);
  if (old_w == allocation->width && old_h == allocation->height)
    return;
  if (self->fit)
    self->scale = fit_scale (self);
  changed (self);
}

static gboolean
lm_image_view_scroll (GtkWidget *widget, GdkEventScroll *event)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  double dy = 0.0;
  if (event->direction == GDK_SCROLL_UP)
    dy = -1.0;
  else if (event->direction == GDK_SCROLL_DOWN)
    dy = 1.0;
  else if (event->direction == GDK_SCROLL_SMOOTH)
    dy = event->delta_y;
  if (dy == 0.0 || self->image_width == 0)
    return GDK_EVENT_PROPAGATE;
  set_scale_about (self, self->scale * pow (1.2, -dy), event->x, event->y);
  return GDK_EVENT_STOP;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, LmImageView *self)
{
  self->drag_cx = self->cx;
  self->drag_cy = self->cy;
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, LmImageView *self)
{
  if (self->image_width == 0)
    return;
  self->cx = self->drag_cx - dx / self->scale;
  self->cy = self->drag_cy - dy / self->scale;
  self->fit = FALSE;
  clamp_centre (self);
  changed (self);
}

static void
lm_image_view_finalize (GObject *object)
{
  LmImageView *self = LM_IMAGE_VIEW (object);
  g_clear_pointer (&self->surface, cairo_surface_destroy);
  g_clear_pointer (&self->overlay_surface, cairo_surface_destroy);
  g_clear_pointer (&self->pixels, lm_image_unref);
  g_clear_pointer (&self->overlay, lm_image_unref);
  g_clear_object (&self->drag);
  G_OBJECT_CLASS (lm_image_view_parent_class)->finalize (object);
}

static void
lm_image_view_class_init (LmImageViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->finalize = lm_image_view_finalize;
  widget_class->draw = lm_image_view_draw;
  widget_class->size_allocate = lm_image_view_size_allocate;
  widget_class->scroll_event = lm_image_view_scroll;
  gtk_widget_class_set_css_name (widget_class, "imageview");

  /* The region shown changed (size, zoom or pan): its pixels are wanted. */
  signals[VIEW_CHANGED] = g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* New pixels reached the screen: when their change was made, when their result came,
   * and now (monotonic µs). What LUMEN_TRACE logs, for tools that measure it. */
  signals[PAINTED] = g_signal_new ("painted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_INT64);
}

static void
lm_image_view_init (LmImageView *self)
{
  self->fit = TRUE;
  self->scale = 1.0;
  self->trace = g_strcmp0 (g_getenv ("LUMEN_TRACE"), "1") == 0;
  gtk_widget_add_events (GTK_WIDGET (self), GDK_SCROLL_MASK | GDK_SMOOTH_SCROLL_MASK
                                              | GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                                              | GDK_POINTER_MOTION_MASK);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  self->drag = gtk_gesture_drag_new (GTK_WIDGET (self));
  g_signal_connect (self->drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (self->drag, "drag-update", G_CALLBACK (on_drag_update), self);
}

GtkWidget *
lm_image_view_new (void)
{
  return g_object_new (LM_TYPE_IMAGE_VIEW, NULL);
}

void
lm_image_view_set_image_size (LmImageView *self, guint width, guint height)
{
  self->image_width = width;
  self->image_height = height;
  g_clear_pointer (&self->surface, cairo_surface_destroy);
  g_clear_pointer (&self->pixels, lm_image_unref);
  lm_image_view_set_overlay (self, NULL, NULL);
  lm_image_view_zoom_fit (self);
}

void
lm_image_view_set_pixels (LmImageView *self, LmImage *view, const LmViewRect *rect,
                          gint64 changed_us, gint64 result_us)
{
  g_clear_pointer (&self->surface, cairo_surface_destroy);
  g_clear_pointer (&self->pixels, lm_image_unref);
  self->pixels = lm_image_ref (view);
  self->pixels_rect = *rect;
  self->surface = surface_of (view, CAIRO_FORMAT_RGB24);
  self->changed_us = changed_us;
  self->result_us = result_us;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

LmImage *
lm_image_view_get_pixels (LmImageView *self, LmViewRect *rect)
{
  if (rect && self->pixels)
    *rect = self->pixels_rect;
  return self->pixels;
}

void
lm_image_view_set_overlay (LmImageView *self, LmImage *overlay, const LmViewRect *rect)
{
  g_clear_pointer (&self->overlay_surface, cairo_surface_destroy);
  g_clear_pointer (&self->overlay, lm_image_unref);
  if (overlay != NULL)
    {
      self->overlay = lm_image_ref (overlay);
      self->overlay_rect = *rect;
      self->overlay_surface = surface_of (overlay, CAIRO_FORMAT_ARGB32);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
lm_image_view_zoom_fit (LmImageView *self)
{
  self->fit = TRUE;
  self->scale = fit_scale (self);
  self->cx = self->image_width / 2.0;
  self->cy = self->image_height / 2.0;
  changed (self);
}

void
lm_image_view_zoom_actual (LmImageView *self)
{
  int sf = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  set_scale_about (self, 1.0 / sf, gtk_widget_get_allocated_width (GTK_WIDGET (self)) / 2.0,
                   gtk_widget_get_allocated_height (GTK_WIDGET (self)) / 2.0);
}

void
lm_image_view_zoom_by (LmImageView *self, double factor)
{
  set_scale_about (self, self->scale * factor, gtk_widget_get_allocated_width (GTK_WIDGET (self)) / 2.0,
                   gtk_widget_get_allocated_height (GTK_WIDGET (self)) / 2.0);
}

double
lm_image_view_get_zoom (LmImageView *self)
{
  return self->scale * gtk_widget_get_scale_factor (GTK_WIDGET (self));
}
