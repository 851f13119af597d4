/* A FITS file in the window, as a person uses it: a synthetic 256² star field of known truth
 * (twelve Gaussian stars, eight bright and four faint, on a sloped background with Gaussian
 * noise) is shown stretched with row 0 at the bottom; the Detect Sources panel counts the
 * stars, and only the bright ones once the threshold slider is dragged up; a row of the table
 * centres the view on its source, where its highlighted marker is then painted; a click on
 * the Flux header sorts the table; Export Catalogue… writes what lm_detect finds. Photo
 * operations and tools are insensitive meanwhile and say why; Export writes the stretched
 * view; a photo opened afterwards brings them back. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/astro/detect.h"
#include "core/io/fits.h"
#include "core/astro/stretch.h"
#include "core/backend/backend.h"
#include "core/render/astro-run.h"
#include "core/io/io.h"
#include "ui/detect-panel.h"
#include "ui/source-table.h"
#include "ui/window.h"
#include "ui-testlib.h"

enum { W = 256, H = 256, N_BRIGHT = 8 };
#define NOISE 2.0
#define PSF_SIGMA 1.5
/* x, y (array positions), amplitude over the background: fluxes in no raster order. The
 * faint ones peak at 15 σ (found at 5 σ), the bright ones at ≥ 100 σ (found at 30 σ too). */
static const double stars[][3] = {
  { 40.3, 40.6, 500 },  { 100.7, 42.2, 30 },  { 160.2, 39.5, 900 },  { 221.6, 41.1, 300 },
  { 41.5, 129.3, 30 },  { 131.3, 128.6, 700 }, { 170.8, 131.4, 30 }, { 220.4, 127.9, 200 },
  { 39.6, 199.8, 800 }, { 99.2, 201.3, 250 },  { 160.9, 200.4, 30 }, { 219.5, 198.7, 600 },
};
static const guint centre_star = 5; /* near the image's centre: the view can centre on it */

static char *tmp_dir, *field;
static const char *const tmp_names[] = { "field.fits", "sources.csv", "view.png" };
static char *tmp_paths[G_N_ELEMENTS (tmp_names)];

/* The temporary files go, on a failed assertion's abort too (unlink and rmdir are safe in a
 * signal handler; the paths are made beforehand). */
static void
remove_tmp (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (tmp_paths); i++)
    unlink (tmp_paths[i]);
  rmdir (tmp_dir);
}

static void
on_abort (int signum)
{
  remove_tmp ();
  signal (signum, SIG_DFL);
  raise (signum);
}

/* A FITS file (BITPIX -32, big-endian floats) written by hand, as the standard lays it out:
 * 2880-byte blocks of 80-column cards, then the data. */
static char *
write_field (void)
{
  char *path = g_build_filename (tmp_dir, "field.fits", NULL);
  GString *h = g_string_new (NULL);
  g_autofree char *n1 = g_strdup_printf ("NAXIS1  = %20d", W);
  g_autofree char *n2 = g_strdup_printf ("NAXIS2  = %20d", H);
  const char *cards[] = { "SIMPLE  =                    T", "BITPIX  =                  -32",
                          "NAXIS   =                    2", n1, n2, "END" };
  for (guint i = 0; i < G_N_ELEMENTS (cards); i++)
    g_string_append_printf (h, "%-80s", cards[i]);
  while (h->len % 2880)
    g_string_append_c (h, ' ');
  g_autoptr (GRand) rand = g_rand_new_with_seed (17);
  g_autofree guint32 *data = g_new0 (guint32, W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        /* Box–Muller: a Gaussian deviate from two uniform ones. */
        double u = g_rand_double_range (rand, 1e-12, 1.0), v = g_rand_double (rand);
        double noise = sqrt (-2.0 * log (u)) * cos (2 * G_PI * v) * NOISE;
        double value = 100.0 + 0.05 * x + 0.03 * y + noise;
        for (guint s = 0; s < G_N_ELEMENTS (stars); s++)
          {
            double dx = x - stars[s][0], dy = y - stars[s][1];
            value += stars[s][2] * exp (-(dx * dx + dy * dy) / (2 * PSF_SIGMA * PSF_SIGMA));
          }
        float f = (float) value;
        guint32 bits;
        memcpy (&bits, &f, 4);
        data[y * W + x] = GUINT32_TO_BE (bits);
      }
  g_string_append_len (h, (const char *) data, W * H * 4);
  while (h->len % 2880)
    g_string_append_c (h, '\0');
  g_assert_true (g_file_set_contents (path, h->str, h->len, NULL));
  g_string_free (h, TRUE);
  return path;
}

