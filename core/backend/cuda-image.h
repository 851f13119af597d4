/* What host code that hands images to the kernels shares (the CUDA backend, the batch's nvJPEG
 * decoder and encoder): an image as the kernels take it, and device buffers that grow. */
#pragma once

#include <cuda_runtime.h>
#include <glib.h>

#include "cuda-error.h"
#include "cuda-memory.h"
#include "../image.h"
#include "kernels/kernels.h"

G_BEGIN_DECLS

static inline LmKImage
lm_cuda_kimage (const LmImage *image)
{
  LmKImage k = { image->data, image->width, image->height, image->stride, (int) image->format,
                 image->opaque };
  return k;
}

/* *BUFFER (device memory of *SIZE bytes, or NULL) grown to NEED bytes, its contents dropped;
 * kept when large enough, so that steady use allocates nothing. The memory is accounted
 * (cuda-memory.h); cudaFree waits for the device: work queued before has finished with the
 * old buffer. */
static inline gboolean
lm_cuda_grow_buffer (void **buffer, gsize *size, gsize need, GError **error)
{
  if (need <= *size)
    return TRUE;
  lm_cuda_free (*buffer);
  *buffer = NULL;
  *size = 0;
  if (!lm_cuda_malloc (buffer, need, error))
    return FALSE;
  *size = need;
  return TRUE;
}

G_END_DECLS
