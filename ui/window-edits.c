/* LmWindow's commands on the edits as a whole (window-edits.h): Revert to Original, and
 * Copy Edits / Paste Edits / Paste Selectively… between photos. Each change is one undo step.
 * The copy is kept in the process and put on the clipboard as the sidecar's text, so that
 * another Lumen (each launch is its own process) can paste it, and a person can read or mail
 * it. A paste onto another photo carries its look, not its framing (op-select.h). */
#include "window-edits.h"
#include "window-private.h"
#include "window-status.h"
#include "paste-ops.h"
#include "core/library/presets.h"

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

/* The edits copied last in this process, the photo they were copied from and the text put
 * on the clipboard: a paste of that text knows where it came from. */
static LmPipeline copied;
static gboolean have_copied;
static char *copied_from;
static char *copied_text;

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
  g_free (copied_text);
  copied_text = g_key_file_to_data (keyfile, NULL, NULL);
  g_free (copied_from);
  copied_from = self->file ? g_file_get_path (self->file) : NULL;
  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD), copied_text, -1);
}

/* Whether edits copied from FROM (NULL: unknown, another Lumen's) are pasted onto the photo
 * they came from: then everything goes, framing included. */
static gboolean
same_photo (LmWindow *self, const char *from)
{
  g_autofree char *path = self->file ? g_file_get_path (self->file) : NULL;
  return from != NULL && path != NULL && g_str_equal (from, path);
}

/* PASTED's operations chosen by SELECTION onto the edits, as one undo step. */
static void
paste_chosen (LmWindow *self, const LmPipeline *pasted, const LmOpSelection *selection, LmPasteMode mode)
{
  LmPipeline edits = self->pipeline;
  g_autoptr (GError) e = NULL;
  if (!lm_pipeline_paste (&edits, pasted, selection, mode, &e))
    {
      g_autofree char *message = g_strdup_printf (_("The edits cannot be pasted: %s"), e->message);
      lm_window_show_message_about (self, LM_TOPIC_PASTE, GTK_MESSAGE_ERROR, message);
      return;
    }
  replace_edits (self, &edits);
}

typedef struct {
  LmWindow *window; /* a reference */
  LmPipeline pasted;
} Selective;

static void
selective_free (Selective *s)
{
  g_object_unref (s->window);
  g_free (s);
}

static void
selective_done (const LmOpSelection *selection, LmPasteMode mode, gpointer data)
{
  Selective *s = data;
  if (s->window->source != NULL && s->window->worker != NULL)
    paste_chosen (s->window, &s->pasted, selection, mode);
}

/* PASTED (fitted to the photo), copied from FROM: pasted with the default choice, or where
 * SELECTIVELY once the person chose what goes. */
static void
paste (LmWindow *self, const LmPipeline *pasted, const char *from, gboolean selectively)
{
  LmOpSelection selection;
  if (same_photo (self, from))
    lm_op_selection_all (&selection, pasted);
  else
    lm_op_selection_default (&selection, pasted);
  if (!selectively)
    {
      paste_chosen (self, pasted, &selection, LM_PASTE_REPLACE);
      return;
    }
  Selective *s = g_new0 (Selective, 1);
  s->window = g_object_ref (self);
  s->pasted = *pasted;
  lm_paste_ops_dialog (GTK_WINDOW (self), _("Paste Selectively"), _("_Paste"), pasted, &selection, TRUE,
                       LM_PASTE_REPLACE, selective_done, s, (GDestroyNotify) selective_free);
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

typedef struct {
  LmWindow *window;
  gboolean selectively;
} PasteRequest;

static void
on_clipboard_text (GtkClipboard *clipboard, const char *text, gpointer data)
{
  g_autofree PasteRequest *request = data;
  g_autoptr (LmWindow) self = request->window;
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
          paste (self, &pasted, g_strcmp0 (text, copied_text) == 0 ? copied_from : NULL, request->selectively);
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
      paste (self, &pasted, copied_from, request->selectively);
    }
  else
    lm_window_show_message_about (self, LM_TOPIC_PASTE, GTK_MESSAGE_INFO,
                                  _("No edits to paste: copy a photo’s edits first"));
}

static void
request_paste (LmWindow *self, gboolean selectively)
{
  lm_window_clear_message (self, LM_TOPIC_PASTE); /* the last paste's failure is old news */
  PasteRequest *request = g_new0 (PasteRequest, 1);
  request->window = g_object_ref (self);
  request->selectively = selectively;
  gtk_clipboard_request_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD),
                              on_clipboard_text, request);
}

void
lm_window_paste_edits_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  request_paste (data, FALSE);
}

void
lm_window_paste_selectively_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  request_paste (data, TRUE);
}

gboolean
lm_window_paste_preset (LmWindow *self, const LmPipeline *preset, LmPasteMode mode, GError **error)
{
  LmPipeline edits = self->pipeline;
  if (!lm_preset_apply (&edits, preset, mode, error))
    return FALSE;
  replace_edits (self, &edits);
  return TRUE;
}
