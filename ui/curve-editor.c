/* LmCurveEditor (curve-editor.h). Points are kept on whole levels: one level is about one
 * pixel of a side panel's editor, and a sidecar then reads "64:50", not "63.8125:50.25". */
#include "curve-editor.h"

#include <math.h>
#include <glib/gi18n.h>

#include "core/ops/curve.h"

#define MARGIN 8          /* around the box: room for a point's handle at the edges */
#define HIT 10.0          /* a press this close to a point (pixels) takes it */
#define RADIUS 4.0        /* a point's handle */
#define REMOVE_BEYOND 16  /* a point dragged this far out of the box goes */
#define GRID 4            /* grid lines: quarters */
#define MIN_SIZE 160
#define READOUT_PAD 4     /* around the readout's text, and from the box's edge */
#define READOUT_CLEAR 24  /* the readout keeps this far from the pointer (pixels) */

struct _LmCurveEditor {
  GtkDrawingArea parent_instance;
  double min, max;
  LmCurvePoints points; /* as edited, the point being dragged out included */
  LmCurvePoints shown;  /* what the curve is: without a point dragged out of the box */
  int selected;         /* -1: none */
  int dragging;         /* the point under the pointer's drag, -1: none */
  gboolean removing;    /* the dragged point is out of the box: it goes on release */
  gboolean edited;      /* since the press or key press: "committed" is due on release */
  int added;            /* the point a press added last, -1: none, and when: a double-click */
  guint32 added_time;   /* on empty space keeps the point its first click adds */
  double grab_dx, grab_dy; /* from the pointer to the point's centre, so it does not jump */
  LmHistogram histogram;
  gboolean have_histogram;
  LmHistChannel channel;
  int hovered;          /* the point under the pointer, -1: none */
  gboolean inside;      /* the pointer is over the editor */
  double pointer_x, pointer_y;
  GtkWidget *toplevel;  /* whose activity shows or hides the readout */
};

G_DEFINE_FINAL_TYPE (LmCurveEditor, lm_curve_editor, GTK_TYPE_DRAWING_AREA)

