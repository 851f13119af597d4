/* The crop's Width and Height fields, the view and the export agree, acting as a person does
 * (pointer and keys through the X server): with a ratio chosen (3:2, 4:3, 16:9), the crop's
 * bottom-right handle is dragged to several places (edges between pixels), Enter applies it;
 * each time the fields show the size the view has, and the export written at the end has the
 * fields' size. Then a width and a height are typed: the other side follows the ratio, and
 * the fields, the view and the export agree.
 * The fields used to show the rectangle rounded edge by edge (1996) while crop held it to the
 * ratio again and cut a pixel less (1995). */
#include <math.h>
#include <stdlib.h>
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
crop_stage (void)
{
  return *lm_op_panel_get_stage (LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_CROP)));
}

static float
crop_param (const char *name)
{
  LmStage stage = crop_stage ();
  return *lm_stage_float (&stage, name);
}

/* The crop panel's field NAME ("width-field"). */
static GtkWidget *
field (const char *name)
{
  GtkWidget *f = ui_find_named (lm_window_get_op_panel (ui_window, LM_OP_CROP), name);
  g_assert_nonnull (f);
  return f;
}

/* What the field NAME shows, as a number (a whole one: crop's lengths are pixels). */
static double
shown (const char *name)
{
  const char *text = gtk_entry_get_text (GTK_ENTRY (field (name)));
  g_autofree char *dot = g_strdelimit (g_strdup (text), ",", '.');
  return g_ascii_strtod (dot, NULL);
}

static void
widget_point (double x, double y, double *wx, double *wy)
{
  lm_image_view_to_widget (ui_image_view (), x, y, wx, wy);
  *wx = round (*wx), *wy = round (*wy);
}

