/* The white balance picker on a 16-bit photo, used as a person uses it (the tool bar's picker,
 * a click on a gray card, Escape: through the X server): a photo of a gray card under daylight of 4500 K, made by
 * tests/ui/wb-cast.py (NumPy and OpenCV, from the CIE daylight locus) as a 16-bit PNG and the
 * same rounded to 8 bits. On each, the pick sets white balance to the card's light (4500 K,
 * tint 0: the known answer), the 16-bit one at least as closely as the 8-bit one, and the
 * card is gray on screen afterwards; before the pick it is not. A gray photo picked: white
 * balance stays off and the info bar says the photo has no colour to balance. */
#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "ui/op-panel.h"
#include "ui/stage-params.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

#define KELVIN 4500.0
#define CARD_X 160.0 /* the card's centre in the photo (320 × 240) */
#define CARD_Y 120.0

static char *tmp_dir, *photo16, *photo8;

static LmStage
wb_stage (void)
{
  return *lm_op_panel_get_stage (LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_WB)));
}

static float
wb_param (const char *name)
{
  LmStage stage = wb_stage ();
  float *v = lm_stage_float (&stage, name);
  g_assert_nonnull (v);
  return *v;
}

static GtkWidget *
view_widget (void)
{
  return GTK_WIDGET (ui_image_view ());
}

/* The card's centre on the view, in whole widget pixels. */
static void
card_on_view (double *wx, double *wy)
{
  lm_image_view_to_widget (ui_image_view (), CARD_X, CARD_Y, wx, wy);
  *wx = round (*wx), *wy = round (*wy);
}

/* The painted colour of the card's centre: R, G, B. */
static void
card_on_screen (int rgb[3])
{
  double wx, wy;
  card_on_view (&wx, &wy);
  cairo_surface_t *s = ui_paint_view ();
  guint32 p = ui_painted (s, (int) wx, (int) wy);
  cairo_surface_destroy (s);
  rgb[0] = (p >> 16) & 0xff, rgb[1] = (p >> 8) & 0xff, rgb[2] = p & 0xff;
}

static gboolean
picker_on (void)
{
  g_autoptr (GVariant) state = g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "wb-picker"));
  return g_variant_get_boolean (state);
}

/* Opens PATH and waits for its render; the prompt about the edits of the photo before (the
 * pick) is answered Discard, with the pointer. */
static void
open_photo (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *base = g_path_get_basename (path);
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_strcmp0 (gtk_window_get_title (GTK_WINDOW (ui_window)), base) != 0 && g_get_monotonic_time () < deadline)
    {
      ui_wait_ms (100);
      g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
      for (GList *l = toplevels; l; l = l->next)
        if (GTK_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_mapped (l->data))
          {
            ui_wait_ms (200); /* drawn and placed */
            ui_focus_window (l->data);
            GtkWidget *discard = ui_button_labelled (l->data, _("_Discard"));
            g_assert_nonnull (discard);
            ui_click_middle (discard);
            break;
          }
    }
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (ui_window)), ==, base);
  ui_settle_tracked ();
}

/* The picker on the card of PATH: the temperature and tint it set; the card is gray on
 * screen afterwards. */
static void
pick_card (const char *path, double *temperature, double *tint)
{
  open_photo (path);
  guint w = 0, h = 0;
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  g_assert_cmpuint (w, ==, 320);
  g_assert_cmpuint (h, ==, 240);
  g_assert_false (wb_stage ().enabled);
  int before[3];
  card_on_screen (before);
  g_test_message ("%s: the card on screen %d %d %d before the pick", path, before[0], before[1], before[2]);
  g_assert_cmpint (before[0] - before[2], >, 20); /* the light's cast: warm, red over blue */

  ui_click_middle (ui_find_named (GTK_WIDGET (ui_window), "wb-picker")); /* the tool bar's picker */
  ui_wait_ms (150);
  g_assert_true (picker_on ());
  double wx, wy;
  card_on_view (&wx, &wy);
  guint64 generation = lm_window_get_generation (ui_window);
  ui_click (view_widget (), wx, wy);
  if (lm_window_get_generation (ui_window) != generation)
    ui_settle_tracked ();
  ui_key_on_view (GDK_KEY_Escape);
  g_assert_false (picker_on ());
  g_assert_true (wb_stage ().enabled); /* the pick took */
  *temperature = wb_param ("temperature"), *tint = wb_param ("tint");
  int after[3];
  card_on_screen (after);
  g_test_message ("%s: picked %.1f K, tint %.2f; the card on screen %d %d %d", path, *temperature, *tint, after[0],
                  after[1], after[2]);
  g_assert_cmpint (abs (after[0] - after[1]), <=, 2);
  g_assert_cmpint (abs (after[2] - after[1]), <=, 2);
}

static void
test_picker_depths (void)
{
  double t8, tint8, t16, tint16;
  pick_card (photo8, &t8, &tint8);
  pick_card (photo16, &t16, &tint16);
  /* The 8-bit card is the 16-bit one rounded to 1/255 (R and B up, G down by a third of a
   * level here): a few kelvin, and a tint of 1.85 (green's 1.3 % in linear light). The 16-bit
   * card holds the answer to a hundredth. */
  g_assert_cmpfloat (fabs (t8 - KELVIN), <=, 25.0);
  g_assert_cmpfloat (fabs (tint8), <=, 2.5);
  g_assert_cmpfloat (fabs (t16 - KELVIN), <=, 1.0);
  g_assert_cmpfloat (fabs (tint16), <=, 0.05);
  g_assert_cmpfloat (fabs (t16 - t8), <=, 25.0);
  g_assert_cmpfloat (fabs (tint16 - tint8), <=, 2.5);
}

/* A gray photo (8-bit, one channel) clicked with the picker: white balance stays off, as it
 * would change nothing, and the info bar says why. It used to be switched on. */
static void
test_picker_gray (void)
{
  g_autofree char *gray = g_build_filename (tmp_dir, "gray.png", NULL);
  g_free (ui_copy_test_data ("photos/camera-gray.png", gray));
  open_photo (gray);
  g_assert_false (wb_stage ().enabled);
  ui_click_middle (ui_find_named (GTK_WIDGET (ui_window), "wb-picker"));
  ui_wait_ms (150);
  g_assert_true (picker_on ());
  ui_click_middle (view_widget ());
  ui_wait_ms (200);
  ui_key_on_view (GDK_KEY_Escape);
  g_assert_false (picker_on ());
  g_assert_false (wb_stage ().enabled);
  g_assert_cmpstr (lm_window_get_info_message (ui_window), ==,
                   _("This photo is gray: it has no colour for white balance to balance"));
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-wb-picker-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  photo16 = g_build_filename (tmp_dir, "card-16.png", NULL);
  photo8 = g_build_filename (tmp_dir, "card-8.png", NULL);
  g_autofree char *script = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "ui", "wb-cast.py", NULL);
  g_autofree char *kelvin = g_strdup_printf ("%d", (int) KELVIN);
  const char *args[] = { "/usr/bin/python3", script, photo16, photo8, kelvin, NULL };
  int status = 0;
  GError *e = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, &e));
  g_assert_no_error (e);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  ui_track_results ();
  g_test_add_func ("/wb-picker/8-and-16-bit", test_picker_depths);
  g_test_add_func ("/wb-picker/gray", test_picker_gray);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  lm_test_remove_tree (tmp_dir);
  return rc;
}
