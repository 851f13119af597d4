/* The demosaic's channel balance on the device (kernels/demosaic-balance.cu), bit for bit the
 * CPU's (core/raw/demosaic-balance.h, which says what the buffers hold). PLANE is device memory;
 * SUMS, GAIN and MATRIX are host memory. No GLib on this side. */
#pragma once

#include <cuda_runtime_api.h>

#include "core/ops/cfa-math.h"
#include "core/ops/demosaic-balance-math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PLANE's sums into SUMS; waits for STREAM (the gains are the host's to compute). */
cudaError_t lm_k_demosaic_balance_measure (const float *plane, int width, int height, const LmCfa *cfa,
                                           LmBalanceSums *sums, cudaStream_t stream);

/* Each site of PLANE multiplied by its colour's gain; enqueued on STREAM. */
cudaError_t lm_k_demosaic_balance_apply (float *plane, int width, int height, const LmCfa *cfa, const float gain[3],
                                         cudaStream_t stream);

/* lm_demosaic_balance_cpu on the device: measures (waiting for STREAM), scales PLANE and folds
 * the gains' inverse into MATRIX. */
cudaError_t lm_k_demosaic_balance (float *plane, int width, int height, const LmCfa *cfa, float matrix[3][3],
                                   cudaStream_t stream);

#ifdef __cplusplus
}
#endif
