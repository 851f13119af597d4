/* The operation panels and the Merge HDR dialog, used as a person uses them (pointer and keys
 * through the X server), in German where the build's catalogue is found: the dialog shows each
 * exposure's EV and a thumbnail; a merge comes out normally exposed with the tone mapping's
 * defaults; the tone mapping's sliders line up with the other panels'; blur's σ can be typed
 * exactly and its slider is fine where radii are small. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "core/hdr/stack.h"
#include "core/io/io.h"
#include "core/ops/view.h"
#include "ui/hdr-dialog.h"
#include "ui/op-panel.h"
#include "ui-testlib.h"

/* The dialog of the first tests, closed by the merge test. */
static LmHdrDialog *dialog;

/* Merges finished, counted as they come (one may finish while the click asking for it is
 * being handled). */
static guint merges;

/* The newest generation whose refined preview came: input handling runs the main loop, and a
 * render may come in before the test waits for it. */
static guint64 refined;

static void
on_result (LmWindow *window, int kind, guint64 generation, gboolean is_refined, gpointer data)
{
  if (kind == LM_RESULT_MERGED)
    merges++;
  if (kind == LM_RESULT_PREVIEW && is_refined)
    refined = MAX (refined, generation);
}

/* The newest request's refined render is in, whenever it came. */
static void
settle (void)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (refined < lm_window_get_generation (ui_window) && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_assert_cmpuint (refined, >=, lm_window_get_generation (ui_window));
  ui_flush ();
}

static char *
hdr_path (const char *scene, const char *file)
{
  g_autofree char *dir = ui_test_data ("hdr");
  return g_build_filename (dir, scene, file, NULL);
}

/* WIDGET's centre clicked. */
static void
click_middle (GtkWidget *widget)
{
  ui_click (widget, gtk_widget_get_allocated_width (widget) / 2.0, gtk_widget_get_allocated_height (widget) / 2.0);
}

/* The first visible widget of TYPE under WIDGET, or NULL. */
static GtkWidget *
first_visible (GtkWidget *widget, GType type)
{
  g_autoptr (GPtrArray) all = ui_find_all (widget, type);
  for (guint i = 0; i < all->len; i++)
    if (gtk_widget_is_visible (all->pdata[i]))
      return all->pdata[i];
  return NULL;
}

/* ---- the Merge HDR dialog ----------------------------------------------------------------- */

static GtkTreeView *
exposure_table (void)
{
  GtkWidget *table = first_visible (GTK_WIDGET (dialog), GTK_TYPE_TREE_VIEW);
  g_assert_nonnull (table);
  return GTK_TREE_VIEW (table);
}

/* The column titled TITLE (a message of Lumen's catalogue, shown translated). */
static GtkTreeViewColumn *
column_titled (GtkTreeView *table, const char *title)
{
  const char *shown = g_dgettext (GETTEXT_PACKAGE, title);
  g_autoptr (GList) columns = gtk_tree_view_get_columns (table);
  for (GList *l = columns; l; l = l->next)
    if (g_strcmp0 (gtk_tree_view_column_get_title (l->data), shown) == 0)
      return l->data;
  return NULL;
}

/* The column that draws a picture in each row. */
static GtkTreeViewColumn *
picture_column (GtkTreeView *table)
{
  g_autoptr (GList) columns = gtk_tree_view_get_columns (table);
  for (GList *l = columns; l; l = l->next)
    {
      g_autoptr (GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (l->data));
      for (GList *c = cells; c; c = c->next)
        if (GTK_IS_CELL_RENDERER_PIXBUF (c->data))
          return l->data;
    }
  return NULL;
}

/* What COLUMN shows in ROW: PROPERTY ("text", "pixbuf") of its first renderer of TYPE once
 * set up for that row, as the tree view does when it draws it. */
