#include "memory-limit.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"

gboolean
lm_memory_limit_parse (const char *text, guint64 *bytes, GError **error)
{
  const char *end = text;
  double value = 0.0;
  if (text != NULL)
    {
      char *stop = NULL;
      errno = 0;
      value = g_ascii_strtod (text, &stop);
      end = errno == 0 && stop != text && isfinite (value) ? stop : text;
    }
  double scale = 1.0;
  const char *units = "KMGT", *unit = *end ? strchr (units, g_ascii_toupper (*end)) : NULL;
  if (end != text && unit != NULL)
    {
      scale = ldexp (1.0, 10 * (int) (unit - units + 1));
      end++;
      if (g_ascii_strcasecmp (end, "B") == 0 || g_ascii_strcasecmp (end, "iB") == 0)
        end += strlen (end);
    }
  else if (end != text && g_ascii_strcasecmp (end, "B") == 0)
    end++;
  /* Whole bytes without a suffix: "1.5" bytes is a typo, not a size. */
  gboolean whole = scale > 1.0 || value == floor (value);
  if (end == text || *end != '\0' || !whole || value * scale < 1.0 || value * scale > 0x1p63)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("LUMEN_CUDA_MEMORY_LIMIT=“%.40s” is not a size: give bytes or a number with K, "
                     "M, G or T (binary units, such as 8G or 512M)"),
                   text ? text : "");
      return FALSE;
    }
  *bytes = (guint64) (value * scale);
  return TRUE;
}
