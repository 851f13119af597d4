/* The window's instances, used as a person uses them (pointer and keys through the X server),
 * checked by what the window shows and what it keeps on disk:
 * - exposure's instance menu, Duplicate: a second exposure panel right after the first,
 *   titled "Exposure 2", marked as the one selected;
 * - its menu, Rename…, a name typed and Enter: the panel's title is that name;
 * - Move Up puts it before the first exposure, Move Down back after it;
 * - its EV raised by the keyboard changes the view;
 * - Remove: its panel is gone and the view is as before it; Ctrl+Z brings both back;
 * - Mask ▸ Brush gives an instance a mask and shows the mask's rows; its opacity set by the
 *   keyboard is one undo step; a range's edges stay in order as one is moved past another;
 *   Mask ▸ Remove Mask takes the mask and its rows away;
 * - the sidecar the window saves by itself holds the instance, named, with its EV;
 * - a mask's shapes listed in its panel, one deleted by its button (one undo step);
 * - on a raw, the luminance range of a scene-side instance's mask is in EV;
 * - an edit as full as it can be refuses Duplicate, saying why in the info bar. */
#include <math.h>
#include <string.h>

#include "core/edit/sidecar.h"
#include "ui/op-panel.h"
#include "ui/window-instances.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir, *photo, *sidecar;
static guint32 second; /* the id of the exposure's duplicate */

static GPtrArray *
panels (void)
{
  return lm_window_instance_panels (ui_window);
}

static int
position_of (guint32 id)
{
  for (guint i = 0; i < panels ()->len; i++)
    if (lm_op_panel_get_stage (panels ()->pdata[i])->id == id)
      return (int) i;
  return -1;
}

static LmOpPanel *
exposure (void)
{
  return LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_EXPOSURE));
}

static const char *
title_of (LmOpPanel *panel)
{
  g_autoptr (GPtrArray) labels = ui_find_all (GTK_WIDGET (panel), GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_style_context_has_class (gtk_widget_get_style_context (labels->pdata[i]), "op-title"))
      return gtk_label_get_text (labels->pdata[i]);
  g_assert_not_reached ();
}

/* Runs the main loop until DONE (DATA) holds; fails the test after 5 s. */
static void
wait_for (gboolean (*done) (gpointer), gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (!done (data) && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_assert_true (done (data));
}

/* The window's title is the photo's name (NAME) once it is open. */
static gboolean
opened (gpointer name)
{
  return g_strcmp0 (gtk_window_get_title (GTK_WINDOW (ui_window)), name) == 0;
}

/* PATH opened, its first render in. */
static void
open_photo (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *name = g_path_get_basename (path);
  lm_window_open (ui_window, file);
  wait_for (opened, name);
  ui_settle_tracked ();
}

static gboolean
mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

/* The visible item labelled TEXT of POPOVER's menu, NULL if none. */
static GtkWidget *
menu_item (GtkWidget *popover, const char *text)
{
  g_autoptr (GPtrArray) items = ui_find_all (popover, GTK_TYPE_MODEL_BUTTON);
  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *label = NULL;
      g_object_get (items->pdata[i], "text", &label, NULL);
      if (g_strcmp0 (label, text) == 0 && gtk_widget_is_drawable (items->pdata[i]))
        return items->pdata[i];
    }
  return NULL;
}

static gboolean
has_item (gpointer data)
{
  gpointer *args = data;
  return menu_item (args[0], args[1]) != NULL;
}

/* PANEL's instance menu opened by a click, ITEM clicked in it ("Mask/Brush": in a submenu). */
static void
use_menu (LmOpPanel *panel, const char *path)
{
  g_auto (GStrv) items = g_strsplit (path, "/", -1);
  GtkWidget *button = ui_find_named (GTK_WIDGET (panel), "instance-menu");
  g_assert_nonnull (button);
  ui_scroll_into_view (button);
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_click_middle (button);
  GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_nonnull (popover);
  for (guint i = 0; items[i]; i++)
    {
      gpointer args[] = { popover, items[i] };
      wait_for (has_item, args);
      ui_wait_ms (100); /* the popover's transition */
      ui_click_middle (menu_item (popover, items[i]));
    }
  ui_settle_tracked ();
}

