/* LmWindow's opening of photos (window-open.h): loading in a thread, then the question
 * before edits are discarded, the Open action, recent files and drag and drop. */
#include "window-open.h"
#include "window-astro.h"
#include "window-edits.h"
#include "window-export.h"
#include "window-private.h"
#include "window-sidecar.h"
#include "window-status.h"
#include "window-tags.h"

#include <glib/gi18n.h>

#include "core/error.h"
#include "core/io/file-read.h"
#include "core/io/raw-sniff.h"
#include "core/pixel-budget.h"

struct _LmWindowOpen {
  guint serial;              /* of the newest open: an older load that ends later is dropped */
  GCancellable *loading;     /* the newest load's: cancelled once another open or the window's
                              * close makes it of no use, so that a raw stops decoding */
  GtkWidget *discard_dialog; /* the discard prompt, while it is up */
};

void
lm_window_open_init (LmWindow *self)
{
  self->open = g_new0 (LmWindowOpen, 1);
}

void
lm_window_open_cancel (LmWindow *self)
{
  LmWindowOpen *o = self->open;
  o->serial++; /* a load still running is of no use now: its result is dropped */
  if (o->loading)
    g_cancellable_cancel (o->loading);
  if (o->discard_dialog)
    gtk_widget_destroy (o->discard_dialog); /* drops what it would have gone on with */
}

void
lm_window_open_free (LmWindow *self)
{
  if (self->open)
    g_clear_object (&self->open->loading);
  g_clear_pointer (&self->open, g_free);
}

typedef struct {
  GFile *file;
  const LmAllocator *allocator; /* taken on the main thread: the worker may be gone by now */
  guint serial;                 /* the window's open serial when it started */
  LmFitsInfo *fits;             /* a FITS file's header, read with its data */
  GCancellable *cancellable;    /* the current one while it loads: loaders that take long
                                 * (camera raw) ask g_cancellable_get_current */
} OpenJob;

/* FITS files by their first card, whatever their name; gzip-compressed ones (.fits.gz, which
 * cfitsio reads as they are) by the first card of what they hold. */
static gboolean
is_fits (const guint8 *data, gsize len)
{
  gsize n = MIN (len, 4096);
  if (n < 2 || data[0] != 0x1f || data[1] != 0x8b)
    return lm_fits_sniff (data, n);
  g_autoptr (GConverter) gunzip = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  guint8 card[80];
  gsize read = 0, written = 0;
  if (g_converter_convert (gunzip, data, n, card, sizeof card, G_CONVERTER_NO_FLAGS, &read, &written, NULL)
      == G_CONVERTER_ERROR)
    return FALSE;
  return lm_fits_sniff (card, written);
}

/* PATH mapped as lm_io_load maps it, before anything reads it: what is not a regular file is
 * refused by name there (a fifo would block the first read, this worker's or cfitsio's, for
 * ever; a device may never end). A FITS file is then read by cfitsio, which also takes the
 * gzip-compressed ones, and with its header. */
static LmImage *
load_path (const char *path, OpenJob *job, GError **error)
{
  g_autoptr (GBytes) bytes = lm_file_map (path, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), error);
  if (bytes == NULL)
    return NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  if (is_fits (data, len))
    return lm_fits_load (path, job->allocator, &job->fits, error);
  return lm_io_load_from_memory (path, data, len, job->allocator, error);
}

static void
load_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  OpenJob *job = data;
  g_autofree char *path = g_file_get_path (job->file);
  GError *e = NULL;
  LmImage *image = NULL;
  g_cancellable_push_current (job->cancellable);
  if (path)
    image = load_path (path, job, &e);
  else
    g_set_error (&e, LUMEN_ERROR, LM_ERROR_IO, _("%s: only local files can be opened"),
                 g_file_peek_path (job->file) ? g_file_peek_path (job->file) : "?");
  g_cancellable_pop_current (job->cancellable);
  if (image)
    g_task_return_pointer (task, image, (GDestroyNotify) lm_image_unref);
  else
    g_task_return_error (task, e);
}

static void
open_job_free (OpenJob *job)
{
  g_object_unref (job->file);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->fits, lm_fits_info_free);
  g_free (job);
}

/* A photo loaded and waiting for the edits of the current one to go. */
typedef struct {
  LmImage *image;
  GFile *file;
  guint serial; /* its open's */
  LmFitsInfo *fits; /* a FITS file's header */
} Loaded;

static void
loaded_free (Loaded *l)
{
  g_clear_pointer (&l->image, lm_image_unref);
  g_clear_pointer (&l->fits, lm_fits_info_free);
  g_object_unref (l->file);
  g_free (l);
}