enum { CHANGED, COMMITTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const double channel_colours[3][3] = { { 0.9, 0.25, 0.25 }, { 0.3, 0.8, 0.3 }, { 0.35, 0.5, 1.0 } };

/* ---- geometry ------------------------------------------------------------------------------ */

static void
box_size (LmCurveEditor *self, double *w, double *h)
{
  *w = MAX (1, gtk_widget_get_allocated_width (GTK_WIDGET (self)) - 2 * MARGIN);
  *h = MAX (1, gtk_widget_get_allocated_height (GTK_WIDGET (self)) - 2 * MARGIN);
}

void
lm_curve_editor_to_widget (LmCurveEditor *self, double x, double y, double *wx, double *wy)
{
  double w, h, span = self->max - self->min;
  box_size (self, &w, &h);
  *wx = MARGIN + (x - self->min) / span * w;
  *wy = MARGIN + (1.0 - (y - self->min) / span) * h;
}

void
lm_curve_editor_from_widget (LmCurveEditor *self, double wx, double wy, double *x, double *y)
{
  double w, h, span = self->max - self->min;
  box_size (self, &w, &h);
  *x = self->min + (wx - MARGIN) / w * span;
  *y = self->min + (1.0 - (wy - MARGIN) / h) * span;
}

/* ---- the points ---------------------------------------------------------------------------- */

static void
update_shown (LmCurveEditor *self)
{
  self->shown = self->points;
  if (self->removing && self->dragging >= 0)
    {
      LmCurvePoints *s = &self->shown;
      for (int i = self->dragging; i + 1 < s->n; i++)
        s->x[i] = s->x[i + 1], s->y[i] = s->y[i + 1];
      s->n--;
    }
}

/* What a screen reader says of the curve: where the selected point is. */
static void
update_accessible (LmCurveEditor *self)
{
  AtkObject *a = gtk_widget_get_accessible (GTK_WIDGET (self));
  g_autofree char *text = NULL;
  if (self->selected >= 0 && self->selected < self->points.n)
    /* TRANSLATORS: a curve's selected point and where it is: input level, output level */
    text = g_strdup_printf (_("Point %d of %d: %g in, %g out"), self->selected + 1, self->points.n,
                            (double) self->points.x[self->selected], (double) self->points.y[self->selected]);
  else
    text = g_strdup_printf (ngettext ("%d point", "%d points", self->points.n), self->points.n);
  atk_object_set_description (a, text);
}

static void
edited (LmCurveEditor *self)
{
  update_shown (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  self->edited = TRUE;
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
commit (LmCurveEditor *self)
{
  if (self->edited)
    {
      self->edited = FALSE;
      g_signal_emit (self, signals[COMMITTED], 0);
    }
}

/* Point I at (X, Y), on whole levels, between its neighbours (x strictly increasing) and in
 * the range; TRUE when it moved. */
static gboolean
place (LmCurveEditor *self, int i, double x, double y)
{
  LmCurvePoints *p = &self->points;
  double lo = i > 0 ? p->x[i - 1] + 1.0 : self->min;
  double hi = i + 1 < p->n ? p->x[i + 1] - 1.0 : self->max;
  float nx = (float) CLAMP (round (x), lo, hi), ny = (float) CLAMP (round (y), self->min, self->max);
  if (nx == p->x[i] && ny == p->y[i])
    return FALSE;
  p->x[i] = nx, p->y[i] = ny;
  return TRUE;
}

static void
remove_point (LmCurveEditor *self, int i)
{
  LmCurvePoints *p = &self->points;
  for (int k = i; k + 1 < p->n; k++)
    p->x[k] = p->x[k + 1], p->y[k] = p->y[k + 1];
  p->n--;
}

/* A point at level (X, Y) where its x is free; its index, or -1 (full, or x taken). */
static int
insert_point (LmCurveEditor *self, double x, double y)
{
  LmCurvePoints *p = &self->points;
  x = CLAMP (round (x), self->min, self->max), y = CLAMP (round (y), self->min, self->max);
  if (p->n >= LM_CURVE_MAX_POINTS)
    return -1;
  int k = 0;
  while (k < p->n && p->x[k] < x)
    k++;
  if (k < p->n && p->x[k] == x)
    return -1;
  for (int i = p->n; i > k; i--)
    p->x[i] = p->x[i - 1], p->y[i] = p->y[i - 1];
  p->x[k] = (float) x, p->y[k] = (float) y;
  p->n++;
  return k;
}

/* The point within HIT pixels of (WX, WY), the nearest; -1 when none. */
static int
point_at (LmCurveEditor *self, double wx, double wy)
{
  int best = -1;
  double best_d = HIT * HIT;
  for (int i = 0; i < self->points.n; i++)
    {
      double px, py;
      lm_curve_editor_to_widget (self, self->points.x[i], self->points.y[i], &px, &py);
      double d = (px - wx) * (px - wx) + (py - wy) * (py - wy);
      if (d <= best_d)
        best = i, best_d = d;
    }
  return best;
}

/* ---- drawing ------------------------------------------------------------------------------- */

static void
curve_colour (LmCurveEditor *self, GdkRGBA *c)
{
  if (self->channel <= LM_HIST_B)
    *c = (GdkRGBA) { channel_colours[self->channel][0], channel_colours[self->channel][1],
                     channel_colours[self->channel][2], 1.0 };
  else
    *c = (GdkRGBA) { 0.92, 0.92, 0.92, 1.0 };
}

static void
draw_histogram (LmCurveEditor *self, cairo_t *cr, double w, double h)
{
  if (!self->have_histogram)
    return;
  const guint32 *bins = self->histogram.bins[self->channel];
  guint32 peak = 0;
  for (int i = 0; i < LM_HIST_BINS; i++)
    peak = MAX (peak, bins[i]);
  if (peak == 0)
    return;
  /* Logarithmic, as the histogram view's log mode: the shadows' thin tail is what a curve
   * is often set by. */
  cairo_move_to (cr, MARGIN, MARGIN + h);
  for (int i = 0; i < LM_HIST_BINS; i++)
    {
      double y = MARGIN + h - h * log1p (bins[i]) / log1p (peak);
      cairo_line_to (cr, MARGIN + w * i / LM_HIST_BINS, y);
      cairo_line_to (cr, MARGIN + w * (i + 1) / LM_HIST_BINS, y);
    }
  cairo_line_to (cr, MARGIN + w, MARGIN + h);
  cairo_close_path (cr);
  GdkRGBA c;
  curve_colour (self, &c);
  cairo_set_source_rgba (cr, c.red, c.green, c.blue, 0.25);
  cairo_fill (cr);
}

static void
draw_grid (LmCurveEditor *self, cairo_t *cr, double w, double h)
{
  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, 1.0, 1.0, 1.0, 0.15);
  for (int k = 0; k <= GRID; k++)
    {
      double gx = floor (MARGIN + w * k / GRID) + 0.5, gy = floor (MARGIN + h * k / GRID) + 0.5;
      cairo_move_to (cr, gx, MARGIN);
      cairo_line_to (cr, gx, MARGIN + h);
      cairo_move_to (cr, MARGIN, gy);
      cairo_line_to (cr, MARGIN + w, gy);
    }
  cairo_stroke (cr);
  /* The identity: what the curve does nothing as. */
  const double dash[] = { 4.0, 4.0 };
  cairo_set_dash (cr, dash, 2, 0.0);
  cairo_set_source_rgba (cr, 1.0, 1.0, 1.0, 0.3);
  cairo_move_to (cr, MARGIN, MARGIN + h);
  cairo_line_to (cr, MARGIN + w, MARGIN);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.0);
}

static void
draw_curve (LmCurveEditor *self, cairo_t *cr, double w, double h)
{
  LmCurveSpline spline; /* the operation's own: what is drawn is what is computed */
  lm_curve_spline_prepare (&self->shown, &spline);
  GdkRGBA c;
  curve_colour (self, &c);
  cairo_set_source_rgba (cr, c.red, c.green, c.blue, 1.0);
  cairo_set_line_width (cr, 2.0);
  for (int px = 0; px <= (int) w; px++)
    {
      double x = self->min + (self->max - self->min) * px / w;
      double y = lm_curve_spline_eval (&spline, (float) x);
      double wx, wy;
      lm_curve_editor_to_widget (self, x, y, &wx, &wy);
      if (px == 0)
        cairo_move_to (cr, wx, wy);
      else
        cairo_line_to (cr, wx, wy);
    }
  cairo_stroke (cr);

  gboolean focused = gtk_widget_has_focus (GTK_WIDGET (self));
  for (int i = 0; i < self->points.n; i++)
    {
      if (self->removing && i == self->dragging)
        continue;
      double wx, wy;
      lm_curve_editor_to_widget (self, self->points.x[i], self->points.y[i], &wx, &wy);
      cairo_arc (cr, wx, wy, RADIUS, 0, 2 * G_PI);
      if (i == self->selected)
        {
          cairo_fill_preserve (cr);
          if (focused) /* where the keys act */
            {
              cairo_new_path (cr);
              cairo_arc (cr, wx, wy, RADIUS + 3.0, 0, 2 * G_PI);
            }
        }
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
    }
}

/* ---- the readout ---------------------------------------------------------------------------
 * The levels in and out of the point being dragged, under the pointer or, from the keyboard,
 * selected: in a corner of the box, away from the pointer and off the curve where a corner
 * is, rather than a tooltip over the curve beside the pointer. Shown only while the window
 * is the one in use: not over a modal dialog, nor once the window is left. */

static int
readout_point (LmCurveEditor *self)
{
  int i = self->dragging >= 0 ? self->dragging : self->hovered;
  if (i < 0 && !self->inside && gtk_widget_has_focus (GTK_WIDGET (self)))
    i = self->selected;
  return i < self->points.n ? i : -1;
}

static gboolean
readout_allowed (LmCurveEditor *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (widget));
  return gtk_widget_get_mapped (widget) && self->toplevel && gtk_window_is_active (GTK_WINDOW (self->toplevel))
         && !gtk_widget_device_is_shadowed (widget, gdk_seat_get_pointer (seat));
}

