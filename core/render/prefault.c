/* A single run's output buffers, faulted in beside the decoding (prefault.h). */
#define _GNU_SOURCE /* the thread's own nice value */
#include "prefault.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../timing.h"
#include "cache.h"

struct _LmPrefault {
  LmPipeline pipeline;
  const LmAllocator *allocator;
  gboolean deepen;    /* the render's source is the loaded one at 16 bits */
  LmFormat format;    /* the render's source's */
  guint width, height;
  GThread *thread;
  gboolean started;
  gint stop;          /* atomic: the caller needs the buffers now */
  GPtrArray *buffers; /* of LmImage: written by the thread until it is joined */
  gsize bytes;        /* faulted in */
  double ms;          /* the thread's time */
};

LmPrefault *
lm_prefault_new (const LmPipeline *pipeline, const LmAllocator *allocator, gboolean deepen)
{
  LmPrefault *prefault = g_new0 (LmPrefault, 1);
  prefault->pipeline = *pipeline;
  prefault->allocator = allocator;
  prefault->deepen = deepen;
  prefault->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_image_unref);
  return prefault;
}

static gpointer
fault_in (gpointer data)
{
  LmPrefault *prefault = data;
#ifdef SYS_gettid
  /* The least a thread can ask for: it is to take the time the decoder leaves, not the
   * decoder's (at the normal priority the 24 MP load took 85.6 ms against 80.0 without the
   * thread; at 19, 81.5 ms: bench/RESULTS.md). On Linux this thread's alone. */
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 19);
#endif
  gint64 t = g_get_monotonic_time ();
  gsize bytes[2];
  guint n = lm_render_cache_single_run_bytes (&prefault->pipeline, prefault->format, prefault->width,
                                              prefault->height, TRUE, bytes);
  for (guint i = 0; i < n && !g_atomic_int_get (&prefault->stop); i++)
    {
      /* A buffer's shape is the step's to give it (lm_image_reshape): this one is of the widest
       * pixels, so that it counts least against the pixel budget, in one row where a side
       * allows. */
      gsize pixels = (bytes[i] + 15) / 16;
      guint height = (guint) ((pixels + LM_IMAGE_MAX_SIDE - 1) / LM_IMAGE_MAX_SIDE);
      guint width = (guint) ((pixels + height - 1) / height);
      LmImage *buffer = lm_image_new (LM_FORMAT_RGBA_F32, width, height, prefault->allocator, NULL);
      if (buffer == NULL)
        break; /* the steps will say what memory lacks */
      g_ptr_array_add (prefault->buffers, buffer);
      prefault->bytes += lm_image_prefault (buffer, &prefault->stop);
    }
  prefault->ms = lm_ms_since (t);
  return NULL;
}

void
lm_prefault_start (LmImage *source, gpointer data)
{
  LmPrefault *prefault = data;
  if (prefault->thread || source->format == LM_FORMAT_CFA16 || source->format == LM_FORMAT_RGBA_F32)
    return;
  prefault->format = source->format, prefault->width = source->width, prefault->height = source->height;
  if (prefault->deepen && source->format == LM_FORMAT_RGBA8)
    prefault->format = LM_FORMAT_RGBA16;
  else if (prefault->deepen && source->format == LM_FORMAT_GRAY8)
    prefault->format = LM_FORMAT_GRAY16;
  prefault->thread = g_thread_try_new ("lumen-prefault", fault_in, prefault, NULL);
  prefault->started = prefault->thread != NULL;
}

gboolean
lm_prefault_started (const LmPrefault *prefault)
{
  return prefault->started;
}

GPtrArray *
lm_prefault_finish (LmPrefault *prefault, double *beside_ms, double *wait_ms, gsize *bytes)
{
  *beside_ms = *wait_ms = 0;
  *bytes = 0;
  if (prefault->thread)
    {
      gint64 t = g_get_monotonic_time ();
      g_atomic_int_set (&prefault->stop, 1);
      g_thread_join (g_steal_pointer (&prefault->thread));
      *wait_ms = lm_ms_since (t);
      *beside_ms = prefault->ms;
      *bytes = prefault->bytes;
    }
  return g_ptr_array_ref (prefault->buffers);
}

void
lm_prefault_free (LmPrefault *prefault)
{
  if (prefault == NULL)
    return;
  if (prefault->thread)
    {
      g_atomic_int_set (&prefault->stop, 1);
      g_thread_join (prefault->thread);
    }
  g_ptr_array_unref (prefault->buffers);
  g_free (prefault);
}
