/* Error handling inside kernels/: every runtime call and every launch is checked, and the
 * first failure is returned to the caller (core/backend/cuda.c turns it into a GError). */
#pragma once

#include <cuda_runtime.h>

#define LM_CUDA_TRY(call)                                                                  \
  do                                                                                       \
    {                                                                                      \
      cudaError_t lm_err_ = (call);                                                        \
      if (lm_err_ != cudaSuccess)                                                          \
        return lm_err_;                                                                    \
    }                                                                                      \
  while (0)

/* After a launch: configuration errors show up at once, through cudaGetLastError. */
#define LM_CUDA_LAUNCHED() LM_CUDA_TRY (cudaGetLastError ())

static inline unsigned
lm_div_up (size_t n, unsigned d)
{
  return (unsigned) ((n + d - 1) / d);
}
