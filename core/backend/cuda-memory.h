/* Device memory, accounted: every buffer Lumen allocates on a GPU (images, the kernels'
 * scratch, the batch's nvJPEG buffers) comes from here, so that LUMEN_CUDA_MEMORY_LIMIT can
 * make a large GPU behave as a small one (the total of live allocations per device is
 * bounded, not one allocation's size) and the tiler can ask how much is left. */
#pragma once

#include <cuda_runtime.h>
#include <glib.h>

G_BEGIN_DECLS

/* SIZE bytes (at least 1 is allocated) on the calling thread's current device, into *MEM.
 * FALSE with LM_ERROR_OUT_OF_MEMORY when the limit or the device refuses (the message says
 * how much was asked and how much is left), LM_ERROR_DEVICE on other failures. Counts as one
 * allocation for LUMEN_CUDA_FAULT=alloc:N. */
gboolean lm_cuda_malloc (void **mem, gsize size, GError **error);

/* Frees MEM (NULL: nothing) from lm_cuda_malloc, and gives its bytes back to its device's
 * account; a failure is logged. The device need not be current. */
void lm_cuda_free (void *mem);

/* Bytes of live allocations from lm_cuda_malloc on DEVICE. */
gsize lm_cuda_memory_used (int device);

/* LUMEN_CUDA_MEMORY_LIMIT in bytes (G_MAXSIZE when unset); FALSE with ERROR when it is set
 * to something that is not a size. */
gboolean lm_cuda_memory_limit (gsize *limit, GError **error);

G_END_DECLS