static GBytes *before_pixels, *raised_pixels;

static void
test_duplicate (void)
{
  before_pixels = ui_view_pixels ();
  guint n = panels ()->len;
  int first = position_of (LM_PRIMARY_ID (LM_OP_EXPOSURE));
  use_menu (exposure (), "Duplicate");
  g_assert_cmpuint (panels ()->len, ==, n + 1);
  LmOpPanel *panel = panels ()->pdata[first + 1];
  const LmStage *stage = lm_op_panel_get_stage (panel);
  second = stage->id;
  g_test_message ("panel %d of %u: “%s”, id %u", first + 1, panels ()->len, title_of (panel), second);
  g_assert_true (stage->info->id == LM_OP_EXPOSURE);
  g_assert_cmpuint (second, !=, LM_PRIMARY_ID (LM_OP_EXPOSURE));
  g_assert_cmpstr (title_of (panel), ==, "Exposure 2");
  g_assert_true (mapped (panel));
  /* Right under the first on screen. */
  GtkAllocation a, b;
  gtk_widget_get_allocation (GTK_WIDGET (exposure ()), &a);
  gtk_widget_get_allocation (GTK_WIDGET (panel), &b);
  g_assert_cmpint (b.y, >, a.y + a.height - 1);
  LmOpPanel *next = panels ()->pdata[first + 2];
  GtkAllocation c;
  gtk_widget_get_allocation (GTK_WIDGET (next), &c);
  g_assert_cmpint (c.y, >, b.y + b.height - 1);
  /* The new one is what the person works on now. */
  g_assert_true (gtk_style_context_has_class (gtk_widget_get_style_context (GTK_WIDGET (panel)), "selected"));
  g_assert_false (gtk_style_context_has_class (gtk_widget_get_style_context (GTK_WIDGET (exposure ())), "selected"));
}

static gboolean
entry_focused (gpointer unused)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (ui_window));
  return focus && g_strcmp0 (gtk_widget_get_name (focus), "instance-name") == 0 && gtk_widget_get_mapped (focus);
}

static void
test_rename (void)
{
  use_menu (lm_window_instance_panel (ui_window, second), "Rename…");
  wait_for (entry_focused, NULL);
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type ("Sky");
  ui_key (GDK_KEY_Return, 0);
  ui_settle_tracked ();
  LmOpPanel *panel = lm_window_instance_panel (ui_window, second);
  g_test_message ("renamed: “%s”", title_of (panel));
  g_assert_cmpstr (title_of (panel), ==, "Sky");
  g_assert_false (entry_focused (NULL));
  /* Escape leaves the name as it was. */
  use_menu (panel, "Rename…");
  wait_for (entry_focused, NULL);
  ui_type ("Sea");
  ui_key (GDK_KEY_Escape, 0);
  ui_wait_ms (100);
  g_assert_cmpstr (title_of (lm_window_instance_panel (ui_window, second)), ==, "Sky");
}

static void
test_move (void)
{
  int first = position_of (LM_PRIMARY_ID (LM_OP_EXPOSURE));
  g_assert_cmpint (position_of (second), ==, first + 1);
  LmOpPanel *panel = lm_window_instance_panel (ui_window, second);
  use_menu (panel, "Move Up");
  g_assert_true (lm_window_instance_panel (ui_window, second) == panel); /* kept, not made anew */
  g_assert_cmpint (position_of (second), ==, first);
  g_assert_cmpint (position_of (LM_PRIMARY_ID (LM_OP_EXPOSURE)), ==, first + 1);
  GtkAllocation a, b;
  gtk_widget_get_allocation (GTK_WIDGET (exposure ()), &a);
  gtk_widget_get_allocation (GTK_WIDGET (lm_window_instance_panel (ui_window, second)), &b);
  g_assert_cmpint (b.y, <, a.y);
  use_menu (lm_window_instance_panel (ui_window, second), "Move Down");
  g_assert_cmpint (position_of (second), ==, first + 1);
}