/* Whether the curve as shown passes through R (widget coordinates). */
static gboolean
curve_crosses (LmCurveEditor *self, const GdkRectangle *r)
{
  LmCurveSpline spline;
  lm_curve_spline_prepare (&self->shown, &spline);
  for (int wx = r->x; wx <= r->x + r->width; wx++)
    {
      double x, y, px, py;
      lm_curve_editor_from_widget (self, wx, 0, &x, &y);
      lm_curve_editor_to_widget (self, x, lm_curve_spline_eval (&spline, (float) x), &px, &py);
      if (py >= r->y - 2 && py <= r->y + r->height + 2)
        return TRUE;
    }
  return FALSE;
}

/* The readout's text, its layout and where it goes; NULL when there is none to show. */
static char *
readout (LmCurveEditor *self, PangoLayout **layout_out, GdkRectangle *where)
{
  int i = readout_point (self);
  if (i < 0 || !readout_allowed (self))
    return NULL;
  /* TRANSLATORS: a curve point's input level and output level */
  char *text = g_strdup_printf (_("%d → %d"), (int) self->points.x[i], (int) self->points.y[i]);
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  int tw, th;
  pango_layout_get_pixel_size (layout, &tw, &th);
  double w, h;
  box_size (self, &w, &h);
  int rw = tw + 2 * READOUT_PAD, rh = th + 2 * READOUT_PAD;
  /* Near what: the pointer, or the point where the keys move it. */
  double nx = self->pointer_x, ny = self->pointer_y;
  if (!self->inside || (self->dragging < 0 && self->hovered < 0))
    lm_curve_editor_to_widget (self, self->points.x[i], self->points.y[i], &nx, &ny);
  GdkRectangle corners[4];
  double distance[4];
  for (int c = 0; c < 4; c++)
    {
      corners[c].x = c & 1 ? (int) (MARGIN + w) - READOUT_PAD - rw : MARGIN + READOUT_PAD;
      corners[c].y = c & 2 ? (int) (MARGIN + h) - READOUT_PAD - rh : MARGIN + READOUT_PAD;
      corners[c].width = rw, corners[c].height = rh;
      double dx = MAX (0.0, MAX (corners[c].x - nx, nx - (corners[c].x + rw)));
      double dy = MAX (0.0, MAX (corners[c].y - ny, ny - (corners[c].y + rh)));
      distance[c] = hypot (dx, dy);
    }
  /* The farthest corner the curve does not cross; the farthest of all where it crosses each. */
  int best = -1, farthest = 0;
  for (int c = 0; c < 4; c++)
    {
      if (distance[c] > distance[farthest])
        farthest = c;
      if (distance[c] >= READOUT_CLEAR && !curve_crosses (self, &corners[c])
          && (best < 0 || distance[c] > distance[best]))
        best = c;
    }
  *where = corners[best >= 0 ? best : farthest];
  *layout_out = layout;
  return text;
}

