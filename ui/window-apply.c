/* LmWindow's Apply Edits to Photos… (window-apply.h): the edits of the photo in the window
 * applied to other photos, one after the other. Each is exported at full resolution by the
 * render worker's export job, as the Export action writes one (a worker of the run's own, so
 * that the window's photo stays in the window's), to `<name>-edited.<ext>` beside it (JPEG,
 * PNG and TIFF keep their format, others become PNG), and gets the edits as its sidecar. A
 * dialog shows the progress and can cancel (the photo in hand stops between its steps, none
 * after it starts); at the end it lists what failed, photo by photo, and what was read or
 * written otherwise than the file has it (the loaders' and writers' notes).
 *
 * The chooser lists the operations that are on (paste-ops.h), ticked as a paste onto another
 * photo carries them: framing and brushed masks left out unless the person ticks them; the
 * export's resize, set below the files, goes. A photo whose sidecar holds edits of its own
 * (other than those applied) is asked about first (apply-question.h): Replace (the chosen
 * operations take the place of its same ones, LM_PASTE_REPLACE), Merge (LM_PASTE_APPEND) or
 * Skip, perhaps for all. Its sidecar is copied to
 * `<sidecar>.before-apply` (`.before-apply.2`, … where an earlier run's copy is there) before
 * it is replaced or merged into, and the outcome names each such photo and its copy: there is
 * no undo across photos, the copy is how they come back. */
#include "window-apply.h"
#include "window-open.h"
#include "window-private.h"

#include <string.h>
#include <glib/gi18n.h>

#include "apply-question.h"
#include "core/edit/sidecar.h"
#include "export-options.h"
#include "paste-ops.h"

struct _LmApplyRun {
  LmWindow *window;    /* NULL once the window let go: late results are dropped */
  GPtrArray *photos;   /* of GFile */
  guint next;          /* the photo in hand */
  guint done;          /* photos written */
  LmPipeline pipeline;
  LmOpSelection selection; /* the operations of PIPELINE applied */
  LmBackendKind backend;
  int quality;
  gboolean to_srgb;    /* "Convert to sRGB", as the export's */
  int png_level;       /* as the export's */
  gboolean sidecars;   /* the keep-edits setting */
  int answer_all;      /* an LmApplyAnswer for every later photo with edits of its own, or 0 */
  LmApplyAnswer answer; /* for the photo in hand's own edits; 0: it had none */
  char *own_sidecar;   /* the photo in hand's sidecar of its own edits, NULL if none */
  char *own_copy;      /* where keep_own_edits copied it, NULL before */
  LmPipeline edits;    /* what the photo in hand gets: the edits applied, or merged into its own */
  GtkWidget *question; /* up while the photo in hand waits for an answer */
  GString *outcome;    /* a line per photo whose own edits were replaced, merged or skipped */
  GtkLabel *outcome_label;
  GtkWidget *details;  /* the outcome and the failures, hidden until there is one */
  LmRenderWorker *worker;
  GCancellable *cancellable;
  gboolean finished;   /* the outcome is shown: Close frees the run */
  GString *failures;   /* a line per photo, and per note */
  GPtrArray *notes;    /* the writers' notes on the photo in hand (LmSaveOptions.notes) */
  GtkWidget *dialog;
  GtkLabel *label;
  GtkProgressBar *bar;
  GtkLabel *failures_label;
};

static void start_next (LmApplyRun *run);

static void
run_clear (LmApplyRun *run)
{
  g_clear_pointer (&run->worker, lm_render_worker_free);
  g_ptr_array_unref (run->photos);
  g_object_unref (run->cancellable);
  g_string_free (run->failures, TRUE);
  g_string_free (run->outcome, TRUE);
  g_free (run->own_sidecar);
  g_free (run->own_copy);
  g_ptr_array_unref (run->notes);
}

