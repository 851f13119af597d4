/* Resize of 8-bit images by a whole factor of 2 or 4 on each axis (lm_resize_axis_whole_factor,
 * core/ops/resize-math.h): sums of bytes in integers, rounded as the reference rounds, with
 * no tables. Called by resize.cu where both axes qualify. */
#pragma once

#include <cuda_runtime.h>

#include "kernels/kernels.h"

/* Whether DST (GRAY8 or RGBA8, SRC's format) can be SRC shrunk by KX (2 or 4) across and KY
 * down, output pixel (0, 0) starting at source pixel (SX0, SY0), by this kernel: rows and
 * SX0's bytes 16-byte aligned in SRC, rows 8-byte aligned in DST, every cell inside SRC. */
bool lm_k_resize_whole_usable (const LmKImage *src, const LmKImage *dst, unsigned kx, unsigned ky, unsigned sx0,
                               unsigned sy0);
/* That shrink launched on STREAM; cudaErrorInvalidValue, with nothing launched, where it is
 * not usable. */
cudaError_t lm_k_resize_whole (const LmKImage *src, const LmKImage *dst, unsigned kx, unsigned ky, unsigned sx0,
                               unsigned sy0, cudaStream_t stream);