/* RANGE's knob clicked: the keyboard's, its value kept. */
static void
focus_slider (GtkWidget *range)
{
  ui_scroll_into_view (range);
  GdkRectangle trough;
  gtk_range_get_range_rect (GTK_RANGE (range), &trough);
  int start, end;
  gtk_range_get_slider_range (GTK_RANGE (range), &start, &end);
  ui_click (range, (start + end) / 2.0, trough.y + trough.height / 2.0);
  g_assert_true (gtk_widget_has_focus (range));
}

/* The EV slider's knob clicked (the keyboard's, its value kept), Page Up three times. */
static void
test_raise (void)
{
  LmOpPanel *panel = lm_window_instance_panel (ui_window, second);
  focus_slider (lm_op_panel_get_control (panel, "ev"));
  for (int i = 0; i < 3; i++)
    ui_key (GDK_KEY_Page_Up, 0);
  ui_settle_tracked ();
  const LmStage *stage = lm_op_panel_get_stage (panel);
  g_test_message ("EV %g", stage->params.exposure.ev);
  g_assert_true (stage->enabled);
  g_assert_cmpfloat (stage->params.exposure.ev, >, 0.25);
  raised_pixels = ui_view_pixels ();
  g_assert_false (g_bytes_equal (raised_pixels, before_pixels));
}

static void
test_remove_undo (void)
{
  guint n = panels ()->len;
  use_menu (lm_window_instance_panel (ui_window, second), "Remove");
  ui_flush ();
  g_assert_cmpuint (panels ()->len, ==, n - 1);
  g_assert_null (lm_window_instance_panel (ui_window, second));
  g_autoptr (GBytes) removed = ui_view_pixels ();
  g_assert_true (g_bytes_equal (removed, before_pixels));

  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  LmOpPanel *panel = lm_window_instance_panel (ui_window, second);
  g_assert_nonnull (panel);
  g_assert_cmpstr (title_of (panel), ==, "Sky");
  g_assert_cmpint (position_of (second), ==, position_of (LM_PRIMARY_ID (LM_OP_EXPOSURE)) + 1);
  g_autoptr (GBytes) back = ui_view_pixels ();
  g_assert_true (g_bytes_equal (back, raised_pixels));
}

/* The mask of contrast's panel, as the window set it from its pipeline; NULL: none. Contrast
 * is off: a render of a masked instance that is on may be refused by this version. */
static const LmMask *
contrast_mask (void)
{
  return lm_op_panel_get_mask (LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_CONTRAST)));
}

static double
value_of (LmOpPanel *panel, const char *name)
{
  return gtk_range_get_value (GTK_RANGE (ui_find_named (GTK_WIDGET (panel), name)));
}

static gboolean
mask_rows_shown (LmOpPanel *panel)
{
  GtkWidget *opacity = ui_find_named (GTK_WIDGET (panel), "mask-opacity");
  return opacity && gtk_widget_get_mapped (opacity);
}

