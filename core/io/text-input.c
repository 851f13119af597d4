#include "text-input.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../error.h"

/* Only a regular file has an end: a fifo may never send one, a device such as /dev/zero
 * never ends, and reading some devices does something. Asked before opening anything. */
static gboolean
check_regular (const char *path, const GStatBuf *st, GError **error)
{
  if (S_ISREG (st->st_mode))
    return TRUE;
  if (S_ISDIR (st->st_mode))
    lm_set_file_error (error, LM_ERROR_IO, path, _("is a folder, not a text file"));
  else
    lm_set_file_error (error, LM_ERROR_IO, path,
                    _("is not a regular file (a pipe, a device or a socket); give a text file"));
  return FALSE;
}

static gboolean
too_large (const char *path, GError **error)
{
  g_autofree char *limit = g_format_size_full (LM_TEXT_FILE_MAX, G_FORMAT_SIZE_IEC_UNITS);
  lm_set_file_error (error, LM_ERROR_TOO_LARGE, path, _("is larger than %s: too large for a text file of this kind"),
                  limit);
  return FALSE;
}

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
  GStatBuf st;
  if (g_stat (path, &st) != 0)
    {
      int errsv = errno;
      lm_set_file_error (error, LM_ERROR_IO, path, "%s", errsv == ENOENT ? _("no such file") : g_strerror (errsv));
      return NULL;
    }
  if (!check_regular (path, &st, error))
    return NULL;
  /* O_NONBLOCK: should the name have become a fifo since, opening it does not wait. */
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      int errsv = errno;
      lm_set_file_error (error, LM_ERROR_IO, path, "%s", g_strerror (errsv));
      return NULL;
    }
  if (fstat (fd, &st) != 0)
    {
      int errsv = errno;
      close (fd);
      lm_set_file_error (error, LM_ERROR_IO, path, "%s", g_strerror (errsv));
      return NULL;
    }
  if (!check_regular (path, &st, error) || (guint64) st.st_size > LM_TEXT_FILE_MAX)
    {
      if (S_ISREG (st.st_mode))
        too_large (path, error);
      close (fd);
      return NULL;
    }

  /* Read to the end rather than st_size bytes: the file may grow or shrink meanwhile, and
   * the bound holds either way. */
  GByteArray *bytes = g_byte_array_sized_new ((guint) st.st_size + 1);
  guint8 chunk[64 * 1024];
  for (;;)
    {
      ssize_t n = read (fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;
          close (fd);
          g_byte_array_unref (bytes);
          lm_set_file_error (error, LM_ERROR_IO, path, _("cannot read: %s"), g_strerror (errsv));
          return NULL;
        }
      if (n == 0)
        break;
      if (bytes->len + (gsize) n > LM_TEXT_FILE_MAX)
        {
          close (fd);
          g_byte_array_unref (bytes);
          too_large (path, error);
          return NULL;
        }
      g_byte_array_append (bytes, chunk, (guint) n);
    }
  close (fd);

  gsize len = bytes->len;
  g_byte_array_append (bytes, (const guint8 *) "", 1);
  char *text = (char *) g_byte_array_free (bytes, FALSE);
  if (!check_text (path, text, len, flags, error))
    {
      g_free (text);
      return NULL;
    }
  if (length)
    *length = len;
  return text;
}

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
