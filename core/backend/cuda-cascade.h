/* Object detection's candidate windows (core/detect/detect.h) on the device of a CUDA
 * backend (cuda-cascade.c, kernels/cascade*.cu), for lm_objects_candidates
 * (core/render/objects-run.h) to call. Only in builds with CUDA. */
#pragma once

#include <gio/gio.h>

#include "../detect/detect.h"
#include "backend.h"

G_BEGIN_DECLS

#if LUMEN_HAVE_CUDA
/* As lm_cascade_candidates, with BACKEND a CUDA backend: the same windows in the same order. */
GArray *lm_cascade_candidates_cuda (LmBackend *backend, const LmCascade *cascade, const guint8 *gray, gsize stride,
                                    guint width, guint height, const LmCascadeParams *params,
                                    GCancellable *cancellable, GError **error);
#endif

G_END_DECLS