static void
run_release (LmApplyRun *run)
{
  g_rc_box_release_full (run, (GDestroyNotify) run_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmApplyRun, run_release)

void
lm_window_apply_free (LmWindow *self)
{
  LmApplyRun *run = g_steal_pointer (&self->apply);
  if (run == NULL)
    return;
  g_cancellable_cancel (run->cancellable);
  run->window = NULL;
  g_clear_pointer (&run->worker, lm_render_worker_free); /* joins: no result comes after */
  if (run->question)
    gtk_widget_destroy (run->question);
  if (run->dialog)
    gtk_widget_destroy (run->dialog);
  run_release (run);
}

/* `<folder>/<name without extension>-edited.<ext>`. */
static char *
output_path (GFile *photo)
{
  g_autofree char *path = g_file_get_path (photo);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');
  const char *ext = "png";
  if (dot)
    {
      *dot = '\0';
      static const char *const keep[] = { "jpg", "jpeg", "png", "tif", "tiff", NULL };
      for (int i = 0; keep[i]; i++)
        if (g_ascii_strcasecmp (dot + 1, keep[i]) == 0)
          ext = dot + 1;
    }
  g_autofree char *name = g_strdup_printf ("%s-edited.%s", base, ext);
  return g_build_filename (dir, name, NULL);
}

static void
add_failure (LmApplyRun *run, const char *message)
{
  g_string_append_printf (run->failures, "%s%s", run->failures->len ? "\n" : "", message);
}

/* NOTES (of char *, may be NULL) on the file at PATH, one line each. */
static void
add_notes (LmApplyRun *run, const char *path, GPtrArray *notes)
{
  g_autofree char *display = g_filename_display_name (path);
  for (guint i = 0; notes && i < notes->len; i++)
    {
      g_autofree char *line = g_strdup_printf ("%s: %s", display, (const char *) notes->pdata[i]);
      add_failure (run, line);
    }
}

static void
add_outcome (LmApplyRun *run, const char *message)
{
  g_string_append_printf (run->outcome, "%s%s", run->outcome->len ? "\n" : "", message);
}

/* The photo in hand's sidecar copied to the first free name of `<sidecar>.before-apply`,
 * `<sidecar>.before-apply.2`, …, never over one: an earlier run's copy holds the edits the
 * photo had before it. run->own_copy names it; messages name the photo and the cause. */
static gboolean
keep_own_edits (LmApplyRun *run, const char *photo, GError **error)
{
  g_autoptr (GFile) from_file = g_file_new_for_path (run->own_sidecar);
  g_autoptr (GError) e = NULL;
  for (guint n = 1; n < 10000; n++)
    {
      g_autofree char *to = n == 1 ? g_strconcat (run->own_sidecar, ".before-apply", NULL)
                                   : g_strdup_printf ("%s.before-apply.%u", run->own_sidecar, n);
      g_autoptr (GFile) to_file = g_file_new_for_path (to);
      g_clear_error (&e);
      if (g_file_copy (from_file, to_file, G_FILE_COPY_NOFOLLOW_SYMLINKS, NULL, NULL, NULL, &e))
        {
          g_free (run->own_copy);
          run->own_copy = g_steal_pointer (&to);
          return TRUE;
        }
      if (!g_error_matches (e, G_IO_ERROR, G_IO_ERROR_EXISTS))
        break;
    }
  g_autofree char *display = g_filename_display_name (photo);
  g_set_error (error, e->domain, e->code, _("%s: its own edits were left as they were: %s"), display, e->message);
  return FALSE;
}

/* The outcome's line for the photo in hand, whose own edits were replaced or merged into. */
static void
add_own_edits_outcome (LmApplyRun *run, const char *photo)
{
  g_autofree char *name = g_filename_display_basename (photo);
  g_autofree char *copy_display = g_filename_display_name (run->own_copy);
  g_autofree char *line = run->answer == LM_APPLY_MERGE
                            ? g_strdup_printf (_("%s: the edits were merged into its own (its own before: %s)"),
                                               name, copy_display)
                            : g_strdup_printf (_("%s: its own edits were replaced (they are kept in %s)"), name,
                                               copy_display);
  add_outcome (run, line);
}

static void
finish (LmApplyRun *run)
{
  guint n = run->photos->len;
  gboolean cancelled = g_cancellable_is_cancelled (run->cancellable);
  run->finished = TRUE;
  g_autofree char *text
    = cancelled ? g_strdup_printf (ngettext ("Cancelled: the edits were applied to %u of %u photo.",
                                             "Cancelled: the edits were applied to %u of %u photos.", n),
                                   run->done, n)
                : g_strdup_printf (ngettext ("The edits were applied to %u of %u photo.",
                                             "The edits were applied to %u of %u photos.", n),
                                   run->done, n);
  gtk_label_set_text (run->label, text);
  gtk_progress_bar_set_fraction (run->bar, (double) run->next / MAX (n, 1));
  gtk_label_set_text (run->outcome_label, run->outcome->str);
  gtk_widget_set_visible (GTK_WIDGET (run->outcome_label), run->outcome->len > 0);
  gtk_label_set_text (run->failures_label, run->failures->str);
  gtk_widget_set_visible (GTK_WIDGET (run->failures_label), run->failures->len > 0);
  if (run->outcome->len || run->failures->len)
    gtk_widget_show (run->details);
  gtk_widget_hide (gtk_dialog_get_widget_for_response (GTK_DIALOG (run->dialog), GTK_RESPONSE_CANCEL));
  gtk_widget_show (gtk_dialog_get_widget_for_response (GTK_DIALOG (run->dialog), GTK_RESPONSE_CLOSE));
}

static void
on_result (const LmRenderResult *r, gpointer data)
{
  LmApplyRun *run = data;
  if (run->window == NULL || r->kind == LM_RESULT_READY)
    return;
  guint n = run->photos->len;
  if (r->kind == LM_RESULT_PROGRESS)
    {
      gtk_progress_bar_set_fraction (run->bar, (run->next + r->fraction) / n);
      return;
    }
  if (r->kind != LM_RESULT_EXPORTED)
    return;
  GFile *photo = g_ptr_array_index (run->photos, run->next);
  g_autofree char *path = g_file_get_path (photo);
  GError *e = NULL;
  if (r->error && !g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    add_failure (run, r->error->message);
  else if (r->error == NULL && run->sidecars)
    {
      /* The export is written: the photo counts as done, whatever happens to its sidecar. */
      if (run->own_sidecar && !keep_own_edits (run, path, &e))
        add_failure (run, e->message);
      else if (!lm_sidecar_save (path, &run->edits, NULL, &e))
        add_failure (run, e->message);
      else if (run->own_sidecar)
        add_own_edits_outcome (run, path);
      g_clear_error (&e);
    }
  if (r->error == NULL)
    {
      g_autofree char *out = output_path (photo);
      add_notes (run, out, run->notes);
    }
  g_ptr_array_set_size (run->notes, 0);
  run->done += r->error == NULL;
  run->next++;
  start_next (run);
}

/* What the loading thread reads: nothing of the run, which the main thread may let go. */
typedef struct {
  char *path;
  const LmAllocator *allocator;
} Load;

static void
load_free (Load *load)
{
  g_free (load->path);
  g_free (load);
}

static void
load_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Load *load = data;
  GError *e = NULL;
  LmImage *image = lm_io_load (load->path, load->allocator, &e);
  if (image)
    g_task_return_pointer (task, image, (GDestroyNotify) lm_image_unref);
  else
    g_task_return_error (task, e);
}

static void
loaded (GObject *object, GAsyncResult *result, gpointer data)
{
  g_autoptr (LmApplyRun) run = data; /* the task's reference */
  GError *e = NULL;
  g_autoptr (LmImage) image = g_task_propagate_pointer (G_TASK (result), &e);
  if (run->window == NULL || g_error_matches (e, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&e);
      if (run->window)
        start_next (run); /* cancelled: shows the outcome */
      return;
    }
  if (image == NULL)
    {
      add_failure (run, e->message);
      g_error_free (e);
      run->next++;
      start_next (run);
      return;
    }
  GFile *photo = g_ptr_array_index (run->photos, run->next);
  add_notes (run, g_file_peek_path (photo), image->notes);
  /* The look made on the window's photo, fitted to this one: a raw's development and display
   * transform where it is a raw, no raw stage where it is not. */
  lm_pipeline_fit_source (&run->edits, lm_image_is_raw (image));
  LmRenderRequest req = { 0 };
  req.pipeline = run->edits;
  req.backend = run->backend;
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  options.quality = run->quality;
  options.to_srgb = run->to_srgb;
  options.png_level = run->png_level;
  options.notes = run->notes;
  g_autofree char *out = output_path (photo);
  lm_render_worker_set_source (run->worker, image);
  lm_render_worker_export (run->worker, &req, out, &options, run->cancellable);
}

/* Reads the photo in hand off the main thread, as the window opens a photo, then exports it
 * with run->edits. */
static void
load_photo (LmApplyRun *run)
{
  GFile *photo = g_ptr_array_index (run->photos, run->next);
  g_autoptr (GTask) task = g_task_new (NULL, run->cancellable, loaded, g_rc_box_acquire (run));
  Load *load = g_new0 (Load, 1);
  load->path = g_file_get_path (photo);
  load->allocator = lm_render_worker_host_allocator (run->worker);
  g_task_set_task_data (task, load, (GDestroyNotify) load_free);
  g_task_run_in_thread (task, load_in_thread);
}

/* The photo in hand, its own edits in OWN (read from run->own_sidecar), goes on as ANSWER
 * says. */
static void
go_on (LmApplyRun *run, LmApplyAnswer answer, const LmPipeline *own)
{
  run->answer = answer;
  if (answer == LM_APPLY_SKIP)
    {
      GFile *photo = g_ptr_array_index (run->photos, run->next);
      g_autofree char *name = g_filename_display_basename (g_file_peek_path (photo));
      g_autofree char *line = g_strdup_printf (_("%s: skipped, its own edits kept"), name);
      add_outcome (run, line);
      run->next++;
      start_next (run);
      return;
    }
  GError *error = NULL;
  if (answer == LM_APPLY_MERGE || answer == LM_APPLY_REPLACE)
    {
      run->edits = *own;
      LmPasteMode mode = answer == LM_APPLY_MERGE ? LM_PASTE_APPEND : LM_PASTE_REPLACE;
      /* Fitted first, as a paste is: a raw's own development and display transform stay. */
      g_autofree LmPipeline *applied = g_memdup2 (&run->pipeline, sizeof run->pipeline);
      lm_pipeline_fit_source (applied, own->raw.enabled);
      if (!lm_pipeline_paste (&run->edits, applied, &run->selection, mode, &error))
        {
          /* Its own edits hold too many instances or masks to take those applied. */
          GFile *photo = g_ptr_array_index (run->photos, run->next);
          g_autofree char *name = g_filename_display_basename (g_file_peek_path (photo));
          g_autofree char *line = g_strdup_printf (_("%s: skipped, its own edits kept: %s"), name, error->message);
          g_error_free (error);
          add_outcome (run, line);
          run->next++;
          start_next (run);
          return;
        }
    }
  load_photo (run);
}

typedef struct {
  LmApplyRun *run; /* a reference */
  LmPipeline own;
} Asked;

static void
asked_free (Asked *asked)
{
  run_release (asked->run);
  g_free (asked);
}

static void
answered (LmApplyAnswer answer, gboolean for_all, gpointer data)
{
  Asked *asked = data;
  LmApplyRun *run = asked->run;
  run->question = NULL;
  if (for_all)
    run->answer_all = answer;
  if (run->window && g_cancellable_is_cancelled (run->cancellable))
    start_next (run); /* shows the outcome */
  else if (run->window)
    go_on (run, answer, &asked->own);
}

/* Where the photo PATH has edits of its own that the run would change, asks what to do with
 * them (or takes the answer given for all) and returns TRUE: the run goes on once answered. */
static gboolean
ask_about_own_edits (LmApplyRun *run, const char *path)
{
  g_clear_pointer (&run->own_sidecar, g_free);
  g_clear_pointer (&run->own_copy, g_free);
  if (!run->sidecars)
    return FALSE; /* its sidecar is neither read nor written */
  g_autofree char *found = lm_sidecar_find (path);
  if (found == NULL)
    return FALSE;
  LmPipeline own;
  lm_pipeline_init (&own);
  g_autoptr (GError) e = NULL;
  gboolean readable = lm_pipeline_load_sidecar (&own, found, &e);
  /* Default edits, or those applied: nothing of its own would be lost. */
  if (readable && (lm_sidecar_is_default (&own) || lm_pipeline_equal (&own, &run->pipeline)))
    return FALSE;
  run->own_sidecar = g_steal_pointer (&found);
  if (run->answer_all && (readable || run->answer_all != LM_APPLY_MERGE))
    {
      go_on (run, run->answer_all, &own);
      return TRUE;
    }
  Asked *asked = g_new0 (Asked, 1);
  asked->run = g_rc_box_acquire (run);
  asked->own = own;
  g_autofree char *name = g_filename_display_basename (path);
  run->question = lm_apply_question_new (GTK_WINDOW (run->dialog), name, run->own_sidecar,
                                         readable ? NULL : e->message, answered, asked,
                                         (GDestroyNotify) asked_free);
  g_signal_connect (run->question, "destroy", G_CALLBACK (gtk_widget_destroyed), &run->question);
  return TRUE;
}

static void
start_next (LmApplyRun *run)
{
  guint n = run->photos->len;
  if (run->next >= n || g_cancellable_is_cancelled (run->cancellable))
    {
      finish (run);
      return;
    }
  GFile *photo = g_ptr_array_index (run->photos, run->next);
  g_autofree char *base = g_file_get_basename (photo);
  g_autofree char *name = g_filename_display_name (base);
  g_autofree char *text = g_strdup_printf (_("Photo %u of %u: %s"), run->next + 1, n, name);
  gtk_label_set_text (run->label, text);
  gtk_progress_bar_set_fraction (run->bar, (double) run->next / n);
  if (g_file_peek_path (photo) == NULL)
    {
      g_autofree char *uri = g_file_get_uri (photo);
      g_autofree char *message = g_strdup_printf (_("%s: only local files can be opened"), uri);
      add_failure (run, message);
      run->next++;
      start_next (run);
      return;
    }
  lm_op_selection_filter (&run->selection, &run->pipeline, &run->edits);
  run->answer = 0;
  if (!ask_about_own_edits (run, g_file_peek_path (photo)))
    load_photo (run);
}

static void
on_response (GtkDialog *dialog, int response, LmWindow *self)
{
  LmApplyRun *run = self->apply;
  if (run && !run->finished)
    {
      /* Cancel, or the window manager's close: the outcome shows once the photo in hand
       * has stopped. */
      g_cancellable_cancel (run->cancellable);
      gtk_widget_set_sensitive (gtk_dialog_get_widget_for_response (dialog, GTK_RESPONSE_CANCEL), FALSE);
      return;
    }
  lm_window_apply_free (self);
}

static GtkWidget *
build_dialog (LmWindow *self, LmApplyRun *run)
{
  GtkWidget *dialog = gtk_dialog_new_with_buttons (_("Applying the Edits"), GTK_WINDOW (self),
                                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                   _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Close"),
                                                   GTK_RESPONSE_CLOSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 480, -1);
  GtkWidget *box = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  gtk_container_set_border_width (GTK_CONTAINER (box), 12);
  gtk_box_set_spacing (GTK_BOX (box), 12);
  run->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (run->label, 0);
  gtk_label_set_ellipsize (run->label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (run->label));
  run->bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (run->bar));
  /* Whose own edits were replaced, merged or skipped, then what failed, photo by photo:
   * hidden until there is something to say. */
  GtkWidget *details = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  run->outcome_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (run->outcome_label, 0);
  gtk_label_set_selectable (run->outcome_label, TRUE);
  gtk_label_set_line_wrap (run->outcome_label, TRUE);
  gtk_label_set_line_wrap_mode (run->outcome_label, PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_name (GTK_WIDGET (run->outcome_label), "apply-outcome");
  gtk_container_add (GTK_CONTAINER (details), GTK_WIDGET (run->outcome_label));
  run->failures_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (run->failures_label, 0);
  gtk_label_set_yalign (run->failures_label, 0);
  gtk_label_set_selectable (run->failures_label, TRUE);
  gtk_label_set_line_wrap (run->failures_label, TRUE);
  gtk_widget_set_name (GTK_WIDGET (run->failures_label), "apply-failures");
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 120);
  gtk_container_add (GTK_CONTAINER (details), GTK_WIDGET (run->failures_label));
  gtk_container_add (GTK_CONTAINER (scrolled), details);
  gtk_container_add (GTK_CONTAINER (box), scrolled);
  gtk_widget_show_all (box);
  gtk_widget_hide (scrolled);
  run->details = scrolled;
  gtk_widget_hide (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE));
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), self);
  /* After the dialog's own handler, which answers DELETE_EVENT: kept until the run ends. */
  g_signal_connect (dialog, "delete-event", G_CALLBACK (gtk_true), NULL);
  return dialog;
}

