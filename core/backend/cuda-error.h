/* CUDA runtime errors as GErrors, for every host file that calls the runtime (the CUDA
 * backend, the batch's nvJPEG decoder). Defined in cuda.c. */
#pragma once

#include <cuda_runtime.h>
#include <glib.h>

G_BEGIN_DECLS

/* TRUE on success; otherwise sets ERROR (LM_ERROR_OUT_OF_MEMORY or LM_ERROR_DEVICE) quoting
 * WHAT and cudaGetErrorString, and clears the runtime's last error. */
gboolean lm_cuda_check (cudaError_t err, const char *what, GError **error);
#define LM_CUDA_CHECK(call, error) lm_cuda_check ((call), #call, (error))

/* Where nobody can be told (freeing, tearing down), a failure is still logged. */
void lm_cuda_release (cudaError_t err, const char *what);
#define LM_CUDA_RELEASE(call) lm_cuda_release ((call), #call)

G_END_DECLS
