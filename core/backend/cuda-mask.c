/* The CUDA backend's mask entries (kernels/mask.cu): the flattened masks' data (a few KB:
 * shapes, segments, cell lists) kept on the device by content, and the feather's two float4
 * planes, grown to the largest plane seen. */
#include "cuda-private.h"

#include <string.h>

#define CHECK(call, error) LM_CUDA_CHECK (call, error)

/* Masks whose data stays on the device: a render with three masked instances uploads each
 * once, not at every slider move. A copy from pageable memory waits for the stream's earlier
 * work, which a render that meets a mask it has already sent never does. */
#define SLOTS 8

typedef struct {
  void *device;
  size_t device_size;
  guint8 *host; /* what DEVICE holds, to recognise it */
  gsize host_size;
  guint64 used; /* when last used, in calls */
} Slot;

struct _LmCudaMask {
  Slot slots[SLOTS];
  guint64 calls;
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

/* The slot that holds DATA, or else the least recently used one, emptied. */
static Slot *
slot_for (LmCudaMask *m, const guint8 *data, gsize size)
{
  Slot *oldest = &m->slots[0];
  for (guint i = 0; i < SLOTS; i++)
    {
      Slot *s = &m->slots[i];
      if (s->host != NULL && s->host_size == size && memcmp (s->host, data, size) == 0)
        return s;
      oldest = s->used < oldest->used ? s : oldest;
    }
  g_clear_pointer (&oldest->host, g_free);
  return oldest;
}

/* RENDER with its data on the device. A refilled slot's copy is queued on the stream after
 * the work that may still read its last mask; from pageable memory, it returns once the bytes
 * are staged. */
static gboolean
upload (LmBackendCuda *self, const LmMaskRender *render, gsize data_size, LmMaskRender *on_device, GError **error)
{
  LmCudaMask *m = mask_of (self);
  if (!lm_cuda_use_device (self, error))
    return FALSE;
  Slot *slot = slot_for (m, render->data, data_size);
  if (slot->host == NULL)
    {
      if (!lm_cuda_grow_workspace (self, &slot->device, &slot->device_size, data_size, error)
          || !CHECK (cudaMemcpyAsync (slot->device, render->data, data_size, cudaMemcpyHostToDevice, self->stream),
                     error))
        return FALSE;
      slot->host = g_memdup2 (render->data, data_size);
      slot->host_size = data_size;
    }
  slot->used = ++m->calls;
  *on_device = *render;
  on_device->data = slot->device;
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
  for (guint i = 0; i < SLOTS; i++)
    {
      lm_cuda_free (self->mask->slots[i].device);
      g_free (self->mask->slots[i].host);
    }
  lm_cuda_free (self->mask->scratch);
  g_clear_pointer (&self->mask, g_free);
}