static GtkWidget *
panel (void)
{
  return lm_window_get_detect_panel (ui_window);
}

static const char *
count_text (void)
{
  return gtk_label_get_text (GTK_LABEL (ui_find_named (panel (), "detect-count")));
}

/* Runs the main loop until the count label says WANT sources; fails after 20 s. */
static void
await_count (guint want)
{
  g_autofree char *text = g_strdup_printf (ngettext ("%u source", "%u sources", want), want);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_strcmp0 (count_text (), text) != 0 && g_get_monotonic_time () < deadline)
    ui_wait_ms (30);
  g_assert_cmpstr (count_text (), ==, text);
  g_assert_cmpuint (lm_window_astro_source_count (ui_window), ==, want);
}

/* The view is stretched, not blank, and flipped: a star of the first rows is near the
 * bottom, and nothing is where it would be unflipped. */
static void
test_stretched_and_flipped (void)
{
  cairo_surface_t *s = ui_paint_view ();
  double wx, wy_flipped, wy_unflipped;
  lm_image_view_to_widget (ui_image_view (), stars[2][0], H - stars[2][1], &wx, &wy_flipped);
  lm_image_view_to_widget (ui_image_view (), stars[2][0], stars[2][1], &wx, &wy_unflipped);
  g_assert_cmpuint (ui_painted (s, (int) wx, (int) wy_flipped) & 0xFF, >=, 240); /* above the 99.5th percentile */
  g_assert_cmpuint (ui_painted (s, (int) wx, (int) wy_unflipped) & 0xFF, <, 170); /* the background */
  g_assert_cmpfloat (wy_flipped, >, wy_unflipped);
  cairo_surface_destroy (s);
  g_assert_null (lm_window_get_info_message (ui_window));
}

/* The slider's trough position of VALUE, in its own coordinates. */
static double
slider_x (GtkRange *range, double value)
{
  GdkRectangle trough;
  gtk_range_get_range_rect (range, &trough);
  int start, end;
  gtk_range_get_slider_range (range, &start, &end);
  GtkAdjustment *adj = gtk_range_get_adjustment (range);
  double f = (value - gtk_adjustment_get_lower (adj)) / (gtk_adjustment_get_upper (adj) - gtk_adjustment_get_lower (adj));
  double length = end - start;
  return trough.x + length / 2 + f * (trough.width - length);
}

/* The wheel over the panel's slider and fields, none clicked, scrolls the side panel and
 * leaves the detection's values as they were (it used to change each one under the pointer). */
