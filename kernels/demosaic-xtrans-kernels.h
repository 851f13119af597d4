/* The X-Trans demosaic's CUDA entry points (kernels/demosaic-xtrans.cu): Markesteijn's method
 * (core/ops/demosaic-xtrans-math.h) and the third-size preview, bit for bit the CPU
 * reference's (core/raw/demosaic-xtrans.c). Device pointers, a stream, cudaError_t; each
 * enqueues its work on STREAM and returns without waiting. No GLib. */
#pragma once

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "core/ops/cfa-math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of scratch that lm_k_markesteijn needs for a WIDTH × HEIGHT image: the buffers of one
 * strip of at most 512 rows and the method's halo, 140 B (3 passes) or 72 B (1 pass) per site
 * of it (0.61 GB at 7728 columns, 0.76 GB at 9504, 3 passes). */
size_t lm_k_markesteijn_scratch (int width, int height, int passes);

/* Markesteijn's demosaic of PLANE (WIDTH × HEIGHT floats, packed rows: the prepared mosaic of
 * CFA, as lm_demosaic_markesteijn_cpu's) into RGBA (RGBA_F32 rows of RGBA_STRIDE floats: R, G,
 * B and A = 1), PASSES 1 or 3 (else 3), CAM_TO_XYZ read at launch. CBRT_TABLE: device memory,
 * LM_XT_CBRT_ENTRIES floats that lm_xtrans_cbrt_fill wrote on the host (built there in double,
 * so that both backends use the same table). SCRATCH: lm_k_markesteijn_scratch bytes, 256-byte
 * aligned (cudaMalloc's). Images too small for the method, or a pattern that is no X-Trans,
 * get the bilinear-class demosaic, as on the CPU; they need no scratch. */
cudaError_t lm_k_markesteijn (const float *plane, int width, int height, const LmCfa *cfa, int passes,
                              const float cam_to_xyz[3][3], const float *cbrt_table, float *rgba, size_t rgba_stride,
                              void *scratch, cudaStream_t stream);

/* The third-size preview (lm_demosaic_xtrans_third_cpu): RGBA holds ⌈WIDTH / 3⌉ × ⌈HEIGHT / 3⌉
 * pixels. No scratch. */
cudaError_t lm_k_xtrans_third (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                               size_t rgba_stride, cudaStream_t stream);

/* The bilinear-class demosaic (lm_demosaic_xtrans_bilinear_cpu). No scratch. */
cudaError_t lm_k_xtrans_bilinear (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                                  size_t rgba_stride, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
