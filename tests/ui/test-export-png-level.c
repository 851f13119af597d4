/* The export dialog's "PNG compression level": as a person exports (Ctrl+E, the name typed,
 * the level typed into its field, Export clicked), the file is the one lumen-cli writes with
 * --png-level at that level, byte for byte; the next export's dialog shows the level last
 * chosen. The photo has no edits, so the two must agree to the byte. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir;
static char *photo;

typedef struct {
  const char *name;
  int level;
  int level_shown; /* what the dialog showed on opening */
} Answer;

static void
answer_chooser (GtkWidget *dialog, gpointer data)
{
  Answer *a = data;
  ui_focus_window (dialog);
  ui_chooser_type_name (a->name); /* the name field has the keyboard */
  GtkWidget *level = ui_find_named_within (dialog, "png-level");
  g_assert_nonnull (level);
  a->level_shown = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (level));
  /* Typed into the field, not confirmed with Enter: the export reads what is typed. */
  g_autofree char *text = g_strdup_printf ("%d", a->level);
  gtk_entry_set_text (GTK_ENTRY (level), text);
  ui_chooser_press_export (dialog);
}

static GBytes *
export_with (Answer *a)
{
  ui_answer_chooser (ui_press_export, NULL, answer_chooser, a);
  g_autofree char *path = g_build_filename (tmp_dir, a->name, NULL);
  ui_await_file (path);
  char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static GBytes *
cli (const char *name, int level)
{
  g_autofree char *out = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *level_text = g_strdup_printf ("%d", level);
  const char *argv[] = { g_getenv ("LUMEN_CLI"), "--png-level", level_text, "-o", out, photo, NULL };
  int status = -1;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, NULL));
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (out, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static void
test_levels (void)
{
  Answer first = { .name = "window-9.png", .level = 9 };
  g_autoptr (GBytes) window9 = export_with (&first);
  g_assert_cmpint (first.level_shown, ==, LM_PNG_LEVEL_DEFAULT);
  g_autoptr (GBytes) cli9 = cli ("cli-9.png", 9);
  g_assert_true (g_bytes_equal (window9, cli9));

  Answer second = { .name = "window-0.png", .level = 0 };
  g_autoptr (GBytes) window0 = export_with (&second);
  g_assert_cmpint (second.level_shown, ==, 9);
  g_autoptr (GBytes) cli0 = cli ("cli-0.png", 0);
  g_assert_true (g_bytes_equal (window0, cli0));
  g_assert_cmpuint (g_bytes_get_size (window0), >, g_bytes_get_size (window9));
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-export-png-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  photo = g_build_filename (tmp_dir, "chelsea.png", NULL);
  g_free (ui_copy_test_data ("photos/chelsea.png", photo));
  ui_test_init (&argc, &argv, photo);
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  ui_track_results ();
  lm_window_open (ui_window, file);
  ui_settle_tracked ();
  g_test_add_func ("/export-png-level/levels", test_levels);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return status;
}
