#include "stack.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/exif.h"
#include "../io/io.h"
#include "../io/text-input.h"

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
  /* "1/250" is how cameras write it */
  const char *slash = strchr (text, '/');
  g_autofree char *numerator = slash ? g_strndup (text, slash - text) : g_strdup (text);
  double t = 0.0, den = 1.0;
  if (!lm_text_parse_double (numerator, &t, NULL) || (slash && !lm_text_parse_double (slash + 1, &den, NULL))
      || den == 0.0)
    {
      g_autofree char *quoted = lm_text_quote (text, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("“%s” is not a time in seconds"), quoted);
      return FALSE;
    }
  /* A quotient may overflow to an infinity: check_times refuses it with the file's name. */
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
      if (!(t >= LM_HDR_MIN_SECONDS && t <= LM_HDR_MAX_SECONDS))
        {
          g_autofree char *where = g_strdup_printf (_("%s, line %d"), display, i + 1);
          if (!(t > 0.0) || !isfinite (t))
            g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                         _("%s: exposure time %g s: it must be a positive number of seconds"), where, t);
          else
            g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                         _("%s: exposure time %g s: it must be between %g and %g seconds"), where, t,
                         LM_HDR_MIN_SECONDS, LM_HDR_MAX_SECONDS);
          return FALSE;
        }
      g_ptr_array_add (files, g_path_is_absolute (name) ? g_strdup (name) : g_build_filename (dir, name, NULL));
      g_array_append_val (times, t);
    }
  *files_out = g_steal_pointer (&files);
  *times_out = g_steal_pointer (&times);
  return TRUE;
}

static gboolean
check_times (const LmHdrStack *s, GError **error)
{
  for (guint i = 0; i < s->n; i++)
    {
      g_autofree char *display = g_filename_display_name (s->paths[i]);
      if (!(s->times[i] > 0.0) || !isfinite (s->times[i]))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("%s: exposure time %g s: it must be a positive number of seconds"), display,
                       s->times[i]);
          return FALSE;
        }
      if (s->times[i] < LM_HDR_MIN_SECONDS || s->times[i] > LM_HDR_MAX_SECONDS)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("%s: exposure time %g s: it must be between %g and %g seconds"), display, s->times[i],
                       LM_HDR_MIN_SECONDS, LM_HDR_MAX_SECONDS);
          return FALSE;
        }
      for (guint j = 0; j < i; j++)
        if (s->times[j] == s->times[i])
          {
            g_autofree char *other = g_filename_display_name (s->paths[j]);
            g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                         _("%s and %s have the same exposure time (%g s): a bracket needs different ones"),
                         other, display, s->times[i]);
            return FALSE;
          }
    }
  return TRUE;
}

gboolean
lm_hdr_stack_check_member (const char *path, const LmImage *image, const char *first_path, const LmImage *first,
                           GError **error)
{
  g_autofree char *b = g_filename_display_name (path);
  if (image->format == LM_FORMAT_RGBA_F32)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s: is already an HDR radiance map, not an 8-bit exposure"),
                   b);
      return FALSE;
    }
  if (first == NULL)
    return TRUE;
  g_autofree char *a = g_filename_display_name (first_path);
  gboolean gray = image->format == LM_FORMAT_GRAY8, first_gray = first->format == LM_FORMAT_GRAY8;
  if (image->width != first->width || image->height != first->height)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s is %u×%u but %s is %u×%u: the exposures of a stack must have one size"), b, image->width,
                 image->height, a, first->width, first->height);
  else if (gray && !first_gray)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s is gray but %s is in colour: the exposures of a stack must be all gray or all colour"), b, a);
  else if (!gray && first_gray)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s is in colour but %s is gray: the exposures of a stack must be all gray or all colour"), b, a);
  else
    return TRUE;
  return FALSE;
}

static LmHdrStack *
load (const char *const *paths, guint n, const double *times, gboolean timed, const LmAllocator *allocator,
      GError **error)
{
  if (n < 2)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   n == 1 ? _("an HDR merge needs at least two exposures; one was given")
                          : _("an HDR merge needs at least two exposures; none were given"));
      return NULL;
    }
  if (n > LM_HDR_MAX_EXPOSURES)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%u exposures: at most %d can be merged"), n,
                   LM_HDR_MAX_EXPOSURES);
      return NULL;
    }

  g_autoptr (LmHdrStack) s = g_new0 (LmHdrStack, 1);
  s->images = g_new0 (LmImage *, n);
  s->paths = g_new0 (char *, n);
  s->times = times || timed ? g_new0 (double, n) : NULL;
  s->n = n;
  for (guint i = 0; i < n; i++)
    s->paths[i] = g_strdup (paths[i]);

  for (guint i = 0; s->times && i < n; i++)
    {
      if (times)
        s->times[i] = times[i];
      else if (!lm_exif_exposure_time (paths[i], &s->times[i], error))
        {
          g_prefix_error (error, _("no exposure time given: "));
          return NULL;
        }
    }
  if (s->times && !check_times (s, error))
    return NULL;

  for (guint i = 0; i < n; i++)
    {
      if ((s->images[i] = lm_io_load (paths[i], allocator, error)) == NULL
          || !lm_hdr_stack_check_member (paths[i], s->images[i], paths[0], i > 0 ? s->images[0] : NULL, error))
        return NULL;
    }
  return g_steal_pointer (&s);
}

LmHdrStack *
lm_hdr_stack_load (const char *const *paths, guint n, const double *times, const LmAllocator *allocator,
                   GError **error)
{
  return load (paths, n, times, TRUE, allocator, error);
}

LmHdrStack *
lm_hdr_stack_load_untimed (const char *const *paths, guint n, const double *times,
                           const LmAllocator *allocator, GError **error)
{
  return load (paths, n, times, FALSE, allocator, error);
}
