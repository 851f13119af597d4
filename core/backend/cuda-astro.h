/* The CUDA side of the astro steps: source detection (cuda-detect.c) and the display stretch
 * (cuda-stretch.c) on the device of a CUDA backend, for lm_detect and lm_stretch_run
 * (core/render/astro-run.h) to call. Only in builds with CUDA. */
#pragma once

#include "../astro/detect.h"
#include "../astro/stretch.h"
#include "backend.h"

G_BEGIN_DECLS

#if LUMEN_HAVE_CUDA
/* As lm_detect, with BACKEND a CUDA backend and IMAGE in its device memory. */
LmDetectResult *lm_detect_cuda (LmBackend *backend, const LmImage *image, const LmDetectParams *params,
                                GCancellable *cancellable, GError **error);

/* As lm_stretch_cpu, with IMAGE and OUT in BACKEND's device memory; LOW and INV_RANGE as the
 * CPU's map takes them (lm_stretch_inv_range). */
gboolean lm_stretch_cuda (LmBackend *backend, const LmImage *image, float low, float inv_range,
                          const guint8 *table, gboolean flip, LmImage *out, GError **error);
#endif

G_END_DECLS
