/* The histogram stays on screen while the side panel scrolls: the wheel turned over the
 * panel's scrollbar, as a person scrolls down to the last operations, and the window's
 * pixels where the histogram was are still the histogram's. */
#include <string.h>
#include <glib/gi18n.h>

#include "ui-testlib.h"

/* The window's pixels (as the X server has them) of AREA, in the window's coordinates. */
static GdkPixbuf *
window_pixels (const GdkRectangle *area)
{
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (ui_window));
  GdkPixbuf *shot = gdk_pixbuf_get_from_window (window, area->x, area->y, area->width, area->height);
  g_assert_nonnull (shot);
  return shot;
}

static guint
distinct_colours (GdkPixbuf *p)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  int n = gdk_pixbuf_get_n_channels (p), stride = gdk_pixbuf_get_rowstride (p);
  const guint8 *px = gdk_pixbuf_read_pixels (p);
  for (int y = 0; y < gdk_pixbuf_get_height (p); y++)
    for (int x = 0; x < gdk_pixbuf_get_width (p); x++)
      {
        const guint8 *c = px + y * stride + x * n;
        g_hash_table_add (seen, GUINT_TO_POINTER (c[0] << 16 | c[1] << 8 | c[2]));
      }
  return g_hash_table_size (seen);
}

/* The number of pixels that differ between A and B (the same size). */
static guint
differing (GdkPixbuf *a, GdkPixbuf *b)
{
  int n = gdk_pixbuf_get_n_channels (a), sa = gdk_pixbuf_get_rowstride (a), sb = gdk_pixbuf_get_rowstride (b);
  const guint8 *pa = gdk_pixbuf_read_pixels (a), *pb = gdk_pixbuf_read_pixels (b);
  guint count = 0;
  for (int y = 0; y < gdk_pixbuf_get_height (a); y++)
    for (int x = 0; x < gdk_pixbuf_get_width (a); x++)
      count += memcmp (pa + y * sa + x * n, pb + y * sb + x * n, 3) != 0;
  return count;
}

/* The side panel's scrolled window: the one with more to show than fits. */
static GtkScrolledWindow *
panel_scroller (void)
{
  g_autoptr (GPtrArray) all = ui_find_all (GTK_WIDGET (ui_window), GTK_TYPE_SCROLLED_WINDOW);
  for (guint i = 0; i < all->len; i++)
    {
      GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (all->pdata[i]);
      if (gtk_widget_is_drawable (all->pdata[i]) && gtk_adjustment_get_upper (v) > gtk_adjustment_get_page_size (v) + 200)
        return all->pdata[i];
    }
  return NULL;
}

static void
test_stays (void)
{
  GtkWidget *histogram = lm_window_get_histogram_view (ui_window);
  GdkRectangle area = { 0, 0, gtk_widget_get_allocated_width (histogram), gtk_widget_get_allocated_height (histogram) };
  g_assert_true (gtk_widget_translate_coordinates (histogram, GTK_WIDGET (ui_window), 0, 0, &area.x, &area.y));
  g_autoptr (GdkPixbuf) before = window_pixels (&area);
  g_assert_cmpuint (distinct_colours (before), >, 16); /* curves drawn, not an empty box */

  GtkScrolledWindow *scroller = panel_scroller ();
  g_assert_nonnull (scroller);
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (scroller);
  GtkWidget *s = GTK_WIDGET (scroller);
  /* At its right edge, over its scrollbar: the wheel moves no slider there. */
  ui_pointer_move (s, gtk_widget_get_allocated_width (s) - 2, gtk_widget_get_allocated_height (s) / 2.0);
  for (int turn = 0; turn < 12; turn++)
    {
      ui_pointer_button (5, TRUE);
      ui_pointer_button (5, FALSE);
    }
  ui_wait_ms (500); /* the scroll may be animated */
  g_test_message ("panel scrolled by %.0f px; histogram at %d,%d %d×%d", gtk_adjustment_get_value (v), area.x,
                  area.y, area.width, area.height);
  g_assert_cmpfloat (gtk_adjustment_get_value (v), >, area.y + area.height);

  g_autoptr (GdkPixbuf) after = window_pixels (&area);
  g_assert_cmpuint (differing (before, after), ==, 0);
}

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  g_test_add_func ("/histogram-fixed/stays-on-screen", test_stays);
  return g_test_run ();
}
