/* The curve editor, used as a person uses it (pointer and keys through the X server): a click
 * on empty space adds a point, a drag moves it between its neighbours, a double-click, a drag
 * out of the box or Delete removes it (never below two points), the arrows move it; a drag is
 * one "committed" however many "changed" it makes. In the window, the curve operation's
 * editor changes the photo as the curve says: lifting the shadows brightens the dark pixels
 * by what the curve gives them, within a level or two; each channel's curve acts on its
 * channel alone. */
#include <math.h>
#include <string.h>

#include "ui/curve-editor.h"
#include "ui/op-panel.h"
#include "ui-testlib.h"

/* ---- the editor on its own ------------------------------------------------------------------ */

static GtkWidget *editor_window;
static LmCurveEditor *editor;
static guint changes, commits;

static void
on_changed (LmCurveEditor *e, gpointer data)
{
  changes++;
}

static void
on_committed (LmCurveEditor *e, gpointer data)
{
  commits++;
}

/* Level (X, Y)'s place on the editor. */
static void
at (double x, double y, double *wx, double *wy)
{
  lm_curve_editor_to_widget (editor, x, y, wx, wy);
}

static void
click_level (double x, double y)
{
  double wx, wy;
  at (x, y, &wx, &wy);
  ui_click (GTK_WIDGET (editor), wx, wy);
  ui_wait_ms (500); /* so that the next click on the same spot is not a double-click */
}

static void
drag_level (double x0, double y0, double x1, double y1)
{
  double wx0, wy0, wx1, wy1;
  at (x0, y0, &wx0, &wy0);
  at (x1, y1, &wx1, &wy1);
  ui_drag (GTK_WIDGET (editor), wx0, wy0, wx1, wy1, 8);
  ui_wait_ms (500);
}

static const LmCurvePoints *
points (void)
{
  return lm_curve_editor_get_points (editor);
}

static void
expect_point (int i, double x, double y)
{
  const LmCurvePoints *p = points ();
  g_assert_cmpint (i, <, p->n);
  g_test_message ("point %d: %g, %g (expected %g, %g)", i, p->x[i], p->y[i], x, y);
  g_assert_cmpfloat (fabs (p->x[i] - x), <=, 1.0);
  g_assert_cmpfloat (fabs (p->y[i] - y), <=, 1.0);
}

static void
reset_editor (void)
{
  LmCurvePoints identity = { .n = 2, .x = { 0, 255 }, .y = { 0, 255 } };
  lm_curve_editor_set_points (editor, &identity);
  changes = commits = 0;
}

static void
test_editor_setup (void)
{
  editor_window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  editor = LM_CURVE_EDITOR (lm_curve_editor_new (0, 255));
  gtk_widget_set_size_request (GTK_WIDGET (editor), 276, 276); /* a 260-pixel box: ~1 level a pixel */
  gtk_container_add (GTK_CONTAINER (editor_window), GTK_WIDGET (editor));
  g_signal_connect (editor, "changed", G_CALLBACK (on_changed), NULL);
  g_signal_connect (editor, "committed", G_CALLBACK (on_committed), NULL);
  gtk_widget_show_all (editor_window);
  gtk_window_move (GTK_WINDOW (editor_window), 900, 100);
  ui_wait_ms (300);
  ui_focus_window (GTK_WIDGET (editor));

  AtkObject *a = gtk_widget_get_accessible (GTK_WIDGET (editor));
  g_test_message ("accessible: %s, %s", atk_object_get_name (a), atk_role_get_name (atk_object_get_role (a)));
  g_assert_cmpstr (atk_object_get_name (a), ==, "Tone curve");
  g_assert_cmpint (atk_object_get_role (a), ==, ATK_ROLE_DRAWING_AREA);
  g_assert_nonnull (atk_object_get_description (a));
}