static void
test_mask_rows (void)
{
  LmOpPanel *panel = LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_CONTRAST));
  g_assert_false (lm_op_panel_get_stage (panel)->enabled);
  g_assert_null (contrast_mask ());
  g_assert_false (mask_rows_shown (panel));
  use_menu (panel, "Mask/Brush");
  g_assert_nonnull (contrast_mask ());
  g_assert_cmpfloat (contrast_mask ()->opacity, ==, 1.0f);
  g_assert_true (mask_rows_shown (panel));
  GtkWidget *opacity = ui_find_named (GTK_WIDGET (panel), "mask-opacity");
  focus_slider (opacity);
  ui_key (GDK_KEY_Page_Down, 0); /* a key, as a slider's key elsewhere: one undo step */
  ui_settle_tracked ();
  g_test_message ("mask opacity %g", contrast_mask ()->opacity);
  g_assert_cmpfloat (fabsf (contrast_mask ()->opacity - 0.9f), <, 1e-6f);
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_assert_cmpfloat (contrast_mask ()->opacity, ==, 1.0f);
  g_assert_cmpfloat (value_of (panel, "mask-opacity"), ==, 1.0);

  /* Luminance on: 0, 0, 1, 1; "From" raised to 0.3, then "To" pulled down to 0: "From"
   * follows it down, the soft edges stay outside. */
  GtkWidget *on = ui_find_named (GTK_WIDGET (panel), "luminance-on");
  ui_scroll_into_view (on);
  ui_click_middle (on);
  ui_settle_tracked ();
  g_assert_true (contrast_mask ()->luminance.on);
  focus_slider (ui_find_named (GTK_WIDGET (panel), "luminance-lo1"));
  for (int i = 0; i < 3; i++)
    ui_key (GDK_KEY_Page_Up, 0);
  ui_settle_tracked ();
  g_assert_cmpfloat (fabsf (contrast_mask ()->luminance.lo1 - 0.3f), <, 1e-6f);
  g_assert_cmpfloat (contrast_mask ()->luminance.hi1, ==, 1.0f);
  focus_slider (ui_find_named (GTK_WIDGET (panel), "luminance-hi1"));
  ui_key (GDK_KEY_Home, 0);
  ui_settle_tracked ();
  LmMaskRange r = contrast_mask ()->luminance;
  g_test_message ("luminance %g %g %g %g", r.lo0, r.lo1, r.hi1, r.hi0);
  g_assert_cmpfloat (r.hi1, ==, 0.0f);
  g_assert_cmpfloat (r.lo1, ==, 0.0f);
  g_assert_cmpfloat (r.lo0, ==, 0.0f);
  g_assert_cmpfloat (r.hi0, ==, 1.0f);
  g_assert_cmpfloat (value_of (panel, "luminance-lo1"), ==, 0.0);

  use_menu (panel, "Mask/Remove Mask");
  g_assert_null (contrast_mask ());
  g_assert_false (mask_rows_shown (panel));
}

static gboolean
sidecar_has_sky (gpointer unused)
{
  g_autofree char *text = NULL;
  return g_file_get_contents (sidecar, &text, NULL, NULL) && strstr (text, "name=Sky") != NULL;
}

static void
test_sidecar (void)
{
  wait_for (sidecar_has_sky, NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (sidecar, &text, NULL, NULL));
  g_test_message ("%s", text);
  g_autofree char *group = g_strdup_printf ("[exposure#%u]", second);
  g_assert_nonnull (strstr (text, group));
  LmPipeline p = ui_read_sidecar (sidecar);
  int k = lm_pipeline_find (&p, second);
  g_assert_cmpint (k, >=, 0);
  g_assert_cmpstr (p.inst[k].name, ==, "Sky");
  g_assert_true (p.inst[k].enabled);
  const LmStage *shown = lm_op_panel_get_stage (lm_window_instance_panel (ui_window, second));
  g_assert_cmpfloat (p.inst[k].params.exposure.ev, ==, shown->params.exposure.ev);
  g_assert_cmpint (p.inst[k - 1].id, ==, LM_PRIMARY_ID (LM_OP_EXPOSURE));
}

/* A photo whose sidecar holds as many instances as an edit can: Duplicate is refused, and the
 * info bar says why. */
