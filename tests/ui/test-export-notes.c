/* What an export could not write as the photo has it is said in the window: a photo whose
 * ICC profile (17 MB, a printer's tables) is larger than a JPEG holds, exported as a person
 * exports (Ctrl+E, the name typed, Export clicked, Export again in the quality dialog): the
 * JPEG is written without the profile, and the info bar, a warning, says so after "Exported
 * to …", naming the file, as lumen-cli says it on stderr. */
#include <string.h>
#include <lcms2.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

#define PROFILE_SIZE 17000000

static char *tmp_dir;
static char *photo;

/* sRGB's profile grown to PROFILE_SIZE past its tags, its header's size saying so. */
static GBytes *
large_profile (void)
{
  cmsHPROFILE srgb = cmsCreate_sRGBProfile ();
  cmsUInt32Number n = 0;
  g_assert_true (cmsSaveProfileToMem (srgb, NULL, &n));
  guint8 *data = g_malloc0 (PROFILE_SIZE);
  g_assert_true (cmsSaveProfileToMem (srgb, data, &n));
  cmsCloseProfile (srgb);
  guint32 be = GUINT32_TO_BE (PROFILE_SIZE);
  memcpy (data, &be, 4);
  return g_bytes_new_take (data, PROFILE_SIZE);
}

/* The JPEG quality dialog that follows the chooser: its Export clicked as it stands. */
static gboolean
answer_quality (gpointer answered)
{
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l && !*(gboolean *) answered; l = l->next)
    if (GTK_IS_DIALOG (l->data) && !GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_mapped (l->data)
        && g_strcmp0 (gtk_window_get_title (l->data), _("JPEG Quality")) == 0)
      {
        ui_wait_ms (200); /* mapped is not yet drawn and placed */
        *(gboolean *) answered = TRUE;
        ui_focus_window (l->data);
        ui_click_middle (ui_button_labelled (l->data, _("_Export")));
      }
  return G_SOURCE_CONTINUE;
}

static void
test_profile_left_out (void)
{
  gboolean answered = FALSE;
  guint watch = g_timeout_add (50, answer_quality, &answered);
  ui_answer_chooser (ui_press_export, NULL, ui_export_as, (gpointer) "exported.jpg");
  g_autofree char *path = g_build_filename (tmp_dir, "exported.jpg", NULL);
  ui_await_file (path);
  g_source_remove (watch);
  g_assert_true (answered);
  const char *message = NULL;
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (((message = lm_window_get_info_message (ui_window)) == NULL || strstr (message, "Exported") == NULL)
         && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  g_test_message ("info bar: %s", message);
  g_assert_nonnull (message);
  g_assert_true (g_str_has_prefix (message, "Exported to "));
  g_assert_nonnull (strstr (message, "\n"));
  g_assert_nonnull (strstr (message, "exported.jpg: its ICC profile (17.0\u00a0MB) is larger than a JPEG holds"));
  g_autoptr (GPtrArray) bars = ui_find_all (GTK_WIDGET (ui_window), GTK_TYPE_INFO_BAR);
  g_assert_cmpuint (bars->len, >, 0);
  g_assert_cmpint (gtk_info_bar_get_message_type (bars->pdata[0]), ==, GTK_MESSAGE_WARNING);

  g_autoptr (LmImage) written = lm_io_load (path, lm_allocator_host (), NULL);
  g_assert_nonnull (written);
  g_assert_null (written->icc_profile);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-export-notes-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  photo = g_build_filename (tmp_dir, "chelsea.tif", NULL);
  g_autofree char *source = ui_test_data ("photos/chelsea.png");
  g_autoptr (LmImage) image = lm_io_load (source, lm_allocator_host (), NULL);
  g_assert_nonnull (image);
  g_clear_pointer (&image->icc_profile, g_bytes_unref);
  image->icc_profile = large_profile ();
  g_assert_true (lm_io_save (image, photo, NULL, NULL));
  ui_test_init (&argc, &argv, photo);
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  ui_track_results ();
  lm_window_open (ui_window, file);
  ui_settle_tracked ();
  g_test_add_func ("/export-notes/profile-left-out", test_profile_left_out);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return status;
}
