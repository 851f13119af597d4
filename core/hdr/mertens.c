/* Mertens et al. (2007) exposure fusion. (Being written.) */
#include <glib/gi18n.h>

#include "../error.h"
#include "merge.h"

gboolean
lm_hdr_fuse_mertens (const LmHdrStack *stack, const LmMertensParams *params, LmImage *out, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, "Mertens: not written yet");
  return FALSE;
}
