#include "cache.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../color/profile.h"
#include "../error.h"
#include "../ops/point.h"

/* Step 0 is a raw's development (raw sources only), step 1 the tone mapping (radiance and
 * raws), then the operations in order. */
#define RAW_STEP 0
#define TONEMAP_STEP 1
#define FIRST_OP_STEP 2
#define N_STEPS (FIRST_OP_STEP + LM_N_OPS)

typedef struct {
  LmStage stage;          /* what the output was computed with */
  LmPointPass pass;       /* the fused pass it was, for the first of a run of point operations */
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
  LmColorProfile *color;
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
  g_clear_pointer (&cache->color, lm_color_profile_unref);
  lm_image_unref (cache->source);
  g_free (cache);
}

void
lm_render_cache_set_color (LmRenderCache *cache, LmColorProfile *color)
{
  if (color)
    lm_color_profile_ref (color);
  g_clear_pointer (&cache->color, lm_color_profile_unref);
  cache->color = color;
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
prepare_output (LmRenderCache *cache, CacheEntry *entry, LmFormat format, guint width, guint height,
                GError **error)
{
  LmImage *out = entry->output;
  if (out && out->format == format && out->width == width && out->height == height)
    return TRUE;
  entry->version = 0;
  /* Another format (the grayscale switched between gray and colour): the buffer stays when its
   * bytes suffice, so that switching back and forth allocates nothing. A whole image's size
   * freed and allocated anew at each switch grew the window's memory (glibc keeps such blocks:
   * bench/results/text/soak.md). */
  if (out && lm_image_reshape (out, format, width, height))
    return TRUE;
  g_clear_pointer (&entry->output, lm_image_unref);
  entry->output = lm_image_new (format, width, height, lm_backend_work_allocator (cache->backend), error);
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
  /* The fallback tone maps the host's source: a radiance map's, not a raw's sensor data. */
  if (!g_error_matches (e, LUMEN_ERROR, LM_ERROR_UNSUPPORTED) || cache->fallback == NULL
      || cache->host_source == NULL || cache->fallback == cache->backend
      || cache->host_source->format != LM_FORMAT_RGBA_F32)
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
  char label[128];
  gboolean cached;
  LmMark start, end;
} PendingTiming;

/* The run of point operations that starts at step FIRST (steps[FIRST] is one) as one fused
 * pass: PASS, the steps it covers (returned), and LABEL, the enabled ones' names joined by
 * "+" ("" when none is enabled). */
int
lm_render_fuse_points (const LmStage *steps, int first, int n_steps, LmPointPass *pass, char *label, gsize label_size)
{
  lm_point_pass_init (pass);
  label[0] = '\0';
  int last = first;
  for (; last < n_steps && lm_op_is_point (steps[last].info->id); last++)
    if (steps[last].enabled)
      {
        lm_point_pass_add (pass, steps[last].info, steps[last].params.bytes);
        if (label[0])
          g_strlcat (label, "+", label_size);
        g_strlcat (label, steps[last].info->name, label_size);
      }
  return last - first;
}

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

  /* The pipeline with the source's colour space in its operations' hidden fields. */
  LmPipeline colored = *pipeline;
  lm_pipeline_set_color (&colored, cache->color);
  pipeline = &colored;

  gboolean raw = lm_image_is_raw (cache->source);
  LmStage steps[N_STEPS];
  steps[RAW_STEP] = pipeline->raw;
  steps[RAW_STEP].enabled = raw;
  steps[TONEMAP_STEP] = pipeline->tonemap;
  steps[TONEMAP_STEP].enabled = raw || cache->source->format == LM_FORMAT_RGBA_F32;
  for (int i = 0; i < LM_N_OPS; i++)
    steps[FIRST_OP_STEP + i] = pipeline->stages[i];

  for (int i = 0; i < N_STEPS; i++)
    {
      const LmStage *stage = &steps[i];
      CacheEntry *entry = &cache->entries[i];
      /* Consecutive point operations are one step, cached in the first one's entry under the
       * pass they compose to. */
      gboolean points = i >= FIRST_OP_STEP && lm_op_is_point (stage->info->id);
      LmPointPass pass;
      char label[sizeof pending[0].label];
      g_strlcpy (label, stage->info->name, sizeof label);
      if (points)
        {
          int n = lm_render_fuse_points (steps, i, N_STEPS, &pass, label, sizeof label);
          i += n - 1;
          if (label[0] == '\0')
            continue;
        }
      else if (!stage->enabled)
        continue;

      if (entry->version != 0 && entry->input_version == current_version
          && (points ? memcmp (&entry->pass, &pass, sizeof pass) == 0 : lm_stage_equal (&entry->stage, stage)))
        {
          PendingTiming *t = &pending[n_pending++];
          *t = (PendingTiming) { .cached = TRUE };
          g_strlcpy (t->label, label, sizeof t->label);
          current = entry->output;
          current_version = entry->version;
          continue;
        }

      guint width = current->width, height = current->height;
      LmFormat format = lm_point_output_format (NULL, current->format, current->opaque);
      if (!points)
        {
          format = stage->info->output_format (stage->params.bytes, current->format, current->opaque);
          /* A raw's display-referred result keeps 16 bits for the edits and the export. */
          if (i == TONEMAP_STEP && raw)
            format = LM_FORMAT_RGBA16;
          lm_op_output_size (stage->info, stage->params.bytes, current->width, current->height, &width,
                             &height);
        }
      /* A 16-bit source must not be cut to 8 bits on the way: an operation that stores 8 bits
       * of it does not take 16-bit sources (yet), and says so instead of guessing. */
      if (i >= FIRST_OP_STEP && lm_format_depth (current->format) == 16 && lm_format_depth (format) != 16)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                       _("%s does not work on 16-bit images in this version of Lumen"), label);
          return NULL;
        }
      if (!prepare_output (cache, entry, format, width, height, error))
        return NULL;

      /* Mark the entry stale first: a failed run must not leave a half-written output
       * looking valid. */
      entry->version = 0;
      PendingTiming *t = &pending[n_pending++];
      *t = (PendingTiming) { 0 };
      g_strlcpy (t->label, label, sizeof t->label);
      lm_backend_mark (cache->backend, &t->start);
      gboolean ok;
      if (i == RAW_STEP)
        ok = lm_backend_develop_raw (cache->backend, (const LmRawParams *) stage->params.bytes, cache->source->raw,
                                     current, entry->output, error);
      else if (i == TONEMAP_STEP)
        ok = tonemap (cache, (const LmTonemapParams *) stage->params.bytes, current, entry->output, error);
      else if (points)
        ok = lm_backend_run_points (cache->backend, &pass, current, entry->output, error);
      else
        ok = lm_backend_run_op (cache->backend, stage->info, stage->params.bytes, current, entry->output,
                                error);
      if (!ok)
        return NULL;
      lm_backend_mark (cache->backend, &t->end);

      if (points)
        entry->pass = pass;
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
