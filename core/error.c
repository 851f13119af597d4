#include "error.h"

#include <errno.h>

G_DEFINE_QUARK (lumen-error-quark, lm_error)

LmErrorCode
lm_error_code_from_errno (int errsv)
{
  switch (errsv)
    {
    case ENOSPC:
#ifdef EDQUOT
    case EDQUOT:
#endif
      return LM_ERROR_NO_SPACE;
    case ENOMEM:
      return LM_ERROR_OUT_OF_MEMORY;
    default:
      return LM_ERROR_IO;
    }
}

void
lm_set_file_error (GError **error, LmErrorCode code, const char *path, const char *format, ...)
{
  if (error == NULL)
    return;
  va_list args;
  va_start (args, format);
  g_autofree char *cause = g_strdup_vprintf (format, args);
  va_end (args);
  g_autofree char *display = g_filename_display_name (path);
  g_set_error (error, LUMEN_ERROR, code, "%s: %s", display, cause);
}
