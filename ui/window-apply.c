/* LmWindow's Apply Edits to Photos… (window-private.h): the edits of the photo in the window
 * applied to other photos, one after the other. Each is exported at full resolution by the
 * render worker's export job, as the Export action writes one (a worker of the run's own, so
 * that the window's photo stays in the window's), to `<name>-edited.<ext>` beside it (JPEG,
 * PNG and TIFF keep their format, others become PNG), and gets the edits as its sidecar. A
 * dialog shows the progress and can cancel (the photo in hand stops between its steps, none
 * after it starts); at the end it lists what failed, photo by photo, and what was read or
 * written otherwise than the file has it (the loaders' and writers' notes). */
#include "window-private.h"

#include <string.h>
#include <glib/gi18n.h>

#include "core/edit/sidecar.h"
#include "export-options.h"

typedef struct _LmApplyRun LmApplyRun;
struct _LmApplyRun {
  LmWindow *window;    /* NULL once the window let go: late results are dropped */
  GPtrArray *photos;   /* of GFile */
  guint next;          /* the photo in hand */
  guint done;          /* photos written */
  LmPipeline pipeline;
  LmBackendKind backend;
  int quality;
  gboolean to_srgb;    /* "Convert to sRGB", as the export's */
  int png_level;       /* as the export's */
  gboolean sidecars;   /* the keep-edits setting */
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
  if (run->failures->len)
    {
      gtk_label_set_text (run->failures_label, run->failures->str);
      gtk_widget_show (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (run->failures_label))));
    }
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
  else if (r->error == NULL && run->sidecars && !lm_sidecar_save (path, &run->pipeline, NULL, &e))
    {
      add_failure (run, e->message); /* the export is written: the photo counts as done */
      g_error_free (e);
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
  LmRenderRequest req = { 0 };
  req.pipeline = run->pipeline;
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
  /* Read off the main thread, as the window opens a photo. */
  g_autoptr (GTask) task = g_task_new (NULL, run->cancellable, loaded, g_rc_box_acquire (run));
  Load *load = g_new0 (Load, 1);
  load->path = g_file_get_path (photo);
  load->allocator = lm_render_worker_host_allocator (run->worker);
  g_task_set_task_data (task, load, (GDestroyNotify) load_free);
  g_task_run_in_thread (task, load_in_thread);
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
  /* What failed, photo by photo: hidden until something has. */
  run->failures_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (run->failures_label, 0);
  gtk_label_set_yalign (run->failures_label, 0);
  gtk_label_set_selectable (run->failures_label, TRUE);
  gtk_label_set_line_wrap (run->failures_label, TRUE);
  gtk_widget_set_name (GTK_WIDGET (run->failures_label), "apply-failures");
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 120);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (run->failures_label));
  gtk_container_add (GTK_CONTAINER (box), scrolled);
  gtk_widget_show_all (box);
  gtk_widget_hide (scrolled);
  gtk_widget_hide (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE));
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), self);
  /* After the dialog's own handler, which answers DELETE_EVENT: kept until the run ends. */
  g_signal_connect (dialog, "delete-event", G_CALLBACK (gtk_true), NULL);
  return dialog;
}

void
lm_window_apply_edits_to (LmWindow *self, GFile *const *photos, guint n)
{
  if (self->apply || n == 0)
    return;
  LmApplyRun *run = g_rc_box_new0 (LmApplyRun);
  run->window = self;
  run->photos = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (run->photos, g_object_ref (photos[i]));
  run->pipeline = self->pipeline;
  run->backend = self->cuda_usable ? self->backend : LM_BACKEND_CPU;
  run->quality = self->settings ? g_settings_get_int (self->settings, "jpeg-quality") : 92;
  run->to_srgb = lm_export_to_srgb_of (self);
  run->png_level = lm_export_png_level_of (self);
  run->sidecars = self->settings == NULL || g_settings_get_boolean (self->settings, "keep-edits");
  run->cancellable = g_cancellable_new ();
  run->failures = g_string_new (NULL);
  run->notes = g_ptr_array_new_with_free_func (g_free);
  run->worker = lm_render_worker_new (g_main_context_default (), on_result, run);
  self->apply = run;
  run->dialog = build_dialog (self, run);
  g_signal_connect (run->dialog, "destroy", G_CALLBACK (gtk_widget_destroyed), &run->dialog);
  gtk_widget_show (run->dialog);
  start_next (run);
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
  GtkWidget *export_ops = lm_export_options_new ();
  if (export_ops)
    {
      lm_export_options_set_pipeline (LM_EXPORT_OPTIONS (export_ops), &self->pipeline);
      lm_export_options_set_to_srgb (LM_EXPORT_OPTIONS (export_ops), lm_export_to_srgb_of (self));
      lm_export_options_set_png_level (LM_EXPORT_OPTIONS (export_ops), lm_export_png_level_of (self));
      gtk_file_chooser_set_extra_widget (GTK_FILE_CHOOSER (chooser), export_ops);
    }
  int chosen = gtk_dialog_run (GTK_DIALOG (chooser));
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
  lm_window_apply_edits_to (self, (GFile *const *) photos->pdata, photos->len);
}
