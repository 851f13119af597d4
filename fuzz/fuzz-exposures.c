/* An exposures file (lumen-cli hdr --exposures, a stack folder's exposures.txt):
 * "<file> <seconds>" lines (core/hdr/stack.c). Read from a memory file, as from a path. */
#include "fuzz-util.h"
#include "core/hdr/stack.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  const char *path = lm_fuzz_memfd_path (data, size);
  GPtrArray *files = NULL;
  GArray *times = NULL;
  GError *error = NULL;
  if (!lm_hdr_read_exposures (path, &files, &times, &error))
    {
      lm_fuzz_check_failure ("lm_hdr_read_exposures", error, path);
      g_error_free (error);
      return 0;
    }
  LM_FUZZ_CHECK (files != NULL && times != NULL && files->len == times->len, "%u files and %u times",
                 files ? files->len : 0, times ? times->len : 0);
  g_ptr_array_unref (files);
  g_array_unref (times);
  return 0;
}
