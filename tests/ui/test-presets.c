/* Presets and selective paste in the window, as a person uses them:
 * - grayscale switched on, Save Current Edits as Preset… named "Mono" by typing: the preset's
 *   file holds grayscale; Revert, then the Presets menu's "Mono": the view turns gray, and one
 *   Ctrl+Z brings the colour back;
 * - a photo cropped and in grayscale, its edits copied (Ctrl+Alt+C) and pasted onto another:
 *   Paste Selectively… (Ctrl+Shift+V) lists crop unticked and grayscale ticked, and pastes the
 *   look without the crop; ticking crop carries it; Paste (Ctrl+Alt+V) leaves the crop out;
 * - Apply Edits to Photos… from the cropped, gray photo onto a third: the chooser's Operations
 *   applied lists crop unticked and grayscale ticked; the photo written is gray and uncropped,
 *   and its sidecar has grayscale, not the crop;
 * - Manage Presets…: "Mono" renamed to "Gray look" by typing, then deleted; the menu follows;
 *   deleting a built-in one is refused in the dialog, which names it;
 * - a row of the preset list dragged with the pointer onto a drop target (as the folder view's
 *   thumbnails are) hands it the preset's file;
 * - a preset imported, then deleted, by `lumen-cli presets` in another process comes and goes
 *   in the list by itself. */
#include <string.h>
#include <glib/gstdio.h>

#include "core/edit/sidecar.h"
#include "core/library/presets.h"
#include "ui-testlib.h"
#include "ui/preset-list.h"
#include "ui/window-private.h"

static char *photo_a, *photo_b, *photo_c;

/* The largest |R − G| + |G − B| of the view's pixels: 0 for a gray image. */
static int
colourfulness (void)
{
  LmViewRect rect;
  LmImage *px = lm_image_view_get_pixels (ui_image_view (), &rect);
  g_assert_nonnull (px);
  g_assert_cmpint (px->format, ==, LM_FORMAT_RGBA8);
  int most = 0;
  for (guint y = 0; y < px->height; y++)
    for (guint x = 0; x < px->width; x++)
      {
        const guint8 *p = (const guint8 *) px->data + (gsize) y * px->stride + 4 * (gsize) x;
        most = MAX (most, abs (p[0] - p[1]) + abs (p[1] - p[2]));
      }
  return most;
}

static gboolean
is_on (LmOpId op)
{
  return gtk_switch_get_active (GTK_SWITCH (ui_control (op, "enabled")));
}

/* The toplevel named NAME once it is on screen and drawn. */
static GtkWidget *
await_toplevel (const char *name)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
      for (GList *l = toplevels; l; l = l->next)
        if (g_strcmp0 (gtk_widget_get_name (l->data), name) == 0 && gtk_widget_get_mapped (l->data))
          {
            ui_wait_ms (200); /* mapped is not yet drawn */
            return l->data;
          }
      ui_wait_ms (20);
    }
  g_assert_not_reached ();
}

static void
click (GtkWidget *widget)
{
  GtkAllocation a;
  gtk_widget_get_allocation (widget, &a);
  ui_click (widget, a.width / 2.0, a.height / 2.0);
}

/* DIALOG's button LABEL clicked, and DIALOG gone after it. */
static void
click_closing (GtkWidget *dialog, const char *label)
{
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  click (ui_button_labelled (dialog, label));
  for (int turn = 0; turn < 500 && dialog != NULL; turn++)
    ui_wait_ms (20);
  g_assert_null (dialog);
}

/* Opens PATH and waits for its first render. */
static void
open_photo (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline
         && (ui_window->file == NULL || !g_file_equal (ui_window->file, file) || ui_window->source == NULL))
    ui_wait_ms (20);
  g_assert_true (ui_window->file && g_file_equal (ui_window->file, file));
  ui_settle_tracked ();
}

