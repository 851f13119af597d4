/* The export dialog's "16 bits per channel (PNG, TIFF)": as a person exports an 8-bit photo
 * (Ctrl+E, the name typed, the box clicked, Export clicked), the PNG is 16 bits per channel and
 * byte for byte the one lumen-cli --depth 16 writes; the next dialog shows the box as left;
 * unticked, the export is 8 bits again, lumen-cli's without --depth. */
#include <string.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "ui/window.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir;
static char *photo;

typedef struct {
  const char *name;
  gboolean tick;        /* click the box when its state differs */
  gboolean shown_ticked; /* what the dialog showed on opening */
} Answer;

static void
answer_chooser (GtkWidget *dialog, gpointer data)
{
  Answer *a = data;
  ui_focus_window (dialog);
  ui_chooser_type_name (a->name);
  GtkWidget *box = ui_find_named_within (dialog, "depth16");
  g_assert_nonnull (box);
  g_assert_true (gtk_widget_get_visible (box));
  a->shown_ticked = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (box));
  if (a->shown_ticked != a->tick)
    ui_click_middle (box);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (box)) == a->tick);
  ui_chooser_press_export (dialog);
}

static GBytes *
read_all (const char *path)
{
  char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static GBytes *
export_with (Answer *a)
{
  ui_answer_chooser (ui_press_export, NULL, answer_chooser, a);
  g_autofree char *path = g_build_filename (tmp_dir, a->name, NULL);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!g_file_test (path, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_test_message ("info bar: %s", lm_window_get_info_message (ui_window));
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  ui_settle_tracked ();
  return read_all (path);
}

static GBytes *
cli (const char *name, const char *depth)
{
  g_autofree char *out = g_build_filename (tmp_dir, name, NULL);
  const char *argv[] = { g_getenv ("LUMEN_CLI"), "--depth", depth, "-o", out, photo, NULL };
  int status = -1;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, NULL));
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return read_all (out);
}

/* The PNG's bit depth, from its IHDR (byte 24). */
static int
png_depth (GBytes *png)
{
  gsize len = 0;
  const guint8 *d = g_bytes_get_data (png, &len);
  return len > 24 ? d[24] : -1;
}

static void
test_depth (void)
{
  Answer deep = { .name = "window-16.png", .tick = TRUE };
  g_autoptr (GBytes) window16 = export_with (&deep);
  g_assert_false (deep.shown_ticked);
  g_assert_cmpint (png_depth (window16), ==, 16);
  g_autoptr (GBytes) cli16 = cli ("cli-16.png", "16");
  g_assert_true (g_bytes_equal (window16, cli16));

  Answer shallow = { .name = "window-8.png", .tick = FALSE };
  g_autoptr (GBytes) window8 = export_with (&shallow);
  g_assert_true (shallow.shown_ticked);
  g_assert_cmpint (png_depth (window8), ==, 8);
  g_autoptr (GBytes) cli8 = cli ("cli-8.png", "8");
  g_assert_true (g_bytes_equal (window8, cli8));
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-export-depth-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  photo = g_build_filename (tmp_dir, "chelsea.png", NULL);
  g_free (ui_copy_test_data ("photos/chelsea.png", photo));
  ui_test_init (&argc, &argv, photo);
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  ui_track_results ();
  lm_window_open (ui_window, file);
  ui_settle_tracked ();
  g_test_add_func ("/export-depth/depth", test_depth);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return status;
}