static void
test_wheel_leaves_values (void)
{
  await_count (G_N_ELEMENTS (stars));
  GtkWidget *slider = ui_find_named (panel (), "detect-threshold");
  GtkWidget *kappa = ui_find_named (panel (), "detect-kappa");
  ui_scroll_into_view (slider);
  double threshold = gtk_range_get_value (GTK_RANGE (slider));
  double k = gtk_spin_button_get_value (GTK_SPIN_BUTTON (kappa));
  GtkWidget *targets[] = { slider, kappa };
  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    for (guint button = 4; button <= 5; button++)
      {
        ui_scroll_into_view (targets[t]);
        ui_pointer_move (targets[t], gtk_widget_get_allocated_width (targets[t]) / 2.0,
                         gtk_widget_get_allocated_height (targets[t]) / 2.0);
        for (int i = 0; i < 3; i++)
          {
            ui_pointer_button (button, TRUE);
            ui_pointer_button (button, FALSE);
            ui_wait_ms (100);
          }
      }
  ui_wait_ms (300);
  g_test_message ("after the wheel: threshold %g σ (was %g), κ %g (was %g)",
                  gtk_range_get_value (GTK_RANGE (slider)), threshold,
                  gtk_spin_button_get_value (GTK_SPIN_BUTTON (kappa)), k);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (slider)), ==, threshold);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (kappa)), ==, k);
  await_count (G_N_ELEMENTS (stars));
}

static void
test_threshold (void)
{
  await_count (G_N_ELEMENTS (stars)); /* at the default 5 σ */
  /* Which backend detected, and its steps' times: the GPU machine's log shows CUDA's. */
  g_test_message ("%s", gtk_label_get_text (GTK_LABEL (ui_find_named (panel (), "detect-timings"))));
  GtkWidget *slider = ui_find_named (panel (), "detect-threshold");
  ui_scroll_into_view (slider);
  GtkRange *range = GTK_RANGE (slider);
  double y = gtk_widget_get_allocated_height (slider) / 2.0;
  ui_drag (slider, slider_x (range, gtk_range_get_value (range)), y, slider_x (range, 30.0), y, 6);
  double threshold = gtk_range_get_value (range);
  g_test_message ("threshold dragged to %.1f σ", threshold);
  g_assert_cmpfloat (threshold, >, 20.0); /* the faint stars' peaks are at 15 σ */
  g_assert_cmpfloat (threshold, <, 45.0);
  await_count (N_BRIGHT);
}

/* TEXT typed into the number beside the threshold's slider: a click on it, the value, Enter. */
static void
type_threshold (const char *text)
{
  GtkWidget *value = ui_find_named (panel (), "detect-threshold-value");
  g_assert_nonnull (value);
  ui_scroll_into_view (value);
  ui_click_middle (value);
  ui_wait_ms (200);
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (ui_window));
  g_assert_true (GTK_IS_ENTRY (focus) && gtk_widget_is_ancestor (focus, value));
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (text);
  ui_key (GDK_KEY_Return, 0);
  ui_wait_ms (100);
}

/* The threshold typed: every star found again at 5 σ, only the bright ones at 30 σ (where
 * the drag left it, for the tests after this one). */
static void
test_threshold_typed (void)
{
  GtkRange *range = GTK_RANGE (ui_find_named (panel (), "detect-threshold"));
  type_threshold ("5");
  g_assert_cmpfloat (gtk_range_get_value (range), ==, 5.0);
  await_count (G_N_ELEMENTS (stars));
  type_threshold ("30");
  g_assert_cmpfloat (gtk_range_get_value (range), ==, 30.0);
  await_count (N_BRIGHT);
}

/* The row of the table whose source is nearest to (X, Y). */
static GtkTreePath *
row_near (GtkTreeView *table, double x, double y)
{
  GtkTreeModel *model = gtk_tree_view_get_model (table);
  GtkTreeIter iter;
  GtkTreePath *best = NULL;
  double best_d = 4.0;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok; ok = gtk_tree_model_iter_next (model, &iter))
    {
      double sx, sy;
      gtk_tree_model_get (model, &iter, LM_SOURCE_COL_X, &sx, LM_SOURCE_COL_Y, &sy, -1);
      double d = hypot (sx - x, sy - y);
      if (d < best_d)
        {
          best_d = d;
          g_clear_pointer (&best, gtk_tree_path_free);
          best = gtk_tree_model_get_path (model, &iter);
        }
    }
  g_assert_nonnull (best);
  return best;
}

