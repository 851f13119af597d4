/* The CUDA side of source detection (core/backend/cuda-detect.c): the steps of detect.h on
 * the device of a CUDA backend, for lm_detect to call. Only in builds with CUDA. */
#pragma once

#include "detect.h"

G_BEGIN_DECLS

#if LUMEN_HAVE_CUDA
/* As lm_detect, with BACKEND a CUDA backend and IMAGE in its device memory. */
LmDetectResult *lm_detect_cuda (LmBackend *backend, const LmImage *image, const LmDetectParams *params,
                                GCancellable *cancellable, GError **error);
#endif

G_END_DECLS
