#include "text-input.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "file-read.h"

static guint
line_of (const char *text, const char *at)
{
  guint line = 1;
  for (const char *p = text; p < at; p++)
    line += *p == '\n';
  return line;
}

static gboolean
check_text (const char *path, const char *text, gsize len, LmTextFileFlags flags, GError **error)
{
  const char *nul = memchr (text, '\0', len);
  if (nul != NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("line %u holds a NUL byte: not a text file"),
                      line_of (text, nul));
      return FALSE;
    }
  const char *bad = NULL;
  if ((flags & LM_TEXT_FILE_UTF8) && !g_utf8_validate_len (text, len, &bad))
    {
      const char *start = bad;
      while (start > text && start[-1] != '\n')
        start--;
      const char *end = memchr (bad, '\n', len - (gsize) (bad - text));
      g_autofree char *quoted = lm_text_quote (start, (end ? end : text + len) - start);
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("line %u is not UTF-8 text: “%s”"), line_of (text, bad),
                      quoted);
      return FALSE;
    }
  return TRUE;
}

char *
lm_text_file_read (const char *path, LmTextFileFlags flags, gsize *length, GError **error)
{
  g_autoptr (GBytes) bytes = lm_file_read (path, LM_FILE_KIND_TEXT, LM_TEXT_FILE_MAX, error);
  if (bytes == NULL)
    return NULL;
  gsize len = 0;
  const char *text = g_bytes_get_data (bytes, &len);
  if (!check_text (path, text ? text : "", len, flags, error))
    return NULL;
  if (length)
    *length = len;
  /* lm_file_read keeps a NUL after the bytes. */
  return text ? g_memdup2 (text, len + 1) : g_strdup ("");
}
