/* The undo history kept beside the sidecar (history-file.h). */
#include "history-file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../error.h"
#include "../io/atomic-file.h"
#include "../io/file-read.h"
#include "sidecar.h"

#define MAGIC "lumen-history 1\n"

char *
lm_history_file_path (const char *sidecar)
{
  return g_strconcat (sidecar, "-history", NULL);
}

/* PATH's modification time in nanoseconds, or -1 when it is not there. */
static gint64
mtime_ns (const char *path)
{
  GStatBuf st;
  if (g_lstat (path, &st) != 0)
    return -1;
  return (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
}

char *
lm_history_file_find (const char *photo)
{
  g_autofree char *sidecar = lm_sidecar_find (photo);
  if (sidecar)
    return lm_history_file_path (sidecar);
  g_autofree char *beside_sidecar = lm_sidecar_beside_path (photo);
  g_autofree char *data_sidecar = lm_sidecar_data_path (photo);
  g_autofree char *beside = lm_history_file_path (beside_sidecar);
  g_autofree char *data = lm_history_file_path (data_sidecar);
  gint64 beside_t = mtime_ns (beside), data_t = mtime_ns (data);
  if (beside_t < 0 && data_t < 0)
    return NULL;
  return data_t > beside_t ? g_steal_pointer (&data) : g_steal_pointer (&beside);
}

char *
lm_history_file_target (const char *photo, const char *written, GError **error)
{
  if (written)
    return lm_history_file_path (written);
  g_autofree char *beside = lm_sidecar_beside_path (photo);
  g_autofree char *folder = g_path_get_dirname (beside);
  if (g_access (folder, W_OK | X_OK) == 0)
    return lm_history_file_path (beside);
  g_autofree char *data = lm_sidecar_data_path (photo);
  g_autofree char *dir = g_path_get_dirname (data);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;
      lm_set_file_error (error, lm_error_code_from_errno (errsv), dir, _("cannot create the folder: %s"),
                         g_strerror (errsv));
      return NULL;
    }
  return lm_history_file_path (data);
}

static char *
step_text (const LmPipeline *step, gsize *len)
{
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (step);
  return g_key_file_to_data (keyfile, len, NULL);
}

GBytes *
lm_history_to_text (LmHistory *history, const LmPipeline *now)
{
  /* The steps to keep: HISTORY's, with NOW as a new current step past the redo steps it
   * drops, as lm_history_push would record it. */
  guint n = lm_history_n_steps (history), current = lm_history_position (history);
  gboolean pending = now && !lm_pipeline_equal (now, lm_history_step (history, current));
  if (pending)
    n = ++current + 1;
  /* At most LM_HISTORY_FILE_STEPS, chosen before any is written out (a flush after each edit
   * must not serialise 500 steps): the oldest go first, then the furthest redo steps. */
  guint first = current + 1 > LM_HISTORY_FILE_STEPS ? current + 1 - LM_HISTORY_FILE_STEPS : 0;
  guint last = MIN (n, first + LM_HISTORY_FILE_STEPS); /* [first, last) */
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) lens = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize bytes = 0;
  for (guint i = first; i < last; i++)
    {
      gsize len = 0;
      g_ptr_array_add (texts, step_text (pending && i == current ? now : lm_history_step (history, i), &len));
      g_array_append_val (lens, len);
      bytes += len + 32;
    }
  /* Then within LM_HISTORY_FILE_BYTES the same way; the current step always stays. */
  guint keep_first = first, keep_last = last;
  while (bytes > LM_HISTORY_FILE_BYTES && keep_last - keep_first > 1)
    {
      guint drop = keep_first < current ? keep_first++ : --keep_last;
      bytes -= g_array_index (lens, gsize, drop - first) + 32;
    }
  GString *out = g_string_new (MAGIC);
  g_string_append_printf (out, "steps %u current %u\n", keep_last - keep_first, current - keep_first);
  for (guint i = keep_first; i < keep_last; i++)
    {
      gsize len = g_array_index (lens, gsize, i - first);
      g_string_append_printf (out, "step %" G_GSIZE_FORMAT "\n", len);
      g_string_append_len (out, g_ptr_array_index (texts, i - first), (gssize) len);
      g_string_append_c (out, '\n');
    }
  return g_string_free_to_bytes (out);
}

/* The line at *AT (before END) without its \n, at most SIZE - 1 bytes, and *AT past it;
 * FALSE where there is no complete line of that length. */
