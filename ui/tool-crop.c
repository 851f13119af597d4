/* The crop tool (tool-crop.h). The rectangle is kept in image pixels, so that a zoom or a pan
 * while it is up moves it with the photo; hit tests and drawing go through the view's
 * image ↔ widget mapping. */
#include "tool-crop.h"

#include <math.h>

#include "core/ops/crop-math.h"

#define GRAB 10.0   /* how near a handle or an edge (logical pixels) the pointer takes it */
#define HANDLE 8.0  /* a handle's side */
#define MIN_SIDE 1.0 /* image pixels */

enum { LEFT = 1, RIGHT = 2, TOP = 4, BOTTOM = 8, MOVE = 16 };

struct _LmCropTool {
  LmImageView *view;
  gboolean active;
  double width, height;  /* of the image */
  double x0, y0, x1, y1; /* the rectangle's edges */
  double ratio;          /* ≥ 1 (landscape form), or 0: free */
  int grab;              /* what a drag moves: LEFT | TOP, MOVE, …; 0: no drag */
  double start[4];       /* the edges when the drag started */
  double px, py;         /* the image point pressed */
};

/* RATIO's value for a rectangle of W × H: landscape's for a wide one, its inverse else. */
static double
oriented (double ratio, double w, double h)
{
  double r = MAX (ratio, 1.0 / ratio);
  return w >= h ? r : 1.0 / r;
}

void
lm_crop_rect_fit_ratio (double rect[4], double ratio)
{
  if (ratio <= 0.0 || rect[2] <= 0.0 || rect[3] <= 0.0)
    return;
  double r = oriented (ratio, rect[2], rect[3]);
  double cx = rect[0] + rect[2] / 2.0, cy = rect[1] + rect[3] / 2.0;
  if (rect[2] / rect[3] > r)
    rect[2] = rect[3] * r;
  else
    rect[3] = rect[2] / r;
  rect[0] = cx - rect[2] / 2.0;
  rect[1] = cy - rect[3] / 2.0;
}

static void
get_rect (LmCropTool *t, double rect[4])
{
  rect[0] = t->x0, rect[1] = t->y0, rect[2] = t->x1 - t->x0, rect[3] = t->y1 - t->y0;
}

/* RECT, moved (not resized) to lie on the image where it fits; clipped where it does not. */
static void
set_rect (LmCropTool *t, const double rect[4])
{
  double w = CLAMP (rect[2], MIN_SIDE, t->width), h = CLAMP (rect[3], MIN_SIDE, t->height);
  t->x0 = CLAMP (rect[0], 0.0, t->width - w);
  t->y0 = CLAMP (rect[1], 0.0, t->height - h);
  t->x1 = t->x0 + w, t->y1 = t->y0 + h;
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
}

/* A corner drag held to ratio R: the corner opposite (AX, AY) stays, the pointer's (PX, PY)
 * gives the size (the larger way wins), and the image's edges bound it. */
static void
corner_with_ratio (LmCropTool *t, double r, double ax, double ay, double px, double py)
{
  double sx = px >= ax ? 1.0 : -1.0, sy = py >= ay ? 1.0 : -1.0;
  double w = MAX (fabs (px - ax), fabs (py - ay) * r), h = w / r;
  double room_w = sx > 0 ? t->width - ax : ax, room_h = sy > 0 ? t->height - ay : ay;
  if (w > room_w)
    w = room_w, h = w / r;
  if (h > room_h)
    h = room_h, w = h * r;
  w = MAX (w, MIN_SIDE), h = MAX (h, MIN_SIDE);
  t->x0 = sx > 0 ? ax : ax - w, t->x1 = t->x0 + w;
  t->y0 = sy > 0 ? ay : ay - h, t->y1 = t->y0 + h;
}

/* An edge drag held to ratio R: the opposite edge stays, the other side follows about the
 * rectangle's centre line. HORIZONTAL: a left or right edge was dragged to POS. */
