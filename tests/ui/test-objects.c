/* Object detection in the window as a person uses it (real input through XTest): on the
 * detection test's mosaic of the astronaut (faces at three sizes, one mirrored), a click on
 * Detect in the Detect Objects panel; the line under it says how many were found and on which
 * backend, the list has them, and the view shows each box's outline (its colour's pixels on
 * its edges) where cv2.CascadeClassifier.detectMultiScale finds it (tests/ui/objects-oracle.py,
 * same model and parameters), and nowhere else. A click on a row of the list highlights that
 * box. Mask from Selected with no operation selected says so in the status bar; with
 * exposure's panel selected it makes a mask, which M shows in red over the box and nowhere
 * near the others; Ctrl+Z takes it back in one step. Another photo (the astronaut) clears the
 * boxes; its face found, Suggest Crop crops it with the face on a thirds crossing of the view,
 * the box drawn where the crop moved it; Ctrl+Z brings the whole photo back. At the top
 * sensitivity, dozens of boxes: a mask of all of them holds 16, and the info bar says so. */
#include <math.h>
#include <string.h>

#include "core/detect/crop-suggest.h"
#include "ui/op-panel.h"
#include "ui/window.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

#define GOLD 0xffd600u    /* a box's outline */
#define MAGENTA 0xff00ffu /* the box selected */
#define MIN_NEIGHBORS 3   /* the panel's sensitivity 7 */
#define MIN_SIZE 10       /* the panel's 2 % of 512 */

static char *tmp_dir, *mosaic;
static GArray *want; /* the oracle's boxes (LmCascadeBox), in the list's order */

/* The oracle's boxes in PHOTO (made first where MODE is "mosaic"), sorted as Lumen's are. */
static GArray *
oracle (const char *mode, const char *photo)
{
  g_autofree char *script = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "ui", "objects-oracle.py", NULL);
  g_autofree char *neighbors = g_strdup_printf ("%d", MIN_NEIGHBORS), *size = g_strdup_printf ("%d", MIN_SIZE);
  const char *argv[] = { "/usr/bin/python3", script, mode, photo, neighbors, size, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  GError *e = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &e));
  g_assert_no_error (e);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("objects-oracle.py failed: %s", err);
  GArray *boxes = g_array_new (FALSE, FALSE, sizeof (LmCascadeBox));
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  for (int i = 0; lines[i]; i++)
    {
      LmCascadeBox b = { 0 };
      if (sscanf (lines[i], "%d %d %d %d", &b.x, &b.y, &b.width, &b.height) == 4)
        g_array_append_val (boxes, b);
    }
  /* Lumen lists them by y, x, width, height (core/detect/group.h). */
  for (guint i = 0; i < boxes->len; i++)
    for (guint j = i + 1; j < boxes->len; j++)
      {
        LmCascadeBox *a = &g_array_index (boxes, LmCascadeBox, i), *b = &g_array_index (boxes, LmCascadeBox, j);
        if (b->y < a->y || (b->y == a->y && (b->x < a->x || (b->x == a->x && b->width < a->width))))
          {
            LmCascadeBox t = *a;
            *a = *b, *b = t;
          }
      }
  return boxes;
}

static GtkWidget *
named (const char *name)
{
  GtkWidget *w = ui_find_named (GTK_WIDGET (ui_window), name);
  g_assert_nonnull (w);
  return w;
}

static const char *
label_text (const char *name)
{
  return gtk_label_get_text (GTK_LABEL (named (name)));
}

static void
click_button (const char *name)
{
  GtkWidget *b = named (name);
  ui_scroll_into_view (b);
  ui_click_middle (b);
  ui_flush ();
}

/* Detect clicked; returns once the panel's line says what was found (fails after 60 s). */
static void
detect (void)
{
  click_button ("objects-detect");
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline
         && (*label_text ("objects-status") == '\0' || g_str_equal (label_text ("objects-status"), "Detecting…")))
    ui_wait_ms (20);
  g_test_message ("Detect: “%s”", label_text ("objects-status"));
}

static guint
list_rows (void)
{
  GtkTreeModel *model = gtk_tree_view_get_model (GTK_TREE_VIEW (named ("objects-list")));
  return (guint) gtk_tree_model_iter_n_children (model, NULL);
}

/* Widget point of the image's point (IX, IY) (edges of its pixels). */
static void
to_widget (double ix, double iy, double *wx, double *wy)
{
  lm_image_view_to_widget (ui_image_view (), ix, iy, wx, wy);
}

