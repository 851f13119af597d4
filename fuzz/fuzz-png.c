/* PNG through libpng (core/io/png.c): 8- and 16-bit, palettes, iCCP and eXIf chunks. */
#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const LmFileType types[] = { LM_FILE_PNG };
  return lm_fuzz_load_image (data, size, types, G_N_ELEMENTS (types));
}
