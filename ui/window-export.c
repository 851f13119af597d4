/* LmWindow's export (window-export.h): the Export action's checks and questions, the
 * progress dialog that can cancel, and the message when the worker is done. The chooser
 * also sets the operations only an export runs (resize, export-options.h): the export
 * renders the pipeline with them as set there; the view never does. */
#include "window-export.h"
#include "window-private.h"
#include "window-status.h"

#include <string.h>

#include "config.h"
#include "core/render/jpeg-gpu.h"
#include "export-options.h"
#include <glib/gi18n.h>

/* The writers' notes (LmSaveOptions.notes) of the export under way live with its
 * cancellable, which the worker's job holds as long as it may write them. */
#define EXPORT_NOTES "lumen-export-notes"

struct _LmWindowExport {
  GtkWidget *progress_dialog;
  GtkProgressBar *progress_bar;
  GCancellable *cancellable; /* of the export under way; NULL: none */
  LmWindowThen *after;       /* what the discard prompt's Export… goes on with */
};

void
lm_window_export_init (LmWindow *self)
{
  self->export = g_new0 (LmWindowExport, 1);
}

void
lm_window_export_cancel (LmWindow *self)
{
  LmWindowExport *x = self->export;
  g_clear_pointer (&x->after, lm_window_then_free);
  if (x->cancellable)
    g_cancellable_cancel (x->cancellable);
}

void
lm_window_export_free (LmWindow *self)
{
  g_clear_object (&self->export->cancellable);
  g_clear_pointer (&self->export, g_free);
}

void
lm_window_export_progress (LmWindow *self, double fraction)
{
  LmWindowExport *x = self->export;
  if (x->progress_bar)
    gtk_progress_bar_set_fraction (x->progress_bar, fraction);
}

/* A reference to them, or NULL. */
static GPtrArray *
export_notes (LmWindow *self)
{
  GCancellable *cancellable = self->export->cancellable;
  GPtrArray *notes = cancellable ? g_object_get_data (G_OBJECT (cancellable), EXPORT_NOTES) : NULL;
  return notes ? g_ptr_array_ref (notes) : NULL;
}

void
lm_window_finish_export (LmWindow *self, const LmRenderResult *r)
{
  LmWindowExport *x = self->export;
  g_clear_pointer (&x->progress_dialog, gtk_widget_destroy);
  g_autoptr (GPtrArray) notes = export_notes (self);
  g_clear_object (&x->cancellable);
  /* What the discard prompt's Export… waits for: it goes on only once the edits are in a
   * file. */
  LmWindowThen *then = g_steal_pointer (&x->after);
  if (r->error && g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      lm_window_then_free (then);
      return;
    }
  if (r->error)
    {
      lm_window_show_message_about (self, LM_TOPIC_EXPORT, GTK_MESSAGE_ERROR, r->error->message);
      lm_window_then_free (then);
      return;
    }
  lm_history_mark_saved (self->history);
  g_autofree char *uri = g_filename_to_uri (r->path, NULL, NULL);
  if (uri)
    gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  g_autofree char *display = g_filename_display_name (r->path);
  GString *message = g_string_new (NULL);
  g_string_printf (message, _("Exported to %s"), display);
  /* Written otherwise than asked (nvJPEG could not encode it, a profile too large for the
   * format): said, though not an error. */
  if (r->notice)
    g_string_append_printf (message, "\n%s", r->notice);
  for (guint i = 0; notes && i < notes->len; i++)
    g_string_append_printf (message, "\n%s: %s", display, (const char *) notes->pdata[i]);
  gboolean otherwise = r->notice || (notes && notes->len > 0);
  lm_window_show_message_about (self, LM_TOPIC_EXPORT, otherwise ? GTK_MESSAGE_WARNING : GTK_MESSAGE_INFO,
                                message->str);
  g_string_free (message, TRUE);
  if (then)
    lm_window_then_run (then, self);
}


static void
on_progress_response (GtkDialog *dialog, int response, LmWindow *self)
{
  LmWindowExport *x = self->export;
  if (x->cancellable)
    g_cancellable_cancel (x->cancellable);
}

