/* Navigating the photo as a person does, under Xvfb with real input (XTest): drag to pan at
 * 100 %, zoomed in, and at fit (nothing to pan to there); a click on the view gives it the
 * keyboard, whose arrows then pan it rather than move the slider touched last. Checked on
 * the painted pixels: after a pan by (dx, dy) the paint at (x, y) is the old one at
 * (x - dx, y - dy). And the histogram shows clipped pixels: a marker per channel at each end,
 * lit exactly where that channel has pixels at 0 or 255, checked on its paint, before and
 * after equalizing clips a photo's highlights. */
#include <math.h>

#include "ui/histogram-view.h"
#include "ui/image-view.h"
#include "ui/window.h"
#include "ui-testlib.h"

#define MARGIN 12 /* clear of the view's edges, where a focus ring may be drawn */

static GtkWidget *
view_widget (void)
{
  return GTK_WIDGET (ui_image_view ());
}

static LmViewRect
view_rect (void)
{
  LmViewRect rect;
  g_assert_true (lm_image_view_get_rect (ui_image_view (), &rect));
  return rect;
}

/* How many pixels of the interior of NEW differ from OLD moved by (DX, DY); *COMPARED says
 * over how many. */
static guint
shifted_differences (cairo_surface_t *old, cairo_surface_t *new, int dx, int dy, guint *compared)
{
  int w = cairo_image_surface_get_width (new), h = cairo_image_surface_get_height (new);
  guint n = 0, all = 0;
  for (int y = MARGIN; y < h - MARGIN; y++)
    for (int x = MARGIN; x < w - MARGIN; x++)
      {
        int ox = x - dx, oy = y - dy;
        if (ox < MARGIN || oy < MARGIN || ox >= w - MARGIN || oy >= h - MARGIN)
          continue;
        n += ui_painted (new, x, y) != ui_painted (old, ox, oy);
        all++;
      }
  *compared = all;
  return n;
}

/* A pan since GENERATION asked for the pixels of the region it shows (else awaiting them
 * would only time out), and they are in. */
static void
settle_view (guint64 generation)
{
  g_assert_cmpuint (lm_window_get_generation (ui_window), >, generation);
  ui_settle_tracked ();
  LmViewRect shown = view_rect (), rendered;
  g_assert_nonnull (lm_image_view_get_pixels (ui_image_view (), &rendered));
  g_assert_cmpfloat (shown.rx, ==, rendered.rx);
  g_assert_cmpfloat (shown.ry, ==, rendered.ry);
}

/* KEYVAL with MODIFIERS, and the render it asks for, if any (Ctrl+1 at 100 % asks for none). */
static void
key_and_settle (guint keyval, GdkModifierType modifiers)
{
  guint64 generation = lm_window_get_generation (ui_window);
  ui_key (keyval, modifiers);
  if (lm_window_get_generation (ui_window) != generation)
    ui_settle_tracked ();
}

static void
zoom_100 (void)
{
  key_and_settle (GDK_KEY_1, GDK_CONTROL_MASK);
  g_assert_cmpfloat (lm_image_view_get_zoom (ui_image_view ()), ==, 1.0);
}

/* Ctrl+1, then a drag by (-120, -70) from the middle: the photo follows the pointer, pixel
 * for pixel. */
