/* JPEG through libjpeg (core/io/jpeg.c): markers, EXIF orientation, ICC chunks. */
#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const LmFileType types[] = { LM_FILE_JPEG };
  return lm_fuzz_load_image (data, size, types, G_N_ELEMENTS (types));
}