void
lm_window_export_to (LmWindow *self, const char *path, const LmSaveOptions *options)
{
  gboolean ok;
  LmRenderRequest req = lm_window_request_now (self, FALSE, &ok);
  req.pipeline = self->pipeline; /* what is edited, whatever is shown */
  if (self->source == NULL)
    return;
  LmWindowExport *x = self->export;
  g_clear_object (&x->cancellable);
  x->cancellable = g_cancellable_new ();
  LmSaveOptions noted = *options;
  noted.notes = g_ptr_array_new_with_free_func (g_free);
  g_object_set_data_full (G_OBJECT (x->cancellable), EXPORT_NOTES, noted.notes,
                          (GDestroyNotify) g_ptr_array_unref);
  /* "Exported to …" (or the last export's failure) is not true of this one. */
  lm_window_clear_message (self, LM_TOPIC_EXPORT);

  g_autofree char *display = g_filename_display_name (path);
  x->progress_dialog = gtk_dialog_new_with_buttons (_("Exporting"), GTK_WINDOW (self),
                                                    GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                    _("_Cancel"), GTK_RESPONSE_CANCEL, NULL);
  GtkWidget *box = gtk_dialog_get_content_area (GTK_DIALOG (x->progress_dialog));
  gtk_container_set_border_width (GTK_CONTAINER (box), 12);
  gtk_box_set_spacing (GTK_BOX (box), 12);
  g_autofree char *text = g_strdup_printf (_("Writing %s at full resolution…"), display);
  gtk_container_add (GTK_CONTAINER (box), gtk_label_new (text));
  x->progress_bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (x->progress_bar));
  g_signal_connect (x->progress_dialog, "response", G_CALLBACK (on_progress_response), self);
  g_signal_connect (x->progress_dialog, "destroy", G_CALLBACK (gtk_widget_destroyed), &x->progress_dialog);
  g_signal_connect_swapped (x->progress_dialog, "destroy", G_CALLBACK (g_nullify_pointer), &x->progress_bar);
  gtk_widget_show_all (x->progress_dialog);

  lm_render_worker_export (self->worker, &req, path, &noted, x->cancellable);
}

/* The key that answered a dialog, while it is still down: its press closed the dialog, and
 * its release, or its autorepeated presses while it is held, go to the next dialog. */
typedef struct {
  guint16 keycode;
  gboolean down;
  guint32 time; /* of its last press, the server's milliseconds */
} HeldKey;

/* Autorepeat starts within 660 ms of the press (X's default delay) and then repeats every
 * few tens; a press later than this after the last is a new one, whose release was missed
 * (it went to a window of GTK's own, the chooser's "Replace?"). */
#define REPEAT_GAP_MS 1000

static gboolean
on_answer_key (GtkWidget *dialog, GdkEventKey *event, HeldKey *held)
{
  if (event->type == GDK_KEY_PRESS)
    *held = (HeldKey) { event->hardware_keycode, TRUE, event->time };
  else if (event->hardware_keycode == held->keycode)
    held->down = FALSE;
  return GDK_EVENT_PROPAGATE;
}

/* Keeps HELD's key out of DIALOG until it is released: Enter held in the file chooser must
 * not press Export in the quality dialog that opens under it. */
static gboolean
on_next_dialog_key (GtkWidget *dialog, GdkEventKey *event, HeldKey *held)
{
  if (!held->down)
    return GDK_EVENT_PROPAGATE;
  gboolean repeat = event->type == GDK_KEY_PRESS && event->time - held->time < REPEAT_GAP_MS;
  if (event->hardware_keycode != held->keycode || (event->type == GDK_KEY_PRESS && !repeat))
    {
      held->down = FALSE; /* the held key was let go where no dialog of ours saw it */
      return GDK_EVENT_PROPAGATE;
    }
  if (event->type == GDK_KEY_RELEASE)
    held->down = FALSE;
  held->time = event->time;
  return GDK_EVENT_STOP;
}

static void
guard_held_key (GtkWidget *dialog, HeldKey *held)
{
  g_signal_connect (dialog, "key-press-event", G_CALLBACK (on_next_dialog_key), held);
  g_signal_connect (dialog, "key-release-event", G_CALLBACK (on_next_dialog_key), held);
}

/* The quality asked for, or -1 when cancelled. Enter in the number field exports, as the
 * chooser's Enter did. */
