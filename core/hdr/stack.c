#include "stack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/text-input.h"

gboolean
lm_hdr_check_time (const char *path, double seconds, GError **error)
{
  if (seconds >= LM_HDR_MIN_SECONDS && seconds <= LM_HDR_MAX_SECONDS)
    return TRUE;
  g_autofree char *display = g_filename_display_name (path);
  if (!(seconds > 0.0) || !isfinite (seconds))
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s: exposure time %g s: it must be a positive number of seconds"), display, seconds);
  else
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s: exposure time %g s: it must be between %g and %g seconds"), display, seconds,
                 LM_HDR_MIN_SECONDS, LM_HDR_MAX_SECONDS);
  return FALSE;
}

void
lm_hdr_stack_free (LmHdrStack *stack)
{
  if (stack == NULL)
    return;
  for (guint i = 0; i < stack->n; i++)
    {
      g_clear_pointer (&stack->images[i], lm_image_unref);
      g_free (stack->paths[i]);
    }
  g_free (stack->images);
  g_free (stack->paths);
  g_free (stack->times);
  g_free (stack);
}

gboolean
lm_hdr_parse_seconds (const char *text, double *seconds, GError **error)
{
  /* "1/250" is how cameras write it; "2 s" how people do (the dialog's cells): blanks around
   * the number and its parts, and a unit "s" after it, are allowed. */
  g_autofree char *copy = g_strstrip (g_strdup (text));
  gsize len = strlen (copy);
  if (len > 0 && copy[len - 1] == 's')
    copy[len - 1] = '\0';
  g_strstrip (copy);
  char *slash = strchr (copy, '/');
  if (slash)
    *slash = '\0';
  double t = 0.0, den = 1.0;
  if (!lm_text_parse_double (g_strstrip (copy), &t, NULL)
      || (slash && !lm_text_parse_double (g_strstrip (slash + 1), &den, NULL)) || den == 0.0)
    {
      g_autofree char *quoted = lm_text_quote (text, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("“%s” is not a time in seconds"), quoted);
      return FALSE;
    }
  /* A quotient may overflow to an infinity: the job's checks refuse it with the file's name. */
  *seconds = t / den;
  return TRUE;
}

/* "<file> <seconds>" on LINE (trimmed): the file's name, or NULL. */
static char *
parse_exposure_line (const char *line, double *seconds)
{
  g_auto (GStrv) fields = g_strsplit_set (line, " \t", -1);
  int n = 0;
  const char *name = NULL, *time_text = NULL;
  for (int f = 0; fields[f]; f++)
    if (*fields[f])
      {
        if (n == 0)
          name = fields[f];
        else if (n == 1)
          time_text = fields[f];
        n++;
      }
  if (n != 2 || !lm_hdr_parse_seconds (time_text, seconds, NULL))
    return NULL;
  return g_strdup (name);
}

gboolean
lm_hdr_read_exposures (const char *path, GPtrArray **files_out, GArray **times_out, GError **error)
{
  g_autofree char *text = lm_text_file_read (path, LM_TEXT_FILE_UTF8, NULL, error);
  if (text == NULL)
    return FALSE;
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (int i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      if (*line == '\0' || *line == '#')
        continue;
      double t = 0.0;
      g_autofree char *name = parse_exposure_line (line, &t);
      if (name == NULL)
        {
          g_autofree char *quoted = lm_text_quote (line, -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("%s: line %d: expected “file seconds”, got “%s”"), display, i + 1, quoted);
          return FALSE;
        }
      /* Checked here too, where the file and the line can still be named. */
      g_autofree char *where = g_strdup_printf (_("%s, line %d"), display, i + 1);
      if (!lm_hdr_check_time (where, t, error))
        return FALSE;
      g_ptr_array_add (files, g_path_is_absolute (name) ? g_strdup (name) : g_build_filename (dir, name, NULL));
      g_array_append_val (times, t);
    }
  *files_out = g_steal_pointer (&files);
  *times_out = g_steal_pointer (&times);
  return TRUE;
}
