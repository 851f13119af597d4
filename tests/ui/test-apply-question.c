/* Apply Edits to Photos… asks before it changes a photo's own edits, acting as a person does
 * (pointer and keys through the X server) and reading the files written: photo A is edited
 * (blur's slider dragged), its edits applied through the chooser (the folder typed, every
 * photo in it selected with Ctrl+A, Apply clicked) to B, whose sidecar holds edits of its own
 * (grayscale on, blur at another σ), and C, which has none.
 * - Replace: B's sidecar becomes A's edits, its former one is kept as `.before-apply` byte
 *   for byte, and the summary names B and that copy; B edited again and Replace run again:
 *   that copy stays as it was, the new one is `.before-apply.2`, and the summary names it;
 * - Merge: B's sidecar is its own with A's blur in place of its blur, grayscale still on;
 * - Skip: B's sidecar and folder are as they were, no export of B, the summary says so;
 * - Apply to all (ticked with the pointer): one question for two such photos, both merged;
 * - without it, each is asked about in turn (Replace, then Escape: skipped).
 * C is never asked about and gets A's edits. The photos are copies in a folder of the test's
 * own; the data folder is the test's too. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/edit/sidecar.h"
#include "ui/stage-params.h"
#include "ui/window.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir;
static LmPipeline applied; /* A's edits, as its sidecar has them */

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

/* B's own edits: grayscale on, blur on at σ 0.8 (A's blur is dragged elsewhere). */
static LmPipeline
own_edits (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  lm_stage_by_name (&p, "gray")->enabled = TRUE;
  LmStage *blur = lm_stage_by_name (&p, "blur");
  blur->enabled = TRUE;
  *lm_stage_float (blur, "sigma") = 0.8f;
  return p;
}

/* FOLDER (under the test's) with copies of the corpus's photos as B.png, C.png (and D.png
 * where WITH_D), B and D with own_edits as their sidecars; returns FOLDER's path. */
static char *
make_targets (const char *folder, gboolean with_d)
{
  char *dir = tmp_path (folder);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  const char *names[] = { "B.png", "C.png", "D.png" };
  const char *sources[] = { "photos/coffee-alpha.png", "photos/camera-gray.png", "photos/chelsea.png" };
  LmPipeline own = own_edits ();
  for (int i = 0; i < (with_d ? 3 : 2); i++)
    {
      g_autofree char *to = g_build_filename (dir, names[i], NULL);
      g_free (ui_copy_test_data (sources[i], to));
      if (i == 1)
        continue;
      g_autofree char *sidecar = lm_sidecar_beside_path (to);
      GError *e = NULL;
      g_assert_true (lm_sidecar_write (sidecar, &own, &e));
      g_assert_no_error (e);
    }
  return dir;
}

