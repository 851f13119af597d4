/* Export Selected… driven as a person drives it, through the X server: 3 photos (one with its
 * own edits), a name pattern and a quality typed, Export clicked; the run goes on in the
 * background while the main loop turns, and each output is the bytes of `lumen-cli --params`
 * on its photo. A photo that is not one lands in the dialog's failures, the others are
 * exported. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../unit/test-util.h"
#include "ui-testlib.h"
#include "ui/export-many.h"

static char *tmp_dir;

static GtkWidget *
open_dialog (const char *const *photos, guint n)
{
  lm_export_many_dialog (GTK_WINDOW (ui_window), photos, n);
  GtkWidget *dialog = NULL;
  GList *tops = gtk_window_list_toplevels ();
  for (GList *l = tops; l; l = l->next)
    if (g_strcmp0 (gtk_widget_get_name (l->data), "export-many") == 0 && gtk_widget_get_visible (l->data))
      dialog = l->data;
  g_list_free (tops);
  g_assert_nonnull (dialog);
  ui_wait_ms (200);
  ui_focus_window (dialog);
  return dialog;
}

/* TEXT typed over the text of the entry NAME (a spin button's too), as a person does. */
static void
type_over (GtkWidget *dialog, const char *name, const char *text)
{
  GtkWidget *entry = ui_find_named_within (dialog, name);
  g_assert_nonnull (entry);
  ui_click_middle (entry);
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (text);
  ui_key (GDK_KEY_Tab, 0);
  ui_flush ();
}

static void
choose_folder (GtkWidget *dialog, const char *folder)
{
  GtkWidget *button = ui_find_named_within (dialog, "outdir");
  g_assert_true (gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (button), folder));
  for (int i = 0; i < 200; i++)
    {
      g_autofree char *chosen = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (button));
      if (g_strcmp0 (chosen, folder) == 0)
        return;
      ui_wait_ms (10);
    }
  g_assert_not_reached ();
}

/* Export clicked; returns once the dialog shows its outcome (Close), the main loop turning
 * all along: the export runs on the job's threads. */
static void
export_and_wait (GtkWidget *dialog)
{
  GtkWidget *export = ui_button_labelled (dialog, _("_Export"));
  g_assert_nonnull (export);
  ui_click_middle (export);
  GtkWidget *close = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  for (gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC; !gtk_widget_get_visible (close);)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      ui_wait_ms (20);
    }
}

static char *
copy_photo (const char *name, const char *as)
{
  g_autofree char *dest = g_build_filename (tmp_dir, as, NULL);
  return ui_copy_test_data (name, dest);
}

static GBytes *
read_file (const char *path)
{
  char *data;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static void
test_three_photos (void)
{
  g_autofree char *a = copy_photo ("photos/chelsea.png", "a.png");
  g_autofree char *b = copy_photo ("photos/forest-path.jpg", "b.jpg");
  g_autofree char *c = copy_photo ("photos/pier-fog.jpg", "c.jpg");
  g_autofree char *sidecar = g_strconcat (b, ".lumen", NULL);
  const char *edit[] = { "--exposure", "0.6", "--contrast", "0.2", "--params-out", sidecar, NULL };
  ui_run_cli (edit);
  g_autofree char *out = g_build_filename (tmp_dir, "out", NULL);
  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);

  const char *photos[] = { a, b, c };
  GtkWidget *dialog = open_dialog (photos, 3);
  choose_folder (dialog, out);
  type_over (dialog, "pattern", "{n}-$(FILE_NAME)");
  type_over (dialog, "quality", "80");
  export_and_wait (dialog);
  GtkLabel *progress = GTK_LABEL (ui_find_named_within (dialog, "export-many-progress"));
  g_assert_cmpstr (gtk_label_get_text (progress), ==, "3 of 3 photos exported, 0 failed");

  const char *names[] = { "0001-a.jpg", "0002-b.jpg", "0003-c.jpg" };
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *got = g_build_filename (out, names[i], NULL);
      g_autofree char *want = g_build_filename (tmp_dir, "want.jpg", NULL);
      const char *with[] = { "--params", sidecar, "--quality", "80", "-o", want, photos[i], NULL };
      const char *without[] = { "--quality", "80", "-o", want, photos[i], NULL };
      ui_run_cli (i == 1 ? with : without);
      g_autoptr (GBytes) g = read_file (got), w = read_file (want);
      g_assert_true (g_bytes_equal (g, w));
      g_unlink (want);
    }
  /* The edits were applied: b's output is not b as it is. */
  g_autofree char *plain = g_build_filename (tmp_dir, "plain.jpg", NULL);
  const char *as_is[] = { "--quality", "80", "-o", plain, b, NULL };
  ui_run_cli (as_is);
  g_autofree char *got_b = g_build_filename (out, names[1], NULL);
  g_autoptr (GBytes) p = read_file (plain), gb = read_file (got_b);
  g_assert_false (g_bytes_equal (p, gb));

  ui_click_middle (ui_button_labelled (dialog, _("_Close")));
  ui_flush ();
}

static void
test_failure_reported (void)
{
  g_autofree char *good = copy_photo ("photos/pier-fog.jpg", "good.jpg");
  g_autofree char *bad = g_build_filename (tmp_dir, "broken.jpg", NULL);
  g_assert_true (g_file_set_contents (bad, "\xff\xd8\xff\xe0 no JPEG", -1, NULL));
  g_autofree char *out = g_build_filename (tmp_dir, "out-failed", NULL);
  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);
  const char *photos[] = { good, bad };
  GtkWidget *dialog = open_dialog (photos, 2);
  choose_folder (dialog, out);
  export_and_wait (dialog);
  GtkLabel *failures = GTK_LABEL (ui_find_named_within (dialog, "export-many-failures"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (failures)));
  g_assert_nonnull (strstr (gtk_label_get_text (failures), "broken.jpg"));
  g_autofree char *done = g_build_filename (out, "good.jpg", NULL);
  g_assert_true (g_file_test (done, G_FILE_TEST_IS_REGULAR));
  g_autofree char *none = g_build_filename (out, "broken.jpg", NULL);
  g_assert_false (g_file_test (none, G_FILE_TEST_EXISTS));
  ui_click_middle (ui_button_labelled (dialog, _("_Close")));
  ui_flush ();
}

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  tmp_dir = g_dir_make_tmp ("lumen-export-many-XXXXXX", NULL);
  g_test_add_func ("/export-many/three-photos", test_three_photos);
  g_test_add_func ("/export-many/failure-reported", test_failure_reported);
  int rc = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return rc;
}
