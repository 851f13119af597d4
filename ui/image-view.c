/* LmImageView (image-view.h): zoom, pan and painting the views; the before/after split is
 * image-view-split.c's. The zoom is kept as screen pixels per image pixel and the image
 * point at the centre of the widget; a rendered view carries the region it was made for, so
 * that while the next one renders the old one is drawn where its region is now. */
#include "image-view-private.h"

#include <math.h>

#define ZOOM_MIN_FACTOR 0.25 /* of the fitting zoom */
#define ZOOM_MAX 32.0
#define KEY_PAN_FRACTION 0.1 /* of the view's size, per arrow key press */
#define KEY_PAN_MIN 16.0     /* logical pixels, however small the view */

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

/* Where a pan from centre FROM towards WANT stops along one axis (image and view sizes in
 * image and logical pixels). Where the image is larger than the view, at the image's edges:
 * a pan shows more of the photo, never empty background; where the whole image is in view
 * (at fit), there is nothing to pan to and it stays where it is. A pan that starts beyond
 * those bounds (a zoom about the pointer may leave a margin) is not pulled back: it can only
 * go towards them. */
static double
pan_axis (double want, double from, double image, double view, double scale)
{
  double half = view / (2.0 * scale), lo = image / 2.0, hi = image / 2.0;
  if (image * scale > view + 1e-6) /* at fit it is the view's size, give or take rounding */
    lo = half, hi = image - half;
  return CLAMP (want, MIN (lo, from), MAX (hi, from));
}

/* Moves the centre from (FROM_X, FROM_Y) towards (CX, CY), as far as there is image to show. */
static void
pan_to (LmImageView *self, double cx, double cy, double from_x, double from_y)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  if (self->image_width == 0)
    return;
  cx = pan_axis (cx, from_x, self->image_width, w, self->scale);
  cy = pan_axis (cy, from_y, self->image_height, h, self->scale);
  if (cx == self->cx && cy == self->cy)
    return; /* nothing moved: the view keeps fitting the window, no render is asked for */
  self->cx = cx;
  self->cy = cy;
  self->fit = FALSE;
  changed (self);
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

gboolean
lm_image_view_image_extent (LmImageView *self, cairo_rectangle_t *extent)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  if (self->image_width == 0)
    return FALSE;
  double x0 = self->cx - w / (2.0 * self->scale), y0 = self->cy - h / (2.0 * self->scale);
  double left = MAX (0.0, -x0 * self->scale), top = MAX (0.0, -y0 * self->scale);
  double right = MIN ((double) w, (self->image_width - x0) * self->scale);
  double bottom = MIN ((double) h, (self->image_height - y0) * self->scale);
  *extent = (cairo_rectangle_t) { left, top, right - left, bottom - top };
  return extent->width > 0 && extent->height > 0;
}

void
lm_image_view_hold (LmImage **held, LmViewRect *held_rect, cairo_surface_t **surface, LmImage *view,
                    const LmViewRect *rect, cairo_format_t format)
{
  g_clear_pointer (surface, cairo_surface_destroy);
  g_clear_pointer (held, lm_image_unref);
  if (view == NULL)
    return;
  *held = lm_image_ref (view);
  *held_rect = *rect;
  *surface = cairo_image_surface_create_for_data (view->data, format, (int) view->width, (int) view->height,
                                                  (int) view->stride);
}

