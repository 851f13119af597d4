/* The window closed with the keyboard (Ctrl+Q: Quit closes each window) while a slider's
 * value is typed but not yet entered, as a person does who types a number and quits: no
 * crash, and the typed value is the one kept in the photo's sidecar (the closing takes it, as
 * leaving the field would). */
#include "core/edit/sidecar.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir, *photo, *sidecar;

static void
test_close_while_typing (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  GtkWidget *value = ui_find_named (lm_window_get_op_panel (ui_window, LM_OP_EXPOSURE), "ev-value");
  g_assert_nonnull (value); /* the number beside the exposure's slider, to be clicked */
  ui_scroll_into_view (value);
  ui_click_middle (value);
  ui_wait_ms (200);
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (ui_window));
  g_assert_true (GTK_IS_ENTRY (focus));
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type ("1");
  ui_wait_ms (100);
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS)); /* nothing entered yet */

  GtkWidget *window = GTK_WIDGET (ui_window);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &ui_window);
  ui_key (GDK_KEY_q, GDK_CONTROL_MASK); /* typed, not entered, and Quit */
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (window != NULL && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_test_message ("window %s after Ctrl+Q; sidecar %s", window ? "still open" : "closed",
                  g_file_test (sidecar, G_FILE_TEST_EXISTS) ? "written" : "absent");
  g_assert_null (window);
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  LmPipeline p = ui_read_sidecar (sidecar);
  g_test_message ("the sidecar: exposure %s, %g EV", lm_pipeline_stage (&p, LM_OP_EXPOSURE)->enabled ? "on" : "off",
                  lm_pipeline_stage (&p, LM_OP_EXPOSURE)->params.exposure.ev);
  g_assert_true (lm_pipeline_stage (&p, LM_OP_EXPOSURE)->enabled);
  g_assert_cmpfloat (lm_pipeline_stage (&p, LM_OP_EXPOSURE)->params.exposure.ev, ==, 1.0f);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-close-typing-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *data_home = g_build_filename (tmp_dir, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE); /* before GLib reads it */
  g_autofree char *first = g_build_filename (tmp_dir, "first.png", NULL);
  g_autofree char *to = g_build_filename (tmp_dir, "chelsea.png", NULL);
  g_free (ui_copy_test_data ("photos/chelsea.png", first));
  photo = ui_copy_test_data ("photos/chelsea.png", to);
  sidecar = lm_sidecar_beside_path (photo);
  ui_test_init (&argc, &argv, first);
  ui_track_results ();
  /* ui_test_init turns sidecars off for the other window tests; here they are the witness. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  lm_window_open (ui_window, file);
  ui_settle_tracked ();

  g_test_add_func ("/close-typing/typed-value-kept", test_close_while_typing);
  int rc = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return rc;
}