static char *
file_text (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* The chooser's list of files: its largest tree view on screen (the places are a list box). */
static GtkWidget *
file_list (GtkWidget *dialog)
{
  g_autoptr (GPtrArray) views = ui_find_all (dialog, GTK_TYPE_TREE_VIEW);
  GtkWidget *best = NULL;
  int best_area = 0;
  for (guint i = 0; i < views->len; i++)
    {
      GtkWidget *w = views->pdata[i];
      int area = gtk_widget_get_allocated_width (w) * gtk_widget_get_allocated_height (w);
      if (gtk_widget_get_mapped (w) && area > best_area)
        best = w, best_area = area;
    }
  g_assert_nonnull (best);
  return best;
}

/* How many of the chooser DIALOG's selected files lie in FOLDER; 0 when any lies elsewhere. */
static int
selected_in (GtkWidget *dialog, const char *folder)
{
  GSList *files = gtk_file_chooser_get_filenames (GTK_FILE_CHOOSER (dialog));
  int inside = 0, elsewhere = 0;
  for (GSList *l = files; l; l = l->next)
    {
      g_autofree char *dir = g_path_get_dirname (l->data);
      *(g_strcmp0 (dir, folder) == 0 ? &inside : &elsewhere) += 1;
    }
  g_slist_free_full (files, g_free);
  return elsewhere ? 0 : inside;
}

/* The chooser answered as a person does: FOLDER typed in the location field (Ctrl+L), the
 * file list clicked, every photo selected (Ctrl+A), Apply clicked. The chooser opens on the
 * folder of the last run, whose list is replaced once FOLDER is read: that can take seconds on
 * a loaded machine and drops the selection, so a person looks again and selects again. */
static void
answer_chooser (GtkWidget *dialog, gpointer folder)
{
  ui_focus_window (dialog);
  ui_key (GDK_KEY_l, GDK_CONTROL_MASK);
  g_autofree char *typed = g_strconcat (folder, "/", NULL);
  ui_type (typed);
  ui_key (GDK_KEY_Return, 0);
  int selected = 0;
  for (gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
       selected < 2 && g_get_monotonic_time () < deadline;)
    {
      ui_wait_ms (300); /* the folder is read */
      g_autofree char *shown = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (dialog));
      GtkWidget *list = file_list (dialog);
      GtkTreeModel *model = gtk_tree_view_get_model (GTK_TREE_VIEW (list));
      if (g_strcmp0 (shown, folder) != 0 || model == NULL || gtk_tree_model_iter_n_children (model, NULL) < 2)
        continue;
      ui_click (list, 40, gtk_widget_get_allocated_height (list) / 6.0);
      ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
      ui_wait_ms (100);
      selected = selected_in (dialog, folder);
    }
  g_test_message ("%d photos selected", selected);
  g_assert_cmpint (selected, >=, 2);
  GtkWidget *apply = ui_button_labelled (dialog, _("_Apply"));
  g_assert_nonnull (apply);
  ui_click_middle (apply);
}

static void
activate_apply_edits (gpointer unused)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_activate ("apply-edits");
}

/* The question last found on screen, NULL once it has gone. */
static GtkWidget *asked;

/* The question about a photo's own edits, once it is on screen; NULL after SECONDS. */
static GtkWidget *
await_question (int seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  do
    {
      g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
      for (GList *l = toplevels; l; l = l->next)
        if (g_strcmp0 (gtk_widget_get_name (l->data), "apply-question") == 0 && gtk_widget_get_mapped (l->data))
          {
            asked = l->data;
            g_object_add_weak_pointer (G_OBJECT (asked), (gpointer *) &asked);
            ui_wait_ms (200); /* drawn and placed */
            g_assert_nonnull (asked);
            ui_focus_window (asked);
            return asked;
          }
      ui_wait_ms (50);
    }
  while (g_get_monotonic_time () < deadline);
  return NULL;
}

/* Runs the main loop until the question await_question returned last has gone: a button
 * pressed with its mnemonic clicks a moment after the key (GtkButton shows it pressed first). */
static void
await_gone (void)
{
  for (int i = 0; i < 200 && asked; i++)
    ui_wait_ms (25);
  g_assert_null (asked);
}

/* The outcome's text, then Close clicked. */
static char *
outcome_and_close (void)
{
  GtkWidget *dialog = ui_await_apply_outcome ();
  g_assert_nonnull (dialog);
  GtkWidget *outcome = ui_find_named_within (dialog, "apply-outcome");
  char *text = g_strdup (outcome && gtk_widget_get_mapped (outcome) ? gtk_label_get_text (GTK_LABEL (outcome)) : "");
  g_test_message ("outcome:\n%s", text);
  ui_focus_window (dialog);
  ui_click_middle (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE));
  ui_wait_ms (200);
  return text;
}

/* Apply Edits to Photos… on every photo of FOLDER; the first question, or NULL when none. */
static GtkWidget *
apply_to_folder (const char *folder)
{
  ui_answer_chooser (activate_apply_edits, NULL, answer_chooser, (gpointer) folder);
  return await_question (10);
}