static void
test_drag_100 (void)
{
  zoom_100 ();
  int w = gtk_widget_get_allocated_width (view_widget ()), h = gtk_widget_get_allocated_height (view_widget ());
  g_test_message ("view %d×%d at 100 %%", w, h);
  g_assert_cmpint (w, >, 400);
  g_assert_cmpint (h, >, 300);
  LmViewRect before = view_rect ();
  cairo_surface_t *old = ui_paint_view ();

  const int dx = -120, dy = -70;
  guint64 generation = lm_window_get_generation (ui_window);
  ui_drag (view_widget (), w / 2, h / 2, w / 2 + dx, h / 2 + dy, 6);
  settle_view (generation);
  LmViewRect after = view_rect ();
  cairo_surface_t *new = ui_paint_view ();
  guint compared, differing = shifted_differences (old, new, dx, dy, &compared);
  guint unmoved = shifted_differences (old, new, 0, 0, &compared);
  g_test_message ("region moved by (%.2f, %.2f) image pixels; shifted paint differs in %u of %u pixels, "
                  "unshifted in %u",
                  after.rx - before.rx, after.ry - before.ry, differing, compared, unmoved);
  g_assert_cmpfloat (after.rx - before.rx, ==, -dx);
  g_assert_cmpfloat (after.ry - before.ry, ==, -dy);
  g_assert_cmpuint (compared, >, 100000);
  g_assert_cmpuint (differing, ==, 0);
  g_assert_cmpuint (unmoved, >, compared / 2); /* else the check above could not fail */
  cairo_surface_destroy (old);
  cairo_surface_destroy (new);
}

/* Zoomed in to 156.25 % (Ctrl+plus twice): the image point under the pointer at the press is
 * under it at the release. The paint follows too, but not pixel for pixel: the drag is not a
 * whole number of image pixels, so each image pixel's block edges fall differently. */
static void
test_drag_zoomed (void)
{
  zoom_100 ();
  ui_key (GDK_KEY_plus, GDK_CONTROL_MASK);
  key_and_settle (GDK_KEY_plus, GDK_CONTROL_MASK);
  double scale = lm_image_view_get_zoom (ui_image_view ()) / gtk_widget_get_scale_factor (view_widget ());
  g_assert_cmpfloat (fabs (scale - 1.5625), <, 1e-9);
  int w = gtk_widget_get_allocated_width (view_widget ()), h = gtk_widget_get_allocated_height (view_widget ());
  LmViewRect before = view_rect ();
  cairo_surface_t *old = ui_paint_view ();

  const int dx = 150, dy = 90;
  guint64 generation = lm_window_get_generation (ui_window);
  ui_drag (view_widget (), w / 3, h / 3, w / 3 + dx, h / 3 + dy, 5);
  settle_view (generation);
  LmViewRect after = view_rect ();
  cairo_surface_t *new = ui_paint_view ();
  guint compared, differing = shifted_differences (old, new, dx, dy, &compared);
  guint unmoved = shifted_differences (old, new, 0, 0, &compared);
  g_test_message ("at %.4f: region moved by (%.3f, %.3f) image pixels; shifted paint differs in %u of %u "
                  "pixels, unshifted in %u",
                  scale, after.rx - before.rx, after.ry - before.ry, differing, compared, unmoved);
  g_assert_cmpfloat (fabs ((after.rx - before.rx) * scale + dx), <, 1e-6);
  g_assert_cmpfloat (fabs ((after.ry - before.ry) * scale + dy), <, 1e-6);
  g_assert_cmpuint (differing, <, compared / 50);
  g_assert_cmpuint (unmoved, >, compared / 2);
  cairo_surface_destroy (old);
  cairo_surface_destroy (new);
}

/* At fit the whole photo is shown: a drag has nothing to pan to and leaves it there (and the
 * view keeps fitting the window). Zoomed in one step from fit, the photo is wider than the
 * view but not taller: the drag pans across, and not up and down. */
