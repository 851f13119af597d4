/* LmImageView (image-view.h). The zoom is kept as screen pixels per image pixel and the
 * image point at the centre of the widget; a rendered view carries the region it was made
 * for, so that while the next one renders the old one is drawn where its region is now. The
 * split view's two views each carry their own region, so they stay in register however far
 * apart they were rendered. Its line, handle and labels take their looks from style.css
 * (imageview.split-line, .split-handle, .split-label). */
#include "image-view.h"

#include <math.h>
#include <glib/gi18n.h>

#define ZOOM_MIN_FACTOR 0.25 /* of the fitting zoom */
#define ZOOM_MAX 32.0
#define SPLIT_GRAB 6.0    /* how near the line (logical pixels) the pointer takes it */
#define SPLIT_HANDLE 26.0 /* the handle's diameter */
#define SPLIT_LABEL_MARGIN 8.0
#define KEY_PAN_FRACTION 0.1 /* of the view's size, per arrow key press */
#define KEY_PAN_MIN 16.0     /* logical pixels, however small the view */

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
  LmImage *before;   /* RGB24, of before_rect: the unedited photo, left of the split line */
  LmViewRect before_rect;
  cairo_surface_t *before_surface;

  gboolean split;
  double split_pos;  /* the line, as a fraction of the width */
  gboolean dragging_line;
  double drag_line_x; /* the line's column less the pointer's, when it was taken */
  gboolean over_line; /* the pointer is where a drag takes the line: the cursor says so */

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

/* Where the image lies on the widget now, clipped to the widget; FALSE when nowhere. */
static gboolean
image_extent (LmImageView *self, cairo_rectangle_t *extent)
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

/* The split line's column: pixels left of it show the photo as opened. */
static double
split_x (LmImageView *self)
{
  return round (self->split_pos * gtk_widget_get_allocated_width (GTK_WIDGET (self)));
}

static gboolean
near_line (LmImageView *self, double x, double y)
{
  cairo_rectangle_t e;
  if (!self->split || !image_extent (self, &e) || y < e.y || y > e.y + e.height)
    return FALSE;
  double dx = x - split_x (self), dy = y - (e.y + e.height / 2.0);
  return fabs (dx) <= SPLIT_GRAB || dx * dx + dy * dy <= SPLIT_HANDLE * SPLIT_HANDLE / 4.0;
}

static void
show_over_line (LmImageView *self, gboolean over)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GdkWindow *window = gtk_widget_get_window (widget);
  if (over == self->over_line || window == NULL)
    return;
  self->over_line = over;
  g_autoptr (GdkCursor) cursor = over ? gdk_cursor_new_from_name (gtk_widget_get_display (widget), "col-resize")
                                      : NULL;
  gdk_window_set_cursor (window, cursor);
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

/* TEXT in a small box at (X, Y), its right edge there when ALIGN_RIGHT. */
static void
draw_label (LmImageView *self, cairo_t *cr, const char *text, double x, double y, gboolean align_right)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  gtk_style_context_save (style);
  gtk_style_context_add_class (style, "split-label");
  GtkStateFlags state = gtk_style_context_get_state (style);
  PangoFontDescription *font = NULL;
  GtkBorder padding;
  gtk_style_context_get (style, state, GTK_STYLE_PROPERTY_FONT, &font, NULL);
  gtk_style_context_get_padding (style, state, &padding);
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  int tw, th;
  pango_layout_get_pixel_size (layout, &tw, &th);
  double bw = tw + padding.left + padding.right, bh = th + padding.top + padding.bottom;
  if (align_right)
    x -= bw;
  gtk_render_background (style, cr, x, y, bw, bh);
  gtk_render_frame (style, cr, x, y, bw, bh);
  gtk_render_layout (style, cr, x + padding.left, y + padding.top, layout);
  gtk_style_context_restore (style);
}

/* The line over the image's height, a round handle at its middle with arrows that say it
 * moves sideways, and the halves' names at the image's top corners, each kept to its half. */
