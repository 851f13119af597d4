/* LmWindow's commands on the edits as a whole (window-edits.h): Revert to Original, and
 * Copy Edits / Paste Edits between photos. Each change is one undo step. The copy is kept in
 * the process and put on the clipboard as the sidecar's text, so that another Lumen (each
 * launch is its own process) can paste it, and a person can read or mail it. */
#include "window-edits.h"
#include "window-private.h"
#include "window-status.h"

#include <string.h>
#include <glib/gi18n.h>

struct _LmWindowEdits {
  LmStage tonemap_default; /* what Revert restores: Mertens' fusion needs none */
};

void
lm_window_edits_init (LmWindow *self)
{
  self->edits = g_new0 (LmWindowEdits, 1);
}

void
lm_window_edits_free (LmWindow *self)
{
  g_clear_pointer (&self->edits, g_free);
}

void
lm_window_edits_set_original (LmWindow *self, const LmStage *tonemap)
{
  self->edits->tonemap_default = *tonemap;
}

/* The edits copied last in this process. */
static LmPipeline copied;
static gboolean have_copied;

/* PIPELINE becomes what is edited: shown, rendered and recorded as one undo step. */
static void
replace_edits (LmWindow *self, const LmPipeline *pipeline)
{
  lm_window_commit (self); /* quick edits before it are a step of their own */
  self->pipeline = *pipeline;
  lm_window_show_pipeline (self);
  lm_window_commit (self);
}

void
lm_window_revert_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  LmPipeline original;
  lm_pipeline_init (&original);
  if (self->source && lm_image_is_raw (self->source))
    lm_pipeline_for_raw (&original);
  original.tonemap = self->edits->tonemap_default;
  replace_edits (self, &original);
}

void
lm_window_copy_edits_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  copied = self->pipeline;
  have_copied = TRUE;
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&self->pipeline);
  g_autofree char *text = g_key_file_to_data (keyfile, NULL, NULL);
  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD), text, -1);
}

/* Whether TEXT is meant as a sidecar: it has Lumen's [lumen] group line (as GKeyFile reads
 * one, blanks around it), not merely any text that happens to parse as a key file. */
static gboolean
is_sidecar_text (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_equal (g_strstrip (lines[i]), "[lumen]"))
      return TRUE;
  return FALSE;
}

static void
on_clipboard_text (GtkClipboard *clipboard, const char *text, gpointer data)
{
  g_autoptr (LmWindow) self = data;
  if (self->worker == NULL || self->source == NULL)
    return; /* closed meanwhile (dispose frees the worker) */
  if (text != NULL && is_sidecar_text (text))
    {
      /* Read as --params reads a sidecar file, with its checks: one they refuse pastes
       * nothing, and says why, rather than the edits copied before. */
      LmPipeline pasted;
      lm_pipeline_init (&pasted);
      gboolean raw = lm_image_is_raw (self->source);
      if (raw) /* a look of a photo that is no raw brings its edits, not its tone mapping */
        lm_pipeline_for_raw (&pasted);
      g_autoptr (GError) e = NULL;
      if (lm_pipeline_from_text (&pasted, text, strlen (text), &e))
        {
          lm_pipeline_fit_source (&pasted, raw);
          replace_edits (self, &pasted);
        }
      else
        {
          g_autofree char *message = g_strdup_printf (_("The clipboard’s edits cannot be pasted: %s"), e->message);
          lm_window_show_message_about (self, LM_TOPIC_PASTE, GTK_MESSAGE_ERROR, message);
        }
    }
  else if (have_copied)
    {
      LmPipeline pasted = copied;
      lm_pipeline_fit_source (&pasted, lm_image_is_raw (self->source));
      replace_edits (self, &pasted);
    }
  else
    lm_window_show_message_about (self, LM_TOPIC_PASTE, GTK_MESSAGE_INFO,
                                  _("No edits to paste: copy a photo’s edits first"));
}

void
lm_window_paste_edits_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  lm_window_clear_message (self, LM_TOPIC_PASTE); /* the last paste's failure is old news */
  gtk_clipboard_request_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD),
                              on_clipboard_text, g_object_ref (self));
}