/* C, which had no sidecar, has A's edits and its export. */
static void
assert_c_applied (const char *dir)
{
  g_autofree char *c = g_build_filename (dir, "C.png", NULL);
  g_autofree char *c_sidecar = lm_sidecar_beside_path (c);
  LmPipeline got = ui_read_sidecar (c_sidecar);
  g_assert_true (lm_pipeline_equal (&got, &applied));
  g_autofree char *edited = g_build_filename (dir, "C-edited.png", NULL);
  g_assert_true (g_file_test (edited, G_FILE_TEST_IS_REGULAR));
}

static void
test_replace (void)
{
  g_autofree char *dir = make_targets ("replace", FALSE);
  g_autofree char *b = g_build_filename (dir, "B.png", NULL);
  g_autofree char *sidecar = lm_sidecar_beside_path (b);
  g_autofree char *before = file_text (sidecar);
  GtkWidget *question = apply_to_folder (dir);
  g_assert_nonnull (question); /* B has edits of its own: asked about */
  ui_key (GDK_KEY_r, GDK_MOD1_MASK); /* _Replace */
  g_autofree char *outcome = outcome_and_close ();

  LmPipeline got = ui_read_sidecar (sidecar);
  g_assert_true (lm_pipeline_equal (&got, &applied));
  g_autofree char *copy = g_strconcat (sidecar, ".before-apply", NULL);
  g_autofree char *kept = file_text (copy);
  g_assert_cmpstr (kept, ==, before);
  g_autofree char *edited = g_build_filename (dir, "B-edited.png", NULL);
  g_assert_true (g_file_test (edited, G_FILE_TEST_IS_REGULAR));
  assert_c_applied (dir);
  /* The summary says B's edits were replaced and where they are kept; nothing of C. */
  g_autofree char *copy_display = g_filename_display_name (copy);
  g_autofree char *line = g_strdup_printf (_("%s: its own edits were replaced (they are kept in %s)"), "B.png",
                                           copy_display);
  g_assert_nonnull (strstr (outcome, line));
  g_assert_null (strstr (outcome, "C.png"));

  /* B edited again (blur at σ 1.6), Apply run again with Replace: that copy stays, B's edits
   * of now go to `.before-apply.2`, which the summary names. */
  LmPipeline again = own_edits ();
  *lm_stage_float (lm_stage_by_name (&again, "blur"), "sigma") = 1.6f;
  GError *e = NULL;
  g_assert_true (lm_sidecar_write (sidecar, &again, &e));
  g_assert_no_error (e);
  g_autofree char *before_again = file_text (sidecar);
  question = apply_to_folder (dir);
  g_assert_nonnull (question);
  ui_key (GDK_KEY_r, GDK_MOD1_MASK); /* _Replace */
  g_autofree char *outcome_again = outcome_and_close ();
  g_autofree char *kept_first = file_text (copy);
  g_assert_cmpstr (kept_first, ==, before);
  g_autofree char *copy_again = g_strconcat (sidecar, ".before-apply.2", NULL);
  g_autofree char *kept_again = file_text (copy_again);
  g_assert_cmpstr (kept_again, ==, before_again);
  g_autofree char *again_display = g_filename_display_name (copy_again);
  g_autofree char *line_again = g_strdup_printf (_("%s: its own edits were replaced (they are kept in %s)"),
                                                 "B.png", again_display);
  g_assert_nonnull (strstr (outcome_again, line_again));
}

/* B's own edits with A's blur in place of its own: what Merge must give. */
static LmPipeline
merged_expected (void)
{
  LmPipeline want = own_edits ();
  *lm_stage_by_name (&want, "blur") = *lm_stage_by_name (&applied, "blur");
  return want;
}

