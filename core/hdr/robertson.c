/* Robertson et al. (2003): calibration and merge. (Being written.) */
#include <glib/gi18n.h>

#include "../error.h"
#include "merge.h"

gboolean
lm_hdr_calibrate_robertson (const LmHdrStack *stack, int max_iter, float threshold, LmResponse *response,
                            GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, "Robertson: not written yet");
  return FALSE;
}

gboolean
lm_hdr_merge_robertson (const LmHdrStack *stack, const LmResponse *response, LmImage *out, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, "Robertson: not written yet");
  return FALSE;
}
