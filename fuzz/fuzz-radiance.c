/* Radiance RGBE (.hdr) through Lumen's own reader (core/io/radiance-read.c): the header,
 * flat and run-length encoded scanlines. */
#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const LmFileType types[] = { LM_FILE_RADIANCE };
  return lm_fuzz_load_image (data, size, types, G_N_ELEMENTS (types));
}
