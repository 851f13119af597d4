/* GIF, WebP and BMP, through whatever decodes them for lm_io_load_from_memory (gdk-pixbuf's
 * loaders today): one harness, since the three share that path. */
#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const LmFileType types[] = { LM_FILE_GIF, LM_FILE_WEBP, LM_FILE_BMP };
  return lm_fuzz_load_image (data, size, types, G_N_ELEMENTS (types));
}