static void
cell_shows (GtkTreeView *table, GtkTreeViewColumn *column, int row, GType type, const char *property, gpointer value)
{
  GtkTreeModel *model = gtk_tree_view_get_model (table);
  GtkTreeIter iter;
  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, row));
  gtk_tree_view_column_cell_set_cell_data (column, model, &iter, FALSE, FALSE);
  g_autoptr (GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (column));
  GList *cell = cells;
  while (cell && !G_TYPE_CHECK_INSTANCE_TYPE (cell->data, type))
    cell = cell->next;
  g_assert_nonnull (cell);
  g_object_get (cell->data, property, value, NULL);
}

/* A number as the dialog shows it ("−2 EV", "+1.7 EV"), its minus sign U+2212 or ASCII. */
static double
shown_number (const char *text)
{
  g_autoptr (GString) ascii = g_string_new (text);
  g_string_replace (ascii, "−", "-", 0);
  char *end = NULL;
  double v = g_ascii_strtod (ascii->str, &end);
  g_assert_true (end != ascii->str);
  return v;
}

/* The rows' EV, read from the screen, against log₂ of each time over the middle one's. */
static void
check_evs (GtkTreeView *table, const double *times, guint n)
{
  GtkTreeViewColumn *ev = column_titled (table, "EV");
  g_assert_nonnull (ev);
  g_autofree double *sorted = g_memdup2 (times, n * sizeof *times);
  for (guint i = 0; i < n; i++) /* insertion sort: five at most */
    for (guint j = i; j > 0 && sorted[j - 1] > sorted[j]; j--)
      {
        double t = sorted[j];
        sorted[j] = sorted[j - 1], sorted[j - 1] = t;
      }
  double middle = sorted[(n - 1) / 2];
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = NULL;
      cell_shows (table, ev, (int) i, GTK_TYPE_CELL_RENDERER_TEXT, "text", &text);
      double expected = log2 (times[i] / middle);
      g_test_message ("exposure %u: %g s, shown “%s”, log₂ %.3f", i + 1, times[i], text, expected);
      g_assert_nonnull (text);
      /* Shown to a third of a stop, as cameras step their brackets. */
      g_assert_cmpfloat (fabs (shown_number (text) - expected), <=, 1.0 / 6.0 + 0.05);
    }
}

/* Exposure ROW's time typed into its cell: a click on it, another one if that only selected
 * the row, the old text replaced, Enter. */
static void
type_time (GtkTreeView *table, int row, const char *text)
{
  GtkTreeViewColumn *time = column_titled (table, "Exposure time (s)");
  g_assert_nonnull (time);
  g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices (row, -1);
  GdkRectangle cell;
  gtk_tree_view_get_cell_area (table, path, time, &cell);
  int x, y;
  gtk_tree_view_convert_bin_window_to_widget_coords (table, cell.x + cell.width / 2, cell.y + cell.height / 2, &x, &y);
  for (int click = 0; click < 2; click++)
    {
      ui_click (GTK_WIDGET (table), x, y);
      g_autoptr (GPtrArray) editors = ui_find_all (GTK_WIDGET (table), GTK_TYPE_ENTRY);
      if (editors->len > 0)
        break;
      ui_wait_ms (600); /* not a double click */
    }
  g_autoptr (GPtrArray) editors = ui_find_all (GTK_WIDGET (table), GTK_TYPE_ENTRY);
  g_assert_cmpuint (editors->len, ==, 1);
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (text);
  ui_key (GDK_KEY_Return, 0);
}

/* Merge HDR (the menu's action), the forest bracket added: JPEG with EXIF times. Its
 * exposures' count and times (exposures.txt's) in *TIMES, when asked for. */
static void
open_forest (GArray **times_out)
{
  ui_activate ("merge-hdr");
  ui_flush ();
  dialog = NULL;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (LM_IS_HDR_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      dialog = l->data;
  g_assert_nonnull (dialog);
  g_autofree char *list = hdr_path ("forest", "exposures.txt");
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GArray) times = NULL;
  GError *e = NULL;
  g_assert_true (lm_hdr_read_exposures (list, &files, &times, &e));
  g_assert_no_error (e);
  lm_hdr_dialog_add_files (dialog, (const char *const *) files->pdata, files->len);
  ui_await_exposures (GTK_WIDGET (dialog));
  g_assert_null (lm_hdr_dialog_get_error (dialog));
  if (times_out)
    *times_out = g_steal_pointer (&times);
}

