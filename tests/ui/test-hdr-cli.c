/* Merge HDR in the window gives what lumen-cli hdr gives: the courtyard bracket merged through
 * the dialog (its Merge button clicked), then exported untouched, has the pixels of
 * `lumen-cli hdr --exposures … -o out.png`, default tone mapping included: the window's panel and
 * the CLI start from tone mapping's one table. So do raw brackets, tone mapped as a raw. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/hdr/stack.h"
#include "core/io/io.h"
#include "ui/hdr-dialog.h"
#include "ui/window.h"
#include "ui-testlib.h"

static char *tmp_dir;

static LmHdrDialog *
open_hdr_dialog (void)
{
  ui_activate ("merge-hdr");
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (LM_IS_HDR_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  g_assert_not_reached ();
}

/* The images at WINDOW and CLI have the same pixels, row for row; returns their format. */
static LmFormat
assert_same_pixels (const char *window, const char *cli, const char *what)
{
  g_autoptr (LmImage) ours = ui_load_image (window), theirs = ui_load_image (cli);
  g_assert_cmpint (ours->format, ==, theirs->format);
  g_assert_cmpuint (ours->width, ==, theirs->width);
  g_assert_cmpuint (ours->height, ==, theirs->height);
  gsize row = lm_format_bytes_per_pixel (ours->format) * ours->width;
  guint differ = 0;
  for (guint y = 0; y < ours->height; y++)
    differ += memcmp (lm_image_row (ours, y), lm_image_row (theirs, y), row) != 0;
  g_test_message ("%u of %u rows differ between the window's export and %s", differ, ours->height, what);
  g_assert_cmpuint (differ, ==, 0);
  return ours->format;
}

static void
test_same_as_cli (void)
{
  g_autofree char *data = ui_test_data ("hdr");
  g_autofree char *list = g_build_filename (data, "courtyard", "exposures.txt", NULL);
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GArray) times = NULL;
  GError *e = NULL;
  g_assert_true (lm_hdr_read_exposures (list, &files, &times, &e));
  g_assert_no_error (e);

  LmHdrDialog *dialog = open_hdr_dialog ();
  lm_hdr_dialog_add_files (dialog, (const char *const *) files->pdata, files->len);
  ui_await_exposures (GTK_WIDGET (dialog));
  for (guint i = 0; i < files->len; i++)
    {
      char text[G_ASCII_DTOSTR_BUF_SIZE];
      g_assert_true (lm_hdr_dialog_set_time_text (dialog, i, g_ascii_dtostr (text, sizeof text,
                                                                          g_array_index (times, double, i))));
    }
  GtkWidget *merge = ui_button_labelled (GTK_WIDGET (dialog), _("_Merge"));
  g_assert_nonnull (merge);
  ui_focus_window (GTK_WIDGET (dialog));
  ui_click_middle (merge);
  ui_await_result (LM_RESULT_MERGED);
  g_assert_null (lm_hdr_dialog_get_error (dialog));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  /* Tracked from the start: the merge's preview may come while the merge is awaited. */
  ui_settle_tracked ();

  g_autofree char *window_png = g_build_filename (tmp_dir, "window.png", NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  lm_window_export_to (ui_window, window_png, &options);
  ui_await_result (LM_RESULT_EXPORTED);

  g_autofree char *cli_png = g_build_filename (tmp_dir, "cli.png", NULL);
  const char *args[] = { "hdr", "--exposures", list, "-o", cli_png, NULL };
  ui_run_cli (args);
  assert_same_pixels (window_png, cli_png, "lumen-cli hdr's");
  g_unlink (window_png);
  g_unlink (cli_png);
}

static void
on_merged (LmWindow *w, int kind, guint64 generation, gboolean refined, gboolean *merged)
{
  if (kind == LM_RESULT_MERGED)
    *merged = TRUE;
}

/* Three raw brackets (tests/raw/test_raw_merge.py's scene, shot at 1/4, 1 and 4 s with their
 * ExposureTime) into DIR as b0.dng … b2.dng. */
