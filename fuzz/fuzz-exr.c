/* OpenEXR through the OpenEXR library's C API (core/io/exr.c); built where the library is. */
#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const LmFileType types[] = { LM_FILE_EXR };
  return lm_fuzz_load_image (data, size, types, G_N_ELEMENTS (types));
}