/* The forest bracket added: each row shows its EV from the times and a thumbnail; a time
 * typed into its cell changes that row's EV. */
static void
test_hdr_dialog (void)
{
  g_autoptr (GArray) times = NULL;
  open_forest (&times);
  GtkTreeView *table = exposure_table ();
  check_evs (table, (const double *) times->data, times->len);

  /* Thumbnails: each row's picture, small, once they are in (they may load in the
   * background). */
  GtkTreeViewColumn *pictures = picture_column (table);
  g_assert_nonnull (pictures);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  for (guint i = 0; i < times->len; i++)
    {
      g_autoptr (GdkPixbuf) thumb = NULL;
      for (;;)
        {
          g_clear_object (&thumb);
          cell_shows (table, pictures, (int) i, GTK_TYPE_CELL_RENDERER_PIXBUF, "pixbuf", &thumb);
          if (thumb || g_get_monotonic_time () > deadline)
            break;
          ui_wait_ms (50);
        }
      g_assert_nonnull (thumb);
      int w = gdk_pixbuf_get_width (thumb), h = gdk_pixbuf_get_height (thumb);
      g_test_message ("exposure %u: thumbnail %d×%d", i + 1, w, h);
      g_assert_cmpint (w, >=, 16);
      g_assert_cmpint (h, >=, 8);
      g_assert_cmpint (MAX (w, h), <=, 128);
      g_assert_cmpint (ABS (w - 2 * h), <=, 2); /* the photo's shape, 1024×512 */
    }

  /* A time typed into its cell: that row's EV follows; then back as it was. */
  ui_focus_window (GTK_WIDGET (dialog));
  double *t = (double *) times->data;
  double kept = t[4];
  type_time (table, 4, "2");
  t[4] = 2.0;
  check_evs (table, t, times->len);
  type_time (table, 4, "0.5");
  t[4] = kept;
  check_evs (table, t, times->len);
  g_assert_null (lm_hdr_dialog_get_error (dialog));
}

/* The median of the view's luma, 0..1. */
static double
view_median (void)
{
  g_autoptr (GBytes) view = ui_view_pixels ();
  gsize size;
  const guint32 *px = g_bytes_get_data (view, &size);
  guint64 bins[256] = { 0 }, n = size / 4;
  for (guint64 i = 0; i < n; i++)
    {
      double r = px[i] >> 16 & 0xff, g = px[i] >> 8 & 0xff, b = px[i] & 0xff;
      bins[(int) lround (0.2126 * r + 0.7152 * g + 0.0722 * b)]++;
    }
  guint64 seen = 0;
  int median = 0;
  while (median < 255 && 2 * (seen += bins[median]) < n)
    median++;
  return median / 255.0;
}

/* Merge pressed, then Close; the merged radiance is what the window shows. */
static void
merge_forest (void)
{
  if (dialog == NULL)
    open_forest (NULL);
  guint merged = merges;
  click_middle (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), LM_HDR_RESPONSE_MERGE));
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (merges == merged && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  g_assert_cmpuint (merges, >, merged);
  g_assert_null (lm_hdr_dialog_get_error (dialog));
  /* Close once it says Close, as a person reads it: the button changes from Cancel when the
   * merge's result is in, and a click while it is laid out again may fall beside it. */
  GtkWidget *close = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  const char *label = _("_Close");
  for (int turn = 0; turn < 250 && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (close)), label) != 0; turn++)
    ui_wait_ms (20);
  ui_flush ();
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  click_middle (close);
  for (int turn = 0; turn < 250 && dialog; turn++)
    ui_wait_ms (20);
  if (dialog)
    g_test_message ("the merge dialog is still open after Close: its button says %s",
                    gtk_button_get_label (GTK_BUTTON (close)));
  g_assert_null (dialog);
  settle ();
  g_assert_cmpuint (ui_histogram ().total, ==, 1024 * 512);
}