/* A click adds a point where it is; a drag moves it, as one commit of many changes. */
static void
test_editor_add_drag (void)
{
  reset_editor ();
  click_level (128, 180);
  g_assert_cmpint (points ()->n, ==, 3);
  expect_point (1, 128, 180);
  g_assert_cmpuint (commits, ==, 1);

  changes = commits = 0;
  drag_level (128, 180, 64, 100);
  g_test_message ("drag: %u changes, %u commits", changes, commits);
  expect_point (1, 64, 100);
  g_assert_cmpuint (changes, >=, 4);
  g_assert_cmpuint (commits, ==, 1);
  g_assert_cmpint (lm_curve_editor_get_selected (editor), ==, 1);

  /* Dragged past its right neighbour's x: it stops one level short. */
  click_level (160, 160);
  g_assert_cmpint (points ()->n, ==, 4);
  drag_level (64, 100, 220, 120);
  expect_point (1, 159, 120);
  g_assert_cmpint (points ()->n, ==, 4);

  /* A point added and pressed again at once (a double-click's time) is dragged. */
  reset_editor ();
  double ax, ay, bx, by;
  at (100, 100, &ax, &ay);
  at (100, 160, &bx, &by);
  ui_click (GTK_WIDGET (editor), ax, ay);
  ui_drag (GTK_WIDGET (editor), ax, ay, bx, by, 8);
  ui_wait_ms (500);
  g_assert_cmpint (points ()->n, ==, 3);
  expect_point (1, 100, 160);
  g_assert_cmpuint (commits, ==, 2);
  click_level (160, 160);
  drag_level (100, 160, 220, 120);

  /* The curve as painted goes through the point: the pixel there is bright. */
  cairo_surface_t *s = ui_paint_widget (GTK_WIDGET (editor));
  double wx, wy;
  at (points ()->x[2], points ()->y[2], &wx, &wy);
  guint32 rgb = ui_painted (s, (int) round (wx), (int) round (wy));
  cairo_surface_destroy (s);
  g_test_message ("painted at the point: %06x", rgb);
  g_assert_cmpuint ((rgb >> 8) & 0xff, >, 150);
}

/* Double-click and a drag out of the box remove a point; the last two stay. A double-click
 * on empty space adds one. */
static void
test_editor_remove (void)
{
  reset_editor ();
  click_level (100, 60);
  click_level (200, 230);
  g_assert_cmpint (points ()->n, ==, 4);

  double wx, wy;
  at (100, 60, &wx, &wy);
  ui_click (GTK_WIDGET (editor), wx, wy);
  ui_click (GTK_WIDGET (editor), wx, wy); /* within the double-click time */
  ui_wait_ms (500);
  g_test_message ("after the double-click: %d points", points ()->n);
  g_assert_cmpint (points ()->n, ==, 3);
  expect_point (1, 200, 230);

  /* A double-click on empty space adds one point (its first click's), one commit. */
  commits = 0;
  at (40, 200, &wx, &wy);
  ui_click (GTK_WIDGET (editor), wx, wy);
  ui_click (GTK_WIDGET (editor), wx, wy);
  ui_wait_ms (500);
  g_test_message ("after a double-click on empty space: %d points, %u commits", points ()->n, commits);
  g_assert_cmpint (points ()->n, ==, 4);
  expect_point (1, 40, 200);
  g_assert_cmpuint (commits, ==, 1);
  /* … and a double-click on it later removes it (GDK makes a third press within twice the
   * double-click time a triple-click). */
  ui_wait_ms (1000);
  ui_click (GTK_WIDGET (editor), wx, wy);
  ui_click (GTK_WIDGET (editor), wx, wy);
  ui_wait_ms (500);
  g_assert_cmpint (points ()->n, ==, 3);

  at (200, 230, &wx, &wy);
  commits = 0;
  ui_drag (GTK_WIDGET (editor), wx, wy, wx, -60, 8); /* far above the box */
  ui_wait_ms (500);
  g_assert_cmpint (points ()->n, ==, 2);
  g_assert_cmpuint (commits, ==, 1);

  /* Two points: dragged out, an end point stays (at the edge). */
  at (255, 255, &wx, &wy);
  ui_drag (GTK_WIDGET (editor), wx, wy, wx + 80, wy - 80, 8);
  ui_wait_ms (500);
  g_assert_cmpint (points ()->n, ==, 2);
  expect_point (1, 255, 255);
}

/* The keys: arrows move the selected point (Shift: ten levels), Delete removes it, never
 * below two points. */