void
lm_image_view_paint_region (LmImageView *self, cairo_t *cr, cairo_surface_t *surface, const LmViewRect *rect)
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
  int w = gtk_widget_get_allocated_width (widget), h = gtk_widget_get_allocated_height (widget);
  gtk_render_background (style, cr, 0, 0, w, h);
  cairo_rectangle_t extent;
  gboolean split = self->split && lm_image_view_image_extent (self, &extent);
  if (split)
    lm_image_view_paint_halves (self, cr);
  else if (self->surface)
    lm_image_view_paint_region (self, cr, self->surface, &self->pixels_rect);
  if (self->mask_surface)
    lm_image_view_paint_region (self, cr, self->mask_surface, &self->mask_rect);
  if (self->overlay_surface)
    lm_image_view_paint_region (self, cr, self->overlay_surface, &self->overlay_rect);
  if (split)
    lm_image_view_draw_split (self, cr, &extent);
  if (self->tool && self->tool->draw && self->image_width != 0)
    self->tool->draw (self->tool_data, cr);
  /* Arrow keys pan the view once it has the keyboard: say so, where the keyboard was used. */
  if (gtk_widget_has_visible_focus (widget))
    gtk_render_focus (style, cr, 0, 0, w, h);

  if (self->changed_us != 0)
    {
      gint64 now = g_get_monotonic_time ();
      if (self->trace)
        g_printerr ("lumen-trace: change→result %.2f ms, change→paint %.2f ms\n",
                    (self->result_us - self->changed_us) / 1000.0, (now - self->changed_us) / 1000.0);
      g_signal_emit (self, signals[PAINTED], 0, self->changed_us, self->result_us, now);
      self->changed_us = 0;
    }
  /* Handlers connected after this one draw over the image (a FITS file's source markers). */
  return GDK_EVENT_PROPAGATE;
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

/* A press gives the view the keyboard (its arrows pan). The split line is taken by a press
 * on it, before the pan gesture could start a pan: in GTK 3 a widget's bubble-phase gestures
 * are run by GtkWidget's own event handlers, so the gesture sees only the events that these
 * handlers chain up. */
static gboolean
lm_image_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  if (event->type == GDK_BUTTON_PRESS && !gtk_widget_has_focus (widget))
    gtk_widget_grab_focus (widget);
  if (event->button == GDK_BUTTON_PRIMARY && event->type == GDK_BUTTON_PRESS
      && lm_image_view_split_press (self, event->x, event->y))
    return GDK_EVENT_STOP;
  if (event->button == GDK_BUTTON_PRIMARY && event->type == GDK_BUTTON_PRESS && self->tool
      && self->tool->press && self->image_width != 0 && self->tool->press (self->tool_data, event->x, event->y))
    {
      self->tool_pressed = TRUE;
      return GDK_EVENT_STOP;
    }
  return GTK_WIDGET_CLASS (lm_image_view_parent_class)->button_press_event (widget, event);
}

static gboolean
lm_image_view_button_release (GtkWidget *widget, GdkEventButton *event)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  if (event->button == GDK_BUTTON_PRIMARY && lm_image_view_split_release (self, event->x, event->y))
    return GDK_EVENT_STOP;
  if (event->button == GDK_BUTTON_PRIMARY && self->tool_pressed)
    {
      self->tool_pressed = FALSE;
      if (self->tool && self->tool->release)
        self->tool->release (self->tool_data, event->x, event->y);
      return GDK_EVENT_STOP;
    }
  return GTK_WIDGET_CLASS (lm_image_view_parent_class)->button_release_event (widget, event);
}

static gboolean
lm_image_view_motion (GtkWidget *widget, GdkEventMotion *event)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  if (lm_image_view_split_motion (self, event->x, event->y))
    return GDK_EVENT_STOP;
  if (self->tool && self->tool->motion && self->image_width != 0)
    {
      self->tool->motion (self->tool_data, event->x, event->y, self->tool_pressed);
      if (self->tool_pressed)
        return GDK_EVENT_STOP;
    }
  return GTK_WIDGET_CLASS (lm_image_view_parent_class)->motion_notify_event (widget, event);
}

/* The arrow keys pan by a tenth of the view, in whole logical pixels (at 100 % the photo moves
 * by whole pixels and stays sharp). They are the view's even where there is nothing to pan
 * to, rather than moving the keyboard focus away from it. */