static void
test_no_room (void)
{
  g_autofree char *dest = g_build_filename (tmp_dir, "full.png", NULL);
  g_autofree char *full = ui_copy_test_data ("photos/camera-gray.png", dest);
  LmPipeline p;
  lm_pipeline_init (&p);
  while (lm_pipeline_add (&p, LM_OP_EXPOSURE, NULL, NULL))
    ;
  g_assert_cmpuint (p.n, ==, LM_PIPELINE_MAX);
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&p);
  g_autofree char *text = g_key_file_to_data (keyfile, NULL, NULL);
  g_autofree char *full_sidecar = lm_sidecar_beside_path (full);
  g_assert_true (g_file_set_contents (full_sidecar, text, -1, NULL));
  open_photo (full);
  guint n = panels ()->len;
  g_assert_cmpuint (n, ==, LM_PIPELINE_MAX - 1); /* the export's resize has none */
  g_assert_null (lm_window_get_info_message (ui_window));
  use_menu (exposure (), "Duplicate");
  const char *message = lm_window_get_info_message (ui_window);
  g_test_message ("info bar: %s", message);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "40"));
  g_assert_cmpuint (panels ()->len, ==, n);
}

/* The kinds of the shapes PANEL lists, top to bottom ("Linear gradient,Radial gradient"). */
static char *
shape_kinds (LmOpPanel *panel)
{
  GtkWidget *list = ui_find_named (GTK_WIDGET (panel), "mask-shapes");
  g_assert_nonnull (list);
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (list));
  GString *kinds = g_string_new (NULL);
  for (GList *l = rows; l; l = l->next)
    {
      g_autoptr (GList) parts = gtk_container_get_children (l->data);
      g_string_append_printf (kinds, "%s%s", kinds->len ? "," : "", gtk_label_get_text (parts->data));
    }
  return g_string_free (kinds, FALSE);
}

/* A sidecar whose (switched off) contrast has a mask of a linear and a radial gradient: its
 * panel lists both; the first's delete button takes it away (one undo step), its combine
 * choice sets how it joins. */
static void
test_shapes (void)
{
  g_autofree char *dest = g_build_filename (tmp_dir, "shapes.png", NULL);
  g_autofree char *path = ui_copy_test_data ("photos/camera-gray.png", dest);
  LmPipeline p;
  lm_pipeline_init (&p);
  LmMask mask;
  memset (&mask, 0, sizeof mask);
  mask.opacity = 1.0f;
  mask.n_shapes = 2;
  mask.shape[0] = (LmMaskShape) { .kind = LM_MASK_LINEAR, .opacity = 1.0f, .g = { 0.5f, 0.0f, 0.5f, 0.3f } };
  mask.shape[1] = (LmMaskShape) { .kind = LM_MASK_RADIAL, .combine = LM_MASK_SUBTRACT, .opacity = 1.0f,
                                  .g = { 0.5f, 0.5f, 0.1f, 0.1f, 0.0f, 0.5f } };
  int contrast = lm_pipeline_find (&p, LM_PRIMARY_ID (LM_OP_CONTRAST));
  g_assert_true (lm_pipeline_mask_attach (&p, (guint) contrast, &mask, NULL));
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&p);
  g_autofree char *text = g_key_file_to_data (keyfile, NULL, NULL);
  g_autofree char *shapes_sidecar = lm_sidecar_beside_path (path);
  g_assert_true (g_file_set_contents (shapes_sidecar, text, -1, NULL));
  open_photo (path);

  LmOpPanel *panel = LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_CONTRAST));
  g_autofree char *before = shape_kinds (panel);
  g_test_message ("shapes: %s", before);
  g_assert_cmpstr (before, ==, "Linear gradient,Radial gradient");
  GtkWidget *list = ui_find_named (GTK_WIDGET (panel), "mask-shapes");
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (list));
  GtkWidget *combine = ui_find_named (g_list_nth_data (rows, 1), "combine");
  g_assert_cmpint (gtk_combo_box_get_active (GTK_COMBO_BOX (combine)), ==, LM_MASK_SUBTRACT);
  GtkWidget *remove = ui_find_named (rows->data, "delete");
  ui_scroll_into_view (remove);
  ui_click_middle (remove);
  ui_settle_tracked ();
  ui_flush ();
  g_autofree char *after = shape_kinds (LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_CONTRAST)));
  g_test_message ("after the first's delete: %s", after);
  g_assert_cmpstr (after, ==, "Radial gradient");
  g_assert_cmpuint (contrast_mask ()->n_shapes, ==, 1);
  g_assert_cmpint (contrast_mask ()->shape[0].kind, ==, LM_MASK_RADIAL);
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_autofree char *undone = shape_kinds (LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_CONTRAST)));
  g_assert_cmpstr (undone, ==, "Linear gradient,Radial gradient");
  g_assert_cmpuint (contrast_mask ()->n_shapes, ==, 2);
}

