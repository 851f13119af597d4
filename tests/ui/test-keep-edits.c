/* The window keeps a photo's edits in its sidecar, acting as a person does (real input
 * through XTest) and reading what is on disk:
 * - a slider's drag writes `<photo>.lumen` with the slider's value, a moment after it ends;
 * - another photo opens without a prompt (the edits are kept) and with its own edits; the
 *   first one, opened again, comes back with its slider where it was left;
 * - Ctrl+R reverts to the original (the sidecar goes), and is one undo step (it comes back);
 * - Ctrl+Alt+C / Ctrl+Alt+V copy the edits to another photo, the paste one undo step;
 * - a sidecar that cannot be read: the photo opens with no edits, the info bar names the file
 *   and the cause, and the file is left as it is until an edit is made;
 * - the round trip: the window's export and `lumen-cli --params <sidecar>` on the same photo
 *   are the same PNG bytes;
 * - Apply Edits to Photos: each photo written as `<name>-edited.png` with its sidecar (the
 *   same bytes as lumen-cli from that sidecar), failures listed by name, no crash.
 * The photos are copies in a folder of the test's own; the data folder is the test's too. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/edit/sidecar.h"
#include "core/io/io.h"
#include "ui/window.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
copy_photo (const char *name, const char *as)
{
  g_autofree char *to = tmp_path (as);
  return ui_copy_test_data (name, to);
}

/* Runs the main loop until PATH exists (EXISTS) or not; FALSE after SECONDS. */
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

/* Opens PATH and waits for its first render; fails where a prompt (unsaved edits) holds it. */
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

static char *chelsea, *camera, *chelsea_sidecar, *camera_sidecar;
static double dragged_sigma;

/* Drags blur's σ slider (the one shown; "sigma" is the value in pixels behind it) from its
 * left end a third of the way, as a hand does. */
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

static void
test_slider_writes (void)
{
  g_assert_false (g_file_test (chelsea_sidecar, G_FILE_TEST_EXISTS));
  drag_blur ();
  dragged_sigma = blur_sigma ();
  g_test_message ("blur %s, σ %g after the drag", blur_on () ? "on" : "off", dragged_sigma);
  g_assert_true (blur_on ());
  g_assert_cmpfloat (dragged_sigma, >, 0.0);
  g_assert_true (wait_file (chelsea_sidecar, TRUE, 5));
  ui_wait_ms (400); /* the last change's save, should the drag's end have come after a first one */
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (chelsea_sidecar, &text, NULL, NULL));
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "[lumen]\nversion=1\n"));
  LmPipeline p = ui_read_sidecar (chelsea_sidecar);
  g_assert_true (lm_pipeline_stage (&p, LM_OP_BLUR)->enabled);
  g_assert_cmpfloat_with_epsilon (lm_pipeline_stage (&p, LM_OP_BLUR)->params.blur.sigma, dragged_sigma, 1e-4);
}

/* Another photo opens at once (nothing unsaved: no prompt), with its own (no) edits; the
 * first comes back as it was left. */
static void
test_reopen (void)
{
  open_photo (camera);
  g_assert_false (blur_on ());
  g_assert_false (g_file_test (camera_sidecar, G_FILE_TEST_EXISTS));
  open_photo (chelsea);
  g_test_message ("reopened: blur %s, σ %g", blur_on () ? "on" : "off", blur_sigma ());
  g_assert_true (blur_on ());
  g_assert_cmpfloat_with_epsilon (blur_sigma (), dragged_sigma, 1e-4);
}

/* Ctrl+R: every operation off, the sidecar gone (default edits need none); Ctrl+Z brings the
 * edits back in one step, and the sidecar with them. */
static void
test_revert (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_r, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_assert_false (blur_on ());
  g_assert_true (wait_file (chelsea_sidecar, FALSE, 5));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_test_message ("after Ctrl+R, Ctrl+Z: blur %s, σ %g", blur_on () ? "on" : "off", blur_sigma ());
  g_assert_true (blur_on ());
  g_assert_cmpfloat_with_epsilon (blur_sigma (), dragged_sigma, 1e-4);
  g_assert_true (wait_file (chelsea_sidecar, TRUE, 5));
}

/* Ctrl+Alt+C on one photo, Ctrl+Alt+V on another: the same edits, kept in its sidecar;
 * Ctrl+Z undoes the paste whole. */
