/* Camera raw files through LibRaw (core/io/raw.c, raw-meta.c, raw-sniff.c): the sniffer's IFD
 * walk on every input, then the load. LibRaw is the system's uninstrumented library, so the
 * coverage guiding this harness is Lumen's side (the sniffer, the checks, the black table, the
 * copy); what it proves is Lumen's promises against hostile raws, not LibRaw's decoders. */
#include "fuzz-util.h"

#include "core/io/raw-sniff.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* The walk alone, on bytes any harness may get: bounded, whatever it answers. */
  (void) lm_raw_sniff (data, size);
  static const LmFileType types[] = { LM_FILE_RAW };
  return lm_fuzz_load_image (data, size, types, G_N_ELEMENTS (types));
}