/* Of the points along B's left, right and bottom edges (the labels sit above the top), in
 * image pixels moved by (-DX, -DY), how many have a pixel of COLOUR within a screen pixel
 * across the edge (a line 2 pixels wide covers one whole pixel there, wherever it falls);
 * *SAMPLES how many were looked at. */
static guint
edge_hits (cairo_surface_t *s, const LmCascadeBox *b, double dx, double dy, guint32 colour, guint *samples)
{
  int sw = cairo_image_surface_get_width (s), sh = cairo_image_surface_get_height (s);
  guint hits = 0;
  *samples = 0;
  for (int edge = 0; edge < 3; edge++)
    for (double t = 0.2; t <= 0.8; t += 0.1)
      {
        double ix = edge == 0 ? b->x : edge == 1 ? b->x + b->width : b->x + t * b->width;
        double iy = edge == 2 ? b->y + b->height : b->y + t * b->height;
        double wx, wy;
        to_widget (ix - dx, iy - dy, &wx, &wy);
        gboolean hit = FALSE;
        for (int k = -1; k <= 1 && !hit; k++)
          {
            int px = (int) floor (wx) + (edge < 2 ? k : 0), py = (int) floor (wy) + (edge == 2 ? k : 0);
            hit = px >= 0 && py >= 0 && px < sw && py < sh && ui_painted (s, px, py) == colour;
          }
        hits += hit;
        (*samples)++;
      }
  return hits;
}

/* Pixels of COLOUR in the view's paint farther than 2 screen pixels from every box's outline. */
static guint
stray (cairo_surface_t *s, const GArray *boxes, guint32 colour)
{
  int sw = cairo_image_surface_get_width (s), sh = cairo_image_surface_get_height (s);
  guint n = 0;
  for (int y = 0; y < sh; y++)
    for (int x = 0; x < sw; x++)
      {
        if (ui_painted (s, x, y) != colour)
          continue;
        gboolean near = FALSE;
        for (guint i = 0; i < boxes->len && !near; i++)
          {
            const LmCascadeBox *b = &g_array_index (boxes, LmCascadeBox, i);
            double x0, y0, x1, y1;
            to_widget (b->x, b->y, &x0, &y0);
            to_widget (b->x + b->width, b->y + b->height, &x1, &y1);
            /* Pixel (x, y) spans x..x + 1: its centre is half a pixel on. */
            double px = x + 0.5, py = y + 0.5;
            gboolean in_x = px >= x0 - 2 && px <= x1 + 2, in_y = py >= y0 - 2 && py <= y1 + 2;
            near = (in_y && (fabs (px - x0) <= 2 || fabs (px - x1) <= 2))
                   || (in_x && (fabs (py - y0) <= 2 || fabs (py - y1) <= 2));
          }
        n += !near;
      }
  return n;
}

static void
test_detect (void)
{
  detect ();
  const char *status = label_text ("objects-status");
  g_autoptr (GVariant) backend = g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "backend"));
  g_autofree char *found = g_strdup_printf ("%u found in ", want->len);
  g_assert_nonnull (strstr (status, found));
  g_assert_nonnull (strstr (status, g_str_equal (g_variant_get_string (backend, NULL), "cuda") ? "GPU" : "CPU"));
  g_assert_cmpuint (list_rows (), ==, want->len);
  g_test_message ("view at %.3f screen pixels an image pixel", 1.0 / lm_image_view_get_zoom (ui_image_view ()));

  cairo_surface_t *s = ui_paint_view ();
  for (guint i = 0; i < want->len; i++)
    {
      const LmCascadeBox *b = &g_array_index (want, LmCascadeBox, i);
      guint samples, hits = edge_hits (s, b, 0, 0, GOLD, &samples);
      g_test_message ("box %d, %d, %d × %d: %u of %u edge points outlined", b->x, b->y, b->width, b->height, hits,
                      samples);
      g_assert_cmpuint (hits, ==, samples);
    }
  guint away = stray (s, want, GOLD);
  g_test_message ("%u outline pixels away from every box", away);
  g_assert_cmpuint (away, ==, 0);
  cairo_surface_destroy (s);
}