static void
test_drag_fit (void)
{
  key_and_settle (GDK_KEY_0, GDK_CONTROL_MASK);
  int w = gtk_widget_get_allocated_width (view_widget ()), h = gtk_widget_get_allocated_height (view_widget ());
  LmViewRect fit = view_rect ();
  double zoom = lm_image_view_get_zoom (ui_image_view ());
  g_test_message ("fit: zoom %.4f, region (%.1f, %.1f) %.1f×%.1f", zoom, fit.rx, fit.ry, fit.rw, fit.rh);
  cairo_surface_t *old = ui_paint_view ();
  guint64 generation = lm_window_get_generation (ui_window);
  ui_drag (view_widget (), w / 2, h / 2, w / 2 - 120, h / 2 - 70, 6);
  ui_wait_ms (300);
  g_assert_cmpuint (lm_window_get_generation (ui_window), ==, generation); /* nothing asked for */
  LmViewRect still = view_rect ();
  g_assert_cmpfloat (still.rx, ==, fit.rx);
  g_assert_cmpfloat (still.ry, ==, fit.ry);
  cairo_surface_t *new = ui_paint_view ();
  guint compared, differing = shifted_differences (old, new, 0, 0, &compared);
  g_test_message ("fit, after a drag: paint differs in %u of %u pixels", differing, compared);
  g_assert_cmpuint (differing, ==, 0);
  cairo_surface_destroy (old);
  cairo_surface_destroy (new);

  key_and_settle (GDK_KEY_plus, GDK_CONTROL_MASK);
  double scale = lm_image_view_get_zoom (ui_image_view ()) / gtk_widget_get_scale_factor (view_widget ());
  LmViewRect before = view_rect ();
  g_test_message ("one step in: zoom %.4f, region (%.1f, %.1f) %.1f×%.1f", scale, before.rx, before.ry, before.rw,
                  before.rh);
  generation = lm_window_get_generation (ui_window);
  /* Wider than the view, not taller (forest-path is 2560×1600, the view about square): room
   * to pan across by (2560 s - w) / 2 each way. */
  g_assert_cmpfloat (2560 * scale, >, w + 2 * 80);
  g_assert_cmpfloat (1600 * scale, <, h);
  ui_drag (view_widget (), w / 2, h / 2, w / 2 - 80, h / 2 - 70, 6);
  settle_view (generation);
  LmViewRect after = view_rect ();
  g_test_message ("after a drag by (-80, -70): region moved by (%.3f, %.3f) image pixels",
                  after.rx - before.rx, after.ry - before.ry);
  g_assert_cmpfloat (fabs ((after.rx - before.rx) * scale - 80), <, 1e-6);
  g_assert_cmpfloat (after.ry, ==, before.ry);
}

/* A slider touched last has the keyboard; a click on the view takes it, and the arrows pan
 * the view (whole pixels at 100 %, the paint following exactly), the slider left as it was. */
static void
test_keys (void)
{
  zoom_100 ();
  GtkWidget *slider = ui_control (LM_OP_EQUALIZE, "amount");
  double value = gtk_range_get_value (GTK_RANGE (slider));
  ui_scroll_into_view (slider); /* below the geometry and point operations' panels */
  int sw = gtk_widget_get_allocated_width (slider), sh = gtk_widget_get_allocated_height (slider);
  ui_click (slider, sw / 8, sh / 2);
  ui_settle_tracked ();
  double touched = gtk_range_get_value (GTK_RANGE (slider));
  g_test_message ("equalize amount %g, after a click on its slider %g", value, touched);
  g_assert_cmpfloat (touched, !=, value); /* the click did reach the slider */
  g_assert_true (gtk_widget_has_focus (slider));

  int w = gtk_widget_get_allocated_width (view_widget ()), h = gtk_widget_get_allocated_height (view_widget ());
  guint64 generation = lm_window_get_generation (ui_window);
  ui_click (view_widget (), w / 2, h / 2);
  ui_wait_ms (100);
  g_assert_cmpuint (lm_window_get_generation (ui_window), ==, generation); /* a click is no pan */

  static const struct {
    guint key;
    int sx, sy; /* the way the photo moves on the screen */
  } keys[] = {
    { GDK_KEY_Left, 1, 0 }, { GDK_KEY_Up, 0, 1 }, { GDK_KEY_Right, -1, 0 }, { GDK_KEY_Down, 0, -1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      LmViewRect before = view_rect ();
      cairo_surface_t *old = ui_paint_view ();
      generation = lm_window_get_generation (ui_window);
      ui_key (keys[i].key, 0);
      settle_view (generation);
      LmViewRect after = view_rect ();
      cairo_surface_t *new = ui_paint_view ();
      double mx = before.rx - after.rx, my = before.ry - after.ry; /* on the screen, at 100 % */
      guint compared, differing = shifted_differences (old, new, (int) mx, (int) my, &compared);
      g_test_message ("%s: the photo moved by (%g, %g); shifted paint differs in %u of %u pixels; slider %g",
                      gdk_keyval_name (keys[i].key), mx, my, differing, compared,
                      gtk_range_get_value (GTK_RANGE (slider)));
      g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (slider)), ==, touched);
      g_assert_cmpfloat (mx * keys[i].sy, ==, 0.0);
      g_assert_cmpfloat (my * keys[i].sx, ==, 0.0);
      g_assert_cmpfloat (mx * keys[i].sx + my * keys[i].sy, >=, 16.0);
      g_assert_cmpfloat (mx, ==, round (mx));
      g_assert_cmpfloat (my, ==, round (my));
      g_assert_cmpuint (differing, ==, 0);
      cairo_surface_destroy (old);
      cairo_surface_destroy (new);
    }
  g_assert_true (gtk_widget_has_focus (view_widget ()));

  /* The edit undone (Ctrl+Z, to the photo as opened): opening the next photo asks nothing. */
  GAction *undo = g_action_map_lookup_action (G_ACTION_MAP (ui_window), "undo");
  for (int i = 0; i < 4 && g_action_get_enabled (undo); i++)
    {
      generation = lm_window_get_generation (ui_window);
      ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
      if (lm_window_get_generation (ui_window) != generation)
        ui_settle_tracked ();
    }
  g_assert_false (g_action_get_enabled (undo));
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (slider)), ==, value);
}

