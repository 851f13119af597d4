/* LmWindow's sidecar (window-sidecar.h): a photo's edits read from its sidecar when it opens
 * and written back at every change (core/edit/sidecar.h), a moment after the last one, so
 * that a slider's drag writes one file, not one per frame; what is pending is written when
 * the photo closes. An HDR merge has no file of its own: its edits are kept nowhere. */
#include "window-sidecar.h"
#include "window-private.h"
#include "window-status.h"

#include <glib/gi18n.h>

#include "core/edit/sidecar.h"

#define SAVE_AFTER_MS 300 /* after the last change: a drag's frames come ~16 ms apart */

struct _LmWindowSidecar {
  char *photo;     /* the photo whose sidecar keeps the edits; NULL: none is kept */
  LmPipeline kept; /* what its sidecar holds (what the photo opened with) */
  guint source;    /* the pending save */
};

void
lm_window_sidecar_init (LmWindow *self)
{
  self->sidecar = g_new0 (LmWindowSidecar, 1);
}

void
lm_window_sidecar_free (LmWindow *self)
{
  g_free (self->sidecar->photo);
  g_clear_pointer (&self->sidecar, g_free);
}

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
  LmWindowSidecar *sc = self->sidecar;
  lm_window_sidecar_close (self);
  g_autofree char *path = g_file_get_path (file);
  if (path == NULL || !keeping (self))
    return TRUE;
  sc->photo = g_steal_pointer (&path);
  LmPipeline read = self->pipeline;
  gboolean ok = lm_sidecar_load (sc->photo, &read, NULL, error);
  if (ok)
    self->pipeline = read;
  /* What is kept now: a sidecar that could not be read is left as it is until an edit
   * differs from what the photo opened with, the defaults. */
  sc->kept = self->pipeline;
  return ok;
}

void
lm_window_sidecar_flush (LmWindow *self)
{
  LmWindowSidecar *sc = self->sidecar;
  g_clear_handle_id (&sc->source, g_source_remove);
  if (sc->photo == NULL || lm_pipeline_equal (&self->pipeline, &sc->kept))
    return;
  GError *e = NULL;
  if (!lm_sidecar_save (sc->photo, &self->pipeline, NULL, &e))
    {
      /* Tried again at the next change; the edits stay unsaved (the prompt asks for them). */
      g_autofree char *message = g_strdup_printf (_("The edits could not be kept: %s"), e->message);
      lm_window_show_message_about (self, LM_TOPIC_PHOTO, GTK_MESSAGE_WARNING, message);
      g_error_free (e);
      return;
    }
  sc->kept = self->pipeline;
  /* The history's current state is what was written once no quick edits wait to be grouped
   * into a step; else lm_window_commit marks it when it records the step. */
  if (!lm_window_commit_pending (self) && self->history)
    lm_window_sidecar_mark_saved (self);
}

void
lm_window_sidecar_mark_saved (LmWindow *self)
{
  LmWindowSidecar *sc = self->sidecar;
  if (sc->photo && self->history && lm_pipeline_equal (&self->pipeline, &sc->kept))
    lm_history_mark_saved (self->history);
}

static gboolean
save_later (gpointer data)
{
  LmWindow *self = data;
  self->sidecar->source = 0;
  lm_window_sidecar_flush (self);
  return G_SOURCE_REMOVE;
}

void
lm_window_sidecar_changed (LmWindow *self)
{
  LmWindowSidecar *sc = self->sidecar;
  g_clear_handle_id (&sc->source, g_source_remove);
  if (sc->photo && !lm_pipeline_equal (&self->pipeline, &sc->kept))
    sc->source = g_timeout_add (SAVE_AFTER_MS, save_later, self);
}

void
lm_window_sidecar_close (LmWindow *self)
{
  lm_window_sidecar_flush (self);
  g_clear_pointer (&self->sidecar->photo, g_free);
}