static void
edge_with_ratio (LmCropTool *t, double r, gboolean horizontal, double anchor, double pos, double centre)
{
  double s = pos >= anchor ? 1.0 : -1.0;
  double len = fabs (pos - anchor);
  double room = horizontal ? (s > 0 ? t->width - anchor : anchor) : (s > 0 ? t->height - anchor : anchor);
  double cross_room = 2.0 * (horizontal ? MIN (centre, t->height - centre) : MIN (centre, t->width - centre));
  len = MIN (len, room);
  double cross = horizontal ? len / r : len * r;
  if (cross > cross_room)
    cross = cross_room, len = horizontal ? cross * r : cross / r;
  len = MAX (len, MIN_SIDE), cross = MAX (cross, MIN_SIDE);
  double a = s > 0 ? anchor : anchor - len;
  if (horizontal)
    t->x0 = a, t->x1 = a + len, t->y0 = centre - cross / 2.0, t->y1 = centre + cross / 2.0;
  else
    t->y0 = a, t->y1 = a + len, t->x0 = centre - cross / 2.0, t->x1 = centre + cross / 2.0;
}

static void
drag_to (LmCropTool *t, double px, double py)
{
  const double *s = t->start; /* x0, y0, x1, y1 */
  double dx = px - t->px, dy = py - t->py;
  if (t->grab == MOVE)
    {
      double rect[4] = { s[0] + dx, s[1] + dy, s[2] - s[0], s[3] - s[1] };
      set_rect (t, rect);
      return;
    }
  px = CLAMP (px, 0.0, t->width), py = CLAMP (py, 0.0, t->height);
  double r = t->ratio > 0.0 ? oriented (t->ratio, s[2] - s[0], s[3] - s[1]) : 0.0;
  gboolean h_edge = (t->grab & (LEFT | RIGHT)) != 0, v_edge = (t->grab & (TOP | BOTTOM)) != 0;
  if (r > 0.0 && h_edge && v_edge)
    corner_with_ratio (t, r, t->grab & LEFT ? s[2] : s[0], t->grab & TOP ? s[3] : s[1],
                       CLAMP (s[t->grab & LEFT ? 0 : 2] + dx, 0.0, t->width),
                       CLAMP (s[t->grab & TOP ? 1 : 3] + dy, 0.0, t->height));
  else if (r > 0.0 && h_edge)
    edge_with_ratio (t, r, TRUE, t->grab & LEFT ? s[2] : s[0], CLAMP (s[t->grab & LEFT ? 0 : 2] + dx, 0.0, t->width),
                     (s[1] + s[3]) / 2.0);
  else if (r > 0.0)
    edge_with_ratio (t, r, FALSE, t->grab & TOP ? s[3] : s[1], CLAMP (s[t->grab & TOP ? 1 : 3] + dy, 0.0, t->height),
                     (s[0] + s[2]) / 2.0);
  else
    {
      /* Free: each grabbed edge follows the pointer, never past the opposite one. */
      if (t->grab & LEFT)
        t->x0 = CLAMP (s[0] + dx, 0.0, s[2] - MIN_SIDE);
      if (t->grab & RIGHT)
        t->x1 = CLAMP (s[2] + dx, s[0] + MIN_SIDE, t->width);
      if (t->grab & TOP)
        t->y0 = CLAMP (s[1] + dy, 0.0, s[3] - MIN_SIDE);
      if (t->grab & BOTTOM)
        t->y1 = CLAMP (s[3] + dy, s[1] + MIN_SIDE, t->height);
    }
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
}

/* What a press at widget point (X, Y) takes: the edges near it, MOVE inside, 0 outside. */
static int
hit (LmCropTool *t, double x, double y)
{
  double l, tp, r, b;
  lm_image_view_to_widget (t->view, t->x0, t->y0, &l, &tp);
  lm_image_view_to_widget (t->view, t->x1, t->y1, &r, &b);
  if (x < l - GRAB || x > r + GRAB || y < tp - GRAB || y > b + GRAB)
    return 0;
  int edges = 0;
  if (fabs (x - l) <= GRAB)
    edges |= LEFT;
  else if (fabs (x - r) <= GRAB)
    edges |= RIGHT;
  if (fabs (y - tp) <= GRAB)
    edges |= TOP;
  else if (fabs (y - b) <= GRAB)
    edges |= BOTTOM;
  if (edges)
    return edges;
  return x > l && x < r && y > tp && y < b ? MOVE : 0;
}

