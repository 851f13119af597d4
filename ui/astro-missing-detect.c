/* Built only while core/astro/detect.c (the detection pipeline, another part of this work)
 * is not in the tree: the window opens FITS files all the same and the Detect Sources panel
 * says why it finds nothing. Goes away by itself when detect.c lands (ui/meson.build). */
#include <glib/gi18n.h>

#include <gio/gio.h> /* detect.h names GCancellable */

#include "core/astro/detect.h"
#include "core/error.h"

void
lm_detect_params_init (LmDetectParams *p)
{
  *p = (LmDetectParams) { .kappa = 3, .max_iterations = 10, .threshold = 5, .min_area = 5, .connectivity = 4,
                          .filter_sigma = 0, .mesh = 64, .mesh_filter = 3 };
}

gboolean
lm_detect_params_check (const LmDetectParams *params, GError **error)
{
  return TRUE;
}

void
lm_detect_result_free (LmDetectResult *result)
{
  g_free (result);
}

LmDetectResult *
lm_detect (LmBackend *backend, const LmImage *image, const LmDetectParams *params, GCancellable *cancellable,
           GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, "source detection is not in this build yet");
  return NULL;
}