/* The Presets menu's item NAME activated as the menu does it (its action and target). */
static void
choose_from_presets_menu (const char *name)
{
  GMenuModel *items = G_MENU_MODEL (gtk_widget_get_template_child (GTK_WIDGET (ui_window), LM_TYPE_WINDOW,
                                                                    "preset_items"));
  for (int i = 0; i < g_menu_model_get_n_items (items); i++)
    {
      g_autofree char *label = NULL, *action = NULL;
      g_menu_model_get_item_attribute (items, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      if (g_strcmp0 (label, name) != 0)
        continue;
      g_assert_true (g_menu_model_get_item_attribute (items, i, G_MENU_ATTRIBUTE_ACTION, "s", &action));
      g_autoptr (GVariant) target = g_menu_model_get_item_attribute_value (items, i, G_MENU_ATTRIBUTE_TARGET, NULL);
      g_assert_cmpstr (action, ==, "win.apply-preset");
      g_action_group_activate_action (G_ACTION_GROUP (ui_window), "apply-preset", target);
      return;
    }
  g_test_message ("no %s in the Presets menu", name);
  g_assert_not_reached ();
}

static void
test_save_and_apply (void)
{
  open_photo (photo_b);
  g_assert_cmpint (colourfulness (), >, 40);
  GtkWidget *gray = ui_control (LM_OP_GRAY, "enabled");
  ui_scroll_into_view (gray);
  ui_focus_window (GTK_WIDGET (ui_window));
  click (gray);
  ui_settle_tracked ();
  g_assert_true (is_on (LM_OP_GRAY));
  g_assert_cmpint (colourfulness (), <=, 2);

  ui_activate ("save-preset");
  GtkWidget *dialog = await_toplevel ("preset-save-dialog");
  GtkWidget *check = ui_find_named (dialog, "paste-op-gray");
  g_assert_nonnull (check);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (check)));
  ui_focus_window (dialog);
  click (ui_find_named (dialog, "preset-name"));
  ui_type ("Mono");
  click_closing (dialog, "_Save");
  g_autofree char *dir = lm_presets_user_dir ();
  g_autofree char *file = g_build_filename (dir, "Mono.lumen", NULL);
  LmPipeline saved;
  g_assert_true (lm_preset_load (file, &saved, NULL));
  g_assert_true (lm_pipeline_primary (&saved, LM_OP_GRAY)->enabled);

  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_r, GDK_CONTROL_MASK); /* Revert to Original */
  ui_settle_tracked ();
  g_assert_false (is_on (LM_OP_GRAY));
  int colour = colourfulness ();
  g_assert_cmpint (colour, >, 40);

  choose_from_presets_menu ("Mono");
  ui_settle_tracked ();
  g_assert_true (is_on (LM_OP_GRAY));
  g_assert_cmpint (colourfulness (), <=, 2);
  /* One undo step. */
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  g_assert_false (is_on (LM_OP_GRAY));
  g_assert_cmpint (colourfulness (), ==, colour);

  /* A built-in one, from the same menu. */
  choose_from_presets_menu ("Black and white");
  ui_settle_tracked ();
  g_assert_cmpint (colourfulness (), <=, 2);
}

/* Copies photo A's edits (crop to 100 × 80, grayscale) and opens photo B, uncropped. */
static void
copy_a_open_b (guint *width, guint *height)
{
  open_photo (photo_a);
  guint w, h;
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  g_assert_cmpuint (w, ==, 100);
  g_assert_cmpuint (h, ==, 80);
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_c, GDK_CONTROL_MASK | GDK_MOD1_MASK);
  ui_flush ();
  open_photo (photo_b);
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_r, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  lm_image_view_get_image_size (ui_image_view (), width, height);
  g_assert_cmpuint (*width, >, 100);
  g_assert_false (is_on (LM_OP_GRAY));
}

static void
await_gray (gboolean on)
{
  for (int turn = 0; turn < 200 && is_on (LM_OP_GRAY) != on; turn++)
    ui_wait_ms (20);
  ui_settle_tracked ();
  g_assert_true (is_on (LM_OP_GRAY) == on);
}

