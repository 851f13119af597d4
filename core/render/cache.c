#include "cache.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../color/profile.h"
#include "../error.h"
#include "../io/exif-shot.h"
#include "../ops/point.h"
#include "plan.h"

/* Entries a cache keeps at most: every step of the last two runs (the window alternates the
 * edited pipeline and its "before", geometry alone, on one cache). */
#define N_ENTRIES (2 * LM_PLAN_MAX)

/* A masked instance's mask: its drawn plane, valid while its shapes and its frame stay the
 * same (a slider of the instance or of one before it redraws nothing), and its final mask,
 * valid while, in addition, its ranges, feather and input do. */
typedef struct {
  LmMaskFlat *flat;      /* placed on FRAME, IN_W × IN_H */
  LmMask mask;           /* what FLAT was made from */
  LmMaskFrame frame;
  gboolean scene;
  guint in_w, in_h;
  LmImage *drawn, *final;
  gboolean drawn_valid;
  guint64 final_input_version; /* 0: FINAL is not valid */
  guint64 applied_run;         /* the run that last blended with FINAL */
} MaskPlanes;

/* The output of one step, found by the step's key (plan.h: an instance's id), so that adding
 * or removing an instance leaves the entries of the others where they are. */
typedef struct {
  guint32 key;
  guint64 seen;           /* the last run whose pipeline had the key */
  LmPlanStep step;        /* what the output was computed with */
  guint64 input_version;  /* the version of the input it was computed from */
  guint64 version;        /* this output's version; 0 when there is none */
  LmImage *output;        /* kept between runs and rewritten in place when shapes agree */
  MaskPlanes *mask;       /* a masked instance's, kept while it stays masked */
} CacheEntry;

struct _LmRenderCache {
  LmBackend *backend;
  LmImage *source;
  LmShotInfo shot; /* how the source was taken: the lens correction's lookup */
  LmBackend *fallback;     /* the CPU, for what the backend cannot do */
  LmImage *host_source;    /* the source in host memory, for the fallback */
  LmImage *fallback_out;   /* the fallback's tone mapping, in host memory */
  char *notice;
  LmColorProfile *color;
  guint64 next_version;
  guint last_computed;
  guint64 runs;
  LmRenderLevel level;
  guint last_masks;
  gboolean single_run; /* lm_render_cache_set_single_run */
  GPtrArray *buffers;  /* of LmImage: what the outputs of a single run are taken from */
  guint n_entries;
  CacheEntry entries[N_ENTRIES];
};

static void
mask_planes_free (MaskPlanes *m)
{
  if (m == NULL)
    return;
  g_clear_pointer (&m->flat, lm_mask_flat_free);
  g_clear_pointer (&m->drawn, lm_image_unref);
  g_clear_pointer (&m->final, lm_image_unref);
  g_free (m);
}

static void
entry_clear (CacheEntry *entry)
{
  g_clear_pointer (&entry->output, lm_image_unref);
  g_clear_pointer (&entry->mask, mask_planes_free);
}

LmRenderCache *
lm_render_cache_new (LmBackend *backend, LmImage *source)
{
  LmRenderCache *cache = g_new0 (LmRenderCache, 1);
  cache->backend = backend;
  cache->source = lm_image_ref (source);
  lm_shot_info_from_image (source, &cache->shot);
  cache->next_version = 2; /* 1 is the source */
  cache->level = lm_render_level_of (NULL, source->width, source->height);
  return cache;
}

void
lm_render_cache_free (LmRenderCache *cache)
{
  if (cache == NULL)
    return;
  for (guint i = 0; i < cache->n_entries; i++)
    entry_clear (&cache->entries[i]);
  g_clear_pointer (&cache->host_source, lm_image_unref);
  g_clear_pointer (&cache->fallback_out, lm_image_unref);
  g_free (cache->notice);
  g_clear_pointer (&cache->color, lm_color_profile_unref);
  g_clear_pointer (&cache->buffers, g_ptr_array_unref);
  lm_image_unref (cache->source);
  g_free (cache);
}

