/* Object detection in photos (core/detect/detect.h) on a backend: the CPU reference, or the
 * CUDA backend's device (core/backend/cuda-cascade.h), whichever BACKEND is. Both give the
 * same candidate windows, hence the same boxes. lumen-cli detect-objects, its batch and the
 * window's detection job call these. */
#pragma once

#include <gio/gio.h>

#include "../backend/backend.h"
#include "../detect/detect.h"

G_BEGIN_DECLS

/* lm_cascade_candidates on BACKEND; GRAY in host memory. Cancellable between pyramid levels
 * (NULL with G_IO_ERROR_CANCELLED). */
GArray *lm_objects_candidates (LmBackend *backend, const LmCascade *cascade, const guint8 *gray, gsize stride,
                               guint width, guint height, const LmCascadeParams *params,
                               GCancellable *cancellable, GError **error);

/* lm_cascade_detect on BACKEND: the boxes (LmCascadeBox), grouped, clipped and sorted. */
GArray *lm_objects_detect (LmBackend *backend, const LmCascade *cascade, const guint8 *gray, gsize stride,
                           guint width, guint height, const LmCascadeParams *params, GCancellable *cancellable,
                           GError **error);

/* The boxes in PHOTO (host memory; RGBA8, RGBA16, GRAY8 or GRAY16; a 16-bit photo is looked
 * at in 8 bits, as the cascades were trained), in PHOTO's pixels. Errors do not name a file:
 * the caller knows which. */
GArray *lm_objects_detect_photo (LmBackend *backend, const LmCascade *cascade, const LmImage *photo,
                                 const LmCascadeParams *params, GCancellable *cancellable, GError **error);

G_END_DECLS