static gboolean
is_magenta (guint32 rgb)
{
  int r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF;
  return r > 200 && g < 90 && b > 180;
}

static void
test_row_centres (void)
{
  /* Zoomed in, so that the view has somewhere to go. */
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_track_results ();
  for (int i = 0; i < 12 && lm_image_view_get_zoom (ui_image_view ()) < 6.0; i++)
    ui_key (GDK_KEY_plus, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_assert_cmpfloat (lm_image_view_get_zoom (ui_image_view ()), >=, 6.0);
  GtkTreeView *table = GTK_TREE_VIEW (ui_find_named (panel (), "source-table"));
  /* The side panel scrolled so that the table is whole on screen: what is above it and
   * below it in view. */
  ui_scroll_into_view (ui_find_named (panel (), "detect-count"));
  ui_scroll_into_view (ui_find_named (panel (), "detect-export"));
  const double *star = stars[centre_star];
  g_autoptr (GtkTreePath) path = row_near (table, star[0], star[1]);
  gtk_tree_view_scroll_to_cell (table, path, NULL, FALSE, 0, 0);
  ui_wait_ms (200);
  GdkRectangle cell;
  gtk_tree_view_get_background_area (table, path, gtk_tree_view_get_column (table, 0), &cell);
  int wx, wy;
  gtk_tree_view_convert_bin_window_to_widget_coords (table, cell.x + cell.width / 2, cell.y + cell.height / 2, &wx,
                                                     &wy);
  ui_track_results ();
  ui_click (GTK_WIDGET (table), wx, wy);
  ui_settle_tracked ();
  g_test_message ("clicked the table at (%d, %d) of %d × %d", wx, wy, gtk_widget_get_allocated_width (GTK_WIDGET (table)),
                  gtk_widget_get_allocated_height (GTK_WIDGET (table)));
  g_assert_true (gtk_tree_selection_path_is_selected (gtk_tree_view_get_selection (table), path));

  GtkWidget *view = GTK_WIDGET (ui_image_view ());
  int cx = gtk_widget_get_allocated_width (view) / 2, cy = gtk_widget_get_allocated_height (view) / 2;
  double sx, sy;
  lm_image_view_to_widget (ui_image_view (), star[0] + 0.5, H - 1 - star[1] + 0.5, &sx, &sy);
  g_test_message ("source at (%.1f, %.1f) on screen, the view's centre at (%d, %d)", sx, sy, cx, cy);
  g_assert_cmpfloat (fabs (sx - cx), <, 2.0);
  g_assert_cmpfloat (fabs (sy - cy), <, 2.0);
  /* Its marker, highlighted, is painted around the centre: on both sides of it. */
  cairo_surface_t *s = ui_paint_view ();
  int radius = 80, left = 0, right = 0;
  for (int y = cy - radius; y <= cy + radius; y++)
    for (int x = cx - radius; x <= cx + radius; x++)
      if (is_magenta (ui_painted (s, x, y)))
        *(x < cx ? &left : &right) += 1;
  cairo_surface_destroy (s);
  g_test_message ("highlighted marker pixels: %d left of the centre, %d right", left, right);
  g_assert_cmpint (left, >, 5);
  g_assert_cmpint (right, >, 5);
}

static void
test_sort_by_flux (void)
{
  GtkTreeView *table = GTK_TREE_VIEW (ui_find_named (panel (), "source-table"));
  GtkTreeViewColumn *column = gtk_tree_view_get_column (table, LM_SOURCE_COL_FLUX);
  GtkTreeModel *model = gtk_tree_view_get_model (table);
  for (int click = 0; click < 2; click++)
    {
      ui_click_middle (gtk_tree_view_column_get_button (column));
      ui_wait_ms (100);
      gboolean ascending = gtk_tree_view_column_get_sort_order (column) == GTK_SORT_ASCENDING;
      g_assert_true (gtk_tree_view_column_get_sort_indicator (column));
      GtkTreeIter iter;
      double last = ascending ? -G_MAXDOUBLE : G_MAXDOUBLE;
      guint rows = 0, out_of_label_order = 0;
      for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok; ok = gtk_tree_model_iter_next (model, &iter))
        {
          double flux;
          guint label;
          gtk_tree_model_get (model, &iter, LM_SOURCE_COL_FLUX, &flux, LM_SOURCE_COL_ID, &label, -1);
          g_assert_true (ascending ? flux >= last : flux <= last);
          last = flux;
          out_of_label_order += label != ++rows;
        }
      g_assert_cmpuint (rows, ==, N_BRIGHT);
      /* Sorted, not in label (raster) order still: the fluxes were put in no such order. */
      g_assert_cmpuint (out_of_label_order, >, 0);
      double x, y;
      gtk_tree_model_get_iter_first (model, &iter);
      gtk_tree_model_get (model, &iter, LM_SOURCE_COL_X, &x, LM_SOURCE_COL_Y, &y, -1);
      const double *want = ascending ? stars[7] : stars[2];
      g_assert_cmpfloat (hypot (x - want[0], y - want[1]), <, 0.5);
    }
}