/* The loaded photo becomes the one edited. */
static void
start_loaded (LmWindow *self, gpointer data)
{
  Loaded *l = data;
  if (l->serial != self->open->serial)
    return; /* an open asked for since is loading: that one is what was asked last */
  if (l->fits)
    {
      /* Shown once its first stretched view is in (window-astro.c). */
      lm_window_astro_open (self, l->image, g_steal_pointer (&l->fits), l->file);
      g_autofree char *uri = g_file_get_uri (l->file);
      gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
      return;
    }
  lm_window_astro_close (self); /* a photo after a FITS file: the editor as it was */
  LmImage *image = g_steal_pointer (&l->image);
  lm_window_sidecar_close (self); /* the previous photo's edits, with what is pending */
  /* A raw's pipeline (its development, its display transform) under the sidecar's edits. */
  lm_pipeline_init (&self->pipeline);
  if (lm_image_is_raw (image))
    lm_pipeline_for_raw (&self->pipeline);
  g_autoptr (GError) sidecar_error = NULL;
  lm_window_sidecar_open (self, l->file, &sidecar_error);
  lm_window_start_editing (self, image, l->file, NULL);
  lm_window_tags_open (self, l->file);
  g_autofree char *history_note = sidecar_error ? NULL : lm_window_sidecar_load_history (self);
  /* Revert goes to the photo as it is, not to the edits its sidecar brought. */
  LmPipeline original;
  lm_pipeline_init (&original);
  if (lm_image_is_raw (image))
    lm_pipeline_for_raw (&original);
  lm_window_edits_set_original (self, &original.tonemap);
  /* A render of the old photo still under way is dropped. */
  lm_window_drop_results (self);
  /* Every message was about the previous photo (or a file that failed to open). */
  lm_window_clear_messages (self);
  g_autofree char *uri = g_file_get_uri (l->file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  if (self->settings)
    {
      g_autoptr (GFile) parent = g_file_get_parent (l->file);
      g_autofree char *folder = parent ? g_file_get_path (parent) : NULL;
      if (folder)
        g_settings_set_string (self->settings, "last-folder", folder);
    }

  lm_render_worker_set_source (self->worker, image);
  gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->image_view));
  lm_image_view_set_image_size (self->image_view, image->width, image->height);
  lm_window_show_pipeline (self);
  /* Both are said where both are true: what the loader could not take (a profile, so that
   * colours are taken as sRGB) matters as much with edits as without. */
  g_autoptr (GString) message = g_string_new (NULL);
  if (sidecar_error)
    /* The photo opens all the same, with no edits; the file stays until an edit is made. */
    g_string_printf (message, _("Opened without its saved edits: %s"), sidecar_error->message);
  g_autofree char *notes = lm_image_notes_text (image);
  if (history_note)
    g_string_append_printf (message, "%s%s", message->len ? "; " : "", history_note);
  if (notes)
    {
      g_autofree char *name = g_file_get_parse_name (l->file);
      g_string_append_printf (message, "%s%s: %s", message->len ? "; " : "", name, notes);
    }
  if (message->len)
    lm_window_show_message_about (self, LM_TOPIC_PHOTO, GTK_MESSAGE_WARNING, message->str);
}

/* The photo is read before anything is asked: a file that cannot be opened costs no
 * question and no edit, and leaves the recent list. */
static void
loaded (GObject *object, GAsyncResult *result, gpointer data)
{
  LmWindow *self = LM_WINDOW (object);
  OpenJob *job = g_task_get_task_data (G_TASK (result));
  GError *e = NULL;
  g_autoptr (LmImage) image = g_task_propagate_pointer (G_TASK (result), &e);
  if (job->serial != self->open->serial)
    {
      g_clear_error (&e); /* another open started since: that one is what was asked last */
      return;
    }
  if (image == NULL)
    {
      lm_window_show_message_about (self, LM_TOPIC_OPEN, GTK_MESSAGE_ERROR, e->message);
      g_error_free (e);
      g_autofree char *uri = g_file_get_uri (job->file);
      GtkRecentManager *recent = gtk_recent_manager_get_default ();
      if (gtk_recent_manager_has_item (recent, uri))
        gtk_recent_manager_remove_item (recent, uri, NULL);
      return;
    }
  Loaded *l = g_new0 (Loaded, 1);
  l->image = g_steal_pointer (&image);
  l->file = g_object_ref (job->file);
  l->serial = job->serial;
  l->fits = g_steal_pointer (&job->fits);
  lm_window_confirm_discard_full (self, G_CALLBACK (start_loaded), l, (GDestroyNotify) loaded_free);
}

void
lm_window_then_free (LmWindowThen *then)
{
  if (then == NULL)
    return;
  if (then->destroy)
    then->destroy (then->data);
  g_free (then);
}

void
lm_window_then_run (LmWindowThen *then, LmWindow *self)
{
  ((void (*) (LmWindow *, gpointer)) then->then) (self, then->data);
  lm_window_then_free (then);
}

enum { RESPONSE_EXPORT = 1 };