static gboolean
on_press (gpointer data, double x, double y)
{
  LmCropTool *t = data;
  t->grab = hit (t, x, y);
  if (t->grab == 0)
    return FALSE; /* outside: the press pans */
  t->start[0] = t->x0, t->start[1] = t->y0, t->start[2] = t->x1, t->start[3] = t->y1;
  lm_image_view_to_image (t->view, x, y, &t->px, &t->py);
  gtk_widget_queue_draw (GTK_WIDGET (t->view)); /* the thirds show while dragging */
  return TRUE;
}

static const char *
cursor_name (int grab)
{
  switch (grab)
    {
    case LEFT | TOP: return "nw-resize";
    case RIGHT | TOP: return "ne-resize";
    case LEFT | BOTTOM: return "sw-resize";
    case RIGHT | BOTTOM: return "se-resize";
    case LEFT: return "w-resize";
    case RIGHT: return "e-resize";
    case TOP: return "n-resize";
    case BOTTOM: return "s-resize";
    case MOVE: return "move";
    default: return NULL;
    }
}

static void
show_cursor (LmCropTool *t, int grab)
{
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (t->view));
  if (window == NULL)
    return;
  const char *name = cursor_name (grab);
  g_autoptr (GdkCursor) cursor = name ? gdk_cursor_new_from_name (gtk_widget_get_display (GTK_WIDGET (t->view)), name)
                                      : NULL;
  gdk_window_set_cursor (window, cursor);
}

static void
on_motion (gpointer data, double x, double y, gboolean pressed)
{
  LmCropTool *t = data;
  if (!pressed)
    {
      show_cursor (t, hit (t, x, y));
      return;
    }
  double ix, iy;
  lm_image_view_to_image (t->view, x, y, &ix, &iy);
  drag_to (t, ix, iy);
}

static void
on_release (gpointer data, double x, double y)
{
  LmCropTool *t = data;
  on_motion (t, x, y, TRUE);
  t->grab = 0;
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
}

static void
on_draw (gpointer data, cairo_t *cr)
{
  LmCropTool *t = data;
  cairo_rectangle_t e;
  if (!lm_image_view_image_extent (t->view, &e))
    return;
  double l, tp, r, b;
  lm_image_view_to_widget (t->view, t->x0, t->y0, &l, &tp);
  lm_image_view_to_widget (t->view, t->x1, t->y1, &r, &b);
  cairo_save (cr);
  /* Outside the rectangle, dimmed: what the crop takes away. */
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_EVEN_ODD);
  cairo_rectangle (cr, e.x, e.y, e.width, e.height);
  cairo_rectangle (cr, l, tp, r - l, b - tp);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.55);
  cairo_fill (cr);
  cairo_set_line_width (cr, 1.0);
  if (t->grab)
    {
      /* The rule of thirds, while composing. */
      cairo_set_source_rgba (cr, 1, 1, 1, 0.5);
      for (int i = 1; i < 3; i++)
        {
          double gx = round (l + (r - l) * i / 3.0) + 0.5, gy = round (tp + (b - tp) * i / 3.0) + 0.5;
          cairo_move_to (cr, gx, tp);
          cairo_line_to (cr, gx, b);
          cairo_move_to (cr, l, gy);
          cairo_line_to (cr, r, gy);
        }
      cairo_stroke (cr);
    }
  cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
  cairo_rectangle (cr, round (l) + 0.5, round (tp) + 0.5, round (r) - round (l) - 1.0, round (b) - round (tp) - 1.0);
  cairo_stroke (cr);
  /* Eight handles: the corners and the middles of the edges. */
  double xs[3] = { l, (l + r) / 2.0, r }, ys[3] = { tp, (tp + b) / 2.0, b };
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++)
      {
        if (i == 1 && j == 1)
          continue;
        cairo_rectangle (cr, round (xs[i] - HANDLE / 2.0), round (ys[j] - HANDLE / 2.0), HANDLE, HANDLE);
      }
  cairo_set_source_rgba (cr, 1, 1, 1, 1);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.6);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static const LmViewTool crop_tool = { on_press, on_motion, on_release, on_draw };

