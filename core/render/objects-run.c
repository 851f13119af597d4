/* Object detection on a backend (objects-run.h): on the CUDA backend's device where BACKEND
 * is one, else the CPU reference. */
#include "config.h"

#include "objects-run.h"

#include "../backend/cuda-cascade.h"
#include "../detect/gray8.h"
#include "../io/depth.h"

GArray *
lm_objects_candidates (LmBackend *backend, const LmCascade *cascade, const guint8 *gray, gsize stride, guint width,
                       guint height, const LmCascadeParams *params, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (backend && cascade && gray && params, NULL);
#if LUMEN_HAVE_CUDA
  if (lm_backend_cuda_device (backend) >= 0)
    return lm_cascade_candidates_cuda (backend, cascade, gray, stride, width, height, params, cancellable, error);
#endif
  return lm_cascade_candidates (cascade, gray, stride, width, height, params, cancellable, error);
}

GArray *
lm_objects_detect (LmBackend *backend, const LmCascade *cascade, const guint8 *gray, gsize stride, guint width,
                   guint height, const LmCascadeParams *params, GCancellable *cancellable, GError **error)
{
  g_autoptr (GArray) candidates
    = lm_objects_candidates (backend, cascade, gray, stride, width, height, params, cancellable, error);
  return candidates ? lm_cascade_group_candidates (candidates, params, width, height) : NULL;
}

GArray *
lm_objects_detect_photo (LmBackend *backend, const LmCascade *cascade, const LmImage *photo,
                         const LmCascadeParams *params, GCancellable *cancellable, GError **error)
{
  g_autoptr (LmImage) eight = NULL;
  if (photo->format == LM_FORMAT_RGBA16 || photo->format == LM_FORMAT_GRAY16)
    {
      eight = lm_image_to_depth8 (photo, error);
      if (eight == NULL)
        return NULL;
    }
  gint64 t0 = g_get_monotonic_time ();
  g_autofree guint8 *gray = lm_cascade_gray8 (eight ? eight : photo, error);
  if (gray == NULL)
    return NULL;
  gint64 t1 = g_get_monotonic_time ();
  g_autoptr (GArray) candidates = lm_objects_candidates (backend, cascade, gray, photo->width, photo->width,
                                                         photo->height, params, cancellable, error);
  if (candidates == NULL)
    return NULL;
  gint64 t2 = g_get_monotonic_time ();
  GArray *boxes = lm_cascade_group_candidates (candidates, params, photo->width, photo->height);
  g_debug ("object detection: gray %.2f ms, %u candidates %.2f ms, grouped into %u %.2f ms", (t1 - t0) / 1e3,
           candidates->len, (t2 - t1) / 1e3, boxes->len, (g_get_monotonic_time () - t2) / 1e3);
  return boxes;
}
