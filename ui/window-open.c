/* LmWindow's opening of photos (window-private.h): loading in a thread, the question before
 * edits are discarded, the Open action, recent files and drag and drop. */
#include "window-private.h"

#include <glib/gi18n.h>

#include "core/error.h"

typedef struct {
  LmWindow *self;
  GFile *file;
} OpenJob;

static void
load_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  OpenJob *job = data;
  g_autofree char *path = g_file_get_path (job->file);
  GError *e = NULL;
  LmImage *image = path ? lm_io_load (path, lm_render_worker_host_allocator (job->self->worker), &e) : NULL;
  if (path == NULL)
    g_set_error (&e, LUMEN_ERROR, LM_ERROR_IO, _("%s: only local files can be opened"),
                 g_file_peek_path (job->file) ? g_file_peek_path (job->file) : "?");
  if (image)
    g_task_return_pointer (task, image, (GDestroyNotify) lm_image_unref);
  else
    g_task_return_error (task, e);
}

static void
open_job_free (OpenJob *job)
{
  g_object_unref (job->file);
  g_free (job);
}

static void
loaded (GObject *object, GAsyncResult *result, gpointer data)
{
  LmWindow *self = LM_WINDOW (object);
  OpenJob *job = g_task_get_task_data (G_TASK (result));
  GError *e = NULL;
  LmImage *image = g_task_propagate_pointer (G_TASK (result), &e);
  if (image == NULL)
    {
      lm_window_show_message (self, GTK_MESSAGE_ERROR, e->message);
      g_error_free (e);
      return;
    }
  g_autofree char *name = g_file_get_basename (job->file);
  lm_pipeline_init (&self->pipeline);
  lm_window_start_editing (self, image, job->file, name);
  /* The counter goes on, never back: a render of the old photo still under way arrives
   * with an older generation and is dropped. */
  self->shown = self->before_since = ++self->generation;
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  g_autofree char *uri = g_file_get_uri (job->file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  if (self->settings)
    {
      g_autoptr (GFile) parent = g_file_get_parent (job->file);
      g_autofree char *folder = parent ? g_file_get_path (parent) : NULL;
      if (folder)
        g_settings_set_string (self->settings, "last-folder", folder);
    }

  lm_render_worker_set_source (self->worker, image);
  gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->image_view));
  lm_image_view_set_image_size (self->image_view, image->width, image->height);
  lm_window_show_pipeline (self);
}

/* Asks before edits that are in neither an export nor a sidecar would be lost. THEN runs
 * when they may go. */
void
lm_window_confirm_discard (LmWindow *self, GCallback then, gpointer data)
{
  if (self->history == NULL || !lm_history_is_dirty (self->history))
    {
      ((void (*) (LmWindow *, gpointer)) then) (self, data);
      return;
    }
  g_autofree char *name = self->file ? g_file_get_basename (self->file) : g_strdup (_("the photo"));
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL, GTK_MESSAGE_QUESTION,
                                              GTK_BUTTONS_NONE, _("Discard the edits of %s?"), name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("They have not been exported."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Discard"),
                          GTK_RESPONSE_ACCEPT, NULL);
  int response = gtk_dialog_run (GTK_DIALOG (dialog));
  gtk_widget_destroy (dialog);
  if (response == GTK_RESPONSE_ACCEPT)
    ((void (*) (LmWindow *, gpointer)) then) (self, data);
}

static void
open_now (LmWindow *self, gpointer data)
{
  GFile *file = data;
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  OpenJob *job = g_new0 (OpenJob, 1);
  job->self = self;
  job->file = g_object_ref (file);
  g_autoptr (GTask) task = g_task_new (self, NULL, loaded, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) open_job_free);
  g_task_run_in_thread (task, load_in_thread);
}

void
lm_window_open (LmWindow *self, GFile *file)
{
  lm_window_confirm_discard (self, G_CALLBACK (open_now), file);
}

static void
add_image_filter (GtkFileChooser *chooser)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Photos"));
  static const char *const types[] = { "image/jpeg", "image/png", "image/tiff", "image/webp", "image/bmp", NULL };
  for (int i = 0; types[i]; i++)
    gtk_file_filter_add_mime_type (filter, types[i]);
  static const char *const patterns[] = { "*.jpg", "*.jpeg", "*.png", "*.tif", "*.tiff", "*.webp", "*.bmp", NULL };
  for (int i = 0; patterns[i]; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (chooser, filter);
}

void
lm_window_open_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  g_autoptr (GtkFileChooserNative) chooser = gtk_file_chooser_native_new (
    _("Open a Photo"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  add_image_filter (GTK_FILE_CHOOSER (chooser));
  g_autofree char *folder = self->settings ? g_settings_get_string (self->settings, "last-folder") : NULL;
  if (folder && *folder)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder);
  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      lm_window_open (self, file);
    }
}

void
lm_window_on_recent_activated (GtkRecentChooser *chooser, LmWindow *self)
{
  g_autofree char *uri = gtk_recent_chooser_get_current_uri (chooser);
  if (uri)
    {
      g_autoptr (GFile) file = g_file_new_for_uri (uri);
      lm_window_open (self, file);
    }
}

void
lm_window_on_drag_data (GtkWidget *widget, GdkDragContext *context, int x, int y, GtkSelectionData *data,
              guint info, guint time, LmWindow *self)
{
  g_auto (GStrv) uris = gtk_selection_data_get_uris (data);
  if (uris && uris[0])
    {
      g_autoptr (GFile) file = g_file_new_for_uri (uris[0]);
      lm_window_open (self, file);
    }
  gtk_drag_finish (context, uris && uris[0], FALSE, time);
}