/* The catalogue's cells of a CSV line. */
static GStrv
csv_cells (const char *line)
{
  return g_strsplit (line, ",", -1);
}

static int
column_of (GStrv header, const char *name)
{
  for (int i = 0; header[i]; i++)
    if (g_str_equal (header[i], name))
      return i;
  g_assert_not_reached ();
}

typedef struct {
  const char *name;
} Answer;

static void
answer_chooser (GtkWidget *dialog, gpointer data)
{
  Answer *a = data;
  ui_focus_window (dialog);
  ui_chooser_type_name (a->name); /* the name field has the keyboard */
  ui_chooser_press_export (dialog);
}

static void
press_export_catalogue (gpointer unused)
{
  GtkWidget *button = ui_find_named (panel (), "detect-export");
  ui_scroll_into_view (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  ui_click_middle (button);
}

static void
test_export_catalogue (void)
{
  Answer a = { "sources.csv" };
  ui_answer_chooser (press_export_catalogue, NULL, answer_chooser, &a);
  g_autofree char *path = g_build_filename (tmp_dir, a.name, NULL);
  ui_await_file (path);

  /* What lm_detect finds on the same data with the panel's parameters. */
  LmDetectParams params;
  lm_detect_panel_get (LM_DETECT_PANEL (panel ()), &params);
  GError *e = NULL;
  g_autoptr (LmFitsInfo) info = NULL;
  g_autoptr (LmImage) data = lm_fits_load (field, lm_allocator_host (), &info, &e);
  g_assert_no_error (e);
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmDetectResult) want = lm_detect (cpu, data, &params, NULL, &e);
  g_assert_no_error (e);
  g_assert_cmpuint (want->n_sources, ==, N_BRIGHT);

  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (g_strchomp (text), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + want->n_sources);
  g_auto (GStrv) header = csv_cells (lines[0]);
  int c_label = column_of (header, "id"), c_x = column_of (header, "x"), c_y = column_of (header, "y"),
      c_flux = column_of (header, "flux"), c_area = column_of (header, "area");
  for (guint i = 0; i < want->n_sources; i++)
    {
      g_auto (GStrv) cells = csv_cells (lines[1 + i]);
      const LmSource *s = &want->sources[i];
      g_assert_cmpuint (g_ascii_strtoull (cells[c_label], NULL, 10), ==, s->label);
      g_assert_cmpfloat (g_ascii_strtod (cells[c_x], NULL), ==, s->x);
      g_assert_cmpfloat (g_ascii_strtod (cells[c_y], NULL), ==, s->y);
      g_assert_cmpfloat (g_ascii_strtod (cells[c_flux], NULL), ==, s->flux);
      g_assert_cmpuint (g_ascii_strtoull (cells[c_area], NULL, 10), ==, s->area);
    }
  /* Each is one of the stars put there. */
  for (guint i = 0; i < want->n_sources; i++)
    {
      gboolean found = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (stars); k++)
        found |= stars[k][2] >= 200 && hypot (want->sources[i].x - stars[k][0], want->sources[i].y - stars[k][1]) < 0.1;
      g_assert_true (found);
    }
}

