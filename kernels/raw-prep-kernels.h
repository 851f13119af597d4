/* The raw development's first steps on the device (kernels/raw-prep.cu): black, white, white
 * balance and highlights (core/ops/raw-prep-math.h), bit for bit the CPU reference's
 * (core/raw/prep.c). C entry points as kernels/kernels.h's: plain structs, device pointers, a
 * stream; each enqueues its work and returns without waiting. */
#pragma once

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "core/ops/raw-prep-math.h"
#include "kernels/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of device scratch lm_k_raw_prep needs with HIGHLIGHTS (LmRawHighlights): the
 * reconstruction's pre-pass sums; 0 for clip. */
size_t lm_k_raw_prep_scratch (int width, int height, int highlights);

/* CFA16 (LM_K_CFA16) into PLANE (device memory, width × height floats, rows packed), with
 * SCRATCH (device memory of lm_k_raw_prep_scratch bytes; NULL where that is 0). PREP is read
 * at launch. */
cudaError_t lm_k_raw_prep (const LmRawPrep *prep, const LmKImage *cfa16, float *plane, void *scratch,
                           cudaStream_t stream);

/* SRC, RGBA16 camera RGB or GRAY16 monochrome data, into RGBA (device memory, RGBA_F32 rows of
 * RGBA_STRIDE floats, as the demosaic's, 16-byte aligned; SRC's size): balanced camera RGB, a gray's three channels equal, alpha 1. */
cudaError_t lm_k_raw_prep_linear (const LmRawPrep *prep, const LmKImage *src, float *rgba, size_t rgba_stride,
                                  cudaStream_t stream);

#ifdef __cplusplus
}
#endif
