/* A user's words in a message, and numbers as users write them (text.h). */
#include "text.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "error.h"

/* One character of TEXT at P (before END) as a message shows it, into PIECE; returns the
 * bytes it took. */
static gsize
quote_one (const char *p, const char *end, char piece[16])
{
  gunichar c = g_utf8_get_char_validated (p, end - p);
  if (c == (gunichar) -1 || c == (gunichar) -2)
    {
      g_snprintf (piece, 16, "\\x%02X", (guint8) *p);
      return 1;
    }
  gsize step = (gsize) (g_utf8_next_char (p) - p);
  if (c == '\n')
    g_strlcpy (piece, "\\n", 16);
  else if (c == '\t')
    g_strlcpy (piece, "\\t", 16);
  else if (c == '\r')
    g_strlcpy (piece, "\\r", 16);
  else if (c < 0x20 || c == 0x7F)
    g_snprintf (piece, 16, "\\x%02X", c);
  else if (!g_unichar_isprint (c))
    g_snprintf (piece, 16, "\\u{%04X}", c);
  else
    {
      memcpy (piece, p, step);
      piece[step] = '\0';
    }
  return step;
}

char *
lm_text_escape (const char *text, gssize length, glong max_chars)
{
  const char *p = text, *end = text + (length < 0 ? strlen (text) : (gsize) length);
  GString *out = g_string_new (NULL);
  glong shown = 0;
  while (p < end)
    {
      char piece[16];
      gsize step = quote_one (p, end, piece);
      glong width = g_utf8_strlen (piece, -1);
      if (max_chars >= 0 && shown + width > max_chars)
        {
          g_string_append (out, "…");
          break;
        }
      g_string_append (out, piece);
      shown += width;
      p += step;
    }
  return g_string_free (out, FALSE);
}

char *
lm_text_quote (const char *text, gssize length)
{
  return lm_text_escape (text, length, LM_TEXT_QUOTE_MAX);
}

gboolean
lm_text_parse_double (const char *text, double *value, GError **error)
{
  char *end = NULL;
  errno = 0;
  double v = g_ascii_strtod (text, &end);
  /* ERANGE alone is no refusal: on underflow (1e-320) strtod gives the nearest double, a
   * number; overflow gives an infinity, refused below as inf is. Blanks around a number are
   * refused before it as after it. */
  if (end == text || *end != '\0' || g_ascii_isspace (*text) || isnan (v))
    {
      g_autofree char *quoted = lm_text_quote (text, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("“%s” is not a number"), quoted);
      return FALSE;
    }
  if (isinf (v))
    {
      g_autofree char *quoted = lm_text_quote (text, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("“%s” is not a finite number"), quoted);
      return FALSE;
    }
  *value = v;
  return TRUE;
}