static gboolean
action_enabled (const char *name)
{
  return g_action_get_enabled (g_action_map_lookup_action (G_ACTION_MAP (ui_window), name));
}

static const char *const photo_actions[] = { "crop-tool", "straighten-tool", "wb-picker", "rotate-left",
                                              "flip-vertical", "paste-edits", "apply-edits", "revert" };

/* Photo operations and tools are insensitive, and their tooltips say why. */
static void
test_photo_controls_off (void)
{
  const char *why = _("Not for FITS data: its values are measurements, not a photo to edit; "
                      "Display Stretch sets how it looks");
  for (guint i = 0; i < G_N_ELEMENTS (photo_actions); i++)
    g_assert_false (action_enabled (photo_actions[i]));
  g_assert_true (action_enabled ("merge-hdr")); /* a merge replaces the FITS file, as Open does */
  g_assert_true (action_enabled ("export"));
  GtkWidget *curves = lm_window_get_op_panel (ui_window, LM_OP_CURVE);
  GtkWidget *buttons[] = { lm_window_get_op_panel (ui_window, LM_OP_EXPOSURE), curves,
                           ui_find_named (GTK_WIDGET (ui_window), "crop-tool"),
                           ui_find_named (GTK_WIDGET (ui_window), "rotate-left") };
  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    {
      g_assert_nonnull (buttons[i]);
      g_assert_false (gtk_widget_is_sensitive (buttons[i]));
      g_autofree char *tip = gtk_widget_get_tooltip_text (buttons[i]);
      g_assert_cmpstr (tip, ==, why);
    }
  /* The curve editor inside its panel, and a control that had a tooltip of its own. */
  g_autoptr (GPtrArray) all = ui_find_all (curves, GTK_TYPE_WIDGET);
  guint explained = 0;
  for (guint i = 0; i < all->len; i++)
    {
      g_assert_false (gtk_widget_is_sensitive (all->pdata[i]));
      g_autofree char *tip = gtk_widget_get_tooltip_text (all->pdata[i]);
      g_assert_true (tip == NULL || g_str_equal (tip, why));
      explained += tip != NULL;
    }
  g_assert_cmpuint (explained, >, 1);
  /* The crop tool's key does nothing. */
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_c, 0);
  GVariant *state = g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "crop-tool"));
  g_assert_false (g_variant_get_boolean (state));
  g_variant_unref (state);
}

/* Export (Ctrl+E) writes the view as shown: the stretch of the data, 8-bit. */
static void
test_export_view (void)
{
  Answer a = { "view.png" };
  ui_answer_chooser (ui_press_export, NULL, answer_chooser, &a);
  g_autofree char *path = g_build_filename (tmp_dir, a.name, NULL);
  ui_await_file (path);
  GError *e = NULL;
  g_autoptr (LmImage) got = lm_io_load (path, lm_allocator_host (), &e);
  g_assert_no_error (e);
  g_autoptr (LmFitsInfo) info = NULL;
  g_autoptr (LmImage) data = lm_fits_load (field, lm_allocator_host (), &info, &e);
  g_assert_no_error (e);
  LmStretchParams params;
  lm_stretch_params_init (&params);
  double low, high;
  g_assert_true (lm_stretch_limits (data, &params, &low, &high, &e));
  guint8 table[LM_STRETCH_LEVELS];
  lm_stretch_table (params.kind, table);
  g_autoptr (LmImage) want = lm_image_new (LM_FORMAT_RGBA8, W, H, lm_allocator_host (), &e);
  g_assert_true (lm_stretch_cpu (data, low, high, table, info->flip_view, want, &e));
  g_assert_no_error (e);
  g_assert_cmpuint (got->width, ==, W);
  g_assert_cmpuint (got->height, ==, H);
  g_assert_cmpint (ui_view_distance (got, want), ==, 0);
}