/* The tone mapping's defaults give a normal exposure: a median of 0.35..0.55 (OpenCV's,
 * gamma 1, left the forest at 0.14). */
static void
test_hdr_defaults (void)
{
  merge_forest ();
  double median = view_median ();
  g_test_message ("forest merged, tone mapped with the defaults: median luma %.3f", median);
  g_assert_cmpfloat (median, >=, 0.35);
  g_assert_cmpfloat (median, <=, 0.55);
}

/* ---- layout ------------------------------------------------------------------------------- */

/* Where PANEL's visible sliders and choices start, in the window; FALSE when one starts
 * elsewhere than *X (set by the first one seen). */
static void
controls_start_at (GtkWidget *panel, const char *what, int *x)
{
  GType types[] = { GTK_TYPE_SCALE, GTK_TYPE_COMBO_BOX };
  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      g_autoptr (GPtrArray) controls = ui_find_all (panel, types[t]);
      for (guint i = 0; i < controls->len; i++)
        {
          GtkWidget *control = controls->pdata[i];
          if (!gtk_widget_is_visible (control) || !gtk_widget_get_mapped (control)
              || (t == 1 && gtk_widget_get_ancestor (gtk_widget_get_parent (control), GTK_TYPE_COMBO_BOX)))
            continue;
          int cx, cy;
          g_assert_true (gtk_widget_translate_coordinates (control, GTK_WIDGET (ui_window), 0, 0, &cx, &cy));
          g_test_message ("%s: %s “%s” starts at x = %d", what, G_OBJECT_TYPE_NAME (control),
                          gtk_widget_get_name (control), cx);
          if (*x < 0)
            *x = cx;
          g_assert_cmpint (cx, ==, *x);
        }
    }
}

/* The tone mapping panel (shown now that the source is radiance) has its sliders where the
 * other panels have theirs, whatever its labels' length in the language shown. */
static void
test_alignment (void)
{
  GtkWidget *tonemap = ui_find_named (GTK_WIDGET (ui_window), "tonemap");
  g_assert_nonnull (tonemap);
  if (!gtk_widget_get_mapped (tonemap)) /* run alone */
    merge_forest ();
  g_assert_true (gtk_widget_get_mapped (tonemap));
  int x = -1;
  for (int op = 0; op < LM_N_OPS; op++)
    if (lm_window_get_op_panel (ui_window, op)) /* none for the export's resize */
      controls_start_at (lm_window_get_op_panel (ui_window, op), lm_op_info (op)->name, &x);
  g_assert_cmpint (x, >, 0);
  controls_start_at (tonemap, "tonemap", &x);
}

/* ---- blur's σ ----------------------------------------------------------------------------- */

/* The photo's view of RECT blurred with SIGMA by the CPU reference: what the window shows. */
static LmImage *
blurred_view (float sigma, const LmViewRect *rect)
{
  g_autofree char *photo = ui_test_data ("photos/chelsea.png");
  GError *e = NULL;
  g_autoptr (LmImage) source = lm_io_load (photo, lm_allocator_host (), &e);
  g_assert_no_error (e);
  const LmOpInfo *blur = lm_op_info (LM_OP_BLUR);
  LmBlurParams params = { .sigma = sigma };
  g_autoptr (LmImage) blurred = lm_image_new (blur->output_format (&params, source->format, TRUE), source->width,
                                              source->height, lm_allocator_host (), &e);
  g_assert_no_error (e);
  g_assert_true (blur->run_cpu (&params, source, blurred, &e));
  g_assert_no_error (e);
  LmImage *out = lm_image_new (LM_FORMAT_RGBA8, rect->out_w, rect->out_h, lm_allocator_host (), &e);
  g_assert_no_error (e);
  memset (out->data, 0xa5, lm_image_size_bytes (out)); /* poison */
  lm_view_cpu (blurred, rect, out);
  return out;
}