/* The lower end of PANEL's luminance range sliders. */
static double
luminance_floor (LmOpPanel *panel)
{
  GtkWidget *lo0 = ui_find_named (GTK_WIDGET (panel), "luminance-lo0");
  g_assert_nonnull (lo0);
  return gtk_adjustment_get_lower (gtk_range_get_adjustment (GTK_RANGE (lo0)));
}

/* A raw whose sidecar masks exposure (scene light: luminance in EV) and contrast (after the
 * display transform: 0..1); both off, as a sidecar may leave them. */
static void
test_scene_luminance (void)
{
  g_autofree char *dest = g_build_filename (tmp_dir, "tinted.dng", NULL);
  g_autofree char *path = ui_copy_test_data ("raw/tinted.dng", dest);
  LmPipeline p;
  lm_pipeline_init (&p);
  LmMask mask;
  memset (&mask, 0, sizeof mask);
  mask.opacity = 1.0f;
  const LmOpId ops[] = { LM_OP_EXPOSURE, LM_OP_CONTRAST };
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    g_assert_true (lm_pipeline_mask_attach (&p, (guint) lm_pipeline_find (&p, LM_PRIMARY_ID (ops[i])), &mask, NULL));
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&p);
  g_autofree char *text = g_key_file_to_data (keyfile, NULL, NULL);
  g_autofree char *raw_sidecar = lm_sidecar_beside_path (path);
  g_assert_true (g_file_set_contents (raw_sidecar, text, -1, NULL));
  open_photo (path);
  double scene = luminance_floor (exposure ());
  double display = luminance_floor (LM_OP_PANEL (lm_window_get_op_panel (ui_window, LM_OP_CONTRAST)));
  g_test_message ("luminance from %g (exposure, scene light) and %g (contrast)", scene, display);
  g_assert_cmpfloat (scene, <, -1.0);
  g_assert_cmpfloat (display, ==, 0.0);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-instances-ui-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *data_home = g_build_filename (tmp_dir, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE); /* before GLib reads it */
  g_autofree char *dest = g_build_filename (tmp_dir, "chelsea.png", NULL);
  photo = ui_copy_test_data ("photos/chelsea.png", dest);
  sidecar = lm_sidecar_beside_path (photo);
  ui_test_init (&argc, &argv, "photos/camera-gray.png");
  ui_track_results ();
  /* Sidecars on (ui_test_init turns them off), before the photo opens: it opens with them. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  open_photo (photo);

  g_test_add_func ("/instances/duplicate", test_duplicate);
  g_test_add_func ("/instances/rename", test_rename);
  g_test_add_func ("/instances/move", test_move);
  g_test_add_func ("/instances/raise", test_raise);
  g_test_add_func ("/instances/remove-undo", test_remove_undo);
  g_test_add_func ("/instances/mask-rows", test_mask_rows);
  g_test_add_func ("/instances/sidecar", test_sidecar);
  g_test_add_func ("/instances/shapes", test_shapes);
  g_test_add_func ("/instances/scene-luminance", test_scene_luminance);
  g_test_add_func ("/instances/no-room", test_no_room);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  lm_test_remove_tree (tmp_dir);
  return rc;
}