static void
test_copy_paste (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_c, GDK_CONTROL_MASK | GDK_MOD1_MASK);
  open_photo (camera);
  g_assert_false (blur_on ());
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_v, GDK_CONTROL_MASK | GDK_MOD1_MASK);
  for (int turn = 0; turn < 100 && !blur_on (); turn++)
    ui_wait_ms (20); /* the clipboard answers from the main loop */
  ui_settle_tracked ();
  g_assert_true (blur_on ());
  g_assert_cmpfloat_with_epsilon (blur_sigma (), dragged_sigma, 1e-4);
  g_assert_true (wait_file (camera_sidecar, TRUE, 5));
  LmPipeline a = ui_read_sidecar (chelsea_sidecar), b = ui_read_sidecar (camera_sidecar);
  g_assert_true (lm_pipeline_equal (&a, &b));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_assert_false (blur_on ());
  g_assert_true (wait_file (camera_sidecar, FALSE, 5));
}

/* A sidecar that cannot be read: the photo opens, with no edits, the info bar names the file
 * and the cause; the file is not written over until an edit is made. */
static void
test_bad_sidecar (void)
{
  g_autofree char *photo = copy_photo ("photos/chelsea.png", "bad.png");
  g_autofree char *sidecar = lm_sidecar_beside_path (photo);
  const char *bad = "[blur]\nenabled=true\nsigma=fuzzy\n";
  g_assert_true (g_file_set_contents (sidecar, bad, -1, NULL));
  open_photo (photo);
  const char *message = lm_window_get_info_message (ui_window);
  g_test_message ("info bar: %s", message);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "bad.png.lumen"));
  g_assert_nonnull (strstr (message, "fuzzy"));
  g_assert_false (blur_on ());
  ui_wait_ms (800); /* longer than a save waits */
  g_autofree char *after = NULL;
  g_assert_true (g_file_get_contents (sidecar, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, bad);
  drag_blur ();
  ui_wait_ms (800);
  LmPipeline p = ui_read_sidecar (sidecar); /* written over with the edit: readable now */
  g_assert_true (lm_pipeline_stage (&p, LM_OP_BLUR)->enabled);
}

/* lumen-cli --backend cpu --params SIDECAR -o OUT PHOTO; its exit status. */
static int
cli_from_sidecar (const char *sidecar, const char *out, const char *photo)
{
  const char *cli = g_getenv ("LUMEN_CLI");
  g_assert_nonnull (cli);
  const char *argv[] = { cli, "--backend", "cpu", "--params", sidecar, "-o", out, photo, NULL };
  g_autofree char *err = NULL;
  int status = -1;
  GError *e = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, &e));
  g_assert_no_error (e);
  if (err && *err)
    g_test_message ("lumen-cli: %s", err);
  return status;
}

static void
assert_same_file (const char *a, const char *b)
{
  g_autofree char *x = NULL, *y = NULL;
  gsize nx = 0, ny = 0;
  g_assert_true (g_file_get_contents (a, &x, &nx, NULL));
  g_assert_true (g_file_get_contents (b, &y, &ny, NULL));
  g_test_message ("%s: %zu bytes, %s: %zu bytes", a, nx, b, ny);
  g_assert_true (nx == ny && memcmp (x, y, nx) == 0);
}

/* Edits of every kind, made in the window, exported from it; lumen-cli from the sidecar the
 * window wrote makes the same PNG bytes. On the CPU in both: the GPU's blur promises ≤ 1. */
static void
test_round_trip (void)
{
  open_photo (chelsea);
  g_action_change_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "backend"),
                         g_variant_new_string ("cpu"));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (ui_control (LM_OP_EQUALIZE, "mode")), "rgb");
  gtk_range_set_value (GTK_RANGE (ui_control (LM_OP_GRAY, "amount")), 0.4);
  ui_settle_tracked ();
  ui_wait_ms (800); /* saved */
  LmPipeline p = ui_read_sidecar (chelsea_sidecar);
  g_assert_true (lm_pipeline_stage (&p, LM_OP_EQUALIZE)->enabled);
  g_assert_true (lm_pipeline_stage (&p, LM_OP_GRAY)->enabled);
  g_assert_true (lm_pipeline_stage (&p, LM_OP_BLUR)->enabled);

  g_autofree char *window_png = tmp_path ("window.png");
  g_autofree char *cli_png = tmp_path ("cli.png");
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  lm_window_export_to (ui_window, window_png, &options);
  ui_await_result (LM_RESULT_EXPORTED);
  g_assert_cmpint (cli_from_sidecar (chelsea_sidecar, cli_png, chelsea), ==, 0);
  assert_same_file (window_png, cli_png);
  /* Not two renders that did nothing: the export differs from the photo. */
  GError *e = NULL;
  g_autoptr (LmImage) out = lm_io_load (window_png, lm_allocator_host (), &e);
  g_autoptr (LmImage) in = lm_io_load (chelsea, lm_allocator_host (), &e);
  g_assert_no_error (e);
  g_assert_true (out->format != in->format || memcmp (out->data, in->data, lm_image_size_bytes (in)) != 0);
}

