/* LmImageView's before/after split (image-view-private.h): the unedited photo's view left of
 * a vertical line, the edited one right of it, each carrying its own region, so that they
 * stay in register however far apart they were rendered; the line is dragged with the
 * pointer. Its line, handle and labels take their looks from style.css
 * (imageview.split-line, .split-handle, .split-label). */
#include "image-view-private.h"

#include <math.h>
#include <glib/gi18n.h>

#define SPLIT_GRAB 6.0    /* how near the line (logical pixels) the pointer takes it */
#define SPLIT_HANDLE 26.0 /* the handle's diameter */
#define SPLIT_LABEL_MARGIN 8.0

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
  if (!self->split || !lm_image_view_image_extent (self, &e) || y < e.y || y > e.y + e.height)
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

/* Each half paints only its own view: where the "before" has not come yet, the background
 * shows rather than the edited photo under the wrong name. */
void
lm_image_view_paint_halves (LmImageView *self, cairo_t *cr)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  int h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  double lx = split_x (self);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, lx, h);
  cairo_clip (cr);
  if (self->before_surface)
    lm_image_view_paint_region (self, cr, self->before_surface, &self->before_rect);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_rectangle (cr, lx, 0, w - lx, h);
  cairo_clip (cr);
  if (self->surface)
    lm_image_view_paint_region (self, cr, self->surface, &self->pixels_rect);
  cairo_restore (cr);
}

/* The line over the image's height, a round handle at its middle with arrows that say it
 * moves sideways, and the halves' names at the image's top corners, each kept to its half. */
void
lm_image_view_draw_split (LmImageView *self, cairo_t *cr, const cairo_rectangle_t *e)
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

gboolean
lm_image_view_split_press (LmImageView *self, double x, double y)
{
  if (!near_line (self, x, y))
    return FALSE;
  self->dragging_line = TRUE;
  self->drag_line_x = split_x (self) - x; /* where on the line it was taken */
  return TRUE;
}

gboolean
lm_image_view_split_release (LmImageView *self, double x, double y)
{
  if (!self->dragging_line)
    return FALSE;
  self->dragging_line = FALSE;
  show_over_line (self, near_line (self, x, y));
  return TRUE;
}

gboolean
lm_image_view_split_motion (LmImageView *self, double x, double y)
{
  if (!self->dragging_line)
    {
      /* While a pan runs, the line passing under the pointer is not offered. */
      if (!gtk_gesture_is_active (self->drag))
        show_over_line (self, near_line (self, x, y));
      return FALSE;
    }
  lm_image_view_set_split_position (self, (x + self->drag_line_x) / gtk_widget_get_allocated_width (GTK_WIDGET (self)));
  return TRUE;
}

void
lm_image_view_split_leave (LmImageView *self)
{
  if (!self->dragging_line)
    show_over_line (self, FALSE);
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
  lm_image_view_hold (&self->before, &self->before_rect, &self->before_surface, view, rect,
                      CAIRO_FORMAT_RGB24);
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
