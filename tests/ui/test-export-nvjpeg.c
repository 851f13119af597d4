/* The export dialog's "Encode JPEG on the GPU (nvJPEG)": there under the file chooser; without a
 * usable GPU it is greyed out and off, its tooltip saying why (here "No usable GPU: …"); with
 * one, the GPU machine's run says what it shows. Cancelled: nothing is written. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/backend/backend.h"
#include "ui-testlib.h"

typedef struct {
  gboolean seen, visible, sensitive, active;
  char *tooltip;
} Seen;

/* What the chooser showed of the check box; then cancelled. */
static void
look_and_cancel (GtkWidget *dialog, gpointer data)
{
  Seen *s = data;
  GtkWidget *box = ui_find_named_within (dialog, "nvjpeg");
  s->seen = TRUE;
  if (box)
    {
      s->visible = gtk_widget_get_visible (box);
      s->sensitive = gtk_widget_get_sensitive (box);
      s->active = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (box));
      s->tooltip = gtk_widget_get_tooltip_text (box);
    }
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
}

static void
test_check_box (void)
{
  Seen s = { 0 };
  ui_answer_chooser (ui_press_export, NULL, look_and_cancel, &s);
  ui_wait_ms (200);
  g_assert_true (s.seen);
  g_assert_true (s.visible);
  g_assert_nonnull (s.tooltip);
  g_test_message ("nvJPEG check box: %s, %s: %s", s.sensitive ? "sensitive" : "greyed out", s.active ? "on" : "off",
                  s.tooltip);
  if (lm_backend_cuda_device_count () == 0)
    {
      g_assert_false (s.sensitive);
      g_assert_false (s.active);
      g_assert_true (g_str_has_prefix (s.tooltip, "No usable GPU"));
    }
  g_free (s.tooltip);
}

int
main (int argc, char **argv)
{
  g_autofree char *photo = ui_test_data ("photos/chelsea.png");
  ui_test_init (&argc, &argv, photo);
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  ui_track_results ();
  lm_window_open (ui_window, file);
  ui_settle_tracked ();
  g_test_add_func ("/export-nvjpeg/check-box", test_check_box);
  return g_test_run ();
}