static void
test_paste_selectively (void)
{
  guint bw, bh, w, h;
  copy_a_open_b (&bw, &bh);
  ui_key (GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  GtkWidget *dialog = await_toplevel ("paste-ops-dialog");
  GtkWidget *crop = ui_find_named (dialog, "paste-op-crop");
  GtkWidget *gray = ui_find_named (dialog, "paste-op-gray");
  g_assert_nonnull (crop);
  g_assert_nonnull (gray);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (crop)));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (gray)));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (ui_find_named (dialog, "paste-replace"))));
  ui_focus_window (dialog);
  click_closing (dialog, "_Paste");
  await_gray (TRUE);
  g_assert_false (is_on (LM_OP_CROP));
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  g_assert_cmpuint (w, ==, bw);
  g_assert_cmpuint (h, ==, bh);
  g_assert_cmpint (colourfulness (), <=, 2);

  /* Crop ticked by the person: it goes too. */
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_r, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  ui_key (GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  dialog = await_toplevel ("paste-ops-dialog");
  ui_focus_window (dialog);
  click (ui_find_named (dialog, "paste-op-crop"));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (ui_find_named (dialog, "paste-op-crop"))));
  click_closing (dialog, "_Paste");
  await_gray (TRUE);
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  g_assert_cmpuint (w, ==, 100);
  g_assert_cmpuint (h, ==, 80);

  /* Plain Paste: the look, not the crop. */
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_r, GDK_CONTROL_MASK);
  ui_settle_tracked ();
  ui_key (GDK_KEY_v, GDK_CONTROL_MASK | GDK_MOD1_MASK);
  await_gray (TRUE);
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  g_assert_cmpuint (w, ==, bw);
}

static void
answer_apply (GtkWidget *dialog, gpointer unused)
{
  GtkWidget *ops = ui_find_named (dialog, "apply-operations");
  g_assert_nonnull (ops);
  gtk_expander_set_expanded (GTK_EXPANDER (ops), TRUE);
  ui_wait_ms (200);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (ui_find_named (ops, "paste-op-crop"))));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (ui_find_named (ops, "paste-op-gray"))));
  g_assert_true (gtk_file_chooser_select_filename (GTK_FILE_CHOOSER (dialog), photo_c));
  ui_wait_ms (300);
  click (ui_button_labelled (dialog, "_Apply"));
}

static void
open_apply (gpointer unused)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_activate ("apply-edits");
}

static void
test_apply_edits (void)
{
  open_photo (photo_a);
  ui_answer_chooser (open_apply, NULL, answer_apply, NULL);
  GtkWidget *outcome = ui_await_apply_outcome ();
  g_assert_nonnull (outcome);
  gtk_dialog_response (GTK_DIALOG (outcome), GTK_RESPONSE_CLOSE);
  g_autofree char *dir = g_path_get_dirname (photo_c);
  g_autofree char *written = g_build_filename (dir, "c-edited.png", NULL);
  g_autoptr (LmImage) out = ui_load_image (written);
  g_autoptr (LmImage) in = ui_load_image (photo_c);
  g_assert_cmpuint (out->width, ==, in->width);
  g_assert_cmpuint (out->height, ==, in->height);
  for (guint y = 0; y < out->height; y += 7)
    for (guint x = 0; x < out->width; x += 7)
      {
        const guint8 *p = lm_image_row (out, y) + (gsize) x * lm_format_bytes_per_pixel (out->format);
        if (out->format != LM_FORMAT_GRAY8)
          g_assert_true (p[0] == p[1] && p[1] == p[2]);
      }
  g_autofree char *sidecar = lm_sidecar_beside_path (written);
  g_autofree char *own = lm_sidecar_beside_path (photo_c);
  const char *kept = g_file_test (sidecar, G_FILE_TEST_EXISTS) ? sidecar : own;
  LmPipeline edits = ui_read_sidecar (kept);
  g_assert_true (lm_pipeline_primary (&edits, LM_OP_GRAY)->enabled);
  g_assert_false (lm_pipeline_primary (&edits, LM_OP_CROP)->enabled);
}

