#include "stack-list.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../error.h"
#include "../io/atomic-file.h"
#include "../io/file-read.h"

#define HEADER "# lumen-cli batch: the stacks of the latest run, which --report counts; SHA-256 "
#define SUM_LEN 64 /* hex digits */

/* The list as the file holds it: the header with the checksum, then the ids. */
static GString *
list_text (GPtrArray *ids)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < ids->len; i++)
    g_string_append_printf (text, "%s\n", (const char *) ids->pdata[i]);
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text->str, text->len);
  g_string_prepend (text, "\n");
  g_string_prepend (text, sum);
  g_string_prepend (text, HEADER);
  return text;
}

/* Whether OUTDIR/stacks.txt holds TEXT already; FALSE with ERROR for one that must not be
 * replaced (a pipe, a device: writing would rename over the node). */
static gboolean
holds (const char *path, const GString *text, gboolean *same, GError **error)
{
  *same = FALSE;
  GStatBuf st;
  if (g_stat (path, &st) != 0)
    return TRUE; /* none yet: the write says why if it cannot make one */
  GError *e = NULL;
  g_autoptr (GBytes) old = lm_file_read (path, LM_FILE_KIND_RECORDS, LM_FILE_RECORDS_MAX, &e);
  if (old == NULL && !g_error_matches (e, LUMEN_ERROR, LM_ERROR_TOO_LARGE))
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  g_clear_error (&e);
  gsize len = 0;
  const void *data = old ? g_bytes_get_data (old, &len) : NULL;
  *same = old && len == text->len && memcmp (data, text->str, len) == 0;
  return TRUE;
}

/* The temporaries a killed writer of the list left beside it: only the holder of the
 * admission lock writes the list, so none of them is being written. Looked for only when the
 * list is written again, as it is after such a kill (the list is then not the batch's). */
static void
remove_leftovers (const char *outdir)
{
  g_autoptr (GDir) dir = g_dir_open (outdir, 0, NULL);
  if (dir == NULL)
    return;
  const char *name;
  while ((name = g_dir_read_name (dir)))
    if (g_str_has_prefix (name, "." LM_STACK_LIST_NAME LM_ATOMIC_TMP_INFIX))
      {
        g_autofree char *path = g_build_filename (outdir, name, NULL);
        g_unlink (path);
      }
}

gboolean
lm_stack_list_write (const char *outdir, GPtrArray *ids, GError **error)
{
  g_autoptr (GString) text = list_text (ids);
  g_autofree char *path = g_build_filename (outdir, LM_STACK_LIST_NAME, NULL);

  /* Shards of one batch write it once. */
  gboolean same;
  if (!holds (path, text, &same, error))
    return FALSE;
  if (same)
    return TRUE;
  remove_leftovers (outdir);
  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    return FALSE;
  if (fwrite (text->str, 1, text->len, lm_atomic_file_stream (file)) != text->len)
    {
      GError *e = NULL;
      lm_set_write_error (&e, path, errno);
      lm_atomic_file_take_error (file, e);
    }
  return lm_atomic_file_commit (file, error);
}

gboolean
lm_stack_list_read (const char *outdir, GHashTable **ids, GError **error)
{
  *ids = NULL;
  g_autofree char *path = g_build_filename (outdir, LM_STACK_LIST_NAME, NULL);
  GStatBuf st;
  if (g_stat (path, &st) != 0 && errno == ENOENT)
    return TRUE;
  g_autoptr (GBytes) bytes = lm_file_read (path, LM_FILE_KIND_RECORDS, LM_FILE_RECORDS_MAX, error);
  if (bytes == NULL)
    return FALSE;
  gsize len = 0, head = strlen (HEADER);
  const char *text = g_bytes_get_data (bytes, &len);
  if (text == NULL || len < head + SUM_LEN + 1 || memcmp (text, HEADER, head) != 0 || text[head + SUM_LEN] != '\n')
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path,
                         _("is not the list of stacks lumen-cli batch writes: rerun the batch to write it again"));
      return FALSE;
    }
  const char *body = text + head + SUM_LEN + 1, *end = text + len;
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) body, end - body);
  /* A NUL byte could only be in a list made to match: it would hide the lines after it. */
  if (memcmp (sum, text + head, SUM_LEN) != 0 || memchr (body, '\0', end - body))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path,
                         _("its lines do not match its checksum (cut short or changed since): rerun the batch to "
                           "write it again"));
      return FALSE;
    }
  *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (const char *line = body; line < end;)
    {
      const char *nl = memchr (line, '\n', end - line);
      const char *stop = nl ? nl : end;
      if (stop > line)
        g_hash_table_add (*ids, g_strndup (line, stop - line));
      line = stop + 1;
    }
  return TRUE;
}
