#include "cache.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../color/profile.h"
#include "../error.h"
#include "../io/exif-shot.h"
#include "../ops/point.h"

/* The steps of a run, in order. A raw's development (raw sources only); for a scene-referred
 * source (a raw, a merge's radiance) the edits on scene light (op.h, on_scene): the point ones
 * folded into one gain, then the others in pipeline order; the display transform (tone
 * mapping); then the operations in pipeline order, less those already run on scene light. A
 * photo's steps are the operations alone. */
#define N_STEPS (3 + LM_N_OPS)

typedef enum { STEP_RAW, STEP_SCENE_GAIN, STEP_TONEMAP, STEP_OP } StepKind;

typedef struct {
  StepKind kind;
  LmStage stage; /* STEP_OP: the operation; STEP_RAW, STEP_TONEMAP: the pipeline's stage */
  gboolean scene; /* on scene light: before the display transform */
} Step;

typedef struct {
  LmStage stage;          /* what the output was computed with */
  LmPointPass pass;       /* the fused pass it was, for the first of a run of point operations */
  float gain[3];          /* the gain it was, for the scene gain */
  guint64 input_version;  /* the version of the input it was computed from */
  guint64 version;        /* this output's version; 0 when there is none */
  LmImage *output;        /* kept between runs and rewritten in place when shapes agree */
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
  CacheEntry entries[N_STEPS];
};