static gboolean
lm_image_view_key_press (GtkWidget *widget, GdkEventKey *event)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();
  int sx = 0, sy = 0; /* the way the view moves over the photo */
  switch (event->keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left: sx = -1; break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right: sx = 1; break;
    case GDK_KEY_Up: case GDK_KEY_KP_Up: sy = -1; break;
    case GDK_KEY_Down: case GDK_KEY_KP_Down: sy = 1; break;
    default: break;
    }
  if ((sx == 0 && sy == 0) || mods != 0 || self->image_width == 0)
    return GTK_WIDGET_CLASS (lm_image_view_parent_class)->key_press_event (widget, event);
  double step_x = MAX (KEY_PAN_MIN, round (gtk_widget_get_allocated_width (widget) * KEY_PAN_FRACTION));
  double step_y = MAX (KEY_PAN_MIN, round (gtk_widget_get_allocated_height (widget) * KEY_PAN_FRACTION));
  pan_to (self, self->cx + sx * step_x / self->scale, self->cy + sy * step_y / self->scale, self->cx, self->cy);
  return GDK_EVENT_STOP;
}

static gboolean
lm_image_view_leave (GtkWidget *widget, GdkEventCrossing *event)
{
  lm_image_view_split_leave (LM_IMAGE_VIEW (widget));
  return GDK_EVENT_PROPAGATE;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, LmImageView *self)
{
  self->drag_cx = self->cx;
  self->drag_cy = self->cy;
}

/* The image point under the pointer at the press stays under it. */
static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, LmImageView *self)
{
  pan_to (self, self->drag_cx - dx / self->scale, self->drag_cy - dy / self->scale, self->drag_cx, self->drag_cy);
}

static void
lm_image_view_finalize (GObject *object)
{
  LmImageView *self = LM_IMAGE_VIEW (object);
  g_clear_pointer (&self->surface, cairo_surface_destroy);
  g_clear_pointer (&self->overlay_surface, cairo_surface_destroy);
  g_clear_pointer (&self->mask_surface, cairo_surface_destroy);
  g_clear_pointer (&self->before_surface, cairo_surface_destroy);
  g_clear_pointer (&self->pixels, lm_image_unref);
  g_clear_pointer (&self->overlay, lm_image_unref);
  g_clear_pointer (&self->mask, lm_image_unref);
  g_clear_pointer (&self->before, lm_image_unref);
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
  widget_class->button_press_event = lm_image_view_button_press;
  widget_class->button_release_event = lm_image_view_button_release;
  widget_class->motion_notify_event = lm_image_view_motion;
  widget_class->leave_notify_event = lm_image_view_leave;
  widget_class->key_press_event = lm_image_view_key_press;
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
  self->split_pos = 0.5;
  self->trace = g_strcmp0 (g_getenv ("LUMEN_TRACE"), "1") == 0;
  gtk_widget_add_events (GTK_WIDGET (self), GDK_SCROLL_MASK | GDK_SMOOTH_SCROLL_MASK
                                              | GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                                              | GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK
                                              | GDK_KEY_PRESS_MASK);
  gtk_widget_set_can_focus (GTK_WIDGET (self), TRUE);
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
  lm_image_view_hold (&self->pixels, &self->pixels_rect, &self->surface, NULL, NULL, CAIRO_FORMAT_RGB24);
  lm_image_view_set_overlay (self, NULL, NULL);
  lm_image_view_set_mask_overlay (self, NULL, NULL);
  lm_image_view_set_before_pixels (self, NULL, NULL);
  lm_image_view_zoom_fit (self);
}

