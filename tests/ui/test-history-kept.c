/* The undo history outlives the photo's closing (core/edit/history-file.h), acting as a person
 * does (real input through XTest):
 * - a slider's drag, then another photo opened (the first one closes), then the first opened
 *   again: Ctrl+Z undoes the earlier session's step, the slider and the view's pixels back to
 *   the photo as it was before the drag, and Ctrl+Shift+Z brings the step back;
 * - a sidecar changed elsewhere since (here by lumen-cli --params-out, as a preset dropped in
 *   the folder view writes one): the photo opens with the new edits, no message, and Ctrl+Z
 *   goes back to the look before that change (the earlier session's blur);
 * - a damaged history file: the info bar names it, the photo opens with its edits and an empty
 *   history.
 * The photos are copies in a folder of the test's own; the data folder is the test's too. */
#include <string.h>
#include <glib/gstdio.h>

#include "core/edit/history-file.h"
#include "core/edit/sidecar.h"
#include "ui/window.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir, *chelsea, *camera, *chelsea_sidecar, *chelsea_history;
static GBytes *before_pixels;
static double dragged_sigma;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static gboolean
wait_file (const char *path, gboolean exists, int seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  while (g_file_test (path, G_FILE_TEST_EXISTS) != exists && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  return g_file_test (path, G_FILE_TEST_EXISTS) == exists;
}

static GtkLabel *
title_label (void)
{
  g_autoptr (GPtrArray) labels = ui_find_all (gtk_window_get_titlebar (GTK_WINDOW (ui_window)), GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_style_context_has_class (gtk_widget_get_style_context (g_ptr_array_index (labels, i)), "title"))
      return g_ptr_array_index (labels, i);
  g_assert_not_reached ();
}

static void
open_photo (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *base = g_path_get_basename (path);
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_strcmp0 (gtk_label_get_text (title_label ()), base) != 0 && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_assert_cmpstr (gtk_label_get_text (title_label ()), ==, base);
  ui_settle_tracked ();
}

static gboolean
blur_on (void)
{
  return gtk_switch_get_active (GTK_SWITCH (ui_control (LM_OP_BLUR, "enabled")));
}

static double
blur_sigma (void)
{
  return gtk_range_get_value (GTK_RANGE (ui_control (LM_OP_BLUR, "sigma")));
}

static gboolean
can_undo (void)
{
  return g_action_group_get_action_enabled (G_ACTION_GROUP (ui_window), "undo");
}

static void
drag_blur (void)
{
  GtkWidget *slider = ui_find_named (lm_window_get_op_panel (ui_window, LM_OP_BLUR), "sigma-slider");
  g_assert_nonnull (slider);
  ui_scroll_into_view (slider);
  ui_focus_window (GTK_WIDGET (ui_window));
  GdkRectangle trough;
  gtk_range_get_range_rect (GTK_RANGE (slider), &trough);
  double y = trough.y + trough.height / 2.0;
  ui_drag (slider, trough.x + 1, y, trough.x + trough.width / 3.0, y, 12);
  ui_settle_tracked ();
}

static gboolean
same_bytes (GBytes *a, GBytes *b)
{
  return a && b && g_bytes_equal (a, b);
}

static void
test_undo_after_reopen (void)
{
  before_pixels = ui_view_pixels ();
  g_assert_false (can_undo ());
  drag_blur ();
  dragged_sigma = blur_sigma ();
  g_assert_true (blur_on ());
  g_assert_cmpfloat (dragged_sigma, >, 0.0);
  g_autoptr (GBytes) blurred = ui_view_pixels ();
  g_assert_false (same_bytes (blurred, before_pixels));
  g_assert_true (wait_file (chelsea_sidecar, TRUE, 5));
  g_assert_true (wait_file (chelsea_history, TRUE, 5));
  ui_wait_ms (400); /* the last change's save */

  open_photo (camera); /* the first photo closes */
  g_assert_false (can_undo ());
  open_photo (chelsea);
  g_test_message ("reopened: blur %s, σ %g", blur_on () ? "on" : "off", blur_sigma ());
  g_assert_true (blur_on ());
  g_assert_cmpfloat_with_epsilon (blur_sigma (), dragged_sigma, 1e-4);
  g_assert_null (lm_window_get_info_message (ui_window));
  g_assert_true (can_undo ());

  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_test_message ("after Ctrl+Z: blur %s, σ %g", blur_on () ? "on" : "off", blur_sigma ());
  g_assert_false (blur_on ());
  g_autoptr (GBytes) undone = ui_view_pixels ();
  g_assert_true (same_bytes (undone, before_pixels));
  g_assert_true (wait_file (chelsea_sidecar, FALSE, 5)); /* no edits: no sidecar */

  ui_key (GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  ui_settle_tracked ();
  g_assert_true (blur_on ());
  g_assert_cmpfloat_with_epsilon (blur_sigma (), dragged_sigma, 1e-4);
  g_autoptr (GBytes) redone = ui_view_pixels ();
  g_assert_true (same_bytes (redone, blurred));
  g_assert_true (wait_file (chelsea_sidecar, TRUE, 5));
  ui_wait_ms (400);
}

/* The sidecar written anew by lumen-cli (blur σ 1.5) while the photo was closed. */
static void
test_changed_elsewhere (void)
{
  open_photo (camera);
  g_assert_true (g_file_test (chelsea_history, G_FILE_TEST_EXISTS));
  const char *cli = g_getenv ("LUMEN_CLI");
  g_assert_nonnull (cli);
  const char *argv[] = { cli, "--blur", "1.5", "--params-out", chelsea_sidecar, NULL };
  int status = -1;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  open_photo (chelsea);
  g_assert_null (lm_window_get_info_message (ui_window));
  g_assert_true (blur_on ());
  g_assert_cmpfloat_with_epsilon (blur_sigma (), 1.5, 1e-4);
  g_assert_true (can_undo ());
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_test_message ("after Ctrl+Z: blur %s, σ %g", blur_on () ? "on" : "off", blur_sigma ());
  g_assert_true (blur_on ());
  g_assert_cmpfloat_with_epsilon (blur_sigma (), dragged_sigma, 1e-4);
}

static void
test_damaged (void)
{
  g_autofree char *photo = ui_copy_test_data ("photos/chelsea.png", tmp_path ("damaged.png"));
  g_autofree char *sidecar = lm_sidecar_beside_path (photo);
  g_autofree char *history = lm_history_file_path (sidecar);
  g_assert_true (g_file_set_contents (sidecar, "[lumen]\nversion=1\n[blur]\nenabled=true\nsigma=2\n", -1, NULL));
  g_assert_true (g_file_set_contents (history, "lumen-history 1\nsteps 2 current 1\nstep 4\n[blu", -1, NULL));
  open_photo (photo);
  const char *message = lm_window_get_info_message (ui_window);
  g_test_message ("info bar: %s", message);
  g_assert_nonnull (message);
  g_assert_nonnull (message ? strstr (message, "damaged.png.lumen-history") : NULL);
  g_assert_true (message && strchr (message, '\n') == NULL);
  g_assert_true (blur_on ());
  g_assert_cmpfloat_with_epsilon (blur_sigma (), 2.0, 1e-4);
  g_assert_false (can_undo ());
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-history-ui-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *data_home = tmp_path ("data");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE); /* before GLib reads it */
  g_autofree char *chelsea_to = tmp_path ("chelsea.png"), *camera_to = tmp_path ("camera-gray.png");
  chelsea = ui_copy_test_data ("photos/chelsea.png", chelsea_to);
  camera = ui_copy_test_data ("photos/camera-gray.png", camera_to);
  chelsea_sidecar = lm_sidecar_beside_path (chelsea);
  chelsea_history = lm_history_file_path (chelsea_sidecar);
  ui_test_init (&argc, &argv, camera);
  ui_track_results ();
  /* ui_test_init turns sidecars off for the other window tests; here they are the subject. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  open_photo (chelsea);

  g_test_add_func ("/history-kept/undo-after-reopen", test_undo_after_reopen);
  g_test_add_func ("/history-kept/changed-elsewhere", test_changed_elsewhere);
  g_test_add_func ("/history-kept/damaged", test_damaged);
  int rc = g_test_run ();
  g_clear_pointer (&before_pixels, g_bytes_unref);
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  lm_test_remove_tree (tmp_dir);
  return rc;
}