static void
test_merge (void)
{
  g_autofree char *dir = make_targets ("merge", FALSE);
  g_autofree char *b = g_build_filename (dir, "B.png", NULL);
  g_autofree char *sidecar = lm_sidecar_beside_path (b);
  GtkWidget *question = apply_to_folder (dir);
  g_assert_nonnull (question);
  ui_key (GDK_KEY_m, GDK_MOD1_MASK); /* _Merge */
  g_autofree char *outcome = outcome_and_close ();

  LmPipeline got = ui_read_sidecar (sidecar), want = merged_expected ();
  g_assert_true (lm_stage_by_name (&got, "gray")->enabled); /* its own, kept */
  g_assert_cmpfloat (*lm_stage_float (lm_stage_by_name (&got, "blur"), "sigma"), ==,
                     *lm_stage_float (lm_stage_by_name (&applied, "blur"), "sigma"));
  g_assert_true (lm_pipeline_equal (&got, &want));
  g_autofree char *copy = g_strconcat (sidecar, ".before-apply", NULL);
  g_assert_true (g_file_test (copy, G_FILE_TEST_IS_REGULAR));
  assert_c_applied (dir);
  g_assert_nonnull (strstr (outcome, "B.png"));
  g_autofree char *copy_display = g_filename_display_name (copy);
  g_assert_nonnull (strstr (outcome, copy_display));
}

static void
test_skip (void)
{
  g_autofree char *dir = make_targets ("skip", FALSE);
  g_autofree char *b = g_build_filename (dir, "B.png", NULL);
  g_autofree char *sidecar = lm_sidecar_beside_path (b);
  g_autofree char *before = file_text (sidecar);
  GtkWidget *question = apply_to_folder (dir);
  g_assert_nonnull (question);
  GtkWidget *skip = ui_button_labelled (question, _("_Skip"));
  g_assert_nonnull (skip);
  ui_click_middle (skip); /* with the pointer */
  g_autofree char *outcome = outcome_and_close ();

  g_autofree char *after = file_text (sidecar);
  g_assert_cmpstr (after, ==, before);
  g_autofree char *edited = g_build_filename (dir, "B-edited.png", NULL);
  g_assert_false (g_file_test (edited, G_FILE_TEST_EXISTS));
  g_autofree char *copy = g_strconcat (sidecar, ".before-apply", NULL);
  g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));
  assert_c_applied (dir);
  g_autofree char *line = g_strdup_printf (_("%s: skipped, its own edits kept"), "B.png");
  g_assert_nonnull (strstr (outcome, line));
}

/* Apply to all, ticked with the pointer, then Merge: D is not asked about and is merged too. */
static void
test_apply_to_all (void)
{
  g_autofree char *dir = make_targets ("all", TRUE);
  GtkWidget *question = apply_to_folder (dir);
  g_assert_nonnull (question);
  GtkWidget *all = ui_find_named_within (question, "apply-to-all");
  g_assert_nonnull (all);
  ui_click_middle (all);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (all)));
  ui_click_middle (ui_button_labelled (question, _("_Merge")));
  await_gone ();
  g_assert_null (await_question (2)); /* none for D */
  g_autofree char *outcome = outcome_and_close ();
  LmPipeline want = merged_expected ();
  const char *names[] = { "B.png", "D.png" };
  for (int i = 0; i < 2; i++)
    {
      g_autofree char *photo = g_build_filename (dir, names[i], NULL);
      g_autofree char *sidecar = lm_sidecar_beside_path (photo);
      LmPipeline got = ui_read_sidecar (sidecar);
      g_assert_true (lm_pipeline_equal (&got, &want));
      g_assert_nonnull (strstr (outcome, names[i]));
    }
  assert_c_applied (dir);
}

/* Two photos with edits of their own, each asked about in turn: B replaced (Alt+R), D skipped
 * (Escape: the question closed loses nothing). */
