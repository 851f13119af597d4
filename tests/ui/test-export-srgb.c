/* The window's export of an Adobe RGB photo with edits that need its primaries (luminosity at
 * 0.6, exposure, white balance, read from its sidecar): as a person exports (Ctrl+E, the name
 * typed, "Convert to sRGB" ticked or not, Export clicked), the file holds the same pixels as
 * lumen-cli's with the same sidecar (--to-srgb or not; lumen-cli is itself held against Adobe
 * RGB's published figures and Pillow in tests/cli/test_cli_color.py), with an sRGB profile
 * or the photo's own. Skipped without colord's profiles. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

#define ADOBE_ICC "/usr/share/color/icc/colord/AdobeRGB1998.icc"
#define SIDECAR "[gray]\nenabled=true\nmode=luminosity\namount=0.6\n\n[exposure]\nenabled=true\nev=0.7\n\n" \
                "[wb]\nenabled=true\ntemperature=4200\ntint=5\n"

static char *tmp_dir;
static char *photo;
static char *sidecar;
static GBytes *adobe;

typedef struct {
  const char *name;
  gboolean to_srgb;
} Answer;

static void
answer_chooser (GtkWidget *dialog, gpointer data)
{
  Answer *a = data;
  ui_focus_window (dialog);
  ui_chooser_type_name (a->name); /* the name field has the keyboard */
  GtkWidget *check = ui_find_named_within (dialog, "to-srgb");
  g_assert_nonnull (check);
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (check)) != a->to_srgb)
    ui_click_middle (check);
  g_assert_cmpint (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (check)), ==, a->to_srgb);
  ui_chooser_press_export (dialog);
}

static LmImage *
export_with (Answer *a)
{
  ui_answer_chooser (ui_press_export, NULL, answer_chooser, a);
  g_autofree char *path = g_build_filename (tmp_dir, a->name, NULL);
  ui_await_file (path);
  return ui_load_image (path);
}

/* lumen-cli --params SIDECAR [--to-srgb] on the photo. */
static LmImage *
cli (const char *name, gboolean to_srgb)
{
  g_autofree char *out = g_build_filename (tmp_dir, name, NULL);
  const char *argv[] = { g_getenv ("LUMEN_CLI"), "--params", sidecar, "-o", out, photo,
                         to_srgb ? "--to-srgb" : NULL, NULL };
  int status = -1;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, NULL));
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return ui_load_image (out);
}

static void
assert_same_pixels (const LmImage *a, const LmImage *b)
{
  g_assert_cmpint (a->format, ==, b->format);
  g_assert_cmpuint (a->width, ==, b->width);
  g_assert_cmpuint (a->height, ==, b->height);
  gsize row = a->width * lm_format_bytes_per_pixel (a->format);
  guint differing = 0;
  for (guint y = 0; y < a->height; y++)
    differing += memcmp (lm_image_row (a, y), lm_image_row (b, y), row) != 0;
  g_assert_cmpuint (differing, ==, 0);
}

static void
test_export (gconstpointer data)
{
  if (adobe == NULL)
    {
      g_test_skip ("colord's ICC profiles are not installed (apt-get install colord-data)");
      return;
    }
  gboolean to_srgb = GPOINTER_TO_INT (data);
  Answer a = { .name = to_srgb ? "window-srgb.png" : "window-adobe.png", .to_srgb = to_srgb };
  g_autoptr (LmImage) window = export_with (&a);
  g_autoptr (LmImage) line = cli (to_srgb ? "cli-srgb.png" : "cli-adobe.png", to_srgb);
  assert_same_pixels (window, line);
  g_assert_nonnull (window->icc_profile);
  if (to_srgb)
    g_assert_false (g_bytes_equal (window->icc_profile, adobe));
  else
    g_assert_true (g_bytes_equal (window->icc_profile, adobe));
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-export-srgb-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  photo = g_build_filename (tmp_dir, "chelsea.png", NULL);
  sidecar = g_build_filename (tmp_dir, "chelsea.png.lumen", NULL);
  gchar *icc = NULL;
  gsize icc_len = 0;
  g_autofree char *source = ui_test_data ("photos/chelsea.png");
  g_autoptr (LmImage) image = ui_load_image (source);
  if (g_file_get_contents (ADOBE_ICC, &icc, &icc_len, NULL))
    {
      adobe = g_bytes_new_take (icc, icc_len);
      image->icc_profile = g_bytes_ref (adobe);
    }
  g_assert_true (lm_io_save (image, photo, NULL, NULL));
  g_assert_true (g_file_set_contents (sidecar, SIDECAR, -1, NULL));
  ui_test_init (&argc, &argv, photo);
  /* The edits come from the sidecar: read once keep-edits is on, the photo opened again. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  ui_track_results ();
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!gtk_switch_get_active (GTK_SWITCH (ui_control (LM_OP_GRAY, "enabled"))) && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (ui_control (LM_OP_GRAY, "enabled"))));
  ui_settle_tracked ();
  g_test_add_data_func ("/export-srgb/keeps-profile", GINT_TO_POINTER (FALSE), test_export);
  g_test_add_data_func ("/export-srgb/to-srgb", GINT_TO_POINTER (TRUE), test_export);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return status;
}