void
lm_render_cache_set_level (LmRenderCache *cache, const LmRenderLevel *level)
{
  cache->level = lm_render_level_of (level, cache->source->width, cache->source->height);
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

void
lm_render_cache_set_single_run (LmRenderCache *cache, GPtrArray *buffers)
{
  cache->single_run = TRUE;
  if (cache->buffers == NULL)
    cache->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_image_unref);
  /* Moved, not shared: a buffer takes an output only while the cache holds it alone. */
  while (buffers && buffers->len > 0)
    g_ptr_array_add (cache->buffers, g_ptr_array_steal_index (buffers, 0));
}

guint
lm_render_cache_single_run_bytes (const LmPipeline *pipeline, LmFormat format, guint width, guint height,
                                  gboolean opaque, gsize bytes[2])
{
  bytes[0] = bytes[1] = 0;
  /* Planned uncommitted: what a commit fills in (the colour space, the lens found) changes no
   * output's format or size, and the lens's lookup is not for every caller's thread. */
  g_autofree LmPlan *plan = lm_render_plan (pipeline, format == LM_FORMAT_RGBA_F32, FALSE, NULL);
  if (plan == NULL)
    return 0;
  for (guint i = 0; i < plan->n; i++)
    {
      LmFormat out;
      guint w, h;
      gsize stride, size;
      lm_plan_step_output (&plan->steps[i], FALSE, format, width, height, opaque, &out, &w, &h);
      if (!lm_image_layout (out, w, h, &stride, &size, NULL))
        return 0;
      bytes[i % 2] = MAX (bytes[i % 2], size);
      format = out, width = w, height = h;
    }
  return MIN (plan->n, 2);
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
  /* A single run's buffers in their order, the first that holds the output: they were made
   * for the steps in turn (lm_render_cache_single_run_bytes). */
  for (guint i = 0; cache->buffers && i < cache->buffers->len; i++)
    if (lm_image_reshape (cache->buffers->pdata[i], format, width, height))
      {
        entry->output = g_ptr_array_steal_index (cache->buffers, i);
        return TRUE;
      }
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
  /* The fallback tone maps the host's source: a radiance map's as it is, not a raw's sensor
   * data nor scene light already edited (with an edit on scene light the error stands; both
   * backends tone map, so this is for a backend that some day would not). */
  if (!g_error_matches (e, LUMEN_ERROR, LM_ERROR_UNSUPPORTED) || cache->fallback == NULL
      || radiance != cache->source
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

/* KEY's entry, a new one (no output yet) where there is none. */
static CacheEntry *
entry_of (LmRenderCache *cache, guint32 key)
{
  for (guint i = 0; i < cache->n_entries; i++)
    if (cache->entries[i].key == key)
      return &cache->entries[i];
  /* Room is there: entries not seen in the last two runs are gone (forget_unseen), and a run
   * has at most LM_PLAN_MAX keys. */
  g_assert (cache->n_entries < N_ENTRIES);
  CacheEntry *entry = &cache->entries[cache->n_entries++];
  memset (entry, 0, sizeof *entry);
  entry->key = key;
  entry->seen = cache->runs;
  return entry;
}

/* Marks the entries of PIPELINE's instances (enabled or not: a disabled instance keeps its
 * output, as a switched off operation kept it before there were instances) and of the steps
 * that are none seen in this run, and frees those seen in neither this run nor the one before:
 * a removed instance gives its buffer back. */
static void
forget_unseen (LmRenderCache *cache, const LmPipeline *pipeline)
{
  cache->runs++;
  for (guint i = 0; i < cache->n_entries; i++)
    {
      CacheEntry *entry = &cache->entries[i];
      gboolean in = entry->key >= LM_PLAN_KEY_RAW;
      for (guint k = 0; k < pipeline->n && !in; k++)
        in = pipeline->inst[k].id == entry->key;
      if (in)
        entry->seen = cache->runs;
    }
  guint kept = 0;
  for (guint i = 0; i < cache->n_entries; i++)
    {
      CacheEntry *entry = &cache->entries[i];
      if (entry->seen + 1 < cache->runs)
        {
          entry_clear (entry);
          continue;
        }
      if (kept != i)
        cache->entries[kept] = *entry;
      kept++;
    }
  cache->n_entries = kept;
}

LmImage *
lm_render_cache_mask (LmRenderCache *cache, guint32 id)
{
  for (guint i = 0; i < cache->n_entries; i++)
    {
      const CacheEntry *entry = &cache->entries[i];
      if (entry->key == id && entry->mask && entry->mask->final && entry->mask->final_input_version != 0
          && entry->mask->applied_run == cache->runs)
        return lm_image_ref (entry->mask->final);
    }
  return NULL;
}

guint
lm_render_cache_last_masks_computed (LmRenderCache *cache)
{
  return cache->last_masks;
}

guint
lm_render_cache_n_outputs (LmRenderCache *cache)
{
  guint n = 0;
  for (guint i = 0; i < cache->n_entries; i++)
    n += cache->entries[i].output != NULL;
  return n;
}

/* Whether ENTRY holds the output of STEP (ignoring its input). */
static gboolean
same_step (const CacheEntry *entry, const LmPlanStep *step)
{
  const LmPlanStep *was = &entry->step;
  if (was->kind != step->kind || was->masked != step->masked)
    return FALSE;
  if (step->masked && memcmp (&was->mask, &step->mask, sizeof step->mask) != 0)
    return FALSE;
  switch (step->kind)
    {
    case LM_PLAN_POINTS:
      return memcmp (&was->pass, &step->pass, sizeof step->pass) == 0;
    case LM_PLAN_SCENE_GAIN:
      return memcmp (was->gain, step->gain, sizeof step->gain) == 0;
    default:
      return lm_stage_equal (&was->stage, &step->stage);
    }
}

/* STEP (one instance, not the raw's development nor the tone mapping) from CURRENT into OUT. */
static gboolean
run_unmasked (LmRenderCache *cache, const LmPlanStep *step, LmImage *current, LmImage *out, GError **error)
{
  if (step->kind == LM_PLAN_SCENE_GAIN)
    return lm_backend_scene_gain (cache->backend, step->gain, current, out, error);
  if (step->kind == LM_PLAN_POINTS)
    return lm_backend_run_points (cache->backend, &step->pass, current, out, error);
  return lm_backend_run_op (cache->backend, step->stage.info, step->stage.params.bytes, current, out, error);
}

/* ENTRY's mask planes for STEP on CURRENT (of version CURRENT_VERSION): what is still valid
 * is kept, the rest computed. */
static gboolean
prepare_mask (LmRenderCache *cache, CacheEntry *entry, const LmPlanStep *step, const LmPipeline *pipeline,
              const LmImage *current, guint64 current_version, GError **error)
{
  LmMaskFrame frame;
  if (!lm_render_mask_frame (pipeline, step->index, step->scene, cache->source->width, cache->source->height,
                             &cache->level, &frame, error))
    return FALSE;
  if (entry->mask == NULL)
    entry->mask = g_new0 (MaskPlanes, 1);
  MaskPlanes *m = entry->mask;
  gboolean same_place = m->flat && memcmp (&m->frame, &frame, sizeof frame) == 0 && m->in_w == current->width
                        && m->in_h == current->height && m->scene == step->scene;
  if (!same_place || memcmp (&m->mask, &step->mask, sizeof m->mask) != 0)
    {
      /* The drawn plane depends on the shapes alone: new ranges or a new feather keep it. */
      gboolean same_shapes = same_place && m->mask.n_shapes == step->mask.n_shapes
                             && memcmp (m->mask.shape, step->mask.shape, sizeof m->mask.shape) == 0;
      g_clear_pointer (&m->flat, lm_mask_flat_free);
      m->final_input_version = 0;
      m->drawn_valid = m->drawn_valid && same_shapes;
      m->flat = lm_render_mask_place (pipeline, step->index, step->scene, &frame, current->width, current->height,
                                      error);
      if (m->flat == NULL)
        return FALSE;
      memcpy (&m->mask, &step->mask, sizeof m->mask);
      m->frame = frame, m->scene = step->scene;
      m->in_w = current->width, m->in_h = current->height;
    }
  const LmAllocator *work = lm_backend_work_allocator (cache->backend);
  if (m->drawn == NULL || m->drawn->width != current->width || m->drawn->height != current->height)
    {
      g_clear_pointer (&m->drawn, lm_image_unref);
      g_clear_pointer (&m->final, lm_image_unref);
      m->drawn_valid = FALSE, m->final_input_version = 0;
      if ((m->drawn = lm_image_new (LM_FORMAT_GRAY_F32, current->width, current->height, work, error)) == NULL
          || (m->final = lm_image_new (LM_FORMAT_GRAY_F32, current->width, current->height, work, error)) == NULL)
        return FALSE;
    }
  if (!m->drawn_valid)
    {
      if (!lm_backend_mask_drawn (cache->backend, m->flat, NULL, m->drawn, error))
        return FALSE;
      m->drawn_valid = TRUE;
      m->final_input_version = 0;
      cache->last_masks++;
    }
  if (m->final_input_version != current_version)
    {
      m->final_input_version = 0;
      if (!lm_backend_mask (cache->backend, m->flat, NULL, current, m->drawn, m->final, error))
        return FALSE;
      m->final_input_version = current_version;
      cache->last_masks++;
    }
  return TRUE;
}

/* A masked instance: its result, then moved back towards its input CURRENT where the mask is
 * below 1 (mask-math.h: in + M·(op − in)). */
static gboolean
run_masked (LmRenderCache *cache, CacheEntry *entry, const LmPlanStep *step, const LmPipeline *pipeline,
            LmImage *current, guint64 current_version, GError **error)
{
  LmImage *out = entry->output;
  if (!lm_render_mask_fits (pipeline, step->index, current->format, current->width, current->height, out->format,
                            out->width, out->height, error)
      || !prepare_mask (cache, entry, step, pipeline, current, current_version, error)
      || !run_unmasked (cache, step, current, out, error)
      || !lm_backend_blend_mask (cache->backend, current, out, entry->mask->final, out, error))
    return FALSE;
  entry->mask->applied_run = cache->runs;
  return TRUE;
}

/* lm_render_cache_run, or (SCENE_ONLY) its steps before the display transform. */
static LmImage *
run_steps (LmRenderCache *cache, const LmPipeline *pipeline, gboolean scene_only, LmTimings *timings,
           GError **error)
{
  LmImage *current = cache->source;
  CacheEntry *current_entry = NULL; /* whose output CURRENT is; NULL: the source or a cached one */
  guint64 current_version = 1;
  PendingTiming pending[LM_PLAN_MAX];
  guint n_pending = 0;
  cache->last_computed = 0;
  cache->last_masks = 0;
  g_clear_pointer (&cache->notice, g_free);

  /* The pipeline with the source's colour space in its operations' hidden fields. */
  g_autofree LmPipeline *colored = g_memdup2 (pipeline, sizeof *pipeline);
  lm_pipeline_commit (colored, cache->color, &cache->shot);
  if (!lm_pipeline_check_ops (colored, error))
    return NULL;
  pipeline = colored;

  gboolean raw = lm_image_is_raw (cache->source);
  gboolean scene = raw || cache->source->format == LM_FORMAT_RGBA_F32;
  g_autofree LmPlan *plan = lm_render_plan (pipeline, scene, raw, error);
  if (plan == NULL)
    return NULL;
  forget_unseen (cache, pipeline);

  for (guint i = 0; i < plan->n; i++)
    {
      const LmPlanStep *step = &plan->steps[i];
      const LmStage *stage = &step->stage;
      if (scene_only && !step->scene)
        break;
      CacheEntry *entry = entry_of (cache, step->key);
      entry->seen = cache->runs;
      if (entry->version != 0 && entry->input_version == current_version && same_step (entry, step))
        {
          PendingTiming *t = &pending[n_pending++];
          *t = (PendingTiming) { .cached = TRUE };
          g_strlcpy (t->label, step->label, sizeof t->label);
          current = entry->output;
          current_entry = NULL;
          current_version = entry->version;
          if (step->masked && entry->mask)
            entry->mask->applied_run = cache->runs;
          continue;
        }

      guint width, height;
      LmFormat format;
      lm_plan_step_output (step, raw || cache->source->raw_scene, current->format, current->width, current->height,
                           current->opaque, &format, &width, &height);
      /* A 16-bit source must not be cut to 8 bits on the way: an operation that stores 8 bits
       * of it does not take 16-bit sources (yet), and says so instead of guessing. */
      if ((step->kind == LM_PLAN_OP || step->kind == LM_PLAN_POINTS) && !step->scene
          && lm_format_depth (current->format) == 16 && lm_format_depth (format) != 16)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                       _("%s does not work on 16-bit images in this version of Lumen"), step->label);
          return NULL;
        }
      if (!prepare_output (cache, entry, format, width, height, error))
        return NULL;
      if (!step->masked)
        g_clear_pointer (&entry->mask, mask_planes_free);

      /* Mark the entry stale first: a failed run must not leave a half-written output
       * looking valid. */
      entry->version = 0;
      PendingTiming *t = &pending[n_pending++];
      *t = (PendingTiming) { 0 };
      g_strlcpy (t->label, step->label, sizeof t->label);
      lm_backend_mark (cache->backend, &t->start);
      gboolean ok;
      if (step->masked)
        ok = run_masked (cache, entry, step, pipeline, current, current_version, error);
      else if (step->kind == LM_PLAN_RAW)
        ok = lm_backend_develop_raw (cache->backend, (const LmRawParams *) stage->params.bytes, cache->source->raw,
                                     current, entry->output, error);
      else if (step->kind == LM_PLAN_SCENE_GAIN)
        ok = lm_backend_scene_gain (cache->backend, step->gain, current, entry->output, error);
      else if (step->kind == LM_PLAN_TONEMAP)
        ok = tonemap (cache, (const LmTonemapParams *) stage->params.bytes, current, entry->output, error);
      else if (step->kind == LM_PLAN_POINTS)
        ok = lm_backend_run_points (cache->backend, &step->pass, current, entry->output, error);
      else
        ok = lm_backend_run_op (cache->backend, stage->info, stage->params.bytes, current, entry->output,
                                error);
      if (!ok)
        return NULL;
      lm_backend_mark (cache->backend, &t->end);

      entry->step = *step;
      entry->input_version = current_version;
      entry->version = cache->next_version++;
      cache->last_computed++;
      /* Read by this step, the output before it is done with in a single run: its buffer
       * takes a later step's output. */
      if (cache->single_run && current_entry != NULL)
        {
          current_entry->version = 0;
          g_ptr_array_add (cache->buffers, g_steal_pointer (&current_entry->output));
        }
      current = entry->output;
      current_entry = entry;
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

LmImage *
lm_render_cache_run (LmRenderCache *cache, const LmPipeline *pipeline, LmTimings *timings, GError **error)
{
  return run_steps (cache, pipeline, FALSE, timings, error);
}

LmImage *
lm_render_cache_run_scene (LmRenderCache *cache, const LmPipeline *pipeline, LmTimings *timings, GError **error)
{
  g_return_val_if_fail (lm_image_is_raw (cache->source) || cache->source->format == LM_FORMAT_RGBA_F32, NULL);
  return run_steps (cache, pipeline, TRUE, timings, error);
}
