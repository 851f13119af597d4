/* The astro steps on a backend: source detection and the display stretch, on the CPU
 * (core/astro/, their reference) or on the CUDA backend's device (core/backend/cuda-astro.h),
 * whichever BACKEND is. The render worker's FITS jobs (job-astro.c) and lumen-cli detect call
 * them. */
#pragma once

#include <gio/gio.h>

#include "../astro/detect.h"
#include "../astro/stretch.h"
#include "../backend/backend.h"

G_BEGIN_DECLS

/* The whole detection pipeline on IMAGE (GRAY_F32, in BACKEND's work memory or in host
 * memory) on BACKEND (CPU or CUDA). Cancellable between steps. */
LmDetectResult *lm_detect (LmBackend *backend, const LmImage *image, const LmDetectParams *params,
                           GCancellable *cancellable, GError **error);

/* lm_stretch_cpu on BACKEND (the CPU, or the CUDA backend's device: IMAGE and OUT in its work
 * memory). */
gboolean lm_stretch_run (LmBackend *backend, const LmImage *image, double low, double high,
                         const guint8 *table, gboolean flip, LmImage *out, GError **error);

G_END_DECLS
