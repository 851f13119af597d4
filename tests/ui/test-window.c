/* The real editor window, driven under Xvfb: open a photo, move each control, and check that
 * the view's pixels and the histogram follow; export; compare; undo; a bad file shows the
 * info bar. Saves a screenshot (LUMEN_SCREENSHOT, default ui-screenshot.png). */
#include <string.h>
#include <glib/gstdio.h>

#include "core/io.h"
#include "ui/application.h"
#include "ui/histogram-view.h"
#include "ui/image-view.h"
#include "ui/op-panel.h"
#include "ui/window.h"

static LmWindow *window;

typedef struct {
  int kind;
  guint64 generation; /* previews: the one awaited (earlier ones still come in) */
  gboolean seen;
} Awaited;

static void
on_result (LmWindow *w, int kind, guint64 generation, gboolean refined, Awaited *a)
{
  if (g_getenv ("LUMEN_TEST_VERBOSE"))
    g_test_message ("result kind %d generation %" G_GUINT64_FORMAT " refined %d", kind, generation, refined);
  if (kind == a->kind && (kind != LM_RESULT_PREVIEW || (refined && generation >= a->generation)))
    a->seen = TRUE;
  const char *message = lm_window_get_info_message (w);
  if (message)
    g_test_message ("info bar: %s", message);
}

static gboolean
tick (gpointer data)
{
  return G_SOURCE_CONTINUE; /* wakes the loop, so that deadlines are checked */
}

/* Runs the main loop until a result of KIND arrives (for previews: the refined one of the
 * newest request). */
static void
await_result (int kind)
{
  Awaited a = { .kind = kind, .generation = lm_window_get_generation (window) };
  gulong id = g_signal_connect (window, "render-result", G_CALLBACK (on_result), &a);
  guint timer = g_timeout_add (100, tick, NULL);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!a.seen && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timer);
  g_signal_handler_disconnect (window, id);
  g_assert_true (a.seen);
}

/* Settles: the newest request's refined result is in, no other render is pending. */
static void
settle (void)
{
  await_result (LM_RESULT_PREVIEW);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static GBytes *
view_pixels (void)
{
  LmViewRect rect;
  LmImage *px = lm_image_view_get_pixels (LM_IMAGE_VIEW (lm_window_get_image_view (window)), &rect);
  g_assert_nonnull (px);
  return g_bytes_new (px->data, lm_image_size_bytes (px));
}

static LmHistogram
histogram (void)
{
  const LmHistogram *h = lm_histogram_view_get_histogram (LM_HISTOGRAM_VIEW (lm_window_get_histogram_view (window)));
  g_assert_nonnull (h);
  return *h;
}

static GtkWidget *
control (LmOpId op, const char *name)
{
  GtkWidget *w = lm_op_panel_get_control (LM_OP_PANEL (lm_window_get_op_panel (window, op)), name);
  g_assert_nonnull (w);
  return w;
}

/* Applies CHANGE, waits for the render, and checks that the view and the histogram moved. */
static void
expect_change (const char *what, void (*change) (void))
{
  g_autoptr (GBytes) before = view_pixels ();
  LmHistogram hist_before = histogram ();
  change ();
  settle ();
  g_autoptr (GBytes) after = view_pixels ();
  LmHistogram hist_after = histogram ();
  g_test_message ("%s: view %s, histogram %s", what, g_bytes_equal (before, after) ? "same" : "changed",
                  lm_histogram_equal (&hist_before, &hist_after) ? "same" : "changed");
  g_assert_false (g_bytes_equal (before, after));
  g_assert_false (lm_histogram_equal (&hist_before, &hist_after));
}

static void
gray_on (void)
{
  gtk_switch_set_active (GTK_SWITCH (control (LM_OP_GRAY, "enabled")), TRUE);
}
static void
gray_amount (void)
{
  gtk_range_set_value (GTK_RANGE (control (LM_OP_GRAY, "amount")), 0.4);
}
static void
gray_mode (void)
{
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (control (LM_OP_GRAY, "mode")), "mix");
  gtk_range_set_value (GTK_RANGE (control (LM_OP_GRAY, "red")), 1.2);
}
static void
equalize_on (void)
{
  gtk_range_set_value (GTK_RANGE (control (LM_OP_EQUALIZE, "amount")), 0.8); /* switches it on */
}
static void
equalize_mode (void)
{
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (control (LM_OP_EQUALIZE, "mode")), "rgb");
}
static void
blur_sigma (void)
{
  gtk_range_set_value (GTK_RANGE (control (LM_OP_BLUR, "sigma")), 6.0);
}

static void
test_sliders (void)
{
  expect_change ("grayscale on", gray_on);
  expect_change ("grayscale amount", gray_amount);
  expect_change ("grayscale mix", gray_mode);
  expect_change ("equalize amount", equalize_on);
  expect_change ("equalize mode", equalize_mode);
  expect_change ("blur sigma", blur_sigma);
}

