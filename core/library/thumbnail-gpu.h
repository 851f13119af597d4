/* Thumbnails of JPEGs decoded and shrunk on the GPU: nvJPEG decodes a batch into device
 * memory (core/backend/nvjpeg-decoder.h), the backend's resize operation (its CUDA kernel;
 * the CPU reference is the same resize-math.h) shrinks each there, and only the thumbnails
 * come back. nvJPEG has no reduced decode, so each file costs a whole decode, on the
 * hardware engine where the GPU has one; the CPU's libjpeg-turbo decodes at 1/8 instead. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "../backend/backend.h"

G_BEGIN_DECLS

typedef struct _LmThumbnailGpu LmThumbnailGpu;

/* A decoder and a CUDA backend on the first device, for one thread; NULL with the reason
 * (LM_ERROR_NO_DEVICE) without a device, CUDA in this build, or nvJPEG. */
LmThumbnailGpu *lm_thumbnail_gpu_new (GError **error);
void lm_thumbnail_gpu_free (LmThumbnailGpu *gpu);
/* "nvJPEG 13.0.1, hardware decoder; CUDA, NVIDIA H200 (sm_90)". */
const char *lm_thumbnail_gpu_description (LmThumbnailGpu *gpu);

/* Thumbnails of SIZE (longest side, lm_thumbnail_fit) of the N JPEGs (DATA[i], LENS[i]) as
 * one batch: THUMBS[i] receives an upright RGBA8 image in host memory, or stays NULL where
 * nvJPEG does not take the file (gray, CMYK, damaged: the caller makes it on the CPU, where a
 * damaged file gets its message). FALSE only when the device failed. */
gboolean lm_thumbnail_gpu_make (LmThumbnailGpu *gpu, guint n, const guint8 *const *data, const gsize *lens, int size,
                                LmImage **thumbs, GError **error);

/* SRC (RGBA8, in BACKEND's work memory) shrunk to SIZE on BACKEND and brought back to host
 * memory: the shrink the GPU path runs, which the parity test runs on both backends. */
LmImage *lm_thumbnail_shrink_on (LmBackend *backend, const LmImage *src, int size, GError **error);

G_END_DECLS
