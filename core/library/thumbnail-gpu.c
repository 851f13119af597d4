/* JPEG thumbnails on the GPU (thumbnail-gpu.h). */
#include "thumbnail-gpu.h"

#include <glib/gi18n.h>

#include "thumbnail-source.h"
#include "../error.h"
#include "../backend/nvjpeg-decoder.h"
#include "../ops/op.h"
#include "../ops/resize-math.h"
#include "../io/orientation.h"

struct _LmThumbnailGpu {
  LmNvjpeg *decoder;
  LmBackend *backend;
  char *description;
};

LmThumbnailGpu *
lm_thumbnail_gpu_new (GError **error)
{
  if (lm_backend_cuda_device_count () < 1)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("no CUDA device is usable here"));
      return NULL;
    }
  LmNvjpeg *decoder = lm_nvjpeg_new (0, error);
  if (decoder == NULL)
    return NULL;
  LmBackend *backend = lm_backend_cuda_new_on_device (lm_nvjpeg_device (decoder), error);
  if (backend == NULL)
    {
      lm_nvjpeg_free (decoder);
      return NULL;
    }
  LmThumbnailGpu *gpu = g_new0 (LmThumbnailGpu, 1);
  gpu->decoder = decoder;
  gpu->backend = backend;
  gpu->description = g_strdup_printf ("%s; %s", lm_nvjpeg_description (decoder), backend->description);
  return gpu;
}

void
lm_thumbnail_gpu_free (LmThumbnailGpu *gpu)
{
  if (gpu == NULL)
    return;
  lm_backend_free (gpu->backend);
  lm_nvjpeg_free (gpu->decoder);
  g_free (gpu->description);
  g_free (gpu);
}

const char *
lm_thumbnail_gpu_description (LmThumbnailGpu *gpu)
{
  return gpu->description;
}

LmImage *
lm_thumbnail_shrink_on (LmBackend *backend, const LmImage *src, int size, GError **error)
{
  g_return_val_if_fail (src->format == LM_FORMAT_RGBA8, NULL);
  guint w, h;
  lm_thumbnail_fit (src->width, src->height, size, &w, &h);
  const LmOpInfo *resize = lm_op_info (LM_OP_RESIZE);
  LmResizeParams params;
  lm_op_params_init (resize, &params);
  params.width = (float) w, params.height = (float) h, params.mode = LM_RESIZE_EXACT;
  g_autoptr (LmImage) small = lm_image_new (LM_FORMAT_RGBA8, w, h, lm_backend_work_allocator (backend), error);
  if (small == NULL || !lm_backend_run_op (backend, resize, &params, src, small, error))
    return NULL;
  g_autoptr (LmImage) host = lm_backend_download (backend, small, error);
  if (host == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  /* The download may be pinned memory or the work image itself (CPU): a plain copy is the
   * caller's, kept as long as it likes. */
  LmImage *thumb = lm_image_cut (host, 0, 0, w, h, lm_allocator_host (), error);
  if (thumb != NULL)
    thumb->opaque = src->opaque;
  return thumb;
}

gboolean
lm_thumbnail_gpu_make (LmThumbnailGpu *gpu, guint n, const guint8 *const *data, const gsize *lens, int size,
                       LmImage **thumbs, GError **error)
{
  g_autofree LmImage **decoded = g_new0 (LmImage *, n);
  gboolean ok = lm_nvjpeg_decode_some_to_device (gpu->decoder, n, data, lens, lm_backend_work_allocator (gpu->backend),
                                                 decoded, error);
  for (guint i = 0; i < n && ok; i++)
    {
      thumbs[i] = NULL;
      if (decoded[i] == NULL)
        continue;
      /* Turned upright once small: a turn of the whole photo would cost more than its shrink. */
      int orientation = lm_io_orientation (decoded[i]);
      g_autoptr (LmImage) small = lm_thumbnail_shrink_on (gpu->backend, decoded[i], size, error);
      ok = small != NULL && (thumbs[i] = lm_image_orient (small, orientation, error)) != NULL;
    }
  for (guint i = 0; i < n; i++)
    g_clear_pointer (&decoded[i], lm_image_unref);
  if (!ok)
    for (guint i = 0; i < n; i++)
      g_clear_pointer (&thumbs[i], lm_image_unref);
  return ok;
}
