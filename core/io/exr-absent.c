/* OpenEXR in a build without the OpenEXR library: its files are still told by their magic
 * number, so that what cannot be read or written is said, not taken for unknown data. */
#include <glib/gi18n.h>

#include "../error.h"
#include "io-private.h"

static LmImage *
load_exr_absent (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator, GError **error)
{
  lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                     _("is an OpenEXR file, and this build of Lumen was built without the OpenEXR "
                       "library"));
  return NULL;
}

static const char *const exr_suffixes[] = { ".exr", NULL };

const LmFileFormat lm_file_format_exr = {
  .type = LM_FILE_EXR,
  .name = "OpenEXR",
  .suffixes = exr_suffixes,
  .sniff = lm_exr_sniff,
  .load = load_exr_absent,
  .no_save = N_("this build of Lumen cannot write OpenEXR files (it was built without the OpenEXR "
                "library); write radiance as .hdr"),
  .radiance = TRUE,
};
