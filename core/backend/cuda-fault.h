/* Fault injection for the CUDA paths: LUMEN_CUDA_FAULT=alloc:N, launch:N or copy:N (several
 * may be given, comma-separated) makes the N-th device allocation, kernel launch or copy of
 * the process fail as a failing device would, once. How the fall-backs to the CPU (the
 * window, lumen-cli) and a batch's retry of one stack are tested on a healthy GPU. */
#pragma once

#include <cuda_runtime.h>
#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  LM_CUDA_FAULT_ALLOC,
  LM_CUDA_FAULT_LAUNCH,
  LM_CUDA_FAULT_COPY,
  LM_CUDA_FAULT_OTHER, /* never injected */
} LmCudaFault;

/* The kind of a checked call, from its text as LM_CUDA_CHECK quotes it. */
LmCudaFault lm_cuda_fault_kind (const char *what);

/* Counts one call of KIND (WHAT: the call, as LM_CUDA_CHECK quotes it); the error to report
 * in its place when it is the one to fail, cudaSuccess otherwise. With LUMEN_CUDA_FAULT_TRACE
 * set, each counted call is printed with its number, so that a test can pick the N of a call
 * in the work rather than in a backend's start. */
cudaError_t lm_cuda_fault_next (LmCudaFault kind, const char *what);

/* With LUMEN_CUDA_FAULT_TRACE set, prints EVENT among the counted calls ("started": a
 * backend's start is over, what follows is work). */
void lm_cuda_fault_trace (const char *event);

/* Makes the N-th call of KIND from now on fail, as LUMEN_CUDA_FAULT does from the start: for
 * a test that must first reach a given state (the window, its first render in). */
void lm_cuda_fault_arm (LmCudaFault kind, guint n);

G_END_DECLS
