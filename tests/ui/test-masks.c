/* Masks drawn in the window as a person draws them (real input through XTest): exposure's
 * panel selected (a click in it), B and a brush stroke across the left third, G and a linear
 * gradient at the top, +1 EV with Page Up on exposure's slider. Then the view: brighter on the
 * stroke and in the top band, every pixel of the bottom-right quarter (outside both) the
 * same; M shows the mask in red over the stroke and M again hides it; undo takes the EV, the
 * gradient and the stroke back (the mask, and the sidecar, go with the stroke) and redo
 * brings them again; the sidecar the window saves has the brush and the linear shape, and the
 * photo opened again looks as painted. On a view turned a quarter, a radial gradient lies
 * where it was drawn. The linear gradient is pressed at 10 % of the height and let go at 20 %:
 * the top 10 % is masked whole, so that +1 EV brightens it in full there (by 20 levels, but
 * where a level that dark or light cannot go so far). */
#include <math.h>
#include <string.h>

#include "core/edit/sidecar.h"
#include "ui/window.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir, *photo, *sidecar;
static GBytes *before, *painted;

/* Runs the main loop until PATH exists; FALSE after SECONDS. */
static gboolean
wait_file (const char *path, int seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  while (!g_file_test (path, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* The widget point of the photo's point at fractions (FX, FY) of its width and height. */
static void
at (double fx, double fy, double *x, double *y)
{
  cairo_rectangle_t e;
  g_assert_true (lm_image_view_image_extent (ui_image_view (), &e));
  *x = e.x + fx * e.width, *y = e.y + fy * e.height;
}

/* Luma (Rec. 601, 0..255) of the view pixel under the photo's point (FX, FY) in PIXELS. */
static double
luma_at (GBytes *pixels, double fx, double fy)
{
  LmViewRect r;
  LmImage *shown = lm_image_view_get_pixels (ui_image_view (), &r);
  guint w, h;
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  int i = (int) floor ((fx * w - r.rx) * r.out_w / r.rw), j = (int) floor ((fy * h - r.ry) * r.out_h / r.rh);
  i = CLAMP (i, 0, r.out_w - 1), j = CLAMP (j, 0, r.out_h - 1);
  g_assert_cmpuint (g_bytes_get_size (pixels), ==, (gsize) shown->stride * r.out_h);
  guint32 p = ((const guint32 *) (const void *) ((const guint8 *) g_bytes_get_data (pixels, NULL) + (gsize) j * shown->stride))[i];
  return lm_test_luma601 ((p >> 16) & 255, (p >> 8) & 255, p & 255);
}

/* Every view pixel of the photo's fractions [X0, X1) × [Y0, Y1) the same in A and B. */
static guint
differing (GBytes *a, GBytes *b, double x0, double x1, double y0, double y1)
{
  LmViewRect r;
  LmImage *shown = lm_image_view_get_pixels (ui_image_view (), &r);
  guint n = 0;
  for (int j = (int) ceil (y0 * r.out_h); j < (int) (y1 * r.out_h); j++)
    for (int i = (int) ceil (x0 * r.out_w); i < (int) (x1 * r.out_w); i++)
      {
        gsize at = (gsize) j * shown->stride + 4 * (gsize) i;
        n += memcmp ((const guint8 *) g_bytes_get_data (a, NULL) + at, (const guint8 *) g_bytes_get_data (b, NULL) + at, 3)
             != 0;
      }
  return n;
}

/* The largest channel difference between the view pixels A and B. */
static int
distance (GBytes *a, GBytes *b)
{
  g_assert_cmpuint (g_bytes_get_size (a), ==, g_bytes_get_size (b));
  const guint8 *p = g_bytes_get_data (a, NULL), *q = g_bytes_get_data (b, NULL);
  int d = 0;
  for (gsize k = 0; k < g_bytes_get_size (a); k++)
    if (k % 4 != 3)
      d = MAX (d, abs ((int) p[k] - (int) q[k]));
  return d;
}

/* What +1 EV does to a gray of level A (sRGB), worked out here from the sRGB curve. */
static double
plus_one_ev (double a)
{
  double v = a / 255.0;
  double l = 2.0 * (v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4));
  l = MIN (l, 1.0);
  return 255.0 * (l <= 0.0031308 ? 12.92 * l : 1.055 * pow (l, 1.0 / 2.4) - 0.055);
}

/* Brightened as +1 EV in full brightens: by 20 levels, or by half of what +1 EV gives a level
 * that dark or that light (a level of 20 goes to 31 only; 250 to 255). */
static gboolean
brightened (double a, double b)
{
  return b - a >= MIN (20.0, 0.5 * (plus_one_ev (a) - a));
}

/* The brush stroke's line and the gradient's fully-on band, as fractions of the photo. */
#define STROKE_Y 0.5
#define STROKE_X0 0.04
#define STROKE_X1 0.30
#define GRADIENT_ON 0.10  /* pressed here: above, the gradient is whole */
#define GRADIENT_OFF 0.20 /* released here: below, nothing */

static const char *
label_text (const char *name)
{
  GtkWidget *label = ui_find_named (GTK_WIDGET (ui_window), name);
  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

/* B with no panel selected: the status bar says what to do, no tool starts. */
static void
test_none_selected (void)
{
  ui_key_on_view (GDK_KEY_b);
  g_test_message ("B alone: “%s”", label_text ("status-timings"));
  g_assert_nonnull (strstr (label_text ("status-timings"), "Select an operation's panel first"));
  g_assert_false (gtk_widget_get_visible (ui_find_named (GTK_WIDGET (ui_window), "mask-options")));
}

/* Exposure's panel selected as a person does: the keyboard taken into it, by a click on the
 * number beside its slider (which changes nothing). */
static void
select_exposure (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  GtkWidget *value = ui_find_named (lm_window_get_op_panel (ui_window, LM_OP_EXPOSURE), "ev-value");
  g_assert_nonnull (value);
  ui_scroll_into_view (value);
  ui_click_middle (value);
  ui_wait_ms (100);
}

static void
test_paint (void)
{
  before = ui_view_pixels ();
  select_exposure ();
  ui_key_on_view (GDK_KEY_b);
  /* The brush's keys: ] and [ its size, Shift+] and Shift+[ its hardness, shown in the bar. */
  g_assert_nonnull (strstr (label_text ("mask-options"), "size 5.0 %, hardness 50 %"));
  ui_key (GDK_KEY_bracketright, 0);
  ui_key (GDK_KEY_bracketright, GDK_SHIFT_MASK);
  g_test_message ("] and Shift+]: “%s”", label_text ("mask-options"));
  g_assert_nonnull (strstr (label_text ("mask-options"), "size 6.2 %, hardness 60 %"));
  ui_key (GDK_KEY_bracketleft, 0);
  ui_key (GDK_KEY_bracketleft, GDK_SHIFT_MASK);
  g_assert_nonnull (strstr (label_text ("mask-options"), "size 5.0 %, hardness 50 %"));
  double x0, y0, x1, y1;
  at (STROKE_X0, STROKE_Y, &x0, &y0);
  at (STROKE_X1, STROKE_Y, &x1, &y1);
  ui_drag (GTK_WIDGET (ui_image_view ()), x0, y0, x1, y1, 8);
  ui_settle_tracked ();

  ui_key_on_view (GDK_KEY_g);
  at (0.5, GRADIENT_ON, &x0, &y0);
  at (0.5, GRADIENT_OFF, &x1, &y1);
  ui_drag (GTK_WIDGET (ui_image_view ()), x0, y0, x1, y1, 8);
  ui_settle_tracked ();

  /* +1 EV: the slider taken where its knob is (no jump), then Page Up ten times. */
  GtkWidget *slider = ui_control (LM_OP_EXPOSURE, "ev");
  ui_scroll_into_view (slider);
  GdkRectangle trough;
  int start, end;
  gtk_range_get_range_rect (GTK_RANGE (slider), &trough);
  gtk_range_get_slider_range (GTK_RANGE (slider), &start, &end);
  ui_drag (slider, (start + end) / 2.0, trough.y + trough.height / 2.0, (start + end) / 2.0,
           trough.y + trough.height / 2.0, 1);
  g_assert_true (gtk_widget_has_focus (slider));
  double taken = gtk_range_get_value (GTK_RANGE (slider)); /* a few hundredths off 0, as a hand leaves it */
  for (int k = 0; k < 10; k++)
    ui_key (GDK_KEY_Page_Up, 0);
  ui_settle_tracked ();
  g_test_message ("exposure %g EV (%g when the slider was taken)", gtk_range_get_value (GTK_RANGE (slider)), taken);
  g_assert_cmpfloat (fabs (gtk_range_get_value (GTK_RANGE (slider)) - taken - 1.0), <, 1e-6);

  painted = ui_view_pixels ();
  /* On the stroke's line (inside its ends by the brush's radius) and in the top band. */
  guint dim = 0, samples = 0;
  for (double fx = STROKE_X0 + 0.04; fx <= STROKE_X1 - 0.04; fx += 0.01, samples++)
    {
      double a = luma_at (before, fx, STROKE_Y), b = luma_at (painted, fx, STROKE_Y);
      dim += !brightened (a, b);
      if (!brightened (a, b))
        g_test_message ("stroke at %.2f: %.1f → %.1f", fx, a, b);
    }
  for (double fy = 0.005; fy < GRADIENT_ON; fy += 0.02)
    for (double fx = 0.02; fx < 1.0; fx += 0.05, samples++)
      {
        double a = luma_at (before, fx, fy), b = luma_at (painted, fx, fy);
        dim += !brightened (a, b);
        if (!brightened (a, b))
          g_test_message ("top at %.2f, %.3f: %.1f → %.1f", fx, fy, a, b);
      }
  g_test_message ("%u of %u samples on the stroke and at the top not brightened", dim, samples);
  g_assert_cmpuint (dim, ==, 0);
  /* Outside both shapes: the bottom-right quarter, every pixel as before. */
  guint changed = differing (before, painted, 0.5, 1.0, 0.5, 1.0);
  g_test_message ("%u pixels of the bottom-right quarter changed", changed);
  g_assert_cmpuint (changed, ==, 0);
}

/* The mask overlay's word (premultiplied ARGB32) at the photo's fractions (FX, FY). */
static guint32
overlay_word (double fx, double fy)
{
  LmViewRect r;
  LmImage *mask = lm_image_view_get_mask_overlay (ui_image_view (), &r);
  g_assert_nonnull (mask);
  guint w, h;
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  int i = CLAMP ((int) ((fx * w - r.rx) * r.out_w / r.rw), 0, r.out_w - 1);
  int j = CLAMP ((int) ((fy * h - r.ry) * r.out_h / r.rh), 0, r.out_h - 1);
  return ((const guint32 *) (const void *) lm_image_row (mask, j))[i];
}

/* M: the mask in red over the stroke; M again: gone. */
static void
test_overlay (void)
{
  ui_key_on_view (GDK_KEY_m);
  ui_settle_tracked ();
  guint32 on = overlay_word ((STROKE_X0 + STROKE_X1) / 2, STROKE_Y), off = overlay_word (0.75, 0.75);
  g_test_message ("overlay on the stroke 0x%08x, in the bottom-right 0x%08x", on, off);
  /* Red at alpha 0.5 · M, premultiplied: M = 1 on the stroke's line, 0 far from both shapes. */
  g_assert_cmpuint (on >> 24, >=, 120);
  g_assert_cmpuint ((on >> 16) & 255, ==, on >> 24);
  g_assert_cmpuint (on & 0xffff, ==, 0);
  g_assert_cmpuint (off, ==, 0);
  ui_key_on_view (GDK_KEY_m);
  ui_settle_tracked ();
  g_assert_null (lm_image_view_get_mask_overlay (ui_image_view (), NULL));
}

/* Runs the main loop until PATH is gone; FALSE after SECONDS. */
static gboolean
wait_gone (const char *path, int seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  while (g_file_test (path, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  return !g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Ctrl+Z until the view is the photo as it was (each Page Up is a step of its own, and so is
 * taking the slider): exposure is off, its mask still there (the sidecar says so). Two more
 * take the gradient and the stroke back, the mask with them: the edits are the photo's
 * defaults again and the sidecar goes. Ctrl+Shift+Z as many times: the painted view again. */
static void
test_undo (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  int steps = 0, d = 255;
  for (; steps < 16 && d > 1; steps++)
    {
      ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
      ui_settle_tracked ();
      g_autoptr (GBytes) undone = ui_view_pixels ();
      d = distance (undone, before);
    }
  g_test_message ("%d undo steps: %d levels from before", steps, d);
  g_assert_cmpint (d, <=, 1);
  ui_wait_ms (800); /* the sidecar's save of the last undo */
  LmPipeline p = ui_read_sidecar (sidecar);
  const LmMask *mask = lm_pipeline_stage_mask (&p, lm_pipeline_stage (&p, LM_OP_EXPOSURE));
  g_assert_nonnull (mask);
  g_assert_cmpuint (mask->n_shapes, ==, 2);
  for (int k = 0; k < 2; k++, steps++)
    {
      ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
      ui_settle_tracked ();
    }
  g_assert_true (wait_gone (sidecar, 5));
  g_autoptr (GBytes) bare = ui_view_pixels ();
  g_assert_cmpint (distance (bare, before), <=, 1);
  for (int k = 0; k < steps; k++)
    {
      ui_key (GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
      ui_settle_tracked ();
    }
  g_autoptr (GBytes) redone = ui_view_pixels ();
  g_assert_cmpint (distance (redone, painted), ==, 0);
}

/* The sidecar the window saves by itself; the photo opened again looks as painted. */
static void
test_sidecar (void)
{
  g_assert_true (wait_file (sidecar, 5));
  ui_wait_ms (600); /* the last change's save */
  LmPipeline p = ui_read_sidecar (sidecar);
  const LmStage *exposure = lm_pipeline_stage (&p, LM_OP_EXPOSURE);
  const LmMask *mask = lm_pipeline_stage_mask (&p, exposure);
  g_assert_nonnull (mask);
  g_assert_cmpuint (mask->n_shapes, ==, 2);
  g_assert_cmpuint (mask->shape[0].kind, ==, LM_MASK_BRUSH);
  g_assert_cmpuint (mask->shape[1].kind, ==, LM_MASK_LINEAR);
  g_assert_cmpuint (mask->shape[0].strokes, !=, 0);
  ui_open_photo (photo);
  g_autoptr (GBytes) reopened = ui_view_pixels ();
  g_test_message ("reopened: %d levels from the painted view", distance (reopened, painted));
  g_assert_cmpint (distance (reopened, painted), ==, 0);
}

/* On a view turned a quarter (Ctrl+]), E and a drag out from a point: the mask shown is
 * whole under the press, where the pointer was, and nothing at the point opposite. */
static void
test_turned (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_bracketright, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  select_exposure ();
  ui_key_on_view (GDK_KEY_e);
  double x0, y0, x1, y1;
  at (0.75, 0.3, &x0, &y0);
  at (0.85, 0.38, &x1, &y1);
  ui_drag (GTK_WIDGET (ui_image_view ()), x0, y0, x1, y1, 6);
  ui_settle_tracked ();
  ui_key_on_view (GDK_KEY_m);
  ui_settle_tracked ();
  guint on = overlay_word (0.75, 0.3) >> 24, opposite = overlay_word (0.25, 0.7) >> 24;
  g_test_message ("turned view: overlay alpha %u under the press, %u opposite", on, opposite);
  g_assert_cmpuint (on, >=, 120);
  g_assert_cmpuint (opposite, ==, 0);
}

/* A photo seen through its pyramid (LUMEN_VIEW_PYRAMID_ABOVE: above 1 MP here; forest-path is
 * 4 MP), its exposure still off: E and a drag put a radial mask on it, which shows. */
static void
test_pyramid (void)
{
  g_setenv ("LUMEN_VIEW_PYRAMID_ABOVE", "1000000", TRUE);
  g_autofree char *dest = g_build_filename (tmp_dir, "forest-path.jpg", NULL);
  g_autofree char *large = ui_copy_test_data ("photos/forest-path.jpg", dest);
  ui_open_photo (large);
  select_exposure ();
  ui_key_on_view (GDK_KEY_e);
  double x0, y0, x1, y1;
  at (0.3, 0.3, &x0, &y0);
  at (0.38, 0.36, &x1, &y1);
  ui_drag (GTK_WIDGET (ui_image_view ()), x0, y0, x1, y1, 6);
  ui_settle_tracked ();
  if (lm_image_view_get_mask_overlay (ui_image_view (), NULL) == NULL)
    {
      ui_key_on_view (GDK_KEY_m);
      ui_settle_tracked ();
    }
  guint on = overlay_word (0.3, 0.3) >> 24, off = overlay_word (0.8, 0.8) >> 24;
  g_test_message ("pyramid view: overlay alpha %u at the centre, %u far from it", on, off);
  g_assert_cmpuint (on, >=, 120);
  g_assert_cmpuint (off, ==, 0);
  g_unsetenv ("LUMEN_VIEW_PYRAMID_ABOVE");
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-masks-ui-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *data_home = g_build_filename (tmp_dir, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE); /* before GLib reads it */
  g_autofree char *dest = g_build_filename (tmp_dir, "chelsea.png", NULL);
  photo = ui_copy_test_data ("photos/chelsea.png", dest);
  sidecar = lm_sidecar_beside_path (photo);
  ui_test_init (&argc, &argv, photo);
  ui_track_results ();
  /* ui_test_init turns sidecars off for the other window tests; here the mask's is read. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  ui_open_photo (photo);

  g_test_add_func ("/masks/none-selected", test_none_selected);
  g_test_add_func ("/masks/paint", test_paint);
  g_test_add_func ("/masks/overlay", test_overlay);
  g_test_add_func ("/masks/undo", test_undo);
  g_test_add_func ("/masks/sidecar", test_sidecar);
  g_test_add_func ("/masks/turned", test_turned);
  g_test_add_func ("/masks/pyramid", test_pyramid);
  int rc = g_test_run ();
  g_clear_pointer (&before, g_bytes_unref);
  g_clear_pointer (&painted, g_bytes_unref);
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  lm_test_remove_tree (tmp_dir);
  g_free (photo);
  g_free (sidecar);
  g_free (tmp_dir);
  return rc;
}
