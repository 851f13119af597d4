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
