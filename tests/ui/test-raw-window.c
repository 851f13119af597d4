/* A camera raw in the window, as a photographer meets it: the DNG opens developed (the raw and
 * tone mapping panels shown, the view in colour, not the sensor's mosaic), its exposure typed
 * into the raw panel brightens the view by a stop of scene light, and Ctrl+E writes the same
 * 16-bit pixels as lumen-cli with the same development, and the same scene-referred .exr. The
 * DNG (tests/data/raw/forest.dng) is a real photo seen through a real camera's matrix. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "ui-testlib.h"
#include "ui/op-panel.h"
#include "ui/value-field.h"
#include "core/raw/camera-color.h"
#include "../unit/test-util.h"

static char *tmp_dir;
static char *photo;

static GtkWidget *
raw_panel (void)
{
  GtkWidget *panel = ui_find_named (GTK_WIDGET (ui_window), "raw");
  g_assert_nonnull (panel);
  return panel;
}

/* The shown view's mean R, G, B (its RGB24 words) and how much neighbouring pixels of one
 * channel differ on average: a mosaic shown as it is alternates site by site. */
static void
view_stats (double mean[3], double *alternation)
{
  LmViewRect rect;
  LmImage *shown = lm_image_view_get_pixels (ui_image_view (), &rect);
  g_assert_nonnull (shown);
  double sum[3] = { 0 }, alt = 0;
  guint n = 0;
  for (guint y = 0; y < shown->height; y++)
    {
      const guint32 *row = (const guint32 *) lm_image_row (shown, y);
      for (guint x = 0; x + 1 < shown->width; x++)
        {
          for (int c = 0; c < 3; c++)
            sum[c] += (row[x] >> (16 - 8 * c)) & 0xff;
          alt += fabs ((double) ((row[x] >> 8) & 0xff) - ((row[x + 1] >> 8) & 0xff));
          n++;
        }
    }
  for (int c = 0; c < 3; c++)
    mean[c] = sum[c] / n;
  *alternation = alt / n;
}

/* lumen-cli ARGS… -o OUT PHOTO. */
static void
cli (const char *out, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  for (int i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, (gpointer) out);
  g_ptr_array_add (argv, photo);
  g_ptr_array_add (argv, NULL);
  ui_run_cli ((const char *const *) argv->pdata);
}

static char *
export_as (const char *name)
{
  ui_answer_chooser (ui_press_export, NULL, ui_export_as, (gpointer) name);
  char *path = g_build_filename (tmp_dir, name, NULL);
  ui_await_file (path);
  return path;
}

static void
test_opens_developed (void)
{
  /* ui_test_init awaited the first render. */
  g_assert_true (gtk_widget_is_visible (raw_panel ()));
  g_assert_true (gtk_widget_is_visible (ui_find_named (GTK_WIDGET (ui_window), "tonemap")));
  double mean[3], alternation;
  view_stats (mean, &alternation);
  g_test_message ("view mean %.1f %.1f %.1f, neighbours differ by %.2f", mean[0], mean[1], mean[2], alternation);
  /* A forest in colour: green above red and blue, and smooth from one pixel to the next. */
  g_assert_cmpfloat (mean[1], >, mean[0] + 2);
  g_assert_cmpfloat (mean[1], >, mean[2] + 2);
  g_assert_cmpfloat (alternation, <, 12);
}

/* "1" typed into the raw panel's exposure field: a stop more scene light, a brighter view. */
static void
test_exposure_typed (void)
{
  double before[3], after[3], alt;
  view_stats (before, &alt);
  ui_flush ();
  ui_focus_window (GTK_WIDGET (ui_window));
  /* The number beside exposure's slider: a click turns it into an entry, all selected. */
  GtkWidget *field = ui_find_named (raw_panel (), "exposure-value");
  g_assert_nonnull (field);
  GtkWidget *number = lm_value_field_get_button (LM_VALUE_FIELD (field));
  ui_scroll_into_view (number);
  ui_click_middle (number);
  g_assert_true (gtk_widget_has_focus (lm_value_field_get_entry (LM_VALUE_FIELD (field))));
  ui_track_results ();
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type ("1");
  ui_key (GDK_KEY_Return, 0);
  ui_settle_tracked ();
  const LmStage *stage = lm_op_panel_get_stage (LM_OP_PANEL (raw_panel ()));
  g_assert_cmpfloat (((const LmRawParams *) stage->params.bytes)->exposure, ==, 1.0f);
  view_stats (after, &alt);
  g_test_message ("view mean %.1f → %.1f", before[1], after[1]);
  g_assert_cmpfloat (after[1], >, before[1] + 10);
}

