/* The demosaic's refinement on the device (kernels/demosaic-refine.cu), bit for bit the CPU's
 * (core/raw/demosaic-refine.h, which says what the buffers hold). Device pointers and a stream
 * in, cudaError_t out; the work is enqueued on STREAM and the call returns without waiting.
 * RGBA_STRIDE is in floats. No GLib on this side. */
#pragma once

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "core/ops/cfa-math.h"

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t lm_k_demosaic_refine (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                                  size_t rgba_stride, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