static GtkWidget *
blur_panel (void)
{
  return lm_window_get_op_panel (ui_window, LM_OP_BLUR);
}

static float
blur_sigma (void)
{
  return lm_op_panel_get_stage (LM_OP_PANEL (blur_panel ()))->params.blur.sigma;
}

/* The photo again (the merge made radiance the source; nothing was edited since). */
static void
open_photo (void)
{
  g_autofree char *photo = ui_test_data ("photos/chelsea.png");
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (ui_histogram ().total != 451 * 300 && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  settle ();
  g_assert_cmpuint (ui_histogram ().total, ==, 451 * 300);
}

/* The header bar's CPU button clicked (the GPU's blur may differ from the CPU's by 1). */
static void
compute_on_cpu (void)
{
  const char *label = g_dgettext (GETTEXT_PACKAGE, "CPU");
  g_autoptr (GPtrArray) buttons = ui_find_all (GTK_WIDGET (ui_window), GTK_TYPE_TOGGLE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (buttons->pdata[i]), label) == 0)
      {
        GtkWidget *button = buttons->pdata[i];
        if (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)))
          {
            ui_focus_window (GTK_WIDGET (ui_window));
            click_middle (button);
            for (int turn = 0; turn < 100 && !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)); turn++)
              ui_wait_ms (20);
            settle ();
          }
        if (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)))
          {
            /* Where the click went instead. */
            GtkAllocation a;
            gtk_widget_get_allocation (button, &a);
            int ox, oy;
            gdk_window_get_origin (gtk_widget_get_window (button), &ox, &oy);
            GdkSeat *seat = gdk_display_get_default_seat (gdk_display_get_default ());
            int px, py;
            GdkWindow *under = gdk_device_get_window_at_position (gdk_seat_get_pointer (seat), &px, &py);
            gpointer owner = NULL;
            if (under)
              gdk_window_get_user_data (under, &owner);
            GtkWidget *grab = gtk_grab_get_current ();
            g_test_message ("CPU button: sensitive %d, mapped %d, at %d,%d %dx%d in a window at %d,%d; the pointer over %s; "
                            "grab %s; the action's state %s",
                            gtk_widget_is_sensitive (button), gtk_widget_get_mapped (button), a.x, a.y, a.width,
                            a.height, ox, oy, owner ? G_OBJECT_TYPE_NAME (owner) : "nothing",
                            grab ? G_OBJECT_TYPE_NAME (grab) : "none",
                            g_variant_print (g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window),
                                                                                            "backend")),
                                             FALSE));
          }
        g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
        return;
      }
  g_assert_not_reached ();
}

/* σ typed into its field: a click there, everything selected, "0.7", Enter. The view is the
 * photo blurred with σ 0.7 exactly, neither 0.6 nor 0.8. */
static void
test_sigma_typed (void)
{
  open_photo ();
  compute_on_cpu ();
  ui_focus_window (GTK_WIDGET (ui_window));
  GtkWidget *field = first_visible (blur_panel (), GTK_TYPE_ENTRY);
  g_assert_nonnull (field); /* a slider alone cannot be typed into */
  ui_scroll_into_view (field);
  click_middle (field);
  g_assert_true (gtk_widget_has_focus (field));
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type ("0.7");
  ui_key (GDK_KEY_Return, 0);
  settle ();
  g_test_message ("σ typed: the field shows “%s”, the stage holds %.9g", gtk_entry_get_text (GTK_ENTRY (field)),
                  blur_sigma ());
  g_assert_true (lm_op_panel_get_stage (LM_OP_PANEL (blur_panel ()))->enabled);
  g_assert_cmpfloat (blur_sigma (), ==, 0.7f);

  LmViewRect rect;
  LmImage *shown = lm_image_view_get_pixels (ui_image_view (), &rect);
  g_assert_nonnull (shown);
  const float sigmas[] = { 0.7f, 0.6f, 0.8f };
  for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++)
    {
      g_autoptr (LmImage) expected = blurred_view (sigmas[i], &rect);
      int d = ui_view_distance (shown, expected);
      g_test_message ("view against σ %.1f on the CPU: max |Δ| %d", sigmas[i], d);
      if (i == 0)
        g_assert_cmpint (d, ==, 0);
      else
        g_assert_cmpint (d, >, 1);
    }
}

