/* The most shared memory a block may ask for on the current device (its opt-in limit:
 * 227 KiB on Hopper, 163 KiB on A100, 99 KiB on other Ampere and Ada GPUs, 64 KiB on
 * Turing). Kernels that plan tiles by shared memory stay within it, else their launch
 * fails. Asked of the runtime once per device, then remembered. */
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>

cudaError_t lm_k_shared_optin (size_t *bytes);
