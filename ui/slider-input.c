/* What the panels' sliders do with the wheel, modifiers and keys (slider-input.h). */
#include "slider-input.h"

#include <math.h>

/* Unless the widget has the keyboard, stops its own handling (which would change its value)
 * and returns FALSE: the event goes on to the scrolled window around it. */
static gboolean
on_scroll (GtkWidget *widget, GdkEventScroll *event, gpointer data)
{
  /* A choice's keyboard goes to the toggle button inside it, not to the choice itself. */
  GtkWidget *toplevel = gtk_widget_get_toplevel (widget);
  GtkWidget *focus = GTK_IS_WINDOW (toplevel) ? gtk_window_get_focus (GTK_WINDOW (toplevel)) : NULL;
  if (focus && (focus == widget || gtk_widget_is_ancestor (focus, widget)))
    return GDK_EVENT_PROPAGATE;
  g_signal_stop_emission_by_name (widget, "scroll-event");
  return GDK_EVENT_PROPAGATE;
}

void
lm_slider_wheel_needs_focus (GtkWidget *widget)
{
  g_signal_connect (widget, "scroll-event", G_CALLBACK (on_scroll), NULL);
}

/* ---- fine drags and steps ------------------------------------------------------------------ */

typedef struct {
  double fine_step; /* 0: no snapping */
  gboolean dragging;
  double x0, value0; /* where the fine drag began: the pointer's x, the value */
} Fine;

static double
snap (const Fine *fine, GtkRange *range, double v)
{
  GtkAdjustment *a = gtk_range_get_adjustment (range);
  if (fine->fine_step > 0)
    v = round (v / fine->fine_step) * fine->fine_step;
  return CLAMP (v, gtk_adjustment_get_lower (a), gtk_adjustment_get_upper (a));
}

/* The value per pixel of a plain drag: the range over the knob's travel. */
static double
value_per_pixel (GtkRange *range)
{
  GdkRectangle rect;
  int start, end;
  gtk_range_get_range_rect (range, &rect);
  gtk_range_get_slider_range (range, &start, &end);
  GtkAdjustment *a = gtk_range_get_adjustment (range);
  double travel = MAX (1, rect.width - (end - start));
  return (gtk_adjustment_get_upper (a) - gtk_adjustment_get_lower (a)) / travel;
}

static gboolean
on_press (GtkWidget *widget, GdkEventButton *event, Fine *fine)
{
  if (event->type != GDK_BUTTON_PRESS || event->button != GDK_BUTTON_PRIMARY
      || !(event->state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)))
    return GDK_EVENT_PROPAGATE;
  gtk_widget_grab_focus (widget);
  fine->dragging = TRUE;
  fine->x0 = event->x_root;
  fine->value0 = gtk_range_get_value (GTK_RANGE (widget));
  return GDK_EVENT_STOP; /* the range's own press would move the knob to the pointer */
}

static gboolean
on_motion (GtkWidget *widget, GdkEventMotion *event, Fine *fine)
{
  if (!fine->dragging)
    return GDK_EVENT_PROPAGATE;
  GtkRange *range = GTK_RANGE (widget);
  double dx = event->x_root - fine->x0;
  if (gtk_range_get_inverted (range))
    dx = -dx;
  gtk_range_set_value (range, snap (fine, range, fine->value0 + dx * value_per_pixel (range) / LM_SLIDER_FINE));
  return GDK_EVENT_STOP;
}

/* Ends a fine drag; the release goes on to whoever waits for it (the edit's commit). */
static gboolean
on_release (GtkWidget *widget, GdkEventButton *event, Fine *fine)
{
  if (event->button == GDK_BUTTON_PRIMARY)
    fine->dragging = FALSE;
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_grab_broken (GtkWidget *widget, GdkEvent *event, Fine *fine)
{
  fine->dragging = FALSE;
  return GDK_EVENT_PROPAGATE;
}

/* Right and Up more, Left and Down less: a step, a fine one with Shift; Page Up and Down ten
 * steps (GtkRange's Page Up lowers a horizontal scale's value, as it scrolls a page up). */
static gboolean
on_key (GtkWidget *widget, GdkEventKey *event, Fine *fine)
{
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();
  if (mods != 0 && mods != GDK_SHIFT_MASK)
    return GDK_EVENT_PROPAGATE;
  GtkRange *range = GTK_RANGE (widget);
  GtkAdjustment *a = gtk_range_get_adjustment (range);
  double step = gtk_adjustment_get_step_increment (a), move;
  switch (event->keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left: case GDK_KEY_Down: case GDK_KEY_KP_Down:
      move = -step;
      break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right: case GDK_KEY_Up: case GDK_KEY_KP_Up:
      move = step;
      break;
    case GDK_KEY_Page_Up: case GDK_KEY_KP_Page_Up:
      move = gtk_adjustment_get_page_increment (a);
      break;
    case GDK_KEY_Page_Down: case GDK_KEY_KP_Page_Down:
      move = -gtk_adjustment_get_page_increment (a);
      break;
    default:
      return GDK_EVENT_PROPAGATE;
    }
  if (mods == GDK_SHIFT_MASK)
    move = fine->fine_step > 0 ? copysign (fine->fine_step, move) : move / LM_SLIDER_FINE;
  if (gtk_range_get_inverted (range))
    move = -move;
  gtk_range_set_value (range, snap (fine, range, gtk_range_get_value (range) + move));
  return GDK_EVENT_STOP;
}

void
lm_slider_add_fine (GtkRange *range, double fine_step)
{
  Fine *fine = g_new0 (Fine, 1);
  fine->fine_step = fine_step;
  g_object_set_data_full (G_OBJECT (range), "lm-slider-fine", fine, g_free);
  gtk_widget_add_events (GTK_WIDGET (range), GDK_BUTTON_MOTION_MASK);
  g_signal_connect (range, "button-press-event", G_CALLBACK (on_press), fine);
  g_signal_connect (range, "motion-notify-event", G_CALLBACK (on_motion), fine);
  g_signal_connect (range, "button-release-event", G_CALLBACK (on_release), fine);
  g_signal_connect (range, "grab-broken-event", G_CALLBACK (on_grab_broken), fine);
  g_signal_connect (range, "key-press-event", G_CALLBACK (on_key), fine);
}
