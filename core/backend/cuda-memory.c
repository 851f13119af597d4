/* The accounted device allocator (cuda-memory.h). A registry of live allocations (pointer to
 * device and size) lets a free give its bytes back without its caller knowing the size; one
 * lock guards it, as render workers and the batch's device threads allocate concurrently.
 * Bytes are reserved before cudaMalloc and returned when it fails, so that two threads
 * cannot both pass the limit's check with the last free bytes. */
#include "cuda-memory.h"

#include <glib/gi18n.h>

#include "cuda-fault.h"
#include "cuda-private.h"
#include "memory-limit.h"
#include "../error.h"

#define MAX_DEVICES 64

typedef struct {
  int device;
  gsize size;
} Allocation;

static GMutex lock;
static GHashTable *live; /* device pointer → Allocation */
static gsize used[MAX_DEVICES];
static gsize limit_set; /* lm_backend_cuda_set_memory_limit's bound; 0: the variable's */

void
lm_backend_cuda_set_memory_limit (gsize bytes)
{
  g_mutex_lock (&lock);
  limit_set = bytes ? bytes : 1;
  g_mutex_unlock (&lock);
}

gboolean
lm_cuda_memory_limit (gsize *limit, GError **error)
{
  static gsize once;
  static gsize bytes = G_MAXSIZE;
  static char *junk; /* the message, when the variable is not a size */
  if (g_once_init_enter (&once))
    {
      const char *text = g_getenv ("LUMEN_CUDA_MEMORY_LIMIT");
      guint64 parsed = 0;
      GError *e = NULL;
      if (text != NULL && lm_memory_limit_parse (text, &parsed, &e))
        bytes = (gsize) MIN (parsed, (guint64) G_MAXSIZE);
      else if (e != NULL)
        {
          junk = g_strdup (e->message);
          g_error_free (e);
        }
      g_once_init_leave (&once, 1);
    }
  g_mutex_lock (&lock);
  gsize set = limit_set;
  g_mutex_unlock (&lock);
  if (set != 0)
    {
      *limit = set;
      return TRUE;
    }
  if (junk != NULL)
    {
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID, junk);
      return FALSE;
    }
  *limit = bytes;
  return TRUE;
}

/* The limit as the allocator applies it: a junk value was refused when the backend started. */
static gsize
limit_or_none (void)
{
  gsize limit = G_MAXSIZE;
  if (!lm_cuda_memory_limit (&limit, NULL))
    return G_MAXSIZE;
  return limit;
}

static char *
size_text (gsize bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

gboolean
lm_cuda_malloc (void **mem, gsize size, GError **error)
{
  *mem = NULL;
  int device = 0;
  cudaError_t err = cudaGetDevice (&device);
  if (err != cudaSuccess)
    return lm_cuda_check (err, "cudaGetDevice", error);
  if (device < 0 || device >= MAX_DEVICES)
    device = MAX_DEVICES - 1; /* never so many; one shared account then */
  gsize limit = limit_or_none (), need = size ? size : 1;

  g_mutex_lock (&lock);
  gsize before = used[device];
  gboolean fits = need <= limit && before <= limit - need;
  if (fits)
    used[device] += need;
  g_mutex_unlock (&lock);
  if (!fits)
    {
      g_autofree char *want = size_text (need);
      g_autofree char *left = size_text (before < limit ? limit - before : 0);
      g_autofree char *all = size_text (limit);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                   _("GPU memory exhausted: %s needed, %s left of the %s that LUMEN_CUDA_MEMORY_LIMIT "
                     "allows"),
                   want, left, all);
      return FALSE;
    }

  err = lm_cuda_fault_next (LM_CUDA_FAULT_ALLOC, "cudaMalloc");
  if (err == cudaSuccess)
    err = cudaMalloc (mem, need);
  if (err == cudaSuccess)
    {
      Allocation *a = g_new (Allocation, 1);
      a->device = device, a->size = need;
      g_mutex_lock (&lock);
      if (live == NULL)
        live = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_insert (live, *mem, a);
      g_mutex_unlock (&lock);
      return TRUE;
    }
  *mem = NULL;
  g_mutex_lock (&lock);
  used[device] -= need;
  g_mutex_unlock (&lock);
  cudaGetLastError ();
  size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo (&free_bytes, &total) != cudaSuccess)
    cudaGetLastError (); /* the message then says 0 free */
  g_autofree char *want = size_text (need);
  g_autofree char *have = size_text (free_bytes);
  g_set_error (error, LUMEN_ERROR, err == cudaErrorMemoryAllocation ? LM_ERROR_OUT_OF_MEMORY : LM_ERROR_DEVICE,
               _("GPU memory exhausted: %s needed, %s free (%s)"), want, have, cudaGetErrorString (err));
  return FALSE;
}

void
lm_cuda_free (void *mem)
{
  if (mem == NULL)
    return;
  g_mutex_lock (&lock);
  Allocation *a = live ? g_hash_table_lookup (live, mem) : NULL;
  if (a != NULL)
    {
      used[a->device] -= a->size;
      g_hash_table_remove (live, mem);
    }
  g_mutex_unlock (&lock);
  if (a == NULL)
    g_warning ("CUDA: freeing %p, which lm_cuda_malloc did not allocate", mem);
  /* Unified addressing finds the pointer's device whichever is current. */
  lm_cuda_release (cudaFree (mem), "cudaFree");
}

gsize
lm_cuda_memory_used (int device)
{
  g_return_val_if_fail (device >= 0 && device < MAX_DEVICES, 0);
  g_mutex_lock (&lock);
  gsize bytes = used[device];
  g_mutex_unlock (&lock);
  return bytes;
}

gsize
lm_cuda_budget_left (int device)
{
  g_return_val_if_fail (device >= 0 && device < MAX_DEVICES, 0);
  int current = 0;
  size_t free_bytes = 0, total = 0;
  if (cudaGetDevice (&current) != cudaSuccess || cudaSetDevice (device) != cudaSuccess
      || cudaMemGetInfo (&free_bytes, &total) != cudaSuccess)
    {
      cudaGetLastError ();
      return 0;
    }
  lm_cuda_release (cudaSetDevice (current), "cudaSetDevice");
  gsize limit = limit_or_none (), in_use = lm_cuda_memory_used (device);
  gsize under_limit = in_use < limit ? limit - in_use : 0;
  return MIN ((gsize) free_bytes, under_limit);
}
