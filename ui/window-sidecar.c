/* LmWindow's sidecar (window-private.h): a photo's edits read from its sidecar when it opens
 * and written back at every change (core/edit/sidecar.h), a moment after the last one, so
 * that a slider's drag writes one file, not one per frame; what is pending is written when
 * the photo closes. An HDR merge has no file of its own: its edits are kept nowhere. */
#include "window-private.h"

#include <glib/gi18n.h>

#include "core/edit/sidecar.h"

#define SAVE_AFTER_MS 300 /* after the last change: a drag's frames come ~16 ms apart */

/* Sidecars can be turned off (the keep-edits setting): the window tests edit the corpus's
 * photos in place and must leave no file beside them. */
static gboolean
keeping (LmWindow *self)
{
  return self->settings == NULL || g_settings_get_boolean (self->settings, "keep-edits");
}

gboolean
lm_window_sidecar_open (LmWindow *self, GFile *file, GError **error)
{
  lm_window_sidecar_close (self);
  g_autofree char *path = g_file_get_path (file);
  if (path == NULL || !keeping (self))
    return TRUE;
  self->sidecar_photo = g_steal_pointer (&path);
  LmPipeline read = self->pipeline;
  gboolean ok = lm_sidecar_load (self->sidecar_photo, &read, NULL, error);
  if (ok)
    self->pipeline = read;
  /* What is kept now: a sidecar that could not be read is left as it is until an edit
   * differs from what the photo opened with, the defaults. */
  self->sidecar_kept = self->pipeline;
  return ok;
}

void
lm_window_sidecar_flush (LmWindow *self)
{
  g_clear_handle_id (&self->sidecar_source, g_source_remove);
  if (self->sidecar_photo == NULL || lm_pipeline_equal (&self->pipeline, &self->sidecar_kept))
    return;
  GError *e = NULL;
  if (!lm_sidecar_save (self->sidecar_photo, &self->pipeline, NULL, &e))
    {
      /* Tried again at the next change; the edits stay unsaved (the prompt asks for them). */
      g_autofree char *message = g_strdup_printf (_("The edits could not be kept: %s"), e->message);
      lm_window_show_message_about (self, LM_TOPIC_PHOTO, GTK_MESSAGE_WARNING, message);
      g_error_free (e);
      return;
    }
  self->sidecar_kept = self->pipeline;
  /* The history's current state is what was written once no quick edits wait to be grouped
   * into a step; else lm_window_commit marks it when it records the step. */
  if (self->commit_source == 0 && self->history)
    lm_window_sidecar_mark_saved (self);
}

void
lm_window_sidecar_mark_saved (LmWindow *self)
{
  if (self->sidecar_photo && self->history && lm_pipeline_equal (&self->pipeline, &self->sidecar_kept))
    lm_history_mark_saved (self->history);
}

static gboolean
save_later (gpointer data)
{
  LmWindow *self = data;
  self->sidecar_source = 0;
  lm_window_sidecar_flush (self);
  return G_SOURCE_REMOVE;
}

void
lm_window_sidecar_changed (LmWindow *self)
{
  g_clear_handle_id (&self->sidecar_source, g_source_remove);
  if (self->sidecar_photo && !lm_pipeline_equal (&self->pipeline, &self->sidecar_kept))
    self->sidecar_source = g_timeout_add (SAVE_AFTER_MS, save_later, self);
}

void
lm_window_sidecar_close (LmWindow *self)
{
  lm_window_sidecar_flush (self);
  g_clear_pointer (&self->sidecar_photo, g_free);
}
