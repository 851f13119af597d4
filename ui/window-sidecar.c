/* LmWindow's sidecar (window-sidecar.h): a photo's edits read from its sidecar when it opens
 * and written back at every change (core/edit/sidecar.h), a moment after the last one, so
 * that a slider's drag writes one file, not one per frame; what is pending is written when
 * the photo closes. An HDR merge has no file of its own: its edits are kept nowhere. */
#include "window-sidecar.h"
#include "window-private.h"
#include "window-status.h"

#include <glib/gi18n.h>

#include "core/edit/history-file.h"
#include "core/edit/sidecar.h"
#include "core/io/atomic-group.h"

#define SAVE_AFTER_MS 300 /* after the last change: a drag's frames come ~16 ms apart */

struct _LmWindowSidecar {
  char *photo;     /* the photo whose sidecar keeps the edits; NULL: none is kept */
  LmPipeline kept; /* what its sidecar holds (what the photo opened with) */
  LmPipeline base; /* what the photo opens with before its sidecar: what history steps are read over */
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
  sc->base = self->pipeline;
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
  /* The undo history beside the sidecar, renamed with it: both or neither (a crash between
   * the renames leaves a history whose current step is not the sidecar's: dropped on open). */
  GError *e = NULL;
  g_autoptr (LmAtomicGroup) group = lm_atomic_group_begin ();
  g_autofree char *written = NULL;
  gboolean ok = lm_sidecar_save (sc->photo, &self->pipeline, &written, &e);
  if (ok && self->history)
    {
      g_autofree char *history = lm_history_file_target (sc->photo, written, &e);
      ok = history && lm_history_file_write (history, self->history, &self->pipeline, &e);
    }
  ok = ok && lm_atomic_group_commit (g_steal_pointer (&group), &e);
  if (!ok)
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

char *
lm_window_sidecar_load_history (LmWindow *self)
{
  LmWindowSidecar *sc = self->sidecar;
  if (sc->photo == NULL || self->history == NULL)
    return NULL;
  g_autofree char *path = lm_history_file_find (sc->photo);
  if (path == NULL)
    return NULL;
  g_autoptr (GError) e = NULL;
  LmHistory *history = NULL;
  switch (lm_history_file_load (path, &sc->base, &self->pipeline, &history, &e))
    {
    case LM_HISTORY_FILE_LOADED:
    case LM_HISTORY_FILE_CHANGED:
      g_clear_pointer (&self->history, lm_history_free);
      self->history = history;
      return NULL;
    case LM_HISTORY_FILE_BAD:
      return g_strdup_printf (_("The undo history of earlier sessions could not be read: %s"), e->message);
    case LM_HISTORY_FILE_NONE:
    default:
      return NULL;
    }
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