static int
ask_quality (LmWindow *self, int quality, HeldKey *held)
{
  GtkWidget *dialog = gtk_dialog_new_with_buttons (_("JPEG Quality"), GTK_WINDOW (self), GTK_DIALOG_MODAL,
                                                   _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Export"),
                                                   GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  guard_held_key (dialog, held);
  GtkWidget *box = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  gtk_container_set_border_width (GTK_CONTAINER (box), 12);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  /* TRANSLATORS: the range is that of libjpeg's quality; 100 is the best, the largest file */
  GtkWidget *label = gtk_label_new_with_mnemonic (_("_Quality (1–100)"));
  GtkWidget *spin = gtk_spin_button_new_with_range (1, 100, 1);
  gtk_widget_set_name (spin, "jpeg-quality");
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), quality);
  gtk_entry_set_activates_default (GTK_ENTRY (spin), TRUE);
  gtk_widget_set_tooltip_text (spin, _("Higher keeps more detail, in a larger file"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
  /* Said by a screen reader with the field, whether or not it finds the mnemonic's label. */
  AtkObject *spin_a11y = gtk_widget_get_accessible (spin), *label_a11y = gtk_widget_get_accessible (label);
  atk_object_add_relationship (spin_a11y, ATK_RELATION_LABELLED_BY, label_a11y);
  atk_object_add_relationship (label_a11y, ATK_RELATION_LABEL_FOR, spin_a11y);
  gtk_container_add (GTK_CONTAINER (row), label);
  gtk_container_add (GTK_CONTAINER (row), spin);
  gtk_container_add (GTK_CONTAINER (box), row);
  gtk_widget_show_all (dialog);
  gtk_widget_grab_focus (spin);
  int response = gtk_dialog_run (GTK_DIALOG (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    gtk_spin_button_update (GTK_SPIN_BUTTON (spin)); /* typed, then Export clicked */
  quality = response == GTK_RESPONSE_ACCEPT ? gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)) : -1;
  gtk_widget_destroy (dialog);
  return quality;
}

/* Why the export cannot encode on the GPU, for the check box's tooltip; NULL when it can. */
static char *
nvjpeg_unavailable (LmWindow *self)
{
  if (!self->cuda_usable)
    return self->cuda_unavailable ? g_strdup_printf (_("No usable GPU: %s"), self->cuda_unavailable)
                                  : g_strdup (_("No usable GPU"));
  if (self->backend == LM_BACKEND_CPU)
    return g_strdup (_("The photo renders on the CPU (Backend menu); nvJPEG encodes what the GPU renders"));
  g_autoptr (GError) e = NULL;
  return lm_jpeg_gpu_available (&e) ? NULL : g_strdup (e->message);
}

static gboolean
same_file (const char *a, GFile *b)
{
  g_autoptr (GFile) fa = g_file_new_for_path (a);
  return b != NULL && g_file_equal (fa, b);
}

/* The Export action's questions (file, quality); TRUE when an export has started. */
static gboolean
export_interactive (LmWindow *self)
{
  LmWindowExport *x = self->export;
  if (self->source == NULL || x->cancellable != NULL)
    return FALSE;
  /* A dialog, not a GtkFileChooserNative: a native (portal) chooser takes no widgets of the
   * application's, and the export's own operations (resize) are set here, below the files. */
  GtkWidget *chooser = gtk_file_chooser_dialog_new (_("Export the Photo"), GTK_WINDOW (self),
                                                    GTK_FILE_CHOOSER_ACTION_SAVE, _("_Cancel"),
                                                    GTK_RESPONSE_CANCEL, _("_Export"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser), TRUE);
  HeldKey held = { 0 };
  g_signal_connect (chooser, "key-press-event", G_CALLBACK (on_answer_key), &held);
  g_signal_connect (chooser, "key-release-event", G_CALLBACK (on_answer_key), &held);
  GtkWidget *export_ops = lm_export_options_new ();
  g_autofree char *no_nvjpeg = nvjpeg_unavailable (self);
  if (export_ops)
    {
      lm_export_options_set_pipeline (LM_EXPORT_OPTIONS (export_ops), &self->pipeline);
      lm_export_options_set_to_srgb (LM_EXPORT_OPTIONS (export_ops), lm_export_to_srgb_of (self));
      lm_export_options_set_png_level (LM_EXPORT_OPTIONS (export_ops), lm_export_png_level_of (self));
      lm_export_options_show_nvjpeg (LM_EXPORT_OPTIONS (export_ops), lm_export_nvjpeg_of (self), no_nvjpeg);
      lm_export_options_show_depth16 (LM_EXPORT_OPTIONS (export_ops), lm_export_depth16_of (self));
      gtk_file_chooser_set_extra_widget (GTK_FILE_CHOOSER (chooser), export_ops);
    }
  g_autofree char *base = g_file_get_basename (self->file);
  char *dot = strrchr (base, '.');
  if (dot)
    *dot = '\0';
  gboolean radiance = self->source->format == LM_FORMAT_RGBA_F32;
  g_autofree char *suggested = g_strdup_printf (radiance ? "%s-hdr.jpg" : "%s-edited.jpg", base);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested);
  g_autoptr (GFile) parent = g_file_get_parent (self->file);
  if (parent)
    gtk_file_chooser_set_current_folder_file (GTK_FILE_CHOOSER (chooser), parent, NULL);
  int chosen = gtk_dialog_run (GTK_DIALOG (chooser));
  g_autofree char *path = chosen == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser))
                                                        : NULL;
  /* The size asked for is part of the edit (a sidecar keeps it), one undo step. */
  if (path && export_ops && lm_export_options_apply (LM_EXPORT_OPTIONS (export_ops), &self->pipeline))
    lm_window_commit (self);
  if (path && export_ops)
    {
      lm_export_to_srgb_set (self, lm_export_options_get_to_srgb (LM_EXPORT_OPTIONS (export_ops)));
      lm_export_png_level_set (self, lm_export_options_get_png_level (LM_EXPORT_OPTIONS (export_ops)));
      lm_export_depth16_set (self, lm_export_options_get_depth16 (LM_EXPORT_OPTIONS (export_ops)));
      if (no_nvjpeg == NULL) /* an insensitive box keeps the choice made where it could be */
        lm_export_nvjpeg_set (self, lm_export_options_get_nvjpeg (LM_EXPORT_OPTIONS (export_ops)));
    }
  gtk_widget_destroy (chooser);
  if (path == NULL)
    return FALSE;

  GError *e = NULL;
  LmFileType type = lm_file_type_for_output (path);
  /* A merge's radiance and a raw's scene are written as they are (.hdr, .exr); other photos'
   * renders are 8 or 16 bits. */
  gboolean scene = radiance || lm_image_is_raw (self->source);
  if (type == LM_FILE_UNKNOWN || (lm_file_type_is_radiance (type) && !scene))
    {
      g_autofree char *display = g_filename_display_name (path);
      g_autofree char *message = scene ? g_strdup_printf (LUMEN_HAVE_OPENEXR ? _("%s: export as .jpg, .png, .tif, .hdr or .exr")
                                                                              : _("%s: export as .jpg, .png, .tif or .hdr"),
                                                           display)
                                       : g_strdup_printf (_("%s: export as .jpg, .png or .tif"), display);
      lm_window_show_message_about (self, LM_TOPIC_EXPORT, GTK_MESSAGE_ERROR, message);
      return FALSE;
    }
  if (same_file (path, self->file))
    {
      GtkWidget *ask = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL, GTK_MESSAGE_WARNING,
                                               GTK_BUTTONS_NONE, _("Replace the original photo?"));
      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (ask),
                                                _("The opened file would be overwritten by the edited one."));
      gtk_dialog_add_button (GTK_DIALOG (ask), _("_Cancel"), GTK_RESPONSE_CANCEL);
      GtkWidget *replace = gtk_dialog_add_button (GTK_DIALOG (ask), _("_Replace"), GTK_RESPONSE_ACCEPT);
      gtk_style_context_add_class (gtk_widget_get_style_context (replace), GTK_STYLE_CLASS_DESTRUCTIVE_ACTION);
      guard_held_key (ask, &held);
      int response = gtk_dialog_run (GTK_DIALOG (ask));
      gtk_widget_destroy (ask);
      if (response != GTK_RESPONSE_ACCEPT)
        return FALSE;
    }
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  options.to_srgb = lm_export_to_srgb_of (self);
  options.png_level = lm_export_png_level_of (self);
  options.nvjpeg = lm_export_nvjpeg_of (self) && no_nvjpeg == NULL;
  options.depth = lm_export_depth16_of (self) ? 16 : 0;
  if (self->settings)
    options.quality = g_settings_get_int (self->settings, "jpeg-quality");
  if (lm_file_type_for_output (path) == LM_FILE_JPEG)
    {
      options.quality = ask_quality (self, options.quality, &held);
      if (options.quality < 0)
        return FALSE;
      if (self->settings)
        g_settings_set_int (self->settings, "jpeg-quality", options.quality);
    }
  if (!lm_io_check_output (path, &e))
    {
      lm_window_show_message_about (self, LM_TOPIC_EXPORT, GTK_MESSAGE_ERROR, e->message);
      g_error_free (e);
      return FALSE;
    }
  lm_window_export_to (self, path, &options);
  return x->cancellable != NULL;
}

void
lm_window_export_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  export_interactive (data);
}

void
lm_window_export_then (LmWindow *self, LmWindowThen *then)
{
  LmWindowExport *x = self->export;
  if (x->after != NULL || x->cancellable != NULL)
    {
      lm_window_then_free (then);
      return;
    }
  /* Goes on once the export is written (lm_window_finish_export). */
  x->after = then;
  if (!export_interactive (self))
    g_clear_pointer (&x->after, lm_window_then_free);
}