/* ---- histogram clipping ---------------------------------------------------------------- */

static const char *const channel_names[] = { "red", "green", "blue" };
static const char *const end_names[] = { "shadows", "highlights" };

/* How strongly CHANNEL's colour stands out in AREA of S: the most by which it exceeds both
 * other channels at one pixel (a lit marker is the channel's colour, an unlit one dim). */
static int
dominance (cairo_surface_t *s, const GdkRectangle *area, int channel)
{
  int best = -255;
  for (int y = area->y; y < area->y + area->height; y++)
    for (int x = area->x; x < area->x + area->width; x++)
      {
        guint32 p = ui_painted (s, x, y);
        int v[3] = { p >> 16 & 0xff, p >> 8 & 0xff, p & 0xff };
        best = MAX (best, v[channel] - MAX (v[(channel + 1) % 3], v[(channel + 2) % 3]));
      }
  return best;
}

#define LIT 120 /* a lit marker's channel exceeds the others by this much; an unlit one's by less */

/* What the histogram view says about clipping agrees with the histogram, and its paint shows
 * it: each channel's marker at each end lit exactly when that channel has pixels there.
 * Returns how many markers are lit; *PAINT is the view's paint. */
static int
check_clipping (const char *when, cairo_surface_t **paint)
{
  LmHistogramView *view = LM_HISTOGRAM_VIEW (lm_window_get_histogram_view (ui_window));
  LmHistogram hist = ui_histogram ();
  LmHistogramClipping clip;
  g_assert_true (lm_histogram_view_get_clipping (view, &clip));
  g_assert_cmpuint (clip.total, ==, hist.total);
  *paint = ui_paint_widget (GTK_WIDGET (view));
  int lit = 0;
  for (int end = 0; end < LM_CLIP_N_ENDS; end++)
    {
      guint64 most = 0;
      for (int c = 0; c < 3; c++)
        {
          guint64 expected = hist.bins[c][end == LM_CLIP_SHADOWS ? 0 : LM_HIST_BINS - 1];
          GdkRectangle area;
          lm_histogram_view_get_marker_area (view, end, c, &area);
          int d = dominance (*paint, &area, c);
          g_test_message ("%s: %s %s: %" G_GUINT64_FORMAT " pixels, marker at (%d, %d) stands out by %d", when,
                          end_names[end], channel_names[c], clip.pixels[end][c], area.x, area.y, d);
          g_assert_cmpuint (clip.pixels[end][c], ==, expected);
          if (expected > 0)
            g_assert_cmpint (d, >=, LIT);
          else
            g_assert_cmpint (d, <, LIT / 2);
          lit += expected > 0;
          most = MAX (most, expected);
        }
      g_test_message ("%s: %s text \"%s\"", when, end_names[end], clip.text[end]);
      if (most == 0)
        g_assert_cmpstr (clip.text[end], ==, "");
      else if (100.0 * most / hist.total >= 0.05)
        {
          g_autofree char *share = g_strdup_printf ("%.1f %%", 100.0 * most / hist.total);
          g_assert_cmpstr (clip.text[end], ==, share);
        }
      else
        g_assert_cmpstr (clip.text[end], ==, "<0.1 %");
    }
  return lit;
}

