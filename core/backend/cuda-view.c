/* The CUDA backend's view (cuda-private.h): the resampling through the view transform's LUT,
 * whose table is uploaded once per transform and kept until another comes, and the "as seen"
 * histogram. */
#include <string.h>

#include "cuda-private.h"
#include "../ops/view.h"

#define CHECK(call, error) LM_CUDA_CHECK (call, error)

/* XF's table on the device, uploaded when it is not the one there; *LUT its device copy, or
 * NULL where XF has none. */
static gboolean
device_lut (LmBackendCuda *self, LmViewTransform *xf, LmLut3d *lut, gboolean *has, GError **error)
{
  const LmLut3d *host = lm_view_transform_lut (xf);
  *has = host != NULL;
  if (host == NULL)
    return TRUE;
  gsize bytes = (gsize) lm_lut3d_entries (host->n) * sizeof (int32_t);
  if (self->view_lut_id != lm_view_transform_id (xf))
    {
      self->view_lut_id = 0;
      if (!lm_cuda_grow_buffer ((void **) &self->view_lut, &self->view_lut_size, bytes, error)
          /* The table is in pageable memory: the copy is synchronous, once per transform. */
          || !CHECK (cudaMemcpyAsync (self->view_lut, host->data, bytes, cudaMemcpyHostToDevice,
                                      self->stream), error))
        return FALSE;
      self->view_lut_id = lm_view_transform_id (xf);
    }
  lut->data = self->view_lut;
  lut->n = host->n;
  return TRUE;
}

gboolean
lm_cuda_view (LmBackend *b, const LmImage *image, const LmViewRect *rect, LmViewTransform *xf,
              LmImage *out, GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmViewSource src = lm_view_source (image);
  LmKImage k_out = lm_cuda_kimage (out);
  LmLut3d lut;
  gboolean has = FALSE;
  out->opaque = TRUE;
  return lm_cuda_use_device (self, error) && device_lut (self, xf, &lut, &has, error)
         && CHECK (lm_k_view (&src, rect, has ? &lut : NULL, &k_out, self->stream), error);
}

gboolean
lm_cuda_seen_histogram (LmBackend *b, const LmImage *image, LmViewTransform *xf, LmHistogram *hist,
                        GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmViewSource src = lm_view_source (image);
  LmLut3d lut;
  gboolean has = FALSE;
  if (!lm_cuda_use_device (self, error) || !device_lut (self, xf, &lut, &has, error)
      || !CHECK (lm_k_view_histogram (&src, has ? &lut : NULL, self->bins, self->stream), error)
      || !CHECK (cudaMemcpyAsync (self->host_bins, self->bins, sizeof hist->bins,
                                  cudaMemcpyDeviceToHost, self->stream), error)
      || !CHECK (cudaStreamSynchronize (self->stream), error))
    return FALSE;
  memcpy (hist->bins, self->host_bins, sizeof hist->bins);
  hist->total = (guint64) image->width * image->height;
  return TRUE;
}

void
lm_cuda_view_release (LmBackendCuda *self)
{
  lm_cuda_free (self->view_lut);
  self->view_lut = NULL;
  self->view_lut_size = 0;
  self->view_lut_id = 0;
}