/* The slider clicked at the right end of its trough, then pressed at the left end (the knob
 * jumps to each) and dragged right pixel by pixel along the first quarter: σ below 5 all the
 * way, in steps of about a tenth, the field showing each value. */
static void
test_sigma_slider (void)
{
  GtkWidget *slider = first_visible (blur_panel (), GTK_TYPE_SCALE);
  g_assert_nonnull (slider);
  ui_scroll_into_view (slider);
  GdkRectangle trough;
  gtk_range_get_range_rect (GTK_RANGE (slider), &trough);
  double y = trough.y + trough.height / 2.0, left = trough.x, travel = trough.width;
  ui_click (slider, left + travel - 1, y);
  g_test_message ("clicked at the right end: σ %g", blur_sigma ());
  ui_wait_ms (600); /* not a double click */
  ui_pointer_move (slider, left, y);
  ui_pointer_button (1, TRUE);
  float last = blur_sigma ();
  g_test_message ("knob at the left end: σ %g", last);
  g_assert_cmpfloat (last, <, 0.05f);
  g_autoptr (GString) values = g_string_new (NULL);
  double largest_step = 0.0;
  guint distinct = 0;
  for (double x = left + 1; x <= left + travel / 4; x++)
    {
      ui_pointer_move (slider, x, y);
      float sigma = blur_sigma ();
      g_string_append_printf (values, " %g", sigma);
      g_assert_cmpfloat (sigma, <, 5.0f);
      g_assert_cmpfloat (sigma, >=, last);
      distinct += sigma != last;
      largest_step = MAX (largest_step, sigma - last);
      last = sigma;
    }
  ui_pointer_button (1, FALSE);
  settle ();
  g_test_message ("σ along the first quarter of %.0f px, pixel by pixel:%s", travel, values->str);
  g_assert_cmpfloat (largest_step, <=, 0.25);
  g_assert_cmpuint (distinct, >=, 10);
  GtkWidget *field = first_visible (blur_panel (), GTK_TYPE_ENTRY);
  g_assert_nonnull (field);
  g_assert_cmpfloat (fabs (g_ascii_strtod (gtk_entry_get_text (GTK_ENTRY (field)), NULL) - last), <, 0.005);
}

int
main (int argc, char **argv)
{
  /* German (the build's catalogue, as lumen finds it), where labels are longest. */
  g_setenv ("LC_ALL", "C.UTF-8", TRUE); /* gettext ignores LANGUAGE in the C locale */
  g_setenv ("LANGUAGE", "de", TRUE);
  ui_test_init_localized (&argc, &argv, "photos/chelsea.png");
  refined = lm_window_get_generation (ui_window); /* ui_test_init_localized awaited it */
  g_signal_connect (ui_window, "render-result", G_CALLBACK (on_result), NULL);
  const char *probe = "Light adaptation";
  gboolean german = g_strcmp0 (g_dgettext (GETTEXT_PACKAGE, probe), probe) != 0;
  g_test_message ("messages in %s", german ? "German" : "English: no German catalogue found");

  /* In this order: the dialog's merge makes the radiance whose tone mapping panel the
   * alignment test measures; the photo is opened again for blur. */
  g_test_add_func ("/panels/hdr-dialog-ev-thumbnails", test_hdr_dialog);
  g_test_add_func ("/panels/hdr-tonemap-defaults", test_hdr_defaults);
  g_test_add_func ("/panels/tonemap-alignment", test_alignment);
  g_test_add_func ("/panels/blur-sigma-typed", test_sigma_typed);
  g_test_add_func ("/panels/blur-sigma-slider", test_sigma_slider);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  return rc;
}