static void
draw_split (LmImageView *self, cairo_t *cr, const cairo_rectangle_t *e)
{
  GtkStyleContext *style = gtk_widget_get_style_context (GTK_WIDGET (self));
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  double lx = split_x (self);
  GdkRGBA color;

  /* Labels first: the line passes over them. */
  double top = e->y + SPLIT_LABEL_MARGIN;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, lx, e->y + e->height);
  cairo_clip (cr);
  draw_label (self, cr, _("Before"), e->x + SPLIT_LABEL_MARGIN, top, FALSE);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_rectangle (cr, lx, 0, w - lx, e->y + e->height);
  cairo_clip (cr);
  draw_label (self, cr, _("After"), e->x + e->width - SPLIT_LABEL_MARGIN, top, TRUE);
  cairo_restore (cr);

  gtk_style_context_save (style);
  gtk_style_context_add_class (style, "split-line");
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &color);
  gtk_style_context_restore (style);
  cairo_save (cr);
  /* A dark edge keeps a light line visible on light photos. */
  cairo_rectangle (cr, lx - 1.5, e->y, 3.0, e->height);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.45 * color.alpha);
  cairo_fill (cr);
  cairo_rectangle (cr, lx - 0.5, e->y, 1.0, e->height);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_fill (cr);
  cairo_restore (cr);

  double r = SPLIT_HANDLE / 2.0, cy = e->y + e->height / 2.0;
  gtk_style_context_save (style);
  gtk_style_context_add_class (style, "split-handle");
  gtk_render_background (style, cr, lx - r, cy - r, SPLIT_HANDLE, SPLIT_HANDLE);
  gtk_render_frame (style, cr, lx - r, cy - r, SPLIT_HANDLE, SPLIT_HANDLE);
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &color);
  gtk_style_context_restore (style);
  cairo_save (cr);
  gdk_cairo_set_source_rgba (cr, &color);
  for (int side = -1; side <= 1; side += 2)
    {
      cairo_move_to (cr, lx + side * (r * 0.7), cy);
      cairo_line_to (cr, lx + side * (r * 0.25), cy - r * 0.35);
      cairo_line_to (cr, lx + side * (r * 0.25), cy + r * 0.35);
      cairo_close_path (cr);
    }
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
  gboolean split = self->split && image_extent (self, &extent);
  if (split)
    {
      /* Each half paints only its own view: where the "before" has not come yet, the
       * background shows rather than the edited photo under the wrong name. */
      double lx = split_x (self);
      cairo_save (cr);
      cairo_rectangle (cr, 0, 0, lx, h);
      cairo_clip (cr);
      if (self->before_surface)
        paint_region (self, cr, self->before_surface, &self->before_rect);
      cairo_restore (cr);
      cairo_save (cr);
      cairo_rectangle (cr, lx, 0, w - lx, h);
      cairo_clip (cr);
      if (self->surface)
        paint_region (self, cr, self->surface, &self->pixels_rect);
      cairo_restore (cr);
    }
  else if (self->surface)
    paint_region (self, cr, self->surface, &self->pixels_rect);
  if (self->overlay_surface)
    paint_region (self, cr, self->overlay_surface, &self->overlay_rect);
  if (split)
    draw_split (self, cr, &extent);
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
  if (event->button == GDK_BUTTON_PRIMARY && event->type == GDK_BUTTON_PRESS && near_line (self, event->x, event->y))
    {
      self->dragging_line = TRUE;
      self->drag_line_x = split_x (self) - event->x; /* where on the line it was taken */
      return GDK_EVENT_STOP;
    }
  return GTK_WIDGET_CLASS (lm_image_view_parent_class)->button_press_event (widget, event);
}

static gboolean
lm_image_view_button_release (GtkWidget *widget, GdkEventButton *event)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  if (!self->dragging_line || event->button != GDK_BUTTON_PRIMARY)
    return GTK_WIDGET_CLASS (lm_image_view_parent_class)->button_release_event (widget, event);
  self->dragging_line = FALSE;
  show_over_line (self, near_line (self, event->x, event->y));
  return GDK_EVENT_STOP;
}

static gboolean
lm_image_view_motion (GtkWidget *widget, GdkEventMotion *event)
{
  LmImageView *self = LM_IMAGE_VIEW (widget);
  if (!self->dragging_line)
    {
      /* While a pan runs, the line passing under the pointer is not offered. */
      if (!gtk_gesture_is_active (self->drag))
        show_over_line (self, near_line (self, event->x, event->y));
      return GTK_WIDGET_CLASS (lm_image_view_parent_class)->motion_notify_event (widget, event);
    }
  lm_image_view_set_split_position (self, (event->x + self->drag_line_x)
                                            / gtk_widget_get_allocated_width (widget));
  return GDK_EVENT_STOP;
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
  LmImageView *self = LM_IMAGE_VIEW (widget);
  if (!self->dragging_line)
    show_over_line (self, FALSE);
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
  g_clear_pointer (&self->before_surface, cairo_surface_destroy);
  g_clear_pointer (&self->pixels, lm_image_unref);
  g_clear_pointer (&self->overlay, lm_image_unref);
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
  g_clear_pointer (&self->surface, cairo_surface_destroy);
  g_clear_pointer (&self->pixels, lm_image_unref);
  lm_image_view_set_overlay (self, NULL, NULL);
  lm_image_view_set_before_pixels (self, NULL, NULL);
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
lm_image_view_set_split (LmImageView *self, gboolean split)
{
  split = !!split;
  if (split == self->split)
    return;
  self->split = split;
  self->dragging_line = FALSE;
  show_over_line (self, FALSE);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
lm_image_view_get_split (LmImageView *self)
{
  return self->split;
}

void
lm_image_view_set_split_position (LmImageView *self, double fraction)
{
  self->split_pos = CLAMP (fraction, 0.0, 1.0);
  if (self->split)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
lm_image_view_get_split_position (LmImageView *self)
{
  return self->split_pos;
}

void
lm_image_view_set_before_pixels (LmImageView *self, LmImage *view, const LmViewRect *rect)
{
  g_clear_pointer (&self->before_surface, cairo_surface_destroy);
  g_clear_pointer (&self->before, lm_image_unref);
  if (view != NULL)
    {
      self->before = lm_image_ref (view);
      self->before_rect = *rect;
      self->before_surface = surface_of (view, CAIRO_FORMAT_RGB24);
    }
  if (self->split)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

LmImage *
lm_image_view_get_before_pixels (LmImageView *self, LmViewRect *rect)
{
  if (rect && self->before)
    *rect = self->before_rect;
  return self->before;
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