/* The run of SELECTION's operations of the edits onto PHOTOS. */
static void
start_run (LmWindow *self, GFile *const *photos, guint n, const LmOpSelection *selection)
{
  if (self->apply || n == 0)
    return;
  LmApplyRun *run = g_rc_box_new0 (LmApplyRun);
  run->window = self;
  run->photos = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (run->photos, g_object_ref (photos[i]));
  run->pipeline = self->pipeline;
  run->selection = *selection;
  run->backend = self->cuda_usable ? self->backend : LM_BACKEND_CPU;
  run->quality = self->settings ? g_settings_get_int (self->settings, "jpeg-quality") : 92;
  run->to_srgb = lm_export_to_srgb_of (self);
  run->png_level = lm_export_png_level_of (self);
  run->sidecars = self->settings == NULL || g_settings_get_boolean (self->settings, "keep-edits");
  run->cancellable = g_cancellable_new ();
  run->failures = g_string_new (NULL);
  run->outcome = g_string_new (NULL);
  run->notes = g_ptr_array_new_with_free_func (g_free);
  run->worker = lm_render_worker_new (g_main_context_default (), on_result, run);
  self->apply = run;
  run->dialog = build_dialog (self, run);
  g_signal_connect (run->dialog, "destroy", G_CALLBACK (gtk_widget_destroyed), &run->dialog);
  gtk_widget_show (run->dialog);
  start_next (run);
}

