/* TIFF through libtiff (core/io/tiff.c): scanlines, and libtiff's RGBA reader for the rest. */
#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const LmFileType types[] = { LM_FILE_TIFF };
  return lm_fuzz_load_image (data, size, types, G_N_ELEMENTS (types));
}
