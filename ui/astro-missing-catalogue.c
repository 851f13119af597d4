/* Built only while core/astro/catalogue-csv.c and catalogue-fits.c (another part of this
 * work) are not in the tree; goes away by itself when they land (ui/meson.build). */
#include <gio/gio.h> /* detect.h names GCancellable */

#include "core/astro/catalogue.h"
#include "core/error.h"

gboolean
lm_catalogue_write_csv (const char *path, const LmDetectResult *result, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, "catalogues are not in this build yet");
  return FALSE;
}

gboolean
lm_catalogue_write_fits (const char *path, const LmDetectResult *result, GError **error)
{
  return lm_catalogue_write_csv (path, result, error);
}
