/* The CUDA backend's mask entries (kernels/mask.cu): the flattened mask's data copied to the
 * device at each call (a few KB: shapes, segments, cell lists), and the feather's two float4
 * planes, grown to the largest plane seen. */
#include "cuda-private.h"

#define CHECK(call, error) LM_CUDA_CHECK (call, error)

struct _LmCudaMask {
  void *data; /* the render's arrays (LmMaskRender.data) */
  size_t data_size;
  void *scratch; /* the guided filter's planes */
  size_t scratch_size;
};

static LmCudaMask *
mask_of (LmBackendCuda *self)
{
  if (self->mask == NULL)
    self->mask = g_new0 (LmCudaMask, 1);
  return self->mask;
}

/* RENDER with its data on the device. The copy is queued on the stream after the work that
 * may still read the last mask's; from pageable memory, it returns once the bytes are staged. */
static gboolean
upload (LmBackendCuda *self, const LmMaskRender *render, gsize data_size, LmMaskRender *on_device, GError **error)
{
  LmCudaMask *m = mask_of (self);
  if (!lm_cuda_use_device (self, error) || !lm_cuda_grow_workspace (self, &m->data, &m->data_size, data_size, error)
      || !CHECK (cudaMemcpyAsync (m->data, render->data, data_size, cudaMemcpyHostToDevice, self->stream), error))
    return FALSE;
  *on_device = *render;
  on_device->data = m->data;
  return TRUE;
}

gboolean
lm_cuda_mask_drawn (LmBackend *b, const LmMaskRender *render, gsize data_size, guint x0, guint y0, LmImage *drawn,
                    GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmMaskRender k;
  LmKImage out = lm_cuda_kimage (drawn);
  return upload (self, render, data_size, &k, error) && CHECK (lm_k_mask_drawn (&k, x0, y0, &out, self->stream), error);
}

gboolean
lm_cuda_mask (LmBackend *b, const LmMaskRender *render, gsize data_size, guint x0, guint y0, const LmImage *input,
              const LmImage *drawn, LmImage *out, GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmMaskRender k;
  if (!upload (self, render, data_size, &k, error))
    return FALSE;
  LmCudaMask *m = self->mask;
  if (render->radius > 0
      && !lm_cuda_grow_workspace (self, &m->scratch, &m->scratch_size,
                                  lm_k_mask_scratch_size (out->width, out->height), error))
    return FALSE;
  LmKImage k_in = lm_cuda_kimage (input), k_drawn = lm_cuda_kimage (drawn), k_out = lm_cuda_kimage (out);
  return CHECK (lm_k_mask_final (&k, x0, y0, &k_in, &k_drawn, &k_out, render->radius > 0 ? m->scratch : NULL,
                                 self->stream),
                error);
}

gboolean
lm_cuda_blend_mask (LmBackend *b, const LmImage *in, const LmImage *op, const LmImage *mask, LmImage *out,
                    GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmKImage k_in = lm_cuda_kimage (in), k_op = lm_cuda_kimage (op), k_mask = lm_cuda_kimage (mask),
           k_out = lm_cuda_kimage (out);
  return lm_cuda_use_device (self, error)
         && CHECK (lm_k_blend_mask (&k_in, &k_op, &k_mask, &k_out, self->stream), error);
}

void
lm_cuda_mask_release (LmBackendCuda *self)
{
  if (self->mask == NULL)
    return;
  lm_cuda_free (self->mask->data);
  lm_cuda_free (self->mask->scratch);
  g_clear_pointer (&self->mask, g_free);
}