static void
draw_readout (LmCurveEditor *self, cairo_t *cr)
{
  PangoLayout *layout = NULL;
  GdkRectangle r;
  g_autofree char *text = readout (self, &layout, &r);
  if (text == NULL)
    return;
  cairo_set_source_rgba (cr, 0.0, 0.0, 0.0, 0.7);
  cairo_rectangle (cr, r.x, r.y, r.width, r.height);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.95, 0.95, 0.95);
  cairo_move_to (cr, r.x + READOUT_PAD, r.y + READOUT_PAD);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
on_toplevel_active (GObject *toplevel, GParamSpec *pspec, LmCurveEditor *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
lm_curve_editor_hierarchy_changed (GtkWidget *widget, GtkWidget *previous)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  GtkWidget *toplevel = gtk_widget_get_toplevel (widget);
  if (!GTK_IS_WINDOW (toplevel))
    toplevel = NULL;
  if (toplevel == self->toplevel)
    return;
  if (self->toplevel)
    {
      g_signal_handlers_disconnect_by_data (self->toplevel, self);
      g_object_remove_weak_pointer (G_OBJECT (self->toplevel), (gpointer *) &self->toplevel);
    }
  self->toplevel = toplevel;
  if (toplevel)
    {
      g_object_add_weak_pointer (G_OBJECT (toplevel), (gpointer *) &self->toplevel);
      g_signal_connect (toplevel, "notify::is-active", G_CALLBACK (on_toplevel_active), self);
    }
}

static void
lm_curve_editor_grab_notify (GtkWidget *widget, gboolean was_grabbed)
{
  gtk_widget_queue_draw (widget); /* a modal dialog came, or went */
}

static gboolean
lm_curve_editor_draw (GtkWidget *widget, cairo_t *cr)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  double w, h;
  box_size (self, &w, &h);
  cairo_set_source_rgb (cr, 0.13, 0.13, 0.13); /* as the histogram view's */
  cairo_rectangle (cr, MARGIN, MARGIN, w, h);
  cairo_fill (cr);
  draw_histogram (self, cr, w, h);
  draw_grid (self, cr, w, h);
  draw_curve (self, cr, w, h);
  draw_readout (self, cr);
  return GDK_EVENT_STOP;
}

