/* The display stretch on the CUDA backend's device (cuda-astro.h): the curve's table uploaded
 * with the launch and freed after it, in the backend's stream order (64 KiB: cheaper than
 * keeping state beside the backend's own). Built only with CUDA. */
#include "config.h"

#include "cuda-astro.h"
#include "cuda-private.h"

#define CHECK(call, error) LM_CUDA_CHECK (call, error)

gboolean
lm_stretch_cuda (LmBackend *backend, const LmImage *image, float low, float inv_range, const guint8 *table,
                 gboolean flip, LmImage *out, GError **error)
{
  LmBackendCuda *self = lm_cuda_self (backend);
  if (!lm_cuda_use_device (self, error))
    return FALSE;
  void *d_table = NULL;
  if (!CHECK (cudaMallocAsync (&d_table, LM_STRETCH_LEVELS, self->stream), error))
    return FALSE;
  LmKImage k_in = lm_cuda_kimage (image);
  out->opaque = TRUE;
  LmKImage k_out = lm_cuda_kimage (out);
  /* The table is pageable host memory: the copy has read it when the call returns. */
  gboolean ok = CHECK (cudaMemcpyAsync (d_table, table, LM_STRETCH_LEVELS, cudaMemcpyHostToDevice, self->stream),
                       error)
                && CHECK (lm_k_astro_stretch (&k_in, low, inv_range, d_table, flip, &k_out, self->stream), error);
  /* Freed in stream order either way; a failure to free is reported only when all else went. */
  GError *free_error = NULL;
  if (!CHECK (cudaFreeAsync (d_table, self->stream), ok ? error : &free_error))
    ok = FALSE;
  g_clear_error (&free_error);
  return ok;
}