/* Ctrl+E: a 16-bit TIFF with lumen-cli's pixels for the same development, and the scene's
 * .exr, byte for byte lumen-cli's. */
static void
test_export_matches_cli (void)
{
  g_autofree char *tif = export_as ("forest-edited.tif");
  g_autofree char *cli_tif = g_build_filename (tmp_dir, "cli.tif", NULL);
  const char *const args[] = { "--backend", "cpu", "--raw-exposure", "1", NULL };
  cli (cli_tif, args);
  g_autoptr (LmImage) a = ui_load_image (tif), b = ui_load_image (cli_tif);
  g_assert_cmpint (a->format, ==, LM_FORMAT_RGBA16);
  lm_test_assert_same_pixels (a, b);

  g_autofree char *exr = export_as ("forest-scene.exr");
  g_autofree char *cli_exr = g_build_filename (tmp_dir, "cli.exr", NULL);
  cli (cli_exr, args);
  g_autofree char *x = NULL, *y = NULL;
  gsize nx = 0, ny = 0;
  g_assert_true (g_file_get_contents (exr, &x, &nx, NULL) && g_file_get_contents (cli_exr, &y, &ny, NULL));
  g_assert_cmpmem (x, nx, y, ny);
}

/* The white balance picker on a raw whose left half is a warm flat colour and the right a
 * cool one (tests/data/raw/tinted.dng): W, a click in the warm half, and the raw stage's gains
 * are set (wb=custom) so that the warm half's developed scene is neutral while the cool half
 * stays coloured. */
static void
test_picker_neutralises (void)
{
  g_autofree char *tinted = g_build_filename (tmp_dir, "tinted.dng", NULL);
  g_free (ui_copy_test_data ("raw/tinted.dng", tinted));
  g_free (photo);
  photo = g_strdup (tinted);
  g_autoptr (GFile) file = g_file_new_for_path (tinted);
  ui_track_results ();
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  guint w = 0, h = 0;
  while ((w != 200 || h != 150) && g_get_monotonic_time () < deadline)
    {
      ui_wait_ms (50);
      lm_image_view_get_image_size (ui_image_view (), &w, &h);
    }
  ui_settle_tracked ();
  g_assert_cmpuint (w, ==, 200);

  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key_on_view (GDK_KEY_w);
  double wx, wy;
  lm_image_view_to_widget (ui_image_view (), 50, 75, &wx, &wy);
  ui_click (GTK_WIDGET (ui_image_view ()), round (wx), round (wy));
  ui_settle_tracked ();
  ui_key_on_view (GDK_KEY_Escape);
  const LmStage *stage = lm_op_panel_get_stage (LM_OP_PANEL (raw_panel ()));
  const LmRawParams *raw = (const LmRawParams *) stage->params.bytes;
  g_assert_cmpint (raw->wb, ==, LM_RAW_WB_CUSTOM);
  g_test_message ("gains %.4f, 1, %.4f", raw->red, raw->blue);

  /* What the window now develops, exported as the scene: warm half gray, cool half blue. */
  g_autofree char *exr = export_as ("tinted-scene.exr");
  g_autoptr (LmImage) scene = ui_load_image (exr);
  const float *warm = (const float *) lm_image_row (scene, 75) + 4 * 50;
  const float *cool = (const float *) lm_image_row (scene, 75) + 4 * 150;
  g_test_message ("warm half %.4f %.4f %.4f, cool half %.4f %.4f %.4f", warm[0], warm[1], warm[2], cool[0], cool[1],
                  cool[2]);
  for (int c = 0; c < 3; c += 2)
    g_assert_cmpfloat (fabs (warm[c] / warm[1] - 1), <, 0.01);
  g_assert_cmpfloat (cool[2] / cool[1], >, 1.2);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-raw-window-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  /* The photo in a folder of the test's own: the chooser opens where the photo is. */
  photo = g_build_filename (tmp_dir, "forest.dng", NULL);
  g_free (ui_copy_test_data ("raw/forest.dng", photo));
  ui_test_init (&argc, &argv, photo);
  g_test_add_func ("/raw-window/opens-developed", test_opens_developed);
  g_test_add_func ("/raw-window/exposure-typed", test_exposure_typed);
  g_test_add_func ("/raw-window/export-matches-cli", test_export_matches_cli);
  g_test_add_func ("/raw-window/picker-neutralises", test_picker_neutralises);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  g_free (photo);
  return status;
}