static LmImage *
export_png (void)
{
  g_autofree char *dir = g_dir_make_tmp ("lumen-ui-crop-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "export.png", NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  lm_window_export_to (ui_window, path, &options);
  ui_await_result (LM_RESULT_EXPORTED);
  ui_wait_ms (300);
  GError *e = NULL;
  LmImage *back = lm_io_load (path, lm_allocator_host (), &e);
  g_assert_no_error (e);
  g_unlink (path);
  g_rmdir (dir);
  return back;
}

/* The fields, the view and (where EXPORT) the export agree; returns the fields' width. */
static void
assert_sizes_agree (gboolean export)
{
  guint vw, vh;
  lm_image_view_get_image_size (ui_image_view (), &vw, &vh);
  double fw = shown ("width-field"), fh = shown ("height-field");
  g_test_message ("crop %g,%g: fields %g × %g, view %u × %u", crop_param ("x"), crop_param ("y"), fw, fh, vw, vh);
  g_assert_cmpfloat (fw, ==, vw);
  g_assert_cmpfloat (fh, ==, vh);
  if (!export)
    return;
  g_autoptr (LmImage) out = export_png ();
  g_test_message ("export %u × %u", out->width, out->height);
  g_assert_cmpuint (out->width, ==, vw);
  g_assert_cmpuint (out->height, ==, vh);
}

/* Each time from the whole photo (Ctrl+R reverts the crop before): the crop tool (C), a
 * ratio chosen, whose largest rectangle about the centre has edges between pixels (on
 * 451 × 300: 3:2 from x = 0.5, 4:3 from x = 25.5, 16:9 from y = 23.16); its bottom-right
 * handle dragged to a place lower than wide at that ratio, one screen pixel further down
 * each time: the height follows the pointer, the width is the ratio times it. */
static void
test_dragged (void)
{
  guint w0, h0;
  lm_image_view_get_image_size (ui_image_view (), &w0, &h0);
  g_test_message ("zoom %g", lm_image_view_get_zoom (ui_image_view ()));
  const char *nicks[] = { "3:2", "4:3", "16:9" };
  const double ratios[] = { 3.0 / 2.0, 4.0 / 3.0, 16.0 / 9.0 };
  for (int n = 0; n < 3; n++)
    for (int k = 0; k < 4; k++)
      {
        ui_focus_window (GTK_WIDGET (ui_window));
        ui_key (GDK_KEY_r, GDK_CONTROL_MASK); /* Revert to Original */
        ui_settle_tracked ();
        ui_key_on_view (GDK_KEY_c);
        GtkWidget *ratio = ui_find_named (GTK_WIDGET (ui_window), "crop-ratio");
        g_assert_nonnull (ratio);
        gtk_combo_box_set_active_id (GTK_COMBO_BOX (ratio), "free");
        gtk_combo_box_set_active_id (GTK_COMBO_BOX (ratio), nicks[n]);
        ui_flush ();
        double cw = MIN (w0, h0 * ratios[n]), ch = cw / ratios[n];
        double ax, ay, bx, by;
        widget_point ((w0 + cw) / 2.0, (h0 + ch) / 2.0, &ax, &ay);
        widget_point ((w0 - cw) / 2.0 + 0.4 * cw, (h0 - ch) / 2.0 + 0.7 * ch, &bx, &by);
        ui_drag (view_widget (), ax - 1, ay - 1, bx, by + k, 5);
        ui_key_on_view (GDK_KEY_Return);
        g_assert_true (crop_stage ().enabled);
        assert_sizes_agree (n == 2 && k == 3);
      }
}

/* A size typed in a field: the click, Ctrl+A, the digits, then the field left as LEAVE says:
 * "enter", "tab", or the name of another field clicked. */
static void
type_and_leave (const char *name, const char *text, const char *leave)
{
  GtkWidget *f = field (name);
  ui_scroll_into_view (f);
  ui_click_middle (f);
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (text);
  if (g_str_equal (leave, "enter"))
    ui_key (GDK_KEY_Return, 0);
  else if (g_str_equal (leave, "tab"))
    ui_key (GDK_KEY_Tab, 0);
  else
    ui_click_middle (field (leave));
  ui_settle_tracked ();
}

static void
type_into (const char *name, const char *text)
{
  type_and_leave (name, text, "enter");
}

/* Sizes typed with 16:9 still chosen: the side typed stays, the other follows the ratio
 * (240 wide: 135 high; 90 high: 160 wide), and the fields, the view and the export agree. */
static void
test_typed (void)
{
  LmStage crop = crop_stage ();
  g_assert_cmpstr (lm_stage_enum_nick (&crop, "ratio"), ==, "16:9");
  type_into ("x-field", "20");
  type_into ("y-field", "10");
  type_into ("width-field", "240");
  g_assert_cmpfloat (shown ("width-field"), ==, 240);
  g_assert_cmpfloat (shown ("height-field"), ==, 135);
  assert_sizes_agree (TRUE);
  type_into ("height-field", "90");
  g_assert_cmpfloat (shown ("width-field"), ==, 160);
  g_assert_cmpfloat (shown ("height-field"), ==, 90);
  assert_sizes_agree (TRUE);
}

/* A height typed and left with Tab, then one left by a click on another field (16:9 still
 * chosen): the height stays and the width follows (72 high: 128 wide; 54 high: 96 wide).
 * Only Enter used to keep it: the window has no focus while a field is left, so the edit
 * counted as the width's and the height was worked out again from the width. */
static void
test_typed_left (void)
{
  type_and_leave ("height-field", "72", "tab");
  g_assert_cmpfloat (shown ("height-field"), ==, 72);
  g_assert_cmpfloat (shown ("width-field"), ==, 128);
  assert_sizes_agree (TRUE);
  type_and_leave ("height-field", "54", "y-field");
  g_assert_cmpfloat (shown ("height-field"), ==, 54);
  g_assert_cmpfloat (shown ("width-field"), ==, 96);
  assert_sizes_agree (TRUE);
}

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  ui_track_results ();
  ui_focus_window (GTK_WIDGET (ui_window));
  g_test_add_func ("/crop-size/dragged", test_dragged);
  g_test_add_func ("/crop-size/typed", test_typed);
  g_test_add_func ("/crop-size/typed-left", test_typed_left);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  return rc;
}