static gboolean
next_line (const char **at, const char *end, char *line, gsize size)
{
  const char *nl = memchr (*at, '\n', (gsize) (end - *at));
  if (nl == NULL || (gsize) (nl - *at) >= size || memchr (*at, '\0', (gsize) (nl - *at)))
    return FALSE;
  memcpy (line, *at, (gsize) (nl - *at));
  line[nl - *at] = '\0';
  *at = nl + 1;
  return TRUE;
}

/* Lowercase words, spaces and digits only: sscanf's %u alone would take a sign ("-1" as a huge
 * count); the widths in the formats bound the digits, and %n at the end refuses a tail. */
static gboolean
plain_words (const char *s)
{
  for (; *s; s++)
    if (!g_ascii_isdigit (*s) && *s != ' ' && !g_ascii_islower (*s))
      return FALSE;
  return TRUE;
}

static gboolean
parse_header (const char **at, const char *end, guint *n, guint *current, GError **error)
{
  char line[64];
  if ((gsize) (end - *at) < strlen (MAGIC) || memcmp (*at, MAGIC, strlen (MAGIC)) != 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("is not an undo history of this version of Lumen"));
      return FALSE;
    }
  *at += strlen (MAGIC);
  int used = 0;
  if (!next_line (at, end, line, sizeof line) || !plain_words (line)
      || sscanf (line, "steps %3u current %3u%n", n, current, &used) != 2 || line[used] != '\0' || *n < 1
      || *n > LM_HISTORY_FILE_STEPS || *current >= *n)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("its count of steps is missing or out of range"));
      return FALSE;
    }
  return TRUE;
}

LmHistory *
lm_history_from_text (const char *text, gsize len, const LmPipeline *base, GError **error)
{
  const char *at = text, *end = text + len;
  guint n = 0, current = 0;
  if (!parse_header (&at, end, &n, &current, error))
    return NULL;
  g_autofree LmPipeline *steps = g_new (LmPipeline, n);
  for (guint i = 0; i < n; i++)
    {
      char line[64];
      guint64 step_len = 0;
      int used = 0;
      if (!next_line (&at, end, line, sizeof line) || !plain_words (line)
          || sscanf (line, "step %9" G_GUINT64_FORMAT "%n", &step_len, &used) != 1 || line[used] != '\0'
          || step_len >= (guint64) (end - at) || at[step_len] != '\n')
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("step %u of %u is cut short or malformed"), i + 1, n);
          return NULL;
        }
      steps[i] = *base;
      GError *e = NULL;
      if (!lm_pipeline_from_text (&steps[i], at, (gsize) step_len, &e))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("step %u of %u: %s"), i + 1, n, e->message);
          g_error_free (e);
          return NULL;
        }
      at += step_len + 1;
    }
  if (at != end)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("it has bytes after its last step"));
      return NULL;
    }
  return lm_history_new_steps (steps, n, current);
}

gboolean
lm_history_file_write (const char *path, LmHistory *history, const LmPipeline *now, GError **error)
{
  g_autoptr (GBytes) text = lm_history_to_text (history, now);
  gsize len = 0;
  const char *data = g_bytes_get_data (text, &len);
  return lm_atomic_file_write (path, data, len, error);
}

LmHistoryFileStatus
lm_history_file_load (const char *path, const LmPipeline *base, const LmPipeline *opened, LmHistory **history,
                      GError **error)
{
  *history = NULL;
  if (!g_file_test (path, G_FILE_TEST_EXISTS) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    return LM_HISTORY_FILE_NONE;
  GError *e = NULL;
  g_autoptr (GBytes) bytes = lm_file_read (path, LM_FILE_KIND_TEXT, LM_HISTORY_FILE_MAX, &e);
  if (bytes == NULL)
    {
      g_propagate_error (error, e);
      return LM_HISTORY_FILE_BAD;
    }
  gsize len = 0;
  const char *text = g_bytes_get_data (bytes, &len);
  g_autoptr (LmHistory) read = lm_history_from_text (text, len, base, &e);
  if (read == NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, "%s", e->message);
      g_error_free (e);
      return LM_HISTORY_FILE_BAD;
    }
  /* Edits changed elsewhere since (a preset dropped in the folder view, lumen-cli, another
   * program) are one more step: every step is a whole look, so Undo goes back to the look
   * before that change, and nothing of the earlier sessions is lost. */
  LmHistoryFileStatus status = LM_HISTORY_FILE_LOADED;
  if (!lm_pipeline_equal (lm_history_step (read, lm_history_position (read)), opened))
    {
      lm_history_push (read, opened);
      lm_history_mark_saved (read);
      status = LM_HISTORY_FILE_CHANGED;
    }
  *history = g_steal_pointer (&read);
  return status;
}
