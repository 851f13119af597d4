/* A camera response file (lumen-cli hdr --response-in): 256 lines of three positive numbers
 * (lm_response_load, core/hdr/debevec.c). Every value read must be one the merge can take
 * the logarithm of: positive and finite as a float. */
#include <math.h>

#include "fuzz-util.h"
#include "core/hdr/response.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  const char *path = lm_fuzz_memfd_path (data, size);
  LmResponse response;
  GError *error = NULL;
  if (!lm_response_load (&response, path, &error))
    {
      lm_fuzz_check_failure ("lm_response_load", error, path);
      g_error_free (error);
      return 0;
    }
  for (int c = 0; c < 3; c++)
    for (int z = 0; z < LM_HDR_LEVELS; z++)
      LM_FUZZ_CHECK (response.value[c][z] > 0.0f && isfinite (response.value[c][z]),
                     "channel %d, level %d: %g, which the merge cannot take the logarithm of", c, z,
                     response.value[c][z]);
  return 0;
}