static void
test_editor_keys (void)
{
  reset_editor ();
  click_level (128, 128);
  g_assert_cmpint (lm_curve_editor_get_selected (editor), ==, 1);
  changes = commits = 0;
  ui_key (GDK_KEY_Right, 0);
  ui_key (GDK_KEY_Right, 0);
  ui_key (GDK_KEY_Up, GDK_SHIFT_MASK);
  ui_key (GDK_KEY_Down, 0);
  expect_point (1, 130, 137);
  g_assert_cmpuint (commits, ==, 4); /* one per key released */

  ui_key (GDK_KEY_Delete, 0);
  g_assert_cmpint (points ()->n, ==, 2);
  ui_key (GDK_KEY_Delete, 0); /* refused: a curve has two points at least */
  g_assert_cmpint (points ()->n, ==, 2);

  /* Insert adds a point on the curve; Page Down selects the next. */
  lm_curve_editor_set_points (editor, &(LmCurvePoints) { .n = 2, .x = { 0, 255 }, .y = { 0, 255 } });
  ui_key (GDK_KEY_Page_Up, 0);
  ui_key (GDK_KEY_Insert, 0);
  g_assert_cmpint (points ()->n, ==, 3);
  expect_point (1, 128, 128);
}

/* ---- in the window -------------------------------------------------------------------------- */

/* The curve's output for a level, as the operation computes it. */
#include "core/ops/curve.h"

static const LmOpInfo *curve_op;

static GtkWidget *
curve_editor_in_panel (void)
{
  GtkWidget *w = ui_control (curve_op->id, "points");
  g_assert_true (LM_IS_CURVE_EDITOR (w));
  ui_scroll_into_view (w);
  ui_focus_window (w);
  return w;
}

/* Every pixel of BEFORE (the photo as the view showed it) through CURVE, channel C (0..2:
 * R, G, B; -1: all), against AFTER: the largest difference, over the pixels whose value in was within
 * LO..HI (the others counted in *OTHERS_MOVED when they changed by more than a level). */
static int
compare_to_curve (const LmImage *before, const LmImage *after, const LmCurvePoints *curve, int channel,
                  guint *n_in, guint *others_moved)
{
  LmCurveSpline spline;
  lm_curve_spline_prepare (curve, &spline);
  int worst = 0;
  *n_in = *others_moved = 0;
  for (guint y = 0; y < before->height; y++)
    for (guint x = 0; x < before->width; x++)
      for (int c = 0; c < 3; c++)
        {
          int byte = 2 - c; /* the view is cairo's RGB24: B, G, R, X in memory */
          guint8 v = before->data[y * before->stride + 4 * x + byte], w = after->data[y * after->stride + 4 * x + byte];
          if (channel >= 0 && c != channel)
            {
              *others_moved += abs ((int) w - v) > 1;
              continue;
            }
          int expected = (int) lrintf (CLAMP (lm_curve_spline_eval (&spline, v), 0.0f, 255.0f));
          worst = MAX (worst, abs ((int) w - expected));
          (*n_in)++;
        }
  return worst;
}

/* The view's pixels now, as the view holds them (cairo's RGB24). */
static LmImage *
view_copy (void)
{
  LmViewRect rect;
  LmImage *px = lm_image_view_get_pixels (ui_image_view (), &rect);
  g_assert_nonnull (px);
  LmImage *copy = lm_image_new (px->format, px->width, px->height, lm_allocator_host (), NULL);
  g_assert_nonnull (copy);
  for (guint y = 0; y < px->height; y++)
    memcpy (lm_image_row (copy, y), lm_image_row (px, y), px->width * lm_format_bytes_per_pixel (px->format));
  return copy;
}

static LmImage *original; /* the view before the curve's first edit */

/* Lifting the shadows: a point added at 64 on the diagonal and dragged up to 110. At 100 %
 * zoom the view's pixels are the photo's, so each one's value out is the curve's of its
 * value in. */