static void
test_each_asked (void)
{
  g_autofree char *dir = make_targets ("each", TRUE);
  g_autofree char *b = g_build_filename (dir, "B.png", NULL), *d = g_build_filename (dir, "D.png", NULL);
  g_autofree char *b_sidecar = lm_sidecar_beside_path (b), *d_sidecar = lm_sidecar_beside_path (d);
  g_autofree char *d_before = file_text (d_sidecar);
  GtkWidget *question = apply_to_folder (dir);
  g_assert_nonnull (question);
  ui_key (GDK_KEY_r, GDK_MOD1_MASK);
  await_gone ();
  question = await_question (10); /* D's */
  g_assert_nonnull (question);
  ui_key (GDK_KEY_Escape, 0);
  await_gone ();
  g_autofree char *outcome = outcome_and_close ();
  LmPipeline got = ui_read_sidecar (b_sidecar);
  g_assert_true (lm_pipeline_equal (&got, &applied));
  g_autofree char *d_after = file_text (d_sidecar);
  g_assert_cmpstr (d_after, ==, d_before);
  g_autofree char *d_edited = g_build_filename (dir, "D-edited.png", NULL);
  g_assert_false (g_file_test (d_edited, G_FILE_TEST_EXISTS));
  assert_c_applied (dir);
  g_autofree char *line = g_strdup_printf (_("%s: skipped, its own edits kept"), "D.png");
  g_assert_nonnull (strstr (outcome, line));
  g_assert_nonnull (strstr (outcome, "B.png"));
}

/* A's edit: blur's σ slider dragged from its left end a third of the way, as a hand does;
 * returns once its sidecar has it. */
static void
edit_a (const char *a)
{
  GtkWidget *slider = ui_find_named (lm_window_get_op_panel (ui_window, LM_OP_BLUR), "sigma-slider");
  g_assert_nonnull (slider);
  ui_scroll_into_view (slider);
  ui_focus_window (GTK_WIDGET (ui_window));
  GdkRectangle trough;
  gtk_range_get_range_rect (GTK_RANGE (slider), &trough);
  double y = trough.y + trough.height / 2.0;
  ui_drag (slider, trough.x + 1, y, trough.x + trough.width / 3.0, y, 12);
  ui_settle_tracked ();
  g_autofree char *sidecar = lm_sidecar_beside_path (a);
  for (int i = 0; i < 200 && !g_file_test (sidecar, G_FILE_TEST_EXISTS); i++)
    ui_wait_ms (20);
  ui_wait_ms (300);
  applied = ui_read_sidecar (sidecar);
  LmStage *blur = lm_stage_by_name (&applied, "blur");
  g_assert_true (blur->enabled);
  g_assert_cmpfloat (*lm_stage_float (blur, "sigma"), !=, 0.8f);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-apply-question-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *data_home = tmp_path ("data");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE); /* before GLib reads it */
  g_autofree char *a = tmp_path ("A.png");
  g_free (ui_copy_test_data ("photos/chelsea.png", a));
  ui_test_init (&argc, &argv, "photos/camera-gray.png");
  ui_track_results ();
  /* ui_test_init turns sidecars off for the other window tests; here they are the subject. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  ui_open_recent (a);
  /* Open once the window's title names it (camera-gray is 512 × 512, A 451 × 300). */
  for (int i = 0; i < 1000 && g_strcmp0 (gtk_window_get_title (GTK_WINDOW (ui_window)), "A.png") != 0
                  && ui_histogram ().total != 451 * 300;
       i++)
    ui_wait_ms (20);
  ui_settle_tracked ();
  g_assert_cmpuint (ui_histogram ().total, ==, 451 * 300);
  edit_a (a);

  g_test_add_func ("/apply-question/replace", test_replace);
  g_test_add_func ("/apply-question/merge", test_merge);
  g_test_add_func ("/apply-question/skip", test_skip);
  g_test_add_func ("/apply-question/apply-to-all", test_apply_to_all);
  g_test_add_func ("/apply-question/each-asked", test_each_asked);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  lm_test_remove_tree (tmp_dir);
  return rc;
}
