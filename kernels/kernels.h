/* The CUDA kernels' C entry points. Plain structs, device pointers and a stream in,
 * cudaError_t out; no GLib on this side of the boundary. Each entry point enqueues its work
 * on STREAM and returns without waiting. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "core/ops/blur-math.h"
#include "core/ops/compare-math.h"
#include "core/ops/equalize-math.h"
#include "core/ops/gray-math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Formats, as in core/image.h. */
enum { LM_K_GRAY8 = 0, LM_K_RGBA8 = 1, LM_K_RGBA_F32 = 2 };

typedef struct {
  void *data; /* device memory; rows start on 64-byte boundaries */
  unsigned width, height;
  size_t stride; /* bytes */
  int format;
  int opaque; /* every alpha is 255 */
} LmKImage;

/* Device buffers an operation needs besides its input and output, allocated once per image
 * size by the backend and reused on every render. */
typedef struct {
  uint32_t *bins;   /* 4 × 256 histogram counts (R, G, B, luma) */
  uint8_t *luts;    /* 4 × 256 lookup tables */
  void *blur_tmp;   /* blur's intermediate sums */
  size_t blur_tmp_size;
} LmKWorkspace;

/* Bytes of blur_tmp that blur with PARAMS needs on SRC. */
size_t lm_k_blur_workspace_size (const LmBlurParams *params, const LmKImage *src);

/* Fails with cudaErrorNoKernelImageForDevice when no kernel in this build runs on the current
 * device (its architecture was not compiled in). */
cudaError_t lm_k_probe (void);

cudaError_t lm_k_gray (const LmGrayParams *params, const LmKImage *src, const LmKImage *dst,
                       cudaStream_t stream);

/* WANT: bit 0 counts R, G and B; bit 1 counts luma (as LmHistWant). BINS is zeroed first. */
cudaError_t lm_k_histogram (const LmKImage *src, int want, uint32_t *bins, cudaStream_t stream);

cudaError_t lm_k_equalize (const LmEqualizeParams *params, const LmKImage *src,
                           const LmKImage *dst, const LmKWorkspace *ws, cudaStream_t stream);

cudaError_t lm_k_blur (const LmBlurParams *params, const LmKImage *src, const LmKImage *dst,
                       const LmKWorkspace *ws, cudaStream_t stream);

/* SUMS (device memory) is zeroed first; HEAT (RGBA8, same size) may be NULL. */
cudaError_t lm_k_diff (const LmKImage *a, const LmKImage *b, float gain, const LmKImage *heat,
                       LmDiffSums *sums, cudaStream_t stream);

/* OUT: RECT's output size, RGB24 words in LM_K_RGBA8 storage. */
cudaError_t lm_k_view (const LmKImage *src, const LmViewRect *rect, const LmKImage *out,
                       cudaStream_t stream);

#ifdef __cplusplus
}
#endif