LmRenderCache *
lm_render_cache_new (LmBackend *backend, LmImage *source)
{
  LmRenderCache *cache = g_new0 (LmRenderCache, 1);
  cache->backend = backend;
  cache->source = lm_image_ref (source);
  lm_shot_info_from_image (source, &cache->shot);
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

/* PIPELINE's steps for SOURCE into STEPS (N_STEPS at most); returns their count. */
static int
plan_steps (const LmImage *source, const LmPipeline *pipeline, Step *steps)
{
  gboolean raw = lm_image_is_raw (source);
  gboolean scene = raw || source->format == LM_FORMAT_RGBA_F32;
  int n = 0;
  if (scene)
    {
      steps[n++] = (Step) { .kind = STEP_RAW, .stage = pipeline->raw, .scene = TRUE };
      steps[n - 1].stage.enabled = raw;
      steps[n++] = (Step) { .kind = STEP_SCENE_GAIN, .scene = TRUE };
      for (int i = 0; i < LM_N_OPS; i++)
        if (pipeline->stages[i].info->on_scene && pipeline->stages[i].info->scene_gain == NULL)
          steps[n++] = (Step) { .kind = STEP_OP, .stage = pipeline->stages[i], .scene = TRUE };
      steps[n++] = (Step) { .kind = STEP_TONEMAP, .stage = pipeline->tonemap };
      steps[n - 1].stage.enabled = TRUE;
    }
  for (int i = 0; i < LM_N_OPS; i++)
    if (!scene || !pipeline->stages[i].info->on_scene)
      steps[n++] = (Step) { .kind = STEP_OP, .stage = pipeline->stages[i] };
  return n;
}

/* The gain of PIPELINE's enabled point operations on scene light, folded into GAIN with their
 * names in LABEL; FALSE when none is enabled. */
static gboolean
scene_gain (const LmPipeline *pipeline, float gain[3], char *label, gsize label_size)
{
  gain[0] = gain[1] = gain[2] = 1.0f;
  label[0] = '\0';
  for (int i = 0; i < LM_N_OPS; i++)
    {
      const LmStage *stage = &pipeline->stages[i];
      if (!stage->enabled || stage->info->scene_gain == NULL)
        continue;
      float g[3];
      stage->info->scene_gain (stage->params.bytes, g);
      for (int c = 0; c < 3; c++)
        gain[c] *= g[c];
      if (label[0])
        g_strlcat (label, "+", label_size);
      g_strlcat (label, stage->info->name, label_size);
    }
  return label[0] != '\0';
}

/* lm_render_cache_run, or (SCENE_ONLY) its steps before the display transform. */
static LmImage *
run_steps (LmRenderCache *cache, const LmPipeline *pipeline, gboolean scene_only, LmTimings *timings,
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
  lm_pipeline_commit (&colored, cache->color, &cache->shot);
  if (!lm_pipeline_check (&colored, error))
    return NULL;
  pipeline = &colored;

  gboolean raw = lm_image_is_raw (cache->source);
  Step plan[N_STEPS];
  int n_steps = plan_steps (cache->source, pipeline, plan);
  /* The operations' stages in plan order, for the fused point passes. */
  LmStage stages[N_STEPS];
  for (int i = 0; i < n_steps; i++)
    stages[i] = plan[i].stage;

  for (int i = 0; i < n_steps; i++)
    {
      const Step *step = &plan[i];
      const LmStage *stage = &step->stage;
      CacheEntry *entry = &cache->entries[i];
      if (scene_only && !step->scene)
        break;
      /* Consecutive point operations after the display transform are one step, cached in the
       * first one's entry under the pass they compose to. */
      gboolean points = step->kind == STEP_OP && !step->scene && lm_op_is_point (stage->info->id);
      LmPointPass pass;
      float gain[3] = { 0 };
      char label[sizeof pending[0].label];
      if (step->kind == STEP_SCENE_GAIN)
        {
          if (!scene_gain (pipeline, gain, label, sizeof label))
            continue;
        }
      else
        g_strlcpy (label, stage->info->name, sizeof label);
      if (points)
        {
          int n = lm_render_fuse_points (stages, i, n_steps, &pass, label, sizeof label);
          i += n - 1;
          if (label[0] == '\0')
            continue;
        }
      else if (step->kind != STEP_SCENE_GAIN && !stage->enabled)
        continue;

      gboolean same = points                           ? memcmp (&entry->pass, &pass, sizeof pass) == 0
                      : step->kind == STEP_SCENE_GAIN ? memcmp (entry->gain, gain, sizeof gain) == 0
                                                       : lm_stage_equal (&entry->stage, stage);
      if (entry->version != 0 && entry->input_version == current_version && same)
        {
          PendingTiming *t = &pending[n_pending++];
          *t = (PendingTiming) { .cached = TRUE };
          g_strlcpy (t->label, label, sizeof t->label);
          current = entry->output;
          current_version = entry->version;
          continue;
        }

      guint width = current->width, height = current->height;
      LmFormat format = LM_FORMAT_RGBA_F32; /* scene light, up to the display transform */
      if (points)
        format = lm_point_output_format (NULL, current->format, current->opaque);
      else if (step->kind == STEP_TONEMAP)
        /* A raw's display-referred result (a merge of raws' too) keeps 16 bits for the edits and
         * the export. */
        format = raw || cache->source->raw_scene
                   ? LM_FORMAT_RGBA16
                   : stage->info->output_format (stage->params.bytes, current->format, current->opaque);
      else if (step->kind == STEP_OP)
        {
          format = stage->info->output_format (stage->params.bytes, current->format, current->opaque);
          lm_op_output_size (stage->info, stage->params.bytes, current->width, current->height, &width,
                             &height);
        }
      /* A 16-bit source must not be cut to 8 bits on the way: an operation that stores 8 bits
       * of it does not take 16-bit sources (yet), and says so instead of guessing. */
      if (step->kind == STEP_OP && !step->scene && lm_format_depth (current->format) == 16
          && lm_format_depth (format) != 16)
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
      if (step->kind == STEP_RAW)
        ok = lm_backend_develop_raw (cache->backend, (const LmRawParams *) stage->params.bytes, cache->source->raw,
                                     current, entry->output, error);
      else if (step->kind == STEP_SCENE_GAIN)
        ok = lm_backend_scene_gain (cache->backend, gain, current, entry->output, error);
      else if (step->kind == STEP_TONEMAP)
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
      memcpy (entry->gain, gain, sizeof gain);
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
