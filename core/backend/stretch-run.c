#include "config.h"

#include "stretch-run.h"

#if LUMEN_HAVE_CUDA
/* cuda-stretch.c */
gboolean lm_stretch_cuda (LmBackend *backend, const LmImage *image, float low, float inv_range,
                          const guint8 *table, gboolean flip, LmImage *out, GError **error);
#endif

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
