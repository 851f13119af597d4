/* The tools on the view, used as a person uses them (real pointer and keys through the X
 * server), checked on what the window then renders: a crop drawn by dragging a corner handle
 * and applied with Enter is the rectangle of the photo that the handle marked, pixel for
 * pixel; a ratio chosen holds through a drag; rotate right swaps the view's sides and moves
 * every pixel where a quarter turn clockwise puts it; a line drawn along a tilted horizon
 * sets straighten's angle to the line's; the white balance picker on a tinted patch (of a
 * rotated photo: the click is followed back through the rotation) makes that patch gray. */
#include <math.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "ui/op-panel.h"
#include "ui/stage-params.h"
#include "ui-testlib.h"

static GtkWidget *
view_widget (void)
{
  return GTK_WIDGET (ui_image_view ());
}

static LmStage
stage_of (const char *op)
{
  const LmOpInfo *info = lm_op_info_by_name (op);
  g_assert_nonnull (info);
  return *lm_op_panel_get_stage (LM_OP_PANEL (lm_window_get_op_panel (ui_window, info->id)));
}

static float
param (const char *op, const char *name)
{
  LmStage stage = stage_of (op);
  float *v = lm_stage_float (&stage, name);
  g_assert_nonnull (v);
  return *v;
}

static void
image_size (guint *w, guint *h)
{
  lm_image_view_get_image_size (ui_image_view (), w, h);
}

/* Where image point (X, Y) is on the view, in whole widget pixels (what XTest can point at). */
static void
widget_point (double x, double y, double *wx, double *wy)
{
  lm_image_view_to_widget (ui_image_view (), x, y, wx, wy);
  *wx = round (*wx), *wy = round (*wy);
}

static void
click_and_settle (GtkWidget *widget, double x, double y)
{
  guint64 generation = lm_window_get_generation (ui_window);
  ui_click (widget, x, y);
  if (lm_window_get_generation (ui_window) != generation)
    ui_settle_tracked ();
}

static void
reset_all (void)
{
  ui_activate ("revert");
  ui_settle_tracked ();
}

/* The edited photo at full resolution, as Export writes it (PNG: exact). */
static LmImage *
export_png (void)
{
  g_autofree char *dir = g_dir_make_tmp ("lumen-ui-tools-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "export.png", NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  lm_window_export_to (ui_window, path, &options);
  ui_await_result (LM_RESULT_EXPORTED);
  ui_wait_ms (600); /* the info bar saying so slides in: the controls under it move */
  GError *e = NULL;
  LmImage *back = lm_io_load (path, lm_allocator_host (), &e);
  g_assert_no_error (e);
  g_unlink (path);
  g_rmdir (dir);
  return back;
}

static LmImage *
load (const char *path)
{
  LmImage *image = ui_load_image (path);
  g_assert_cmpint (image->format, ==, LM_FORMAT_RGBA8);
  return image;
}

static const guint8 *
pixel (const LmImage *image, guint x, guint y)
{
  return image->data + (gsize) y * image->stride + 4u * x;
}

static LmImage *
chelsea (void)
{
  g_autofree char *path = ui_test_data ("photos/chelsea.png");
  return load (path);
}

/* ---- crop ------------------------------------------------------------------------------- */

static void open_chelsea (void);

static void
test_crop_corner (void)
{
  open_chelsea ();
  guint w0, h0;
  image_size (&w0, &h0);
  ui_key_on_view (GDK_KEY_c);
  g_assert_true (g_variant_get_boolean (g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "crop-tool"))));
  /* The bottom-right handle, dragged up and left to about (300, 200). */
  double ax, ay, bx, by;
  widget_point (w0, h0, &ax, &ay);
  widget_point (300, 200, &bx, &by);
  ui_drag (view_widget (), ax - 1, ay - 1, bx, by, 6);
  ui_flush ();
  ui_key_on_view (GDK_KEY_Return);

  LmStage crop = stage_of ("crop");
  g_assert_true (crop.enabled);
  float x = param ("crop", "x"), y = param ("crop", "y"), cw = param ("crop", "width"), ch = param ("crop", "height");
  g_test_message ("crop %g,%g %gx%g", x, y, cw, ch);
  g_assert_cmpfloat (x, ==, 0);
  g_assert_cmpfloat (y, ==, 0);
  /* Within a pixel of the pointer's place at this zoom. */
  double tolerance = 1.0 / lm_image_view_get_zoom (ui_image_view ()) + 1.0;
  g_assert_cmpfloat_with_epsilon (cw, 300, tolerance);
  g_assert_cmpfloat_with_epsilon (ch, 200, tolerance);
  guint w, h;
  image_size (&w, &h);
  g_assert_cmpuint (w, ==, (guint) cw);
  g_assert_cmpuint (h, ==, (guint) ch);

  g_autoptr (LmImage) out = export_png ();
  g_autoptr (LmImage) src = chelsea ();
  g_assert_cmpuint (out->width, ==, w);
  g_assert_cmpuint (out->height, ==, h);
  for (guint j = 0; j < h; j++)
    for (guint i = 0; i < w; i++)
      g_assert_cmpmem (pixel (out, i, j), 3, pixel (src, i, j), 3);

  /* Escape leaves the tool with the crop as it was. */
  ui_key_on_view (GDK_KEY_c);
  image_size (&w, &h);
  g_assert_cmpuint (w, ==, w0); /* the whole image while cropping */
  widget_point (cw, ch, &ax, &ay);
  widget_point (100, 100, &bx, &by);
  ui_drag (view_widget (), ax - 1, ay - 1, bx, by, 4);
  ui_key_on_view (GDK_KEY_Escape);
  g_assert_cmpfloat (param ("crop", "width"), ==, cw);
  image_size (&w, &h);
  g_assert_cmpuint (w, ==, (guint) cw);
}

