#include "sidecar-text.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/text-input.h"

/* GKeyFile's test of a group line: "[", a name, "]", then nothing but blanks. */
static gboolean
is_group_line (const char *line, const char *end)
{
  const char *close = line < end && *line == '[' ? memchr (line, ']', end - line) : NULL;
  if (close == NULL)
    return FALSE;
  for (const char *p = close + 1; p < end; p++)
    if (*p != ' ' && *p != '\t')
      return FALSE;
  return TRUE;
}

/* Where a name was first seen: its line. */
static gboolean
seen_before (GHashTable *seen, const char *name, gsize len, guint number, guint *first)
{
  g_autofree char *key = g_strndup (name, len);
  gpointer line = g_hash_table_lookup (seen, key);
  if (line != NULL)
    {
      *first = GPOINTER_TO_UINT (line);
      return TRUE;
    }
  g_hash_table_insert (seen, g_steal_pointer (&key), GUINT_TO_POINTER (number));
  return FALSE;
}

gboolean
lm_sidecar_text_check (const char *text, gsize len, GError **error)
{
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *group = NULL;
  guint number = 1, first = 0;
  for (const char *line = text, *stop = text + len; line < stop; number++)
    {
      const char *end = memchr (line, '\n', stop - line);
      const char *next = end ? end + 1 : stop;
      end = end ? end : stop;
      if (end > line && end[-1] == '\r')
        end--;
      const char *p = line;
      while (p < end && g_ascii_isspace (*p))
        p++;
      const char *eq = memchr (p, '=', end - p);
      if (p == end || *p == '#')
        ;
      else if (is_group_line (p, end))
        {
          const char *name = p + 1, *close = memchr (p, ']', end - p);
          g_free (group);
          group = lm_text_quote (name, close - name);
          if (seen_before (groups, name, close - name, number, &first))
            {
              g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("line %u: [%s] is given twice (first on line %u)"),
                           number, group, first);
              return FALSE;
            }
          g_hash_table_remove_all (keys);
        }
      else if (eq != NULL && eq > p)
        {
          /* GKeyFile's key: up to the '=', blanks at its end dropped. */
          const char *key_end = eq;
          while (key_end > p && g_ascii_isspace (key_end[-1]))
            key_end--;
          if (group != NULL && seen_before (keys, p, key_end - p, number, &first))
            {
              g_autofree char *quoted = lm_text_quote (p, key_end - p);
              g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                           _("line %u: [%s] %s is given twice (first on line %u)"), number, group, quoted, first);
              return FALSE;
            }
        }
      else
        {
          g_autofree char *quoted = lm_text_quote (line, end - line);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                       _("line %u: “%s” is not a [group], a key=value line or a # comment"), number, quoted);
          return FALSE;
        }
      line = next;
    }
  return TRUE;
}