/* A photo afterwards: the operations, tools and tooltips are back, the FITS panels gone. */
static void
test_photo_after (void)
{
  g_autofree char *photo = ui_test_data ("photos/chelsea.png");
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  ui_track_results ();
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (gtk_widget_get_visible (panel ()) && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  ui_settle_tracked ();
  g_assert_false (gtk_widget_get_visible (panel ()));
  for (guint i = 0; i < G_N_ELEMENTS (photo_actions) - 1; i++) /* nothing to revert yet */
    g_assert_true (action_enabled (photo_actions[i]));
  GtkWidget *curves = lm_window_get_op_panel (ui_window, LM_OP_CURVE);
  GtkWidget *crop = ui_find_named (GTK_WIDGET (ui_window), "crop-tool");
  g_assert_true (gtk_widget_is_sensitive (curves));
  g_assert_true (gtk_widget_is_sensitive (crop));
  g_autofree char *panel_tip = gtk_widget_get_tooltip_text (curves);
  g_assert_null (panel_tip);
  g_autofree char *crop_tip = gtk_widget_get_tooltip_text (crop);
  g_assert_cmpstr (crop_tip, ==, _("Crop: drag the handles, Enter applies, Escape cancels (C)"));
  g_assert_null (lm_window_get_info_message (ui_window));
}

/* The window closed while FITS data is shown (the title bar's close button: a delete event,
 * as the window manager sends it): it goes without a crash (it used to read the tools' state
 * after freeing it, giving the photo controls back). */
static void
test_close_with_fits (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (field);
  ui_track_results ();
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!gtk_widget_get_visible (panel ()) && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  ui_settle_tracked ();
  g_assert_true (gtk_widget_get_visible (panel ()));
  g_object_add_weak_pointer (G_OBJECT (ui_window), (gpointer *) &ui_window);
  GdkEvent *event = gdk_event_new (GDK_DELETE);
  event->any.window = g_object_ref (gtk_widget_get_window (GTK_WIDGET (ui_window)));
  gtk_main_do_event (event);
  gdk_event_free (event);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (ui_window != NULL && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_assert_null (ui_window);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-detect-panel-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  for (guint i = 0; i < G_N_ELEMENTS (tmp_names); i++)
    tmp_paths[i] = g_build_filename (tmp_dir, tmp_names[i], NULL);
  signal (SIGABRT, on_abort);
  field = write_field ();
  ui_test_init (&argc, &argv, field);
  g_test_add_func ("/detect-panel/stretched-and-flipped", test_stretched_and_flipped);
  g_test_add_func ("/detect-panel/wheel-leaves-values", test_wheel_leaves_values);
  g_test_add_func ("/detect-panel/threshold", test_threshold);
  g_test_add_func ("/detect-panel/threshold-typed", test_threshold_typed);
  g_test_add_func ("/detect-panel/row-centres", test_row_centres);
  g_test_add_func ("/detect-panel/sort-by-flux", test_sort_by_flux);
  g_test_add_func ("/detect-panel/export-catalogue", test_export_catalogue);
  g_test_add_func ("/detect-panel/photo-controls-off", test_photo_controls_off);
  g_test_add_func ("/detect-panel/export-view", test_export_view);
  g_test_add_func ("/detect-panel/photo-after", test_photo_after);
  g_test_add_func ("/detect-panel/close-with-fits", test_close_with_fits);
  int rc = g_test_run ();
  remove_tmp ();
  g_free (field);
  g_free (tmp_dir);
  return rc;
}
