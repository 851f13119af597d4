/* Gray in, gray out, in the window: a gray photo opened with its edits (exposure, contrast
 * and a curve, read from its sidecar) and exported as a person does (Ctrl+E, the name typed,
 * Export clicked) is a one-channel PNG, byte for byte what lumen-cli writes from the same
 * sidecar; and lumen-cli's own output is held to one channel, so the two cannot agree on
 * colour. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir, *photo, *sidecar;

static const char *const edits[] = { "--exposure", "0.6", "--contrast", "0.3", "--curve", "0:10,90:70,255:240", NULL };

static void
lumen_cli (const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) g_getenv ("LUMEN_CLI"));
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  int status = -1;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, NULL));
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static GBytes *
read_file (const char *path)
{
  char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* The PNG's colour type (IHDR's 10th byte): 0 gray, 2 RGB, 4 gray + alpha, 6 RGBA. */
static int
png_colour_type (GBytes *png)
{
  gsize len;
  const guint8 *p = g_bytes_get_data (png, &len);
  g_assert_cmpuint (len, >, 26);
  g_assert_cmpmem (p + 12, 4, "IHDR", 4);
  return p[25];
}

static void
test_gray_export (void)
{
  ui_answer_chooser (ui_press_export, NULL, ui_export_as, (gpointer) "window.png");
  g_autofree char *window_path = g_build_filename (tmp_dir, "window.png", NULL);
  ui_await_file (window_path);
  g_autoptr (GBytes) window = read_file (window_path);

  g_autofree char *cli_path = g_build_filename (tmp_dir, "cli.png", NULL);
  const char *args[] = { "--params", sidecar, "-o", cli_path, photo, NULL };
  lumen_cli (args);
  g_autoptr (GBytes) cli = read_file (cli_path);

  g_assert_cmpint (png_colour_type (window), ==, 0);
  g_assert_cmpint (png_colour_type (cli), ==, 0);
  g_assert_true (g_bytes_equal (window, cli));
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-export-gray-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  photo = g_build_filename (tmp_dir, "camera-gray.png", NULL);
  g_free (ui_copy_test_data ("photos/camera-gray.png", photo));
  /* The photo's edits, saved beside it as the window saves them. */
  sidecar = g_strconcat (photo, ".lumen", NULL);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  for (const char *const *e = edits; *e; e++)
    g_ptr_array_add (args, (gpointer) *e);
  g_ptr_array_add (args, "--params-out");
  g_ptr_array_add (args, sidecar);
  g_ptr_array_add (args, NULL);
  lumen_cli ((const char *const *) args->pdata);

  ui_test_init (&argc, &argv, photo);
  /* The edits come from the sidecar: read once keep-edits is on, the photo opened again. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  ui_track_results ();
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!gtk_switch_get_active (GTK_SWITCH (ui_control (LM_OP_EXPOSURE, "enabled")))
         && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (ui_control (LM_OP_EXPOSURE, "enabled"))));
  ui_settle_tracked ();
  g_test_add_func ("/export-gray/one-channel", test_gray_export);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return status;
}