static gboolean
in_presets_menu (const char *name)
{
  GMenuModel *items = G_MENU_MODEL (gtk_widget_get_template_child (GTK_WIDGET (ui_window), LM_TYPE_WINDOW,
                                                                    "preset_items"));
  for (int i = 0; i < g_menu_model_get_n_items (items); i++)
    {
      g_autofree char *label = NULL;
      g_menu_model_get_item_attribute (items, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      if (g_strcmp0 (label, name) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
test_manage (void)
{
  g_assert_true (in_presets_menu ("Mono"));
  ui_activate ("manage-presets");
  GtkWidget *dialog = await_toplevel ("preset-manage-dialog");
  ui_focus_window (dialog);
  click (ui_find_named (dialog, "preset-Mono"));
  GtkWidget *entry = ui_find_named (dialog, "preset-new-name");
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (entry)), ==, "Mono");
  click (entry);
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type ("Gray look");
  click (ui_find_named (dialog, "preset-rename"));
  ui_wait_ms (100);
  g_autofree char *dir = lm_presets_user_dir ();
  g_autofree char *old_file = g_build_filename (dir, "Mono.lumen", NULL);
  g_autofree char *new_file = g_build_filename (dir, "Gray look.lumen", NULL);
  g_assert_false (g_file_test (old_file, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (new_file, G_FILE_TEST_EXISTS));
  g_assert_false (in_presets_menu ("Mono"));
  g_assert_true (in_presets_menu ("Gray look"));

  /* A built-in one stays, and the dialog says so. */
  click (ui_find_named (dialog, "preset-Warm"));
  click (ui_find_named (dialog, "preset-delete"));
  ui_wait_ms (100);
  GtkWidget *message = ui_find_named (dialog, "preset-error");
  g_assert_true (gtk_widget_get_visible (message));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "Warm"));
  g_assert_true (in_presets_menu ("Warm"));

  click (ui_find_named (dialog, "preset-Gray look"));
  click (ui_find_named (dialog, "preset-delete"));
  ui_wait_ms (100);
  g_assert_false (g_file_test (new_file, G_FILE_TEST_EXISTS));
  g_assert_false (in_presets_menu ("Gray look"));
  g_assert_null (ui_find_named (dialog, "preset-Gray look"));
  gtk_widget_destroy (dialog);
}

static char *dropped;

static void
on_drop (GtkWidget *target, GdkDragContext *context, int x, int y, GtkSelectionData *data, guint info, guint time)
{
  g_free (dropped);
  dropped = lm_preset_list_drop_path (data);
  gtk_drag_finish (context, dropped != NULL, FALSE, time);
}

static void
test_drag_preset (void)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (window), 500, 400);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *list = lm_preset_list_new ();
  gtk_widget_set_size_request (list, 200, -1);
  GtkWidget *target = gtk_event_box_new ();
  gtk_widget_set_hexpand (target, TRUE);
  gtk_container_add (GTK_CONTAINER (target), gtk_label_new ("drop here"));
  static const GtkTargetEntry entry[] = { { (char *) LM_PRESET_DND_TARGET, GTK_TARGET_SAME_APP, 0 } };
  gtk_drag_dest_set (target, GTK_DEST_DEFAULT_ALL, entry, 1, GDK_ACTION_COPY);
  g_signal_connect (target, "drag-data-received", G_CALLBACK (on_drop), NULL);
  gtk_container_add (GTK_CONTAINER (box), list);
  gtk_container_add (GTK_CONTAINER (box), target);
  gtk_container_add (GTK_CONTAINER (window), box);
  gtk_widget_show_all (window);
  ui_focus_window (window);
  ui_wait_ms (300);
  GtkWidget *row = ui_find_named (list, "preset-Warm");
  g_assert_nonnull (row);
  GtkAllocation r, t;
  gtk_widget_get_allocation (row, &r);
  gtk_widget_get_allocation (target, &t);
  int tx, ty;
  g_assert_true (gtk_widget_translate_coordinates (target, row, t.width / 2, t.height / 2, &tx, &ty));
  /* By hand rather than ui_drag: GTK's drag starts past a threshold and then follows the
   * pointer through its own grab, each step handled before the next. */
  ui_pointer_move (row, r.width / 4.0, r.height / 2.0);
  ui_pointer_button (1, TRUE);
  for (int i = 1; i <= 20; i++)
    {
      ui_pointer_move (row, r.width / 4.0 + (tx - r.width / 4.0) * i / 20, r.height / 2.0 + (ty - r.height / 2.0) * i / 20);
      ui_wait_ms (30);
    }
  ui_wait_ms (100);
  ui_pointer_button (1, FALSE);
  for (int turn = 0; turn < 100 && dropped == NULL; turn++)
    ui_wait_ms (20);
  g_autofree char *want = lm_preset_resolve ("Warm", NULL);
  g_assert_cmpstr (dropped, ==, want);
  /* A click still selects a row (Manage Presets… acts on the selected one). */
  GtkWidget *cool = ui_find_named (list, "preset-Cool");
  click (cool);
  ui_wait_ms (100);
  g_assert_true (GTK_WIDGET (gtk_list_box_get_selected_row (GTK_LIST_BOX (list))) == cool);
  gtk_widget_destroy (window);
}

