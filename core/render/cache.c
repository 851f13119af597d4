#include "cache.h"

#include "../error.h"

/* Step 0 is the tone mapping (radiance sources only), then the operations in order. */
#define TONEMAP_STEP 0
#define N_STEPS (1 + LM_N_OPS)

typedef struct {
  LmStage stage;          /* what the output was computed with */
  guint64 input_version;  /* the version of the input it was computed from */
  guint64 version;        /* this output's version; 0 when there is none */
  LmImage *output;        /* kept between runs and rewritten in place when shapes agree */
} CacheEntry;

struct _LmRenderCache {
  LmBackend *backend;
  LmImage *source;
  LmBackend *fallback;     /* the CPU, for what the backend cannot do */
  LmImage *host_source;    /* the source in host memory, for the fallback */
  LmImage *fallback_out;   /* the fallback's tone mapping, in host memory */
  char *notice;
  guint64 next_version;
  guint last_computed;
  CacheEntry entries[N_STEPS];
};

LmRenderCache *
lm_render_cache_new (LmBackend *backend, LmImage *source)
{
  LmRenderCache *cache = g_new0 (LmRenderCache, 1);
  cache->backend = backend;
  cache->source = lm_image_ref (source);
  cache->next_version = 2; /* 1 is the source */
  return cache;
}

void
lm_render_cache_free (LmRenderCache *cache)
{
  if (cache == NULL)
    return;
  for (int i = 0; i < N_STEPS; i++)
    g_clear_pointer (&cache->entries[i].output, lm_image_unref);
  g_clear_pointer (&cache->host_source, lm_image_unref);
  g_clear_pointer (&cache->fallback_out, lm_image_unref);
  g_free (cache->notice);
  lm_image_unref (cache->source);
  g_free (cache);
}

void
lm_render_cache_set_fallback (LmRenderCache *cache, LmBackend *cpu, LmImage *host_source)
{
  g_return_if_fail (host_source == NULL || lm_image_same_shape (host_source, cache->source));
  cache->fallback = cpu;
  g_clear_pointer (&cache->host_source, lm_image_unref);
  cache->host_source = host_source ? lm_image_ref (host_source) : NULL;
}

guint
lm_render_cache_last_computed (LmRenderCache *cache)
{
  return cache->last_computed;
}

const char *
lm_render_cache_last_notice (LmRenderCache *cache)
{
  return cache->notice;
}

/* A buffer of the right shape for ENTRY's output, reusing the last one when it fits. */
static gboolean
prepare_output (LmRenderCache *cache, CacheEntry *entry, LmFormat format, const LmImage *input,
                GError **error)
{
  LmImage *out = entry->output;
  if (out && out->format == format && out->width == input->width && out->height == input->height)
    return TRUE;
  entry->version = 0;
  /* Another format (the grayscale switched between gray and colour): the buffer stays when its
   * bytes suffice, so that switching back and forth allocates nothing. A whole image's size
   * freed and allocated anew at each switch grew the window's memory (glibc keeps such blocks:
   * bench/results/soak.md). */
  if (out && lm_image_reshape (out, format, input->width, input->height))
    return TRUE;
  g_clear_pointer (&entry->output, lm_image_unref);
  entry->output = lm_image_new (format, input->width, input->height,
                                lm_backend_work_allocator (cache->backend), error);
  return entry->output != NULL;
}

/* The backend's tone mapping; where it has none, the CPU's, copied into the backend. */
static gboolean
tonemap (LmRenderCache *cache, const LmTonemapParams *params, const LmImage *radiance, LmImage *out,
         GError **error)
{
  GError *e = NULL;
  if (lm_backend_tonemap (cache->backend, params, radiance, out, &e))
    return TRUE;
  if (!g_error_matches (e, LUMEN_ERROR, LM_ERROR_UNSUPPORTED) || cache->fallback == NULL
      || cache->host_source == NULL || cache->fallback == cache->backend)
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  g_free (cache->notice);
  cache->notice = g_strdup (e->message);
  g_error_free (e);
  if (cache->fallback_out == NULL)
    {
      cache->fallback_out = lm_image_new (LM_FORMAT_RGBA8, out->width, out->height,
                                          lm_backend_work_allocator (cache->fallback), error);
      if (cache->fallback_out == NULL)
        return FALSE;
    }
  return lm_backend_tonemap (cache->fallback, params, cache->host_source, cache->fallback_out, error)
         && lm_backend_copy (cache->backend, cache->fallback_out, out, error);
}

typedef struct {
  const char *label;
  gboolean cached;
  LmMark start, end;
} PendingTiming;

LmImage *
lm_render_cache_run (LmRenderCache *cache, const LmPipeline *pipeline, LmTimings *timings,
                     GError **error)
{
  LmImage *current = cache->source;
  guint64 current_version = 1;
  PendingTiming pending[N_STEPS];
  guint n_pending = 0;
  cache->last_computed = 0;
  g_clear_pointer (&cache->notice, g_free);

  LmStage steps[N_STEPS];
  steps[TONEMAP_STEP] = pipeline->tonemap;
  steps[TONEMAP_STEP].enabled = cache->source->format == LM_FORMAT_RGBA_F32;
  for (int i = 0; i < LM_N_OPS; i++)
    steps[1 + i] = pipeline->stages[i];

  for (int i = 0; i < N_STEPS; i++)
    {
      const LmStage *stage = &steps[i];
      CacheEntry *entry = &cache->entries[i];
      if (!stage->enabled)
        continue;

      if (entry->version != 0 && entry->input_version == current_version
          && lm_stage_equal (&entry->stage, stage))
        {
          pending[n_pending++] = (PendingTiming) { .label = stage->info->name, .cached = TRUE };
          current = entry->output;
          current_version = entry->version;
          continue;
        }

      LmFormat format = stage->info->output_format (stage->params.bytes, current->format,
                                                    current->opaque);
      if (!prepare_output (cache, entry, format, current, error))
        return NULL;

      /* Mark the entry stale first: a failed run must not leave a half-written output
       * looking valid. */
      entry->version = 0;
      PendingTiming *t = &pending[n_pending++];
      *t = (PendingTiming) { .label = stage->info->name };
      lm_backend_mark (cache->backend, &t->start);
      gboolean ok = i == TONEMAP_STEP
                      ? tonemap (cache, (const LmTonemapParams *) stage->params.bytes, current,
                                 entry->output, error)
                      : lm_backend_run_op (cache->backend, stage->info, stage->params.bytes, current,
                                           entry->output, error);
      if (!ok)
        return NULL;
      lm_backend_mark (cache->backend, &t->end);

      entry->stage = *stage;
      entry->input_version = current_version;
      entry->version = cache->next_version++;
      cache->last_computed++;
      current = entry->output;
      current_version = entry->version;
    }

  if (!lm_backend_synchronize (cache->backend, error))
    return NULL;

  /* Timings are read after the synchronize: on CUDA the marks are events in a stream. */
  for (guint i = 0; timings != NULL && i < n_pending; i++)
    {
      if (pending[i].cached)
        lm_timings_add_cached (timings, pending[i].label);
      else
        lm_timings_add (timings, pending[i].label,
                        lm_backend_elapsed_ms (cache->backend, &pending[i].start, &pending[i].end));
    }
  return lm_image_ref (current);
}