static void
test_crop_ratio (void)
{
  reset_all ();
  guint w0, h0;
  image_size (&w0, &h0);
  ui_key_on_view (GDK_KEY_c);
  GtkWidget *ratio = ui_find_named (GTK_WIDGET (ui_window), "crop-ratio");
  g_assert_nonnull (ratio);
  g_assert_true (gtk_widget_is_visible (ratio));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (ratio), "1:1");
  ui_flush ();
  /* The rectangle is now the largest square about the image's centre; its top-left handle
   * dragged right and down by a shape that is no square: the square holds. */
  double ax, ay, bx, by, left = (w0 - h0) / 2.0;
  widget_point (left, 0, &ax, &ay);
  widget_point (left + 120, 40, &bx, &by);
  ui_drag (view_widget (), ax + 1, ay + 1, bx, by, 6);
  ui_key_on_view (GDK_KEY_Return);
  float cw = param ("crop", "width"), ch = param ("crop", "height");
  g_test_message ("1:1 crop %g,%g %gx%g", param ("crop", "x"), param ("crop", "y"), cw, ch);
  g_assert_cmpfloat (fabs (cw - ch), <=, 1.0);
  g_assert_cmpfloat (cw, <, h0);
  guint w, h;
  image_size (&w, &h);
  g_assert_cmpuint (w, ==, h);
  LmStage crop = stage_of ("crop");
  g_assert_cmpstr (lm_stage_enum_nick (&crop, "ratio"), ==, "1:1");
}

/* ---- rotate -------------------------------------------------------------------------------- */

