/* The Bayer demosaics' CUDA entry points (kernels/demosaic-rcd.cu, kernels/demosaic-fast.cu),
 * bit for bit the CPU's (core/raw/demosaic.h, whose comment says what the buffers hold).
 * Device pointers and a stream in, cudaError_t out (cudaErrorInvalidValue for a CFA that is not
 * a 2 × 2 Bayer array or a size below 1 × 1); each enqueues its work on STREAM and returns
 * without waiting. RGBA_STRIDE is in floats, RGBA 16-byte aligned. No GLib on this side. */
#pragma once

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "core/ops/cfa-math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of device scratch that lm_k_demosaic_rcd needs at this size (0: none). */
size_t lm_k_demosaic_rcd_scratch (int width, int height);

cudaError_t lm_k_demosaic_rcd (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                               size_t rgba_stride, void *scratch, cudaStream_t stream);

/* Bilinear and half size need no scratch (their _scratch say 0; SCRATCH may be NULL): the
 * signatures are RCD's, so that a caller switches methods by a function pointer. */
size_t lm_k_demosaic_bilinear_scratch (int width, int height);
cudaError_t lm_k_demosaic_bilinear (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                                    size_t rgba_stride, void *scratch, cudaStream_t stream);

/* RGBA is ⌈WIDTH / 2⌉ × ⌈HEIGHT / 2⌉ (lm_demosaic_half_size). */
size_t lm_k_demosaic_half_scratch (int width, int height);
cudaError_t lm_k_demosaic_half (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                                size_t rgba_stride, void *scratch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