/* ---- pointer ------------------------------------------------------------------------------- */

static gboolean
lm_curve_editor_button_press (GtkWidget *widget, GdkEventButton *event)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  if (event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  gtk_widget_grab_focus (widget);
  int hit = point_at (self, event->x, event->y);
  if (event->type == GDK_2BUTTON_PRESS)
    {
      /* On the point its first click added: a double-click on empty space adds one point,
       * and a point added then pressed again at once is dragged (the second press began it). */
      int double_click_ms;
      g_object_get (gtk_widget_get_settings (widget), "gtk-double-click-time", &double_click_ms, NULL);
      if (hit >= 0 && hit == self->added && event->time - self->added_time <= (guint32) double_click_ms)
        return GDK_EVENT_STOP;
      self->dragging = -1;
      self->removing = FALSE;
      if (hit >= 0 && self->points.n > 2)
        {
          remove_point (self, hit);
          self->selected = -1;
          edited (self);
          commit (self);
        }
      return GDK_EVENT_STOP;
    }
  if (event->type != GDK_BUTTON_PRESS)
    return GDK_EVENT_STOP;
  self->edited = FALSE;
  if (hit < 0)
    {
      double x, y;
      lm_curve_editor_from_widget (self, event->x, event->y, &x, &y);
      if (x < self->min || x > self->max || y < self->min || y > self->max)
        return GDK_EVENT_STOP; /* the margin around the box */
      hit = insert_point (self, x, y);
      if (hit < 0)
        {
          gtk_widget_error_bell (widget); /* full, or a point already at that level */
          return GDK_EVENT_STOP;
        }
      self->selected = self->added = hit;
      self->added_time = event->time;
      edited (self);
    }
  double px, py;
  lm_curve_editor_to_widget (self, self->points.x[hit], self->points.y[hit], &px, &py);
  self->grab_dx = px - event->x, self->grab_dy = py - event->y;
  self->selected = self->dragging = hit;
  self->removing = FALSE;
  update_accessible (self);
  gtk_widget_queue_draw (widget);
  return GDK_EVENT_STOP;
}

static gboolean
lm_curve_editor_motion (GtkWidget *widget, GdkEventMotion *event)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  self->inside = TRUE;
  self->pointer_x = event->x, self->pointer_y = event->y;
  if (self->dragging < 0)
    {
      int hovered = point_at (self, event->x, event->y);
      if (hovered >= 0 || hovered != self->hovered)
        gtk_widget_queue_draw (widget); /* the readout follows, or goes */
      self->hovered = hovered;
      return GDK_EVENT_PROPAGATE;
    }
  double w, h;
  box_size (self, &w, &h);
  gboolean out = event->x < MARGIN - REMOVE_BEYOND || event->x > MARGIN + w + REMOVE_BEYOND
                 || event->y < MARGIN - REMOVE_BEYOND || event->y > MARGIN + h + REMOVE_BEYOND;
  out = out && self->points.n > 2; /* the last two stay, wherever they are dragged */
  double x, y;
  lm_curve_editor_from_widget (self, event->x + self->grab_dx, event->y + self->grab_dy, &x, &y);
  gboolean moved = place (self, self->dragging, x, y);
  if (moved || out != self->removing)
    {
      self->removing = out;
      edited (self);
    }
  return GDK_EVENT_STOP;
}

static gboolean
lm_curve_editor_button_release (GtkWidget *widget, GdkEventButton *event)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  if (event->button != GDK_BUTTON_PRIMARY || self->dragging < 0)
    return GDK_EVENT_PROPAGATE;
  if (self->removing)
    {
      remove_point (self, self->dragging);
      self->selected = -1;
    }
  self->dragging = -1;
  self->removing = FALSE;
  update_shown (self);
  update_accessible (self);
  gtk_widget_queue_draw (widget);
  commit (self);
  return GDK_EVENT_STOP;
}

/* ---- keys ---------------------------------------------------------------------------------- */

