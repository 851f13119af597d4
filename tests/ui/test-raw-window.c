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

static LmImage *
load (const char *path)
{
  GError *e = NULL;
  LmImage *image = lm_io_load (path, lm_allocator_host (), &e);
  g_assert_no_error (e);
  return image;
}

/* lumen-cli ARGS… -o OUT PHOTO. */
static void
cli (const char *out, const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) g_getenv ("LUMEN_CLI"));
  for (int i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, (gpointer) out);
  g_ptr_array_add (argv, photo);
  g_ptr_array_add (argv, NULL);
  int status = -1;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, NULL));
  g_ptr_array_free (argv, TRUE);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
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
  g_autoptr (LmImage) a = load (tif), b = load (cli_tif);
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

/* The view's mean R, G, B over the square of half side HALF about its middle. */
static void
middle_mean (int half, double rgb[3])
{
  LmViewRect rect;
  LmImage *shown = lm_image_view_get_pixels (ui_image_view (), &rect);
  g_assert_nonnull (shown);
  int cx = (int) shown->width / 2, cy = (int) shown->height / 2, n = 0;
  rgb[0] = rgb[1] = rgb[2] = 0;
  for (int y = cy - half; y <= cy + half; y++)
    for (int x = cx - half; x <= cx + half; x++, n++)
      {
        guint32 px = ((const guint32 *) lm_image_row (shown, (guint) y))[x];
        for (int c = 0; c < 3; c++)
          rgb[c] += (px >> (16 - 8 * c)) & 0xff;
      }
  for (int c = 0; c < 3; c++)
    rgb[c] /= n;
}

/* The white balance picker (W, then a click) on the photo's middle: the raw stage's gains made
 * for it (wb=custom), and the middle of the view gray where it was green. */
static void
test_picker_neutralises (void)
{
  double before[3], after[3];
  middle_mean (3, before);
  ui_key_on_view (GDK_KEY_w);
  GVariant *state = g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "wb-picker"));
  g_test_message ("picker on: %d", g_variant_get_boolean (state));
  g_variant_unref (state);
  GtkWidget *view = GTK_WIDGET (ui_image_view ());
  ui_track_results ();
  ui_click (view, gtk_widget_get_allocated_width (view) / 2.0, gtk_widget_get_allocated_height (view) / 2.0);
  ui_settle_tracked ();
  ui_key_on_view (GDK_KEY_Escape);
  const LmStage *stage = lm_op_panel_get_stage (LM_OP_PANEL (raw_panel ()));
  const LmRawParams *raw = (const LmRawParams *) stage->params.bytes;
  g_assert_cmpint (raw->wb, ==, LM_RAW_WB_CUSTOM);
  middle_mean (3, after);
  g_test_message ("gains %.3f, 1, %.3f; middle %.1f %.1f %.1f → %.1f %.1f %.1f", raw->red, raw->blue, before[0],
                  before[1], before[2], after[0], after[1], after[2]);
  double spread_before = MAX (fabs (before[0] - before[1]), fabs (before[2] - before[1]));
  double spread_after = MAX (fabs (after[0] - after[1]), fabs (after[2] - after[1]));
  g_assert_cmpfloat (spread_after, <, spread_before / 3);
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
