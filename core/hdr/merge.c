/* The method names and the CPU's merge dispatch. */
#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "merge.h"
#include "tonemap.h"

static const char *const method_names[] = {
  [LM_HDR_DEBEVEC] = "debevec",
  [LM_HDR_ROBERTSON] = "robertson",
  [LM_HDR_MERTENS] = "mertens",
  [LM_HDR_LINEAR] = "linear",
};

gboolean
lm_hdr_method_parse (const char *text, LmHdrMethod *method)
{
  for (int i = 0; i < LM_HDR_LINEAR; i++)
    if (g_ascii_strcasecmp (text, method_names[i]) == 0)
      {
        *method = i;
        return TRUE;
      }
  return FALSE;
}

const char *
lm_hdr_method_name (LmHdrMethod method)
{
  g_return_val_if_fail (method < G_N_ELEMENTS (method_names), "?");
  return method_names[method];
}

gboolean
lm_hdr_merge_check_depth (LmHdrMethod method, const LmHdrStack *stack, GError **error)
{
  gboolean wide = lm_format_depth (stack->images[0]->format) == 16;
  if (wide == (method == LM_HDR_LINEAR))
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
               wide ? _("%s merges 8-bit exposures; 16-bit ones are merged as linear data")
                    : _("%s merges 16-bit exposures; 8-bit ones need a camera response"),
               lm_hdr_method_name (method));
  return FALSE;
}

gboolean
lm_hdr_merge_cpu (const LmHdrMergeParams *params, const LmHdrStack *stack, LmImage *out, GError **error)
{
  if (!lm_hdr_merge_check_depth (params->method, stack, error))
    return FALSE;
  gboolean ok;
  switch (params->method)
    {
    case LM_HDR_DEBEVEC:
      ok = lm_hdr_merge_debevec (stack, &params->response, out, error);
      break;
    case LM_HDR_ROBERTSON:
      ok = lm_hdr_merge_robertson (stack, &params->response, out, error);
      break;
    case LM_HDR_MERTENS:
      ok = lm_hdr_fuse_mertens (stack, &params->mertens, out, error);
      break;
    case LM_HDR_LINEAR:
      ok = lm_hdr_merge_linear (stack, out, error);
      break;
    default:
      g_return_val_if_reached (FALSE);
    }
  if (ok && params->gamma_correction > 0.0f)
    lm_gamma_correct_cpu (out, params->gamma_correction);
  return ok;
}
