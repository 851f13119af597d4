/* How many blocks of a kernel run at once on the current device: the size of a grid whose
 * blocks each walk a share of the work (crop.cu). Asked of the runtime once per device,
 * kernel and block shape, then remembered: the runtime's answers cost microseconds, which a
 * copy of 50 µs would otherwise pay every launch. */
#pragma once

#include <cuda_runtime.h>

/* *BLOCKS: KERNEL's resident blocks of THREADS threads and SMEM bytes of dynamic shared
 * memory on the whole current device (at least 1). */
cudaError_t lm_k_resident_blocks (const void *kernel, unsigned threads, size_t smem, unsigned *blocks);