static void
test_undo (void)
{
  g_autoptr (GBytes) edited = view_pixels ();
  GAction *undo = g_action_map_lookup_action (G_ACTION_MAP (window), "undo");
  g_assert_true (g_action_get_enabled (undo));
  g_action_activate (undo, NULL);
  settle ();
  const LmStage *blur = lm_op_panel_get_stage (LM_OP_PANEL (lm_window_get_op_panel (window, LM_OP_BLUR)));
  g_test_message ("after undo: blur %s, sigma %g", blur->enabled ? "on" : "off",
                  ((const float *) blur->params.bytes)[0]);
  g_autoptr (GBytes) undone = view_pixels ();
  g_assert_false (g_bytes_equal (edited, undone));
  g_action_activate (g_action_map_lookup_action (G_ACTION_MAP (window), "redo"), NULL);
  settle ();
  g_autoptr (GBytes) redone = view_pixels ();
  g_assert_true (g_bytes_equal (edited, redone));
}

static void
test_export (void)
{
  g_autofree char *dir = g_dir_make_tmp ("lumen-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "export.jpg", NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  lm_window_export_to (window, path, &options);
  await_result (LM_RESULT_EXPORTED);
  GError *e = NULL;
  g_autoptr (LmImage) back = lm_io_load (path, lm_allocator_host (), &e);
  g_assert_no_error (e);
  g_assert_cmpuint (back->width, ==, 451);
  g_assert_cmpuint (back->height, ==, 300);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_compare (void)
{
  g_action_change_state (g_action_map_lookup_action (G_ACTION_MAP (window), "compare"),
                         g_variant_new_boolean (TRUE));
  await_result (LM_RESULT_COMPARE);
  const char *text = lm_window_get_diff_text (window);
  g_test_message ("compare: %s", text);
  /* Without a device the CPU is compared with itself: no difference at all. With one, the
   * contract allows blur 1. */
  g_assert_true (strstr (text, "max |Δ| 0,") != NULL || strstr (text, "max |Δ| 1,") != NULL);
  if (strstr (text, "CPU vs CPU"))
    g_assert_nonnull (strstr (text, "max |Δ| 0, mean |Δ| 0.0000, 0 pixels differ"));
  g_action_change_state (g_action_map_lookup_action (G_ACTION_MAP (window), "compare"),
                         g_variant_new_boolean (FALSE));
}

static void
take_screenshot (void)
{
  GdkWindow *gdk_window = gtk_widget_get_window (GTK_WIDGET (window));
  int w = gdk_window_get_width (gdk_window), h = gdk_window_get_height (gdk_window);
  g_autoptr (GdkPixbuf) shot = gdk_pixbuf_get_from_window (gdk_window, 0, 0, w, h);
  g_assert_nonnull (shot);
  const char *path = g_getenv ("LUMEN_SCREENSHOT") ? g_getenv ("LUMEN_SCREENSHOT") : "ui-screenshot.png";
  g_assert_true (gdk_pixbuf_save (shot, path, "png", NULL, NULL));
  g_test_message ("screenshot: %s", path);
}

static void
test_bad_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("lumen-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "notes.png", NULL);
  g_assert_true (g_file_set_contents (path, "not a picture\n", -1, NULL));
  g_autoptr (GFile) file = g_file_new_for_path (path);
  lm_window_open (window, file);
  guint timer = g_timeout_add (100, tick, NULL);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (lm_window_get_info_message (window) == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timer);
  const char *message = lm_window_get_info_message (window);
  g_assert_nonnull (message);
  g_test_message ("info bar: %s", message);
  g_assert_nonnull (strstr (message, "notes.png"));
  g_assert_nonnull (strstr (message, "text file"));
  /* The window stays usable: the photo is still there and renders. */
  gtk_range_set_value (GTK_RANGE (control (LM_OP_BLUR, "sigma")), 2.0);
  settle ();
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  /* Criticals stay fatal; warnings do not: a machine without an SVG pixbuf loader (the GPU
   * machine's bundle) makes GTK warn about theme assets it cannot draw. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  const char *data = g_getenv ("LUMEN_TEST_DATA");
  g_autofree char *photo = g_build_filename (data ? data : ".", "photos", "chelsea.png", NULL);

  g_autoptr (LmApplication) app = lm_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  window = lm_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_widget_show (GTK_WIDGET (window));
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  lm_window_open (window, file);
  settle ();

  g_test_add_func ("/window/sliders", test_sliders);
  g_test_add_func ("/window/undo", test_undo);
  g_test_add_func ("/window/export", test_export);
  g_test_add_func ("/window/compare", test_compare);
  g_test_add_func ("/window/screenshot", take_screenshot);
  g_test_add_func ("/window/bad-file", test_bad_file);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (window));
  return rc;
}
