/* Median threshold bitmap alignment. (Being written.) */
#include <glib/gi18n.h>

#include "../error.h"
#include "align.h"

gboolean
lm_hdr_align_mtb_cpu (const LmAlignParams *params, const LmHdrStack *stack, LmShift *shifts, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, "AlignMTB: not written yet");
  return FALSE;
}

gboolean
lm_hdr_stack_apply_shifts (const LmAlignParams *params, LmHdrStack *stack, const LmShift *shifts,
                           GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, "AlignMTB: not written yet");
  return FALSE;
}