LmCropTool *
lm_crop_tool_new (LmImageView *view)
{
  LmCropTool *t = g_new0 (LmCropTool, 1);
  t->view = view;
  return t;
}

void
lm_crop_tool_free (LmCropTool *tool)
{
  if (tool == NULL)
    return;
  lm_crop_tool_end (tool);
  g_free (tool);
}

void
lm_crop_tool_begin (LmCropTool *t, guint width, guint height, const double rect[4], double ratio)
{
  t->width = MAX (width, 1u), t->height = MAX (height, 1u);
  t->ratio = ratio;
  t->grab = 0;
  /* Clipped to the image first, then held to the ratio. */
  double x0 = CLAMP (rect[0], 0.0, t->width - MIN_SIDE), y0 = CLAMP (rect[1], 0.0, t->height - MIN_SIDE);
  double r[4] = { x0, y0, CLAMP (rect[2], MIN_SIDE, t->width - x0), CLAMP (rect[3], MIN_SIDE, t->height - y0) };
  lm_crop_rect_fit_ratio (r, ratio);
  t->active = TRUE;
  set_rect (t, r);
  lm_image_view_set_tool (t->view, &crop_tool, t);
}

void
lm_crop_tool_end (LmCropTool *t)
{
  if (!t->active)
    return;
  t->active = FALSE;
  t->grab = 0;
  show_cursor (t, 0);
  lm_image_view_set_tool (t->view, NULL, NULL);
}

gboolean
lm_crop_tool_is_active (LmCropTool *t)
{
  return t->active;
}

void
lm_crop_tool_get_rect (LmCropTool *t, double rect[4])
{
  /* The edges drawn are anywhere between pixels; crop rounds each and, with a ratio, holds
   * the whole-pixel rectangle to it again, which took a pixel off the side the rounding had
   * made long (a Width field of 1996 over a crop of 1995). The rectangle given is the one
   * cut, so that what the window stores and shows is what the view and the export make. */
  unsigned w = (unsigned) t->width, h = (unsigned) t->height;
  unsigned x0 = lm_crop_round (t->x0, w - 1), y0 = lm_crop_round (t->y0, h - 1);
  unsigned x1 = MAX (lm_crop_round (t->x1, w), x0 + 1), y1 = MAX (lm_crop_round (t->y1, h), y0 + 1);
  LmCropRect r = { x0, y0, x1 - x0, y1 - y0 };
  if (t->ratio > 0.0)
    r = lm_crop_fit_ratio (r, t->ratio);
  rect[0] = r.x, rect[1] = r.y, rect[2] = r.width, rect[3] = r.height;
}

void
lm_crop_tool_set_ratio (LmCropTool *t, double ratio)
{
  t->ratio = ratio;
  double r[4];
  get_rect (t, r);
  lm_crop_rect_fit_ratio (r, ratio);
  set_rect (t, r);
}

void
lm_crop_tool_swap (LmCropTool *t)
{
  double r[4];
  get_rect (t, r);
  double cx = r[0] + r[2] / 2.0, cy = r[1] + r[3] / 2.0, w = r[3], h = r[2];
  double shrink = MIN (1.0, MIN (t->width / w, t->height / h));
  w *= shrink, h *= shrink;
  double turned[4] = { cx - w / 2.0, cy - h / 2.0, w, h };
  set_rect (t, turned);
}