static gboolean
is_arrow (guint keyval)
{
  switch (keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left: case GDK_KEY_Right: case GDK_KEY_KP_Right:
    case GDK_KEY_Up: case GDK_KEY_KP_Up: case GDK_KEY_Down: case GDK_KEY_KP_Down:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Arrows move the selected point (Shift: ten levels); Page Up/Down select the previous and
 * next point; Insert adds one on the curve halfway to the next; Delete removes it. */
static gboolean
lm_curve_editor_key_press (GtkWidget *widget, GdkEventKey *event)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  LmCurvePoints *p = &self->points;
  int s = self->selected;
  double step = event->state & GDK_SHIFT_MASK ? 10.0 : 1.0;
  switch (event->keyval)
    {
    case GDK_KEY_Page_Up: case GDK_KEY_Page_Down:
      self->selected = s < 0 ? 0 : CLAMP (s + (event->keyval == GDK_KEY_Page_Down ? 1 : -1), 0, p->n - 1);
      update_accessible (self);
      gtk_widget_queue_draw (widget);
      return GDK_EVENT_STOP;
    case GDK_KEY_Delete: case GDK_KEY_KP_Delete: case GDK_KEY_BackSpace:
      if (s < 0 || p->n <= 2)
        {
          gtk_widget_error_bell (widget);
          return GDK_EVENT_STOP;
        }
      remove_point (self, s);
      self->selected = MIN (s, p->n - 1);
      edited (self);
      commit (self);
      return GDK_EVENT_STOP;
    case GDK_KEY_Insert: case GDK_KEY_KP_Insert:
      {
        int from = s < 0 ? 0 : MIN (s, p->n - 2);
        LmCurveSpline spline;
        lm_curve_spline_prepare (p, &spline);
        double x = round ((p->x[from] + p->x[from + 1]) / 2.0);
        int k = insert_point (self, x, lm_curve_spline_eval (&spline, (float) x));
        if (k < 0)
          {
            gtk_widget_error_bell (widget);
            return GDK_EVENT_STOP;
          }
        self->selected = k;
        edited (self);
        commit (self);
        return GDK_EVENT_STOP;
      }
    default:
      break;
    }
  if (!is_arrow (event->keyval) || s < 0)
    return GDK_EVENT_PROPAGATE; /* Tab and the rest: focus moves on */
  double dx = 0, dy = 0;
  switch (event->keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left: dx = -step; break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right: dx = step; break;
    case GDK_KEY_Up: case GDK_KEY_KP_Up: dy = step; break;
    default: dy = -step; break;
    }
  if (place (self, s, p->x[s] + dx, p->y[s] + dy))
    edited (self);
  else
    gtk_widget_error_bell (widget); /* against a neighbour or the edge */
  return GDK_EVENT_STOP;
}

static gboolean
lm_curve_editor_key_release (GtkWidget *widget, GdkEventKey *event)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  if (!is_arrow (event->keyval))
    return GDK_EVENT_PROPAGATE;
  commit (self);
  return GDK_EVENT_STOP;
}

static gboolean
lm_curve_editor_focus_in (GtkWidget *widget, GdkEventFocus *event)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  if (self->selected < 0) /* the keys need a point to act on */
    self->selected = 0;
  update_accessible (self);
  gtk_widget_queue_draw (widget);
  return GDK_EVENT_PROPAGATE;
}