static void
test_rotate (void)
{
  reset_all ();
  guint w0, h0;
  image_size (&w0, &h0);
  GtkWidget *button = ui_find_named (GTK_WIDGET (ui_window), "rotate-right");
  g_assert_nonnull (button);
  click_and_settle (button, gtk_widget_get_allocated_width (button) / 2.0,
                    gtk_widget_get_allocated_height (button) / 2.0);
  guint w, h;
  image_size (&w, &h);
  g_assert_cmpuint (w, ==, h0);
  g_assert_cmpuint (h, ==, w0);
  LmStage rotate = stage_of ("rotate");
  g_assert_true (rotate.enabled);
  g_assert_cmpstr (lm_stage_enum_nick (&rotate, "angle"), ==, "90");

  /* The source's top-left pixel is now the top-right one; every pixel moved so. */
  g_autoptr (LmImage) out = export_png ();
  g_autoptr (LmImage) src = chelsea ();
  g_assert_cmpuint (out->width, ==, src->height);
  g_assert_cmpuint (out->height, ==, src->width);
  g_assert_cmpmem (pixel (out, out->width - 1, 0), 3, pixel (src, 0, 0), 3);
  for (guint j = 0; j < out->height; j++)
    for (guint i = 0; i < out->width; i++)
      g_assert_cmpmem (pixel (out, i, j), 3, pixel (src, j, src->height - 1 - i), 3);

  /* Twice is half a turn; left once more is a quarter turn again, through the keys. */
  click_and_settle (button, gtk_widget_get_allocated_width (button) / 2.0,
                    gtk_widget_get_allocated_height (button) / 2.0);
  rotate = stage_of ("rotate");
  g_assert_cmpstr (lm_stage_enum_nick (&rotate, "angle"), ==, "180");
  image_size (&w, &h);
  g_assert_cmpuint (w, ==, w0);
  guint64 generation = lm_window_get_generation (ui_window);
  ui_key (GDK_KEY_bracketleft, GDK_CONTROL_MASK);
  g_assert_cmpuint (lm_window_get_generation (ui_window), >, generation);
  ui_settle_tracked ();
  rotate = stage_of ("rotate");
  g_assert_cmpstr (lm_stage_enum_nick (&rotate, "angle"), ==, "90");
  /* A flip after a turn: mirrored in the turned frame; a turn right then is a turn left
   * under the same mirror. */
  ui_key (GDK_KEY_h, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  ui_key (GDK_KEY_bracketright, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  rotate = stage_of ("rotate");
  g_assert_cmpstr (lm_stage_enum_nick (&rotate, "angle"), ==, "0");
  g_assert_cmpstr (lm_stage_enum_nick (&rotate, "flip"), ==, "horizontal");
  image_size (&w, &h);
  g_assert_cmpuint (w, ==, w0);
}

/* The split view's "before" keeps the turn (and crop): with nothing else edited, its half is
 * the very pixels of the edited one, of the same region. */
static void
test_split_keeps_geometry (void)
{
  reset_all ();
  ui_key (GDK_KEY_bracketright, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  GAction *split = g_action_map_lookup_action (G_ACTION_MAP (ui_window), "split");
  g_action_change_state (split, g_variant_new_boolean (TRUE));
  ui_settle_tracked ();
  LmViewRect after_rect, before_rect;
  LmImage *after = lm_image_view_get_pixels (ui_image_view (), &after_rect);
  LmImage *before = lm_image_view_get_before_pixels (ui_image_view (), &before_rect);
  g_assert_nonnull (after);
  g_assert_nonnull (before);
  g_assert_cmpmem (&before_rect, sizeof before_rect, &after_rect, sizeof after_rect);
  g_assert_cmpint (ui_view_distance (before, after), ==, 0);
  /* Turned back: the "before" is made again, of the image as it is now. */
  ui_key (GDK_KEY_bracketleft, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  after = lm_image_view_get_pixels (ui_image_view (), &after_rect);
  before = lm_image_view_get_before_pixels (ui_image_view (), &before_rect);
  g_assert_nonnull (before);
  g_assert_cmpint (ui_view_distance (before, after), ==, 0);
  g_action_change_state (split, g_variant_new_boolean (FALSE));
  ui_flush ();
}

/* ---- straighten ---------------------------------------------------------------------------- */

static void
test_straighten (void)
{
  reset_all ();
  ui_key_on_view (GDK_KEY_s);
  double ax, ay, bx, by;
  widget_point (80, 160, &ax, &ay);
  widget_point (380, 130, &bx, &by);
  ui_drag (view_widget (), ax, ay, bx, by, 8);
  ui_settle_tracked ();
  /* The line as the pointer drew it: a turn of minus its angle makes it level. */
  double expected = -atan2 (-(by - ay), bx - ax) * 180.0 / G_PI;
  float angle = param ("straighten", "angle");
  g_test_message ("straighten %g (line %g)", angle, expected);
  g_assert_true (stage_of ("straighten").enabled);
  g_assert_cmpfloat_with_epsilon (angle, expected, 0.01);
  g_assert_cmpfloat (angle, <, -4.0);
  /* A second line along the new horizon adds to it; a near-vertical one measures from the
   * vertical. */
  widget_point (200, 40, &ax, &ay);
  widget_point (210, 240, &bx, &by);
  ui_drag (view_widget (), ax, ay, bx, by, 8);
  ui_settle_tracked ();
  double turn = -atan2 (-(by - ay), bx - ax) * 180.0 / G_PI;
  turn -= 90.0 * round (turn / 90.0);
  g_assert_cmpfloat_with_epsilon (param ("straighten", "angle"), angle + turn, 0.01);
  ui_key_on_view (GDK_KEY_Escape);
  g_assert_false (g_variant_get_boolean (
    g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "straighten-tool"))));
}

/* ---- the white balance picker -------------------------------------------------------------- */

/* A photo whose top-left quadrant is warm and the rest cool, as a PNG in DIR. */
static char *
write_tinted (const char *dir)
{
  GError *e = NULL;
  g_autoptr (LmImage) image = lm_image_new (LM_FORMAT_RGBA8, 400, 300, lm_allocator_host (), &e);
  g_assert_no_error (e);
  for (guint j = 0; j < 300; j++)
    for (guint i = 0; i < 400; i++)
      {
        guint8 *p = image->data + (gsize) j * image->stride + 4u * i;
        gboolean warm = i < 200 && j < 150;
        p[0] = warm ? 200 : 110, p[1] = warm ? 160 : 140, p[2] = warm ? 110 : 190, p[3] = 255;
      }
  char *path = g_build_filename (dir, "tinted.png", NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  g_assert_true (lm_io_save (image, path, &options, &e));
  g_assert_no_error (e);
  return path;
}

static void
test_picker (void)
{
  if (!g_action_get_enabled (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "wb-picker")))
    {
      g_test_skip ("white balance is not built in");
      return;
    }
  GtkWidget *button = ui_find_named (GTK_WIDGET (ui_window), "rotate-right");
  click_and_settle (button, gtk_widget_get_allocated_width (button) / 2.0,
                    gtk_widget_get_allocated_height (button) / 2.0);
  guint w, h;
  image_size (&w, &h);
  g_assert_cmpuint (w, ==, 300);
  /* The warm quadrant is now the top right: picked at its middle. */
  ui_key_on_view (GDK_KEY_w);
  double px, py;
  widget_point (225, 100, &px, &py);
  click_and_settle (view_widget (), px, py);
  g_assert_true (stage_of ("wb").enabled);
  g_test_message ("wb %g K, tint %g", param ("wb", "temperature"), param ("wb", "tint"));
  ui_key_on_view (GDK_KEY_Escape);

  g_autoptr (LmImage) out = export_png ();
  const guint8 *p = pixel (out, 225, 100);
  g_test_message ("picked patch renders %u %u %u", p[0], p[1], p[2]);
  g_assert_cmpint (abs (p[0] - p[1]), <=, 3);
  g_assert_cmpint (abs (p[2] - p[1]), <=, 3);
  /* The cool part was not what was picked: it stays coloured. */
  const guint8 *q = pixel (out, 75, 200);
  g_assert_cmpint (abs (q[2] - q[0]), >, 20);
}

/* Chelsea, the photo of the other tests (the export above left nothing unsaved). */
static void
open_chelsea (void)
{
  g_autofree char *photo = ui_test_data ("photos/chelsea.png");
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  guint w = 0, h = 0;
  while ((w != 451 || h != 300) && g_get_monotonic_time () < deadline)
    {
      ui_wait_ms (50);
      image_size (&w, &h);
    }
  ui_settle_tracked ();
  g_assert_cmpuint (ui_histogram ().total, ==, 451 * 300);
}

int
main (int argc, char **argv)
{
  /* The picker's photo first: the window opens it with nothing to discard. */
  g_autofree char *dir = g_dir_make_tmp ("lumen-ui-tools-XXXXXX", NULL);
  g_autofree char *tinted = write_tinted (dir);
  ui_test_init (&argc, &argv, tinted);
  ui_track_results ();
  if (lm_op_info_by_name ("crop") == NULL || lm_op_info_by_name ("rotate") == NULL
      || lm_op_info_by_name ("straighten") == NULL)
    {
      g_print ("1..0 # SKIP the geometry operations are not built in\n");
      gtk_widget_destroy (GTK_WIDGET (ui_window));
      g_unlink (tinted);
      g_rmdir (dir);
      return 0;
    }
  g_test_add_func ("/tools/wb-picker", test_picker);
  g_test_add_func ("/tools/crop-corner-handle", test_crop_corner);
  g_test_add_func ("/tools/crop-ratio", test_crop_ratio);
  g_test_add_func ("/tools/rotate", test_rotate);
  g_test_add_func ("/tools/split-keeps-geometry", test_split_keeps_geometry);
  g_test_add_func ("/tools/straighten", test_straighten);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  g_unlink (tinted);
  g_rmdir (dir);
  return rc;
}