static void
on_discard_response (GtkDialog *dialog, int response, LmWindow *self)
{
  LmWindowThen *then = g_object_steal_data (G_OBJECT (dialog), "lumen-then");
  gtk_widget_destroy (GTK_WIDGET (dialog));
  if (then == NULL)
    return;
  if (response == GTK_RESPONSE_ACCEPT)
    lm_window_then_run (then, self);
  else if (response == RESPONSE_EXPORT)
    lm_window_export_then (self, then); /* goes on once the edits are in a file */
  else
    lm_window_then_free (then);
}

void
lm_window_confirm_discard_full (LmWindow *self, GCallback then, gpointer data, GDestroyNotify destroy)
{
  LmWindowOpen *o = self->open;
  LmWindowThen *step = g_new0 (LmWindowThen, 1);
  *step = (LmWindowThen) { then, data, destroy };
  lm_window_commit (self); /* an edit of the last moments counts */
  lm_window_sidecar_flush (self); /* and is kept, where sidecars are: nothing to lose then */
  if (self->history == NULL || !lm_history_is_dirty (self->history))
    {
      lm_window_then_run (step, self);
      return;
    }
  /* One question at a time: a newer one replaces what an older one would have done. */
  if (o->discard_dialog)
    gtk_widget_destroy (o->discard_dialog);
  g_autofree char *name = self->file ? g_file_get_basename (self->file) : g_strdup (_("the photo"));
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, _("Discard the edits of %s?"),
                                              name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), _("They have not been exported."));
  GtkWidget *discard = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard"), GTK_RESPONSE_ACCEPT);
  gtk_style_context_add_class (gtk_widget_get_style_context (discard), GTK_STYLE_CLASS_DESTRUCTIVE_ACTION);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  GtkWidget *export = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Export…"), RESPONSE_EXPORT);
  gtk_style_context_add_class (gtk_widget_get_style_context (export), GTK_STYLE_CLASS_SUGGESTED_ACTION);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), RESPONSE_EXPORT);
  g_object_set_data_full (G_OBJECT (dialog), "lumen-then", step, (GDestroyNotify) lm_window_then_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_discard_response), self);
  o->discard_dialog = dialog;
  g_signal_connect (dialog, "destroy", G_CALLBACK (gtk_widget_destroyed), &o->discard_dialog);
  gtk_widget_show (dialog);
}

void
lm_window_confirm_discard (LmWindow *self, GCallback then, gpointer data)
{
  lm_window_confirm_discard_full (self, then, data, NULL);
}

void
lm_window_open (LmWindow *self, GFile *file)
{
  /* The last failure to open and an export's outcome are old news; what concerns the photo
   * still open stays until another replaces it. */
  lm_window_clear_message (self, LM_TOPIC_OPEN);
  lm_window_clear_message (self, LM_TOPIC_EXPORT);
  OpenJob *job = g_new0 (OpenJob, 1);
  job->file = g_object_ref (file);
  job->allocator = lm_render_worker_host_allocator (self->worker);
  job->serial = ++self->open->serial;
  if (self->open->loading)
    g_cancellable_cancel (self->open->loading); /* the older load is dropped anyway */
  g_clear_object (&self->open->loading);
  self->open->loading = g_cancellable_new ();
  job->cancellable = g_object_ref (self->open->loading);
  g_autoptr (GTask) task = g_task_new (self, NULL, loaded, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) open_job_free);
  g_task_run_in_thread (task, load_in_thread);
}

void
lm_window_add_image_filter (GtkFileChooser *chooser)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Photos"));
  static const char *const types[] = { "image/jpeg", "image/png", "image/tiff", "image/webp", "image/bmp", NULL };
  for (int i = 0; types[i]; i++)
    gtk_file_filter_add_mime_type (filter, types[i]);
  static const char *const patterns[] = { "*.jpg", "*.jpeg", "*.png", "*.tif", "*.tiff", "*.webp", "*.bmp", "*.fits", "*.fit", "*.fts", NULL };
  for (int i = 0; patterns[i]; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  /* Camera raw files: by MIME type, and by name in either case (cameras write IMG_0001.CR2). */
  for (int i = 0; lm_raw_mime_types[i]; i++)
    gtk_file_filter_add_mime_type (filter, lm_raw_mime_types[i]);
  for (int i = 0; lm_raw_suffixes[i]; i++)
    {
      g_autofree char *lower = g_strconcat ("*", lm_raw_suffixes[i], NULL);
      g_autofree char *upper = g_ascii_strup (lower, -1);
      gtk_file_filter_add_pattern (filter, lower);
      gtk_file_filter_add_pattern (filter, upper);
    }
  gtk_file_chooser_add_filter (chooser, filter);
}

void
lm_window_open_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  g_autoptr (GtkFileChooserNative) chooser = gtk_file_chooser_native_new (
    _("Open a Photo"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  lm_window_add_image_filter (GTK_FILE_CHOOSER (chooser));
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