/* chelsea.png has 47 pixels at 0 in blue and none at 255: only the blue shadows marker is
 * lit, and too few for a tenth of a percent. The equalize slider, clicked and pushed to its
 * end with the End key, clips the highlights too: their markers light up, their share is
 * written, and the markers' pixels changed. */
static void
test_histogram_clipping (void)
{
  g_autofree char *path = ui_test_data ("photos/chelsea.png");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while ((lm_histogram_view_get_histogram (LM_HISTOGRAM_VIEW (lm_window_get_histogram_view (ui_window))) == NULL
          || ui_histogram ().total != 451 * 300)
         && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  ui_settle_tracked ();
  g_assert_cmpuint (ui_histogram ().total, ==, 451 * 300);

  cairo_surface_t *before, *after;
  g_assert_cmpint (check_clipping ("as opened", &before), ==, 1);
  LmHistogramClipping clip;
  LmHistogramView *view = LM_HISTOGRAM_VIEW (lm_window_get_histogram_view (ui_window));
  lm_histogram_view_get_clipping (view, &clip);
  g_assert_cmpuint (clip.pixels[LM_CLIP_SHADOWS][LM_HIST_B], ==, 47);
  g_assert_cmpstr (clip.text[LM_CLIP_HIGHLIGHTS], ==, "");

  GtkWidget *slider = ui_control (LM_OP_EQUALIZE, "amount");
  int sw = gtk_widget_get_allocated_width (slider), sh = gtk_widget_get_allocated_height (slider);
  ui_click (slider, sw / 2, sh / 2);
  ui_key (GDK_KEY_End, 0);
  ui_settle_tracked ();
  g_test_message ("equalize amount %g", gtk_range_get_value (GTK_RANGE (slider)));
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (slider)), ==, 1.0);

  g_assert_cmpint (check_clipping ("equalized", &after), >, 1);
  lm_histogram_view_get_clipping (view, &clip);
  guint changed = 0;
  for (int end = 0; end < LM_CLIP_N_ENDS; end++)
    {
      /* Equalizing stretches to both ends: each has a clipped channel, and text. */
      g_assert_cmpuint (clip.pixels[end][0] + clip.pixels[end][1] + clip.pixels[end][2], >, 0);
      g_assert_cmpstr (clip.text[end], !=, "");
      for (int c = 0; c < 3; c++)
        {
          GdkRectangle a;
          lm_histogram_view_get_marker_area (view, end, c, &a);
          for (int y = a.y; y < a.y + a.height; y++)
            for (int x = a.x; x < a.x + a.width; x++)
              changed += ui_painted (before, x, y) != ui_painted (after, x, y);
        }
    }
  g_test_message ("marker pixels changed: %u", changed);
  g_assert_cmpuint (changed, >, 0);
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
}

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/forest-path.jpg");
  ui_track_results ();
  g_test_add_func ("/navigate/drag-100", test_drag_100);
  g_test_add_func ("/navigate/drag-zoomed", test_drag_zoomed);
  g_test_add_func ("/navigate/drag-fit", test_drag_fit);
  g_test_add_func ("/navigate/keys", test_keys);
  /* Last: it opens another photo. */
  g_test_add_func ("/navigate/histogram-clipping", test_histogram_clipping);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  return rc;
}
