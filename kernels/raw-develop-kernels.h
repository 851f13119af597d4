/* The raw development's own kernel (raw-develop.cu); its other steps have theirs
 * (raw-prep-kernels.h, demosaic-kernels.h, demosaic-xtrans-kernels.h). C, no GLib. */
#pragma once

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RGBA (device, rows of RGBA_STRIDE floats, 16-byte aligned) through MATRIX (host memory,
 * read at launch) in place, alpha set to 1: core/ops/raw-matrix-math.h. */
cudaError_t lm_k_raw_matrix (float *rgba, size_t rgba_stride, int width, int height, const float matrix[3][3],
                             cudaStream_t stream);

#ifdef __cplusplus
}
#endif