static gboolean
lm_curve_editor_leave (GtkWidget *widget, GdkEventCrossing *event)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (widget);
  if (event->mode == GDK_CROSSING_NORMAL || event->mode == GDK_CROSSING_UNGRAB)
    {
      self->inside = FALSE;
      self->hovered = -1;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
lm_curve_editor_focus_out (GtkWidget *widget, GdkEventFocus *event)
{
  gtk_widget_queue_draw (widget);
  return GDK_EVENT_PROPAGATE;
}

/* ---- size ---------------------------------------------------------------------------------- */

static GtkSizeRequestMode
lm_curve_editor_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
lm_curve_editor_preferred_width (GtkWidget *widget, int *minimum, int *natural)
{
  *minimum = *natural = MIN_SIZE;
}

/* Square: levels in and out at one scale. */
static void
lm_curve_editor_preferred_height_for_width (GtkWidget *widget, int width, int *minimum, int *natural)
{
  *minimum = *natural = MAX (MIN_SIZE, width);
}

static void
lm_curve_editor_preferred_height (GtkWidget *widget, int *minimum, int *natural)
{
  *minimum = *natural = MIN_SIZE;
}

/* ---- life ---------------------------------------------------------------------------------- */

static void
lm_curve_editor_dispose (GObject *object)
{
  LmCurveEditor *self = LM_CURVE_EDITOR (object);
  if (self->toplevel)
    {
      g_signal_handlers_disconnect_by_data (self->toplevel, self);
      g_object_remove_weak_pointer (G_OBJECT (self->toplevel), (gpointer *) &self->toplevel);
      self->toplevel = NULL;
    }
  G_OBJECT_CLASS (lm_curve_editor_parent_class)->dispose (object);
}

static void
lm_curve_editor_class_init (LmCurveEditorClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = lm_curve_editor_dispose;
  widget_class->draw = lm_curve_editor_draw;
  widget_class->button_press_event = lm_curve_editor_button_press;
  widget_class->button_release_event = lm_curve_editor_button_release;
  widget_class->motion_notify_event = lm_curve_editor_motion;
  widget_class->key_press_event = lm_curve_editor_key_press;
  widget_class->key_release_event = lm_curve_editor_key_release;
  widget_class->focus_in_event = lm_curve_editor_focus_in;
  widget_class->focus_out_event = lm_curve_editor_focus_out;
  widget_class->leave_notify_event = lm_curve_editor_leave;
  widget_class->hierarchy_changed = lm_curve_editor_hierarchy_changed;
  widget_class->grab_notify = lm_curve_editor_grab_notify;
  widget_class->get_request_mode = lm_curve_editor_request_mode;
  widget_class->get_preferred_width = lm_curve_editor_preferred_width;
  widget_class->get_preferred_height = lm_curve_editor_preferred_height;
  widget_class->get_preferred_height_for_width = lm_curve_editor_preferred_height_for_width;
  gtk_widget_class_set_css_name (widget_class, "curveeditor");
  gtk_widget_class_set_accessible_role (widget_class, ATK_ROLE_DRAWING_AREA);
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);
  signals[COMMITTED] = g_signal_new ("committed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lm_curve_editor_init (LmCurveEditor *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  self->selected = self->dragging = self->added = self->hovered = -1;
  self->channel = LM_HIST_LUMA;
  gtk_widget_set_can_focus (widget, TRUE);
  gtk_widget_add_events (widget, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK | GDK_POINTER_MOTION_MASK
                                   | GDK_LEAVE_NOTIFY_MASK | GDK_KEY_PRESS_MASK | GDK_KEY_RELEASE_MASK
                                   | GDK_FOCUS_CHANGE_MASK);
  /* No tooltip over the curve: it would hide the curve beside the pointer (the help is the
   * channel row's, curve-group.c; a point's levels are the readout's). */
  AtkObject *a = gtk_widget_get_accessible (widget);
  atk_object_set_name (a, _("Tone curve"));
}

GtkWidget *
lm_curve_editor_new (double min, double max)
{
  LmCurveEditor *self = g_object_new (LM_TYPE_CURVE_EDITOR, NULL);
  self->min = min, self->max = max;
  self->points = (LmCurvePoints) { .n = 2, .x = { (float) min, (float) max }, .y = { (float) min, (float) max } };
  update_shown (self);
  update_accessible (self);
  return GTK_WIDGET (self);
}

void
lm_curve_editor_set_points (LmCurveEditor *self, const LmCurvePoints *points)
{
  g_return_if_fail (points->n >= 2 && points->n <= LM_CURVE_MAX_POINTS);
  self->points = *points;
  self->dragging = self->added = -1;
  self->removing = FALSE;
  if (self->selected >= points->n)
    self->selected = -1;
  update_shown (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const LmCurvePoints *
lm_curve_editor_get_points (LmCurveEditor *self)
{
  return &self->shown;
}

void
lm_curve_editor_set_histogram (LmCurveEditor *self, const LmHistogram *histogram)
{
  self->have_histogram = histogram != NULL;
  if (histogram)
    self->histogram = *histogram;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
lm_curve_editor_set_channel (LmCurveEditor *self, LmHistChannel channel)
{
  self->channel = channel;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
lm_curve_editor_get_selected (LmCurveEditor *self)
{
  return self->selected;
}

void
lm_curve_editor_move_point (LmCurveEditor *self, int index, double x, double y, gboolean commit_now)
{
  g_return_if_fail (index >= 0 && index < self->points.n);
  self->selected = index;
  if (place (self, index, x, y))
    edited (self);
  if (commit_now)
    commit (self);
}
