#include "render-cache.h"

typedef struct {
  LmStage stage;          /* what the output was computed with */
  guint64 input_version;  /* the version of the input it was computed from */
  guint64 version;        /* this output's version; 0 when there is none */
  LmImage *output;        /* kept between runs and rewritten in place when shapes agree */
} CacheEntry;

struct _LmRenderCache {
  LmBackend *backend;
  LmImage *source;
  guint64 next_version;
  guint last_computed;
  CacheEntry entries[LM_N_OPS];
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
  for (int i = 0; i < LM_N_OPS; i++)
    g_clear_pointer (&cache->entries[i].output, lm_image_unref);
  lm_image_unref (cache->source);
  g_free (cache);
}

guint
lm_render_cache_last_computed (LmRenderCache *cache)
{
  return cache->last_computed;
}

/* A buffer of the right shape for ENTRY's output, reusing the last one when it fits. */
static gboolean
prepare_output (LmRenderCache *cache, CacheEntry *entry, LmFormat format, const LmImage *input,
                GError **error)
{
  LmImage *out = entry->output;
  if (out && out->format == format && out->width == input->width && out->height == input->height)
    return TRUE;
  g_clear_pointer (&entry->output, lm_image_unref);
  entry->version = 0;
  entry->output = lm_image_new (format, input->width, input->height,
                                lm_backend_work_allocator (cache->backend), error);
  return entry->output != NULL;
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
  PendingTiming pending[LM_N_OPS];
  guint n_pending = 0;
  cache->last_computed = 0;

  for (int i = 0; i < LM_N_OPS; i++)
    {
      const LmStage *stage = &pipeline->stages[i];
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
      if (!lm_backend_run_op (cache->backend, stage->info, stage->params.bytes, current,
                              entry->output, error))
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
