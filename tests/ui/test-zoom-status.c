/* The view's zoom in the status bar, kept current as a person zooms: a 2560×1600 photo opens
 * fitted ("Fit (N %)", N from the view's size and the photo's), Ctrl+1 shows 100 %, Ctrl+=
 * zooms in by 1.25, the wheel over the photo by 1.2, Ctrl+minus out by 0.8, Ctrl+0 fits again.
 * The label is on screen and not cut. */
#include <math.h>
#include <glib/gi18n.h>

#include "ui-testlib.h"

static GtkWidget *
zoom_label (void)
{
  GtkWidget *label = ui_find_named (GTK_WIDGET (ui_window), "status-zoom");
  g_assert_nonnull (label);
  return label;
}

/* What the status bar says, once the input has been handled. */
static const char *
shown (void)
{
  ui_wait_ms (100);
  GtkWidget *label = zoom_label ();
  g_assert_true (gtk_widget_get_mapped (label));
  int natural;
  gtk_widget_get_preferred_width (label, NULL, &natural);
  g_assert_cmpint (gtk_widget_get_allocated_width (label), >=, natural);
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
assert_percent (double percent)
{
  g_autofree char *want = g_strdup_printf ("%.0f %%", percent);
  g_test_message ("want \"%s\", shown \"%s\"", want, shown ());
  g_assert_cmpstr (shown (), ==, want);
}

static void
assert_fit (void)
{
  GtkWidget *view = GTK_WIDGET (ui_image_view ());
  double fit = MIN (gtk_widget_get_allocated_width (view) / 2560.0, gtk_widget_get_allocated_height (view) / 1600.0);
  g_autofree char *want = g_strdup_printf ("Fit (%.0f %%)", 100.0 * fit);
  g_test_message ("want \"%s\", shown \"%s\"", want, shown ());
  g_assert_cmpstr (shown (), ==, want);
}

static void
test_zoom_shown (void)
{
  assert_fit ();
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_1, GDK_CONTROL_MASK);
  assert_percent (100);
  ui_key (GDK_KEY_equal, GDK_CONTROL_MASK);
  assert_percent (125);
  GtkWidget *view = GTK_WIDGET (ui_image_view ());
  ui_pointer_move (view, gtk_widget_get_allocated_width (view) / 2.0, gtk_widget_get_allocated_height (view) / 2.0);
  ui_pointer_button (4, TRUE); /* the wheel, one notch up */
  ui_pointer_button (4, FALSE);
  assert_percent (150);
  ui_key (GDK_KEY_minus, GDK_CONTROL_MASK);
  assert_percent (120);
  ui_key (GDK_KEY_0, GDK_CONTROL_MASK);
  assert_fit ();
}

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/forest-path.jpg");
  g_test_add_func ("/zoom-status/shown-and-current", test_zoom_shown);
  return g_test_run ();
}