static void
test_window_shadows (void)
{
  if (curve_op == NULL)
    {
      g_test_skip ("no curve operation in this build");
      return;
    }
  ui_activate ("zoom-100");
  ui_settle_tracked ();
  original = view_copy ();
  LmImage *before = original;
  GtkWidget *w = curve_editor_in_panel ();
  editor = LM_CURVE_EDITOR (w);
  double wx, wy, tx, ty;
  lm_curve_editor_to_widget (editor, 64, 64, &wx, &wy);
  lm_curve_editor_to_widget (editor, 64, 110, &tx, &ty);
  ui_drag (w, wx, wy, tx, ty, 10);
  ui_settle_tracked ();
  const LmCurvePoints *curve = lm_curve_editor_get_points (editor);
  g_assert_cmpint (curve->n, ==, 3);
  g_test_message ("curve: %g:%g, %g:%g, %g:%g", curve->x[0], curve->y[0], curve->x[1], curve->y[1],
                  curve->x[2], curve->y[2]);
  g_assert_cmpfloat (fabs (curve->y[1] - 110), <=, 1.0);
  g_autoptr (LmImage) after = view_copy ();
  g_assert_cmpuint (after->width, ==, before->width);
  guint n, others;
  int worst = compare_to_curve (before, after, curve, -1, &n, &others);
  g_test_message ("shadows lifted: %u values, at most %d levels from the curve's", n, worst);
  g_assert_cmpint (worst, <=, 2);

  /* A dark pixel brightened by what the curve says: 40 goes to about 75. */
  LmCurveSpline spline;
  lm_curve_spline_prepare (curve, &spline);
  g_test_message ("level 40 → %.1f", lm_curve_spline_eval (&spline, 40));
  g_assert_cmpfloat (lm_curve_spline_eval (&spline, 40), >, 65);
}

/* The drag was one undo step: Ctrl+Z brings the photo back as it was. Then the red curve,
 * through its button and a drag, acts on red alone. */
static void
test_window_red (void)
{
  if (curve_op == NULL)
    {
      g_test_skip ("no curve operation in this build");
      return;
    }
  GtkWidget *w = curve_editor_in_panel ();
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_autoptr (LmImage) before = view_copy ();
  g_assert_cmpint (ui_view_distance (before, original), ==, 0);
  g_assert_cmpint (lm_curve_editor_get_points (LM_CURVE_EDITOR (w))->n, ==, 2);

  GtkWidget *panel = lm_window_get_op_panel (ui_window, curve_op->id);
  GtkWidget *red = lm_op_panel_get_curve_button (LM_OP_PANEL (panel), "red");
  g_assert_nonnull (red);
  ui_click (red, gtk_widget_get_allocated_width (red) / 2.0, gtk_widget_get_allocated_height (red) / 2.0);
  ui_wait_ms (500);
  g_test_message ("red button %s, mapped %d", gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (red)) ? "active" : "inactive", gtk_widget_get_mapped (red));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (red)));
  editor = LM_CURVE_EDITOR (w);
  double wx, wy, tx, ty;
  lm_curve_editor_to_widget (editor, 128, 128, &wx, &wy);
  lm_curve_editor_to_widget (editor, 128, 80, &tx, &ty);
  ui_drag (w, wx, wy, tx, ty, 10);
  ui_settle_tracked ();
  const LmCurvePoints *curve = lm_curve_editor_get_points (editor);
  g_assert_cmpint (curve->n, ==, 3);
  g_autoptr (LmImage) after = view_copy ();
  guint n, others;
  int worst = compare_to_curve (before, after, curve, 0, &n, &others);
  g_test_message ("red darkened: at most %d levels from the curve's; %u green/blue values moved", worst, others);
  g_assert_cmpint (worst, <=, 2);
  g_assert_cmpuint (others, ==, 0);
}

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  ui_track_results ();
  curve_op = lm_op_info_by_name ("curve");
  g_test_add_func ("/curve/editor-setup", test_editor_setup);
  g_test_add_func ("/curve/editor-add-drag", test_editor_add_drag);
  g_test_add_func ("/curve/editor-remove", test_editor_remove);
  g_test_add_func ("/curve/editor-keys", test_editor_keys);
  g_test_add_func ("/curve/window-shadows", test_window_shadows);
  g_test_add_func ("/curve/window-red", test_window_red);
  return g_test_run ();
}