/* Whether LIST shows a row for the preset NAME: WANT as soon as it does (or does not, for
 * WANT FALSE), the main loop turning for up to SECONDS (a change made elsewhere reaches the
 * list through its folder's monitor); the other answer once that time is over. */
static gboolean
listed_within (GtkWidget *list, const char *name, gboolean want, int seconds)
{
  g_autofree char *row = g_strconcat ("preset-", name, NULL);
  for (gint64 end = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;; ui_wait_ms (50))
    {
      if ((ui_find_named (list, row) != NULL) == want)
        return want;
      if (g_get_monotonic_time () >= end)
        return !want;
    }
}

/* A preset imported and then deleted by `lumen-cli presets` in another process: the folder
 * view's list shows it, then drops it, with nothing done in the window. */
static void
test_changed_elsewhere (void)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *list = lm_preset_list_new ();
  gtk_container_add (GTK_CONTAINER (window), list);
  gtk_widget_show_all (window);
  ui_wait_ms (200);
  g_assert_false (listed_within (list, "Elsewhere", TRUE, 0));
  g_autofree char *file = g_build_filename (g_get_user_data_dir (), "elsewhere.lumen", NULL);
  g_assert_true (g_file_set_contents (file, "[gray]\nenabled=true\n", -1, NULL));
  const char *import[] = { "presets", "import", file, "Elsewhere", NULL };
  ui_run_cli (import);
  g_assert_true (listed_within (list, "Elsewhere", TRUE, 10));
  const char *delete[] = { "presets", "delete", "Elsewhere", NULL };
  ui_run_cli (delete);
  g_assert_false (listed_within (list, "Elsewhere", FALSE, 10));
  gtk_widget_destroy (window);
  g_unlink (file);
}

int
main (int argc, char **argv)
{
  /* Presets of this test's own (GLib reads XDG_DATA_HOME once, at its first use). */
  g_autofree char *home = g_dir_make_tmp ("lumen-presets-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  photo_a = g_build_filename (home, "a.png", NULL);
  photo_b = g_build_filename (home, "b.png", NULL);
  g_autofree char *src = ui_test_data ("photos/chelsea.png");
  g_autofree char *bytes = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (src, &bytes, &len, NULL));
  g_assert_true (g_file_set_contents (photo_a, bytes, (gssize) len, NULL));
  g_assert_true (g_file_set_contents (photo_b, bytes, (gssize) len, NULL));
  g_autofree char *third = g_build_filename (home, "others", NULL);
  g_assert_cmpint (g_mkdir (third, 0700), ==, 0);
  photo_c = g_build_filename (third, "c.png", NULL);
  g_assert_true (g_file_set_contents (photo_c, bytes, (gssize) len, NULL));
  /* A's edits, read when it opens. */
  g_autofree char *sidecar = lm_sidecar_beside_path (photo_a);
  const char edits[] = "[crop]\nenabled=true\nx=10\ny=10\nwidth=100\nheight=80\n\n[gray]\nenabled=true\n";
  g_assert_true (g_file_set_contents (sidecar, edits, -1, NULL));

  ui_test_init (&argc, &argv, photo_b);
  ui_track_results ();
  /* Edits kept in sidecars (in this test's folder): another photo opens without a prompt. */
  g_autoptr (GSettings) settings = ui_settings ();
  if (settings)
    g_settings_set_boolean (settings, "keep-edits", TRUE);
  g_test_add_func ("/presets/save-and-apply", test_save_and_apply);
  g_test_add_func ("/presets/manage", test_manage);
  g_test_add_func ("/presets/paste-selectively", test_paste_selectively);
  g_test_add_func ("/presets/apply-edits", test_apply_edits);
  g_test_add_func ("/presets/drag-preset", test_drag_preset);
  g_test_add_func ("/presets/changed-elsewhere", test_changed_elsewhere);
  int rc = g_test_run ();
  g_autofree char *cleanup = g_strdup_printf ("rm -rf '%s'", home);
  (void) !system (cleanup);
  return rc;
}
