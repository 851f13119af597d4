/* The astro steps on a backend (astro-run.h): each goes to the CUDA backend's code where
 * BACKEND is on a device, else to the CPU reference. */
#include "config.h"

#include "astro-run.h"

#include "../backend/cuda-astro.h"

LmDetectResult *
lm_detect (LmBackend *backend, const LmImage *image, const LmDetectParams *params,
           GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (backend && image && params, NULL);
#if LUMEN_HAVE_CUDA
  if (lm_backend_cuda_device (backend) >= 0)
    return lm_detect_check_input (image, params, error)
             ? lm_detect_cuda (backend, image, params, cancellable, error)
             : NULL;
#endif
  return lm_detect_cpu (image, params, cancellable, error);
}

gboolean
lm_stretch_run (LmBackend *backend, const LmImage *image, double low, double high, const guint8 *table,
                gboolean flip, LmImage *out, GError **error)
{
#if LUMEN_HAVE_CUDA
  if (lm_backend_cuda_device (backend) >= 0)
    return lm_stretch_cuda (backend, image, (float) low, lm_stretch_inv_range (low, high), table, flip,
                            out, error);
#endif
  return lm_stretch_cpu (image, low, high, table, flip, out, error);
}