static void
write_raw_brackets (const char *dir, char *paths[3])
{
  g_autofree char *raw_dir = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "raw", NULL);
  g_autofree char *code = g_strdup_printf (
    "import os, sys\n"
    "sys.path.insert(0, %s)\n"
    "import test_raw_merge as t\n"
    "truth = t.scene()\n"
    "for i, s in enumerate(t.TIMES):\n"
    "    t.write(os.path.join(%s, 'b%%d.dng' %% i), t.sensor(truth, s, i), s)\n",
    g_shell_quote (raw_dir), g_shell_quote (dir));
  const char *argv[] = { "/usr/bin/python3", "-c", code, NULL };
  int status = -1;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  for (int i = 0; i < 3; i++)
    paths[i] = g_strdup_printf ("%s/b%d.dng", dir, i);
}

/* Raw brackets merged through the dialog (their times from EXIF) are a raw's scene: the window
 * tone maps them as lumen-cli hdr --depth 16 does (the sigmoid, a raw's display transform, in
 * 16 bits), pixel for pixel, and refuses to write them as .hdr, which cannot say their
 * Rec. 2020 primaries. */
static void
test_raw_brackets (void)
{
  char *paths[3];
  write_raw_brackets (tmp_dir, paths);
  LmHdrDialog *dialog = open_hdr_dialog ();
  lm_hdr_dialog_add_files (dialog, (const char *const *) paths, 3);
  ui_await_exposures (GTK_WIDGET (dialog));
  GtkWidget *merge = ui_button_labelled (GTK_WIDGET (dialog), _("_Merge"));
  ui_focus_window (GTK_WIDGET (dialog));
  /* Listened for from before the click: three small raws merge before the click's events are
   * all handled. */
  gboolean merged = FALSE;
  gulong id = g_signal_connect (ui_window, "render-result", G_CALLBACK (on_merged), &merged);
  ui_click_middle (merge);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!merged && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (ui_window, id);
  g_assert_true (merged);
  g_assert_null (lm_hdr_dialog_get_error (dialog));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  /* Tracked from the start: the merge's preview may come while the merge is awaited. */
  ui_settle_tracked ();

  g_autofree char *window_png = g_build_filename (tmp_dir, "window.png", NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  lm_window_export_to (ui_window, window_png, &options);
  ui_await_result (LM_RESULT_EXPORTED);
  g_autofree char *window_exr = g_build_filename (tmp_dir, "window.exr", NULL);
  lm_window_export_to (ui_window, window_exr, &options);
  ui_await_result (LM_RESULT_EXPORTED);
  g_autofree char *window_hdr = g_build_filename (tmp_dir, "window.hdr", NULL);
  lm_window_export_to (ui_window, window_hdr, &options);
  ui_await_result (LM_RESULT_EXPORTED);
  g_assert_false (g_file_test (window_hdr, G_FILE_TEST_EXISTS));
  const char *refused = lm_window_get_info_message (ui_window);
  g_assert_nonnull (refused);
  g_assert_nonnull (strstr (refused, ".exr"));

  g_autofree char *cli_png = g_build_filename (tmp_dir, "cli.png", NULL);
  const char *args[] = { "hdr", "--depth", "16", "-o", cli_png, paths[0], paths[1], paths[2], NULL };
  ui_run_cli (args);
  /* a raw's 16 bits, not 8 */
  g_assert_cmpint (assert_same_pixels (window_png, cli_png, "lumen-cli hdr --depth 16's"), ==, LM_FORMAT_RGBA16);

  /* The scene itself: the same file as lumen-cli hdr's .exr (the merged radiance, its
   * Rec. 2020 chromaticities). */
  g_autofree char *cli_exr = g_build_filename (tmp_dir, "cli.exr", NULL);
  const char *args_exr[] = { "hdr", "-o", cli_exr, paths[0], paths[1], paths[2], NULL };
  ui_run_cli (args_exr);
  g_autofree char *a = NULL, *b = NULL;
  gsize na = 0, nb = 0;
  g_assert_true (g_file_get_contents (window_exr, &a, &na, NULL));
  g_assert_true (g_file_get_contents (cli_exr, &b, &nb, NULL));
  g_assert_cmpmem (a, na, b, nb);
  g_unlink (window_exr);
  g_unlink (cli_exr);
  g_unlink (window_png);
  g_unlink (cli_png);
  for (int i = 0; i < 3; i++)
    {
      g_unlink (paths[i]);
      g_free (paths[i]);
    }
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-hdr-cli-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  ui_track_results ();
  g_test_add_func ("/hdr-cli/same-as-cli", test_same_as_cli);
  g_test_add_func ("/hdr-cli/raw-brackets", test_raw_brackets);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  g_rmdir (tmp_dir);
  return rc;
}
