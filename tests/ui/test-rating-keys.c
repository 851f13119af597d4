/* The rating keys in the editor (ui/rating-keys.c, ui/window-tags.c), pressed through the X
 * server as a person presses them: 4, R, F1 on an open photo write its photo.ext.xmp (read
 * back here with the XMP reader: xmp:Rating, xmp:Label, darktable:colorlabels) and change
 * the status bar; a digit typed into a text field is text, not a rating. */
#include <string.h>
#include <glib/gstdio.h>

#include "ui-testlib.h"
#include "core/io/xmp.h"
#include "core/library/photo-tags.h"
#include "../unit/test-util.h"

static char *photo, *sidecar;

static const char *
status_text (void)
{
  ui_wait_ms (50);
  GtkWidget *label = ui_find_named (GTK_WIDGET (ui_window), "status-tags");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_get_mapped (label));
  return gtk_label_get_text (GTK_LABEL (label));
}

static char *
sidecar_property (const char *ns, const char *name)
{
  char *text;
  gsize len;
  g_assert_true (g_file_get_contents (sidecar, &text, &len, NULL));
  g_autoptr (GBytes) packet = g_bytes_new_take (text, len);
  g_assert_true (lm_xmp_is_well_formed (packet));
  return lm_xmp_get_property (packet, ns, name);
}

static void
assert_tags (int rating, guint labels)
{
  LmPhotoTags tags;
  g_autoptr (GError) error = NULL;
  g_assert_true (lm_photo_tags_read (photo, &tags, &error));
  g_assert_cmpint (tags.rating, ==, rating);
  g_assert_cmpuint (tags.labels, ==, labels);
}

static void
test_keys (void)
{
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (status_text (), ==, "☆☆☆☆☆");
  ui_focus_window (GTK_WIDGET (ui_window));

  ui_key (GDK_KEY_4, 0);
  assert_tags (4, 0);
  g_autofree char *four = sidecar_property (LM_XMP_NS, "Rating");
  g_assert_cmpstr (four, ==, "4");
  g_assert_cmpstr (status_text (), ==, "★★★★☆");

  ui_key (GDK_KEY_r, 0);
  assert_tags (LM_RATING_REJECTED, 0);
  g_autofree char *rejected = sidecar_property (LM_XMP_NS, "Rating");
  g_assert_cmpstr (rejected, ==, "-1");
  g_assert_cmpstr (status_text (), ==, "✕ rejected");

  ui_key (GDK_KEY_F1, 0);
  assert_tags (LM_RATING_REJECTED, LM_LABEL_RED);
  g_autofree char *red = sidecar_property (LM_XMP_NS, "Label");
  g_assert_cmpstr (red, ==, "Red");
  g_assert_cmpstr (status_text (), ==, "✕ rejected ●");

  /* R again takes the reject back; F4 adds blue: two labels, no xmp:Label (darktable would
   * read it instead of the set). */
  ui_key (GDK_KEY_r, 0);
  ui_key (GDK_KEY_F4, 0);
  assert_tags (0, LM_LABEL_RED | LM_LABEL_BLUE);
  g_autofree char *none = sidecar_property (LM_XMP_NS, "Label");
  g_assert_null (none);
  g_assert_cmpstr (status_text (), ==, "☆☆☆☆☆ ● ●");
}

/* A digit typed where text goes is text: the rating stays. */
static void
test_entry_keeps_digits (void)
{
  g_autoptr (GPtrArray) entries = ui_find_all (GTK_WIDGET (ui_window), GTK_TYPE_ENTRY);
  GtkWidget *entry = NULL;
  for (guint i = 0; i < entries->len && entry == NULL; i++)
    if (gtk_widget_get_mapped (entries->pdata[i]) && gtk_widget_is_sensitive (entries->pdata[i]))
      entry = entries->pdata[i];
  g_assert_nonnull (entry);
  ui_focus_window (GTK_WIDGET (ui_window));
  gtk_widget_grab_focus (entry);
  ui_key (GDK_KEY_2, 0);
  ui_key (GDK_KEY_F2, 0);
  assert_tags (0, LM_LABEL_RED | LM_LABEL_BLUE);
  ui_key (GDK_KEY_Escape, 0);
  gtk_window_set_focus (GTK_WINDOW (ui_window), NULL);
  ui_flush ();
}

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  g_autofree char *dir = g_dir_make_tmp ("lumen-rating-keys-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_autofree char *dest = g_build_filename (dir, "cat é.png", NULL);
  photo = ui_copy_test_data ("photos/chelsea.png", dest);
  sidecar = lm_photo_tags_sidecar_path (photo);
  ui_track_results ();
  ui_open_photo (photo);
  g_test_add_func ("/rating-keys/keys", test_keys);
  g_test_add_func ("/rating-keys/entry-keeps-digits", test_entry_keeps_digits);
  int rc = g_test_run ();
  lm_test_remove_tree (dir);
  g_free (sidecar);
  g_free (photo);
  return rc;
}