/* A click on the first row: its box outlined in magenta, no longer in gold. */
static void
test_select (void)
{
  GtkTreeView *list = GTK_TREE_VIEW (named ("objects-list"));
  ui_scroll_into_view (named ("objects-mask-one"));
  g_autoptr (GtkTreePath) path = gtk_tree_path_new_first ();
  GdkRectangle cell;
  gtk_tree_view_get_background_area (list, path, NULL, &cell);
  int wx, wy;
  gtk_tree_view_convert_bin_window_to_widget_coords (list, cell.x + 20, cell.y + cell.height / 2, &wx, &wy);
  ui_click (GTK_WIDGET (list), wx, wy);
  ui_flush ();
  cairo_surface_t *s = ui_paint_view ();
  const LmCascadeBox *b = &g_array_index (want, LmCascadeBox, 0);
  guint samples, lit = edge_hits (s, b, 0, 0, MAGENTA, &samples), gold = edge_hits (s, b, 0, 0, GOLD, &samples);
  g_test_message ("selected: %u of %u edge points magenta, %u gold", lit, samples, gold);
  g_assert_cmpuint (lit, ==, samples);
  g_assert_cmpuint (gold, ==, 0);
  cairo_surface_destroy (s);
}

/* The mask overlay's alpha at the image point (IX, IY). */
static guint
overlay_alpha (double ix, double iy)
{
  LmViewRect r;
  LmImage *mask = lm_image_view_get_mask_overlay (ui_image_view (), &r);
  g_assert_nonnull (mask);
  int i = CLAMP ((int) ((ix - r.rx) * r.out_w / r.rw), 0, r.out_w - 1);
  int j = CLAMP ((int) ((iy - r.ry) * r.out_h / r.rh), 0, r.out_h - 1);
  return ((const guint32 *) (const void *) lm_image_row (mask, j))[i] >> 24;
}

static void
test_mask (void)
{
  /* No operation selected: said in the status bar, nothing changes. */
  click_button ("objects-mask-one");
  g_test_message ("Mask from Selected alone: “%s”", label_text ("status-timings"));
  g_assert_nonnull (strstr (label_text ("status-timings"), "Select an operation's panel first"));

  /* Exposure's panel selected as a person does: a click on the number beside its slider. */
  GtkWidget *value = ui_find_named (lm_window_get_op_panel (ui_window, LM_OP_EXPOSURE), "ev-value");
  ui_scroll_into_view (value);
  ui_click_middle (value);
  ui_wait_ms (100);
  click_button ("objects-mask-one");
  ui_settle_tracked ();
  ui_key_on_view (GDK_KEY_m);
  ui_settle_tracked ();
  const LmCascadeBox *b = &g_array_index (want, LmCascadeBox, 0);
  double cx = b->x + b->width / 2.0, cy = b->y + b->height / 2.0;
  guint centre = overlay_alpha (cx, cy), inside = overlay_alpha (b->x + 0.2 * b->width, cy);
  g_test_message ("overlay alpha %u at the box's centre, %u inside its left edge", centre, inside);
  g_assert_cmpuint (centre, >=, 120);
  g_assert_cmpuint (inside, >=, 120);
  /* Beyond the ellipse through the box's corners: nothing, and nothing on the other boxes. */
  g_assert_cmpuint (overlay_alpha (cx + 0.75 * b->width, cy), ==, 0);
  g_assert_cmpuint (overlay_alpha (cx, cy + 0.75 * b->height), ==, 0);
  for (guint i = 1; i < want->len; i++)
    {
      const LmCascadeBox *o = &g_array_index (want, LmCascadeBox, i);
      g_assert_cmpuint (overlay_alpha (o->x + o->width / 2.0, o->y + o->height / 2.0), ==, 0);
    }
  /* One undo step takes the mask back (the overlay with it). */
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_assert_null (lm_image_view_get_mask_overlay (ui_image_view (), NULL));
  ui_key_on_view (GDK_KEY_m); /* Show Mask off again */
  ui_settle_tracked ();
}