/* Two photos and two that cannot be read: both written with their sidecars, the bytes
 * lumen-cli makes from those; the two failures named at the end; Close ends it. */
static void
test_apply (void)
{
  g_autofree char *one = copy_photo ("photos/camera-gray.png", "one.png");
  g_autofree char *two = copy_photo ("photos/chelsea.png", "two.png");
  g_autofree char *text = tmp_path ("notes.png");
  g_assert_true (g_file_set_contents (text, "not a photo", -1, NULL));
  g_autofree char *missing = tmp_path ("missing.png");
  GFile *files[] = { g_file_new_for_path (one), g_file_new_for_path (text), g_file_new_for_path (missing),
                     g_file_new_for_path (two) };
  lm_window_apply_edits_to (ui_window, files, G_N_ELEMENTS (files));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    g_object_unref (files[i]);
  GtkWidget *dialog = ui_await_apply_outcome ();
  g_assert_nonnull (dialog);
  GtkWidget *failures = ui_find_named (dialog, "apply-failures");
  g_assert_nonnull (failures);
  const char *listed = gtk_label_get_text (GTK_LABEL (failures));
  g_test_message ("failures:\n%s", listed);
  g_assert_true (gtk_widget_get_mapped (failures));
  g_assert_nonnull (strstr (listed, "notes.png"));
  g_assert_nonnull (strstr (listed, "missing.png"));
  g_assert_null (strstr (listed, "one.png"));

  const char *photos[] = { one, two };
  for (guint i = 0; i < G_N_ELEMENTS (photos); i++)
    {
      g_autofree char *stem = g_strndup (photos[i], strlen (photos[i]) - 4);
      g_autofree char *edited = g_strconcat (stem, "-edited.png", NULL);
      g_autofree char *sidecar = lm_sidecar_beside_path (photos[i]);
      g_autofree char *cli_png = g_strconcat (stem, "-cli.png", NULL);
      g_assert_true (g_file_test (edited, G_FILE_TEST_IS_REGULAR));
      LmPipeline window = ui_read_sidecar (chelsea_sidecar), applied = ui_read_sidecar (sidecar);
      g_assert_true (lm_pipeline_equal (&window, &applied));
      g_assert_cmpint (cli_from_sidecar (sidecar, cli_png, photos[i]), ==, 0);
      assert_same_file (edited, cli_png);
    }
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  ui_flush ();
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    g_assert_false (l->data == (gpointer) dialog);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-sidecar-ui-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *data_home = tmp_path ("data");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE); /* before GLib reads it */
  chelsea = copy_photo ("photos/chelsea.png", "chelsea.png");
  camera = copy_photo ("photos/camera-gray.png", "camera-gray.png");
  chelsea_sidecar = lm_sidecar_beside_path (chelsea);
  camera_sidecar = lm_sidecar_beside_path (camera);
  ui_test_init (&argc, &argv, camera);
  ui_track_results ();
  /* ui_test_init turns sidecars off for the other window tests; here they are the subject. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  open_photo (chelsea);

  g_test_add_func ("/keep-edits/slider-writes", test_slider_writes);
  g_test_add_func ("/keep-edits/reopen", test_reopen);
  g_test_add_func ("/keep-edits/revert", test_revert);
  g_test_add_func ("/keep-edits/copy-paste", test_copy_paste);
  g_test_add_func ("/keep-edits/bad-sidecar", test_bad_sidecar);
  g_test_add_func ("/keep-edits/round-trip", test_round_trip);
  g_test_add_func ("/keep-edits/apply", test_apply);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  lm_test_remove_tree (tmp_dir);
  return rc;
}
