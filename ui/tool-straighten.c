/* The straighten tool (tool-straighten.h). The line is measured in image pixels, which are
 * square on the screen at any zoom, so its angle on the screen is its angle in the photo. */
#include "tool-straighten.h"

#include <math.h>

#define MIN_LENGTH 8.0 /* logical pixels: a shorter line is a click, it says nothing of a tilt */

struct _LmStraightenTool {
  LmImageView *view;
  LmStraightenDone done;
  gpointer data;
  gboolean active, dragging;
  double x0, y0, x1, y1; /* the line, image pixels */
};

double
lm_straighten_turn (double x0, double y0, double x1, double y1)
{
  /* The line's angle, counter-clockwise from the right (y up); a turn of θ counter-clockwise
   * makes it φ + θ, level or upright where that is a multiple of 90°. */
  double phi = atan2 (-(y1 - y0), x1 - x0) * 180.0 / G_PI;
  double turn = -phi - 90.0 * round (-phi / 90.0);
  return turn <= -45.0 ? turn + 90.0 : turn;
}

static gboolean
on_press (gpointer data, double x, double y)
{
  LmStraightenTool *t = data;
  lm_image_view_to_image (t->view, x, y, &t->x0, &t->y0);
  t->x1 = t->x0, t->y1 = t->y0;
  t->dragging = TRUE;
  return TRUE;
}

static void
on_motion (gpointer data, double x, double y, gboolean pressed)
{
  LmStraightenTool *t = data;
  if (!pressed || !t->dragging)
    return;
  lm_image_view_to_image (t->view, x, y, &t->x1, &t->y1);
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
}

static void
on_release (gpointer data, double x, double y)
{
  LmStraightenTool *t = data;
  on_motion (t, x, y, TRUE);
  t->dragging = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
  double length = hypot (t->x1 - t->x0, t->y1 - t->y0) * lm_image_view_get_zoom (t->view)
                  / gtk_widget_get_scale_factor (GTK_WIDGET (t->view));
  if (length >= MIN_LENGTH)
    t->done (t->data, lm_straighten_turn (t->x0, t->y0, t->x1, t->y1));
}

static void
on_draw (gpointer data, cairo_t *cr)
{
  LmStraightenTool *t = data;
  if (!t->dragging)
    return;
  double ax, ay, bx, by;
  lm_image_view_to_widget (t->view, t->x0, t->y0, &ax, &ay);
  lm_image_view_to_widget (t->view, t->x1, t->y1, &bx, &by);
  cairo_save (cr);
  cairo_move_to (cr, ax, ay);
  cairo_line_to (cr, bx, by);
  cairo_set_line_width (cr, 3.0);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.5); /* a dark edge: seen on light skies too */
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.95);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static const LmViewTool straighten_tool = { on_press, on_motion, on_release, on_draw };

LmStraightenTool *
lm_straighten_tool_new (LmImageView *view, LmStraightenDone done, gpointer data)
{
  LmStraightenTool *t = g_new0 (LmStraightenTool, 1);
  t->view = view, t->done = done, t->data = data;
  return t;
}

void
lm_straighten_tool_free (LmStraightenTool *tool)
{
  if (tool == NULL)
    return;
  lm_straighten_tool_end (tool);
  g_free (tool);
}

void
lm_straighten_tool_begin (LmStraightenTool *t)
{
  t->active = TRUE;
  t->dragging = FALSE;
  lm_image_view_set_tool (t->view, &straighten_tool, t);
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (t->view));
  if (window)
    {
      g_autoptr (GdkCursor) cursor = gdk_cursor_new_from_name (gdk_window_get_display (window), "crosshair");
      gdk_window_set_cursor (window, cursor);
    }
}

void
lm_straighten_tool_end (LmStraightenTool *t)
{
  if (!t->active)
    return;
  t->active = FALSE;
  t->dragging = FALSE;
  lm_image_view_set_tool (t->view, NULL, NULL);
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (t->view));
  if (window)
    gdk_window_set_cursor (window, NULL);
}
