#include "cuda-fault.h"

#include <string.h>

/* What each kind's failure looks like from the runtime. */
static const cudaError_t injected[] = {
  [LM_CUDA_FAULT_ALLOC] = cudaErrorMemoryAllocation,
  [LM_CUDA_FAULT_LAUNCH] = cudaErrorLaunchFailure,
  [LM_CUDA_FAULT_COPY] = cudaErrorUnknown,
};
static const char *const names[] = { "alloc", "launch", "copy" };

/* The call (1-based, counted since the start) that fails; 0: none. Calls come from render
 * threads and the batch's device threads, hence the atomics. */
static gint fail_at[LM_CUDA_FAULT_OTHER];
static gint calls[LM_CUDA_FAULT_OTHER];
static gboolean trace; /* LUMEN_CUDA_FAULT_TRACE set */

static void
parse_once (void)
{
  static gsize once;
  if (!g_once_init_enter (&once))
    return;
  trace = g_getenv ("LUMEN_CUDA_FAULT_TRACE") != NULL;
  const char *spec = g_getenv ("LUMEN_CUDA_FAULT");
  g_auto (GStrv) items = spec ? g_strsplit (spec, ",", -1) : NULL;
  for (guint i = 0; items && items[i]; i++)
    {
      const char *colon = strchr (items[i], ':');
      guint64 n = 0;
      gboolean known = FALSE;
      for (guint k = 0; colon && k < G_N_ELEMENTS (names); k++)
        if ((gsize) (colon - items[i]) == strlen (names[k]) && strncmp (items[i], names[k], colon - items[i]) == 0
            && g_ascii_string_to_unsigned (colon + 1, 10, 1, G_MAXINT, &n, NULL))
          g_atomic_int_set (&fail_at[k], (gint) n), known = TRUE;
      if (!known)
        g_printerr ("LUMEN_CUDA_FAULT: “%.40s” is not alloc:N, launch:N or copy:N; ignored\n", items[i]);
    }
  g_once_init_leave (&once, 1);
}

LmCudaFault
lm_cuda_fault_kind (const char *what)
{
  if (g_str_has_prefix (what, "cudaMalloc"))
    return LM_CUDA_FAULT_ALLOC;
  if (g_str_has_prefix (what, "cudaMemcpy") || g_str_has_prefix (what, "cudaMemset"))
    return LM_CUDA_FAULT_COPY;
  /* Kernels are launched by the lm_k_ wrappers of kernels/, or named "<op> kernel". */
  if (g_str_has_prefix (what, "lm_k_") || g_str_has_suffix (what, " kernel"))
    return LM_CUDA_FAULT_LAUNCH;
  return LM_CUDA_FAULT_OTHER;
}

cudaError_t
lm_cuda_fault_next (LmCudaFault kind, const char *what)
{
  if (kind >= LM_CUDA_FAULT_OTHER)
    return cudaSuccess;
  parse_once ();
  gint call = g_atomic_int_add (&calls[kind], 1) + 1;
  if (trace)
    g_printerr ("LUMEN_CUDA_FAULT_TRACE: %s:%d %s\n", names[kind], call, what);
  return call == g_atomic_int_get (&fail_at[kind]) ? injected[kind] : cudaSuccess;
}

void
lm_cuda_fault_trace (const char *event)
{
  parse_once ();
  if (trace)
    g_printerr ("LUMEN_CUDA_FAULT_TRACE: %s\n", event);
}

void
lm_cuda_fault_arm (LmCudaFault kind, guint n)
{
  g_return_if_fail (kind < LM_CUDA_FAULT_OTHER && n > 0 && n <= G_MAXINT / 2);
  parse_once ();
  g_atomic_int_set (&fail_at[kind], g_atomic_int_get (&calls[kind]) + (gint) n);
}