void
lm_image_view_set_pixels (LmImageView *self, LmImage *view, const LmViewRect *rect,
                          gint64 changed_us, gint64 result_us)
{
  lm_image_view_hold (&self->pixels, &self->pixels_rect, &self->surface, view, rect, CAIRO_FORMAT_RGB24);
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
  lm_image_view_hold (&self->overlay, &self->overlay_rect, &self->overlay_surface, overlay, rect,
                      CAIRO_FORMAT_ARGB32);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
lm_image_view_set_mask_overlay (LmImageView *self, LmImage *mask, const LmViewRect *rect)
{
  if (mask == NULL && self->mask == NULL)
    return;
  lm_image_view_hold (&self->mask, &self->mask_rect, &self->mask_surface, mask, rect, CAIRO_FORMAT_ARGB32);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

LmImage *
lm_image_view_get_mask_overlay (LmImageView *self, LmViewRect *rect)
{
  if (rect && self->mask)
    *rect = self->mask_rect;
  return self->mask;
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

void
lm_image_view_center_on (LmImageView *self, double ix, double iy)
{
  self->cx = ix;
  self->cy = iy;
  self->fit = FALSE;
  clamp_centre (self);
  changed (self);
}

double
lm_image_view_get_zoom (LmImageView *self)
{
  return self->scale * gtk_widget_get_scale_factor (GTK_WIDGET (self));
}

gboolean
lm_image_view_get_fit (LmImageView *self)
{
  return self->fit;
}

void
lm_image_view_get_image_size (LmImageView *self, guint *width, guint *height)
{
  *width = self->image_width;
  *height = self->image_height;
}

/* A view of RECT in an image of OLD_W × OLD_H, stretched to one of NEW_W × NEW_H. */
static void
stretch_rect (LmViewRect *rect, guint old_w, guint old_h, guint new_w, guint new_h)
{
  double fx = (double) new_w / old_w, fy = (double) new_h / old_h;
  rect->rx *= fx, rect->rw *= fx;
  rect->ry *= fy, rect->rh *= fy;
}

void
lm_image_view_resize_image (LmImageView *self, guint width, guint height)
{
  guint old_w = self->image_width, old_h = self->image_height;
  if (width == old_w && height == old_h)
    return;
  if (old_w == 0 || old_h == 0 || (old_w > old_h) != (width > height))
    {
      lm_image_view_hold (&self->pixels, &self->pixels_rect, &self->surface, NULL, NULL, CAIRO_FORMAT_RGB24);
      lm_image_view_hold (&self->overlay, &self->overlay_rect, &self->overlay_surface, NULL, NULL,
                          CAIRO_FORMAT_ARGB32);
      lm_image_view_hold (&self->mask, &self->mask_rect, &self->mask_surface, NULL, NULL, CAIRO_FORMAT_ARGB32);
      lm_image_view_hold (&self->before, &self->before_rect, &self->before_surface, NULL, NULL,
                          CAIRO_FORMAT_RGB24);
    }
  else
    {
      stretch_rect (&self->pixels_rect, old_w, old_h, width, height);
      stretch_rect (&self->overlay_rect, old_w, old_h, width, height);
      stretch_rect (&self->mask_rect, old_w, old_h, width, height);
      stretch_rect (&self->before_rect, old_w, old_h, width, height);
    }
  self->image_width = width;
  self->image_height = height;
  if (self->fit || old_w == 0 || old_h == 0)
    {
      self->fit = TRUE;
      self->scale = fit_scale (self);
      self->cx = width / 2.0;
      self->cy = height / 2.0;
    }
  else
    {
      self->cx *= (double) width / old_w;
      self->cy *= (double) height / old_h;
      clamp_centre (self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
lm_image_view_to_image (LmImageView *self, double wx, double wy, double *ix, double *iy)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  *ix = self->cx + (wx - w / 2.0) / self->scale;
  *iy = self->cy + (wy - h / 2.0) / self->scale;
}

void
lm_image_view_to_widget (LmImageView *self, double ix, double iy, double *wx, double *wy)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  *wx = (ix - self->cx) * self->scale + w / 2.0;
  *wy = (iy - self->cy) * self->scale + h / 2.0;
}

void
lm_image_view_set_tool (LmImageView *self, const LmViewTool *tool, gpointer data)
{
  self->tool = tool;
  self->tool_data = data;
  self->tool_pressed = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