void
lm_window_apply_edits_to (LmWindow *self, GFile *const *photos, guint n)
{
  LmOpSelection all;
  lm_op_selection_all (&all, &self->pipeline);
  start_run (self, photos, n, &all);
}

/* Every text cell of a combo box under WIDGET, internal children included, made to show its
 * text whole. */
static void
unellipsize_combos (GtkWidget *widget, gpointer unused)
{
  if (GTK_IS_COMBO_BOX (widget))
    {
      GList *cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (widget));
      for (GList *l = cells; l; l = l->next)
        if (GTK_IS_CELL_RENDERER_TEXT (l->data))
          g_object_set (l->data, "ellipsize", PANGO_ELLIPSIZE_NONE, NULL);
      g_list_free (cells);
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), unellipsize_combos, NULL);
}

void
lm_window_apply_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  /* A dialog, as the export's: the export's own operations (resize) are set below the files
   * (export-options.h), which a native chooser cannot show. */
  GtkWidget *chooser = gtk_file_chooser_dialog_new (_("Apply the Edits to Photos"), GTK_WINDOW (self),
                                                    GTK_FILE_CHOOSER_ACTION_OPEN, _("_Cancel"), GTK_RESPONSE_CANCEL,
                                                    _("_Apply"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  lm_window_add_image_filter (GTK_FILE_CHOOSER (chooser));
  g_autoptr (GFile) parent = self->file ? g_file_get_parent (self->file) : NULL;
  if (parent)
    gtk_file_chooser_set_current_folder_file (GTK_FILE_CHOOSER (chooser), parent, NULL);
  GtkWidget *extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *export_ops = lm_export_options_new ();
  if (export_ops)
    {
      lm_export_options_set_pipeline (LM_EXPORT_OPTIONS (export_ops), &self->pipeline);
      lm_export_options_set_to_srgb (LM_EXPORT_OPTIONS (export_ops), lm_export_to_srgb_of (self));
      lm_export_options_set_png_level (LM_EXPORT_OPTIONS (export_ops), lm_export_png_level_of (self));
      gtk_container_add (GTK_CONTAINER (extra), export_ops);
    }
  /* The operations applied: those of a paste onto another photo, and the size set above. */
  LmOpSelection selection;
  lm_op_selection_default (&selection, &self->pipeline);
  lm_op_selection_set_op (&selection, &self->pipeline, LM_OP_RESIZE, TRUE);
  GtkWidget *expander = gtk_expander_new_with_mnemonic (_("_Operations applied"));
  gtk_widget_set_name (expander, "apply-operations");
  GtkWidget *ops = lm_paste_ops_new (&self->pipeline, &selection, FALSE, LM_PASTE_REPLACE);
  gtk_container_add (GTK_CONTAINER (expander), ops);
  gtk_container_add (GTK_CONTAINER (extra), expander);
  gtk_widget_show_all (extra);
  gtk_file_chooser_set_extra_widget (GTK_FILE_CHOOSER (chooser), extra);
  /* GTK's chooser lets its filter button's text shrink to an ellipsis and gives the room to
   * the extra widget beside it: with the export's options there, "Photos" came out as "P…"
   * at the default size. A filter's name is short: shown whole, the dialog as wide as that
   * needs. */
  unellipsize_combos (chooser, NULL);
  int chosen = gtk_dialog_run (GTK_DIALOG (chooser));
  lm_paste_ops_get_selection (ops, &selection);
  g_autoptr (GSList) files = chosen == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser)) : NULL;
  /* As the export: the size asked for is part of the edit, one undo step. */
  if (files && export_ops && lm_export_options_apply (LM_EXPORT_OPTIONS (export_ops), &self->pipeline))
    lm_window_commit (self);
  if (files && export_ops)
    {
      lm_export_to_srgb_set (self, lm_export_options_get_to_srgb (LM_EXPORT_OPTIONS (export_ops)));
      lm_export_png_level_set (self, lm_export_options_get_png_level (LM_EXPORT_OPTIONS (export_ops)));
    }
  gtk_widget_destroy (chooser);
  if (files == NULL)
    return;
  g_autoptr (GPtrArray) photos = g_ptr_array_new_with_free_func (g_object_unref);
  for (GSList *l = files; l; l = l->next)
    g_ptr_array_add (photos, l->data); /* the list's references */
  start_run (self, (GFile *const *) photos->pdata, photos->len, &selection);
}