static void
test_crop (void)
{
  g_autofree char *astronaut = ui_test_data ("photos/astronaut.tif");
  ui_open_photo (astronaut);
  /* The boxes were of the photo before. */
  g_assert_cmpuint (list_rows (), ==, 0);
  cairo_surface_t *s = ui_paint_view ();
  g_autoptr (GArray) none = g_array_new (FALSE, FALSE, sizeof (LmCascadeBox));
  g_assert_cmpuint (stray (s, none, GOLD) + stray (s, none, MAGENTA), ==, 0);
  cairo_surface_destroy (s);

  g_autoptr (GArray) faces = oracle ("detect", astronaut);
  g_assert_cmpuint (faces->len, ==, 1);
  detect ();
  g_assert_cmpuint (list_rows (), ==, 1);
  guint w0, h0;
  lm_image_view_get_image_size (ui_image_view (), &w0, &h0);
  click_button ("objects-crop");
  ui_settle_tracked ();

  const LmCascadeBox *b = &g_array_index (faces, LmCascadeBox, 0);
  LmCropSuggestion want_crop;
  lm_crop_suggest (w0, h0, b, 1, 0.0, &want_crop);
  g_assert_cmpint (want_crop.placement, ==, LM_CROP_SUBJECT_POINT);
  const LmStage *crop = lm_op_panel_get_stage (LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_CROP)));
  const LmCropParams *p = &crop->params.crop;
  g_test_message ("crop %g, %g, %g × %g of %u × %u (“%s”)", p->x, p->y, p->width, p->height, w0, h0,
                  label_text ("objects-status"));
  g_assert_nonnull (strstr (label_text ("objects-status"), "on a crossing of the thirds"));
  g_assert_true (crop->enabled);
  guint w, h;
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  g_assert_cmpuint (w, ==, (guint) p->width);
  g_assert_cmpuint (h, ==, (guint) p->height);
  g_assert_cmpuint (w, <, w0);
  /* The face's centre on a crossing of the thirds of the view, within a pixel. */
  double fx = (b->x + b->width / 2.0 - p->x) / w, fy = (b->y + b->height / 2.0 - p->y) / h;
  g_test_message ("the face's centre at %.3f, %.3f of the view", fx, fy);
  g_assert_cmpfloat (MIN (fabs (fx - 1.0 / 3), fabs (fx - 2.0 / 3)), <, 1.0 / w);
  g_assert_cmpfloat (MIN (fabs (fy - 1.0 / 3), fabs (fy - 2.0 / 3)), <, 1.0 / h);
  /* Its box drawn where the crop moved it. */
  s = ui_paint_view ();
  guint samples, hits = edge_hits (s, b, p->x, p->y, GOLD, &samples);
  g_test_message ("cropped view: %u of %u edge points of the box outlined", hits, samples);
  g_assert_cmpuint (hits, ==, samples);
  cairo_surface_destroy (s);
  /* One undo step: the whole photo again. */
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  g_assert_cmpuint (w, ==, w0);
  g_assert_cmpuint (h, ==, h0);
}

/* Sensitivity at its top (every window that passed is a box: dozens around the face), then
 * Mask from All Faces: 16 shapes, the most a mask holds, and the info bar says how many of
 * the boxes made it. */
static void
test_many (void)
{
  GtkWidget *scale = named ("objects-sensitivity");
  ui_scroll_into_view (scale);
  int start, end;
  GdkRectangle trough;
  gtk_range_get_range_rect (GTK_RANGE (scale), &trough);
  gtk_range_get_slider_range (GTK_RANGE (scale), &start, &end);
  ui_drag (scale, (start + end) / 2.0, trough.y + trough.height / 2.0, (start + end) / 2.0,
           trough.y + trough.height / 2.0, 1);
  ui_key (GDK_KEY_End, 0);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (scale)), ==, 10);
  detect ();
  guint n = list_rows ();
  g_test_message ("%u boxes at the top sensitivity", n);
  g_assert_cmpuint (n, >, 16);
  GtkWidget *value = ui_find_named (lm_window_get_op_panel (ui_window, LM_OP_EXPOSURE), "ev-value");
  ui_scroll_into_view (value);
  ui_click_middle (value);
  ui_wait_ms (100);
  click_button ("objects-mask-all");
  ui_settle_tracked ();
  const LmMask *mask = lm_op_panel_get_mask (LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_EXPOSURE)));
  g_assert_nonnull (mask);
  g_assert_cmpuint (mask->n_shapes, ==, 16);
  const char *info = lm_window_get_info_message (ui_window);
  g_test_message ("info bar: “%s”", info ? info : "");
  g_autofree char *said = g_strdup_printf ("16 of the %u boxes", n);
  g_assert_nonnull (info);
  g_assert_nonnull (strstr (info, said));
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-objects-ui-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  mosaic = g_build_filename (tmp_dir, "mosaic.png", NULL);
  if (!g_file_test ("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml", G_FILE_TEST_EXISTS))
    {
      g_test_init (&argc, &argv, NULL);
      g_test_skip ("opencv-data is not installed");
      return 0;
    }
  want = oracle ("mosaic", mosaic);
  g_assert_cmpuint (want->len, >=, 3);
  ui_test_init (&argc, &argv, mosaic);
  ui_track_results ();
  ui_open_photo (mosaic); /* its render tracked */

  g_test_add_func ("/objects/detect", test_detect);
  g_test_add_func ("/objects/select", test_select);
  g_test_add_func ("/objects/mask", test_mask);
  g_test_add_func ("/objects/crop", test_crop);
  g_test_add_func ("/objects/many", test_many);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  g_array_unref (want);
  lm_test_remove_tree (tmp_dir);
  g_free (mosaic);
  g_free (tmp_dir);
  return rc;
}
