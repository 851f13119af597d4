/* The develop batch's stages (develop.h). */
#include "develop.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../edit/sidecar.h"
#include "../error.h"
#include "../render/develop-one.h"
#include "../timing.h"
#include "buffer-pool.h"
#include "commit.h"
#include "develop-list.h"
#include "photo-stream.h"

typedef struct {
  const LmDevelopConfig *config;
  LmJournal *journal;
  GPtrArray *failures;
  GMutex lock;       /* noted, stages, failures */
  guint noted;
  LmDevelopStats stages; /* its stages and n_stages only */
  /* The photos' pixels in host memory, decoded and rendered: pinned once for a GPU's
   * uploads and downloads (pinning 96 MB took 37 ms on an H200, and serializes the threads
   * in the driver), and faulted in once on the CPU. */
  LmBufferPool *pool;
} Run;

typedef struct {
  const LmBatchStack *stack;
  LmImage *source;
  LmPipeline pipeline;
  GBytes *encoded;      /* by nvJPEG */
  LmImage *host;        /* else the render in host memory */
  GPtrArray *notes;     /* of LmBatchNote */
  GPtrArray *save_notes; /* of char *: the writer's */
  double ms;
} Job;

void
lm_develop_failure_free (LmDevelopFailure *failure)
{
  g_free (failure->id);
  g_free (failure->reason);
  g_free (failure);
}

void
lm_develop_long_side (LmStage *resize, guint long_side)
{
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  *resize = *lm_pipeline_stage (&pipeline, LM_OP_RESIZE);
  resize->enabled = TRUE;
  resize->params.resize.width = resize->params.resize.height = (float) long_side;
}

gboolean
lm_develop_pipeline (LmPipeline *pipeline, const char *photo, const char *sidecar, const LmStage *resize,
                     GError **error)
{
  lm_pipeline_init (pipeline);
  gboolean raw = lm_develop_is_raw (photo);
  if (raw)
    lm_pipeline_for_raw (pipeline);
  if (sidecar && !lm_pipeline_load_sidecar (pipeline, sidecar, error))
    return FALSE;
  if (resize && resize->enabled)
    {
      LmStage *stage = lm_pipeline_stage (pipeline, LM_OP_RESIZE);
      stage->enabled = TRUE;
      stage->params = resize->params;
    }
  lm_pipeline_fit_source (pipeline, raw);
  return TRUE;
}

static void
add_note (Job *job, const char *file, char *text)
{
  LmBatchNote *note = g_new (LmBatchNote, 1);
  *note = (LmBatchNote) { g_strdup (file), text };
  g_ptr_array_add (job->notes, note);
}

static gpointer
start (gpointer data, gpointer input)
{
  Job *job = g_new0 (Job, 1);
  job->stack = input;
  job->notes = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_batch_note_free);
  job->save_notes = g_ptr_array_new_with_free_func (g_free);
  return job;
}

/* The photo leaves the run: done (DONE), failed (ERROR), or dropped because the run stopped. */
static void
finish (LmPhotoStream *stream, gpointer data, gpointer item, gboolean done, const GError *error)
{
  Run *run = data;
  Job *job = item;
  if (error)
    {
      GError *journal_error = NULL;
      if (run->journal && !lm_journal_failed (run->journal, job->stack->id, error->message, &journal_error))
        lm_photo_stream_stop (stream, journal_error);
    }
  g_clear_pointer (&job->source, lm_image_unref);
  g_clear_pointer (&job->host, lm_image_unref);
  g_clear_pointer (&job->encoded, g_bytes_unref);
  g_mutex_lock (&run->lock);
  if (error && run->failures)
    {
      LmDevelopFailure *f = g_new (LmDevelopFailure, 1);
      *f = (LmDevelopFailure) { g_strdup (job->stack->id), g_strdup (error->message) };
      g_ptr_array_add (run->failures, f);
    }
  run->noted += done && job->notes->len > 0;
  g_mutex_unlock (&run->lock);
  g_ptr_array_unref (job->notes);
  g_ptr_array_unref (job->save_notes);
  g_free (job);
}

/* The photo as lumen-cli loads it: not a radiance map. */
static LmImage *
load_photo (const char *path, const LmAllocator *allocator, GError **error)
{
  g_autoptr (LmImage) image = lm_io_load (path, allocator, error);
  if (image == NULL)
    return NULL;
  if (image->format == LM_FORMAT_RGBA_F32)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("%s: is an HDR radiance map; these operations work on 8-bit photos"), display);
      return NULL;
    }
  return g_steal_pointer (&image);
}

static gboolean
load (Run *run, Job *job, GError **error)
{
  const LmDevelopConfig *c = run->config;
  const LmBatchStack *s = job->stack;
  if (s->problem)
    {
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID, s->problem);
      return FALSE;
    }
  if (!lm_batch_output_name_fits (c->outdir, s, c->ext, error))
    return FALSE;
  const char *photo = lm_develop_photo_of (s);
  g_autofree char *found = NULL;
  const char *sidecar = c->preset ? c->preset : lm_develop_sidecar_of (s);
  if (sidecar == NULL)
    sidecar = found = lm_sidecar_find (photo);
  if (!lm_develop_pipeline (&job->pipeline, photo, sidecar, c->resize, error))
    return FALSE;
  job->source = load_photo (photo, lm_buffer_pool_allocator (run->pool), error);
  if (job->source == NULL)
    return FALSE;
  if (job->source->notes && job->source->notes->len > 0)
    {
      g_ptr_array_add (job->source->notes, NULL);
      add_note (job, photo, g_strjoinv ("; ", (char **) job->source->notes->pdata));
      g_ptr_array_remove_index (job->source->notes, job->source->notes->len - 1);
    }
  return TRUE;
}

static gboolean
load_stage (LmPhotoStream *stream, gpointer data, gpointer item, GError **error)
{
  Job *job = item;
  gint64 t = g_get_monotonic_time ();
  gboolean ok = load (data, job, error);
  job->ms += lm_ms_since (t);
  return ok;
}

/* TIMINGS' entries added to RUN's sums by label (those past the table's room are left out). */
static void
sum_stages (Run *run, const LmTimings *timings)
{
  LmDevelopStats *s = &run->stages;
  g_mutex_lock (&run->lock);
  for (guint i = 0; i < timings->entries->len; i++)
    {
      const LmTiming *t = &g_array_index (timings->entries, LmTiming, i);
      guint k = 0;
      while (k < s->n_stages && strcmp (s->stages[k].label, t->label) != 0)
        k++;
      if (k == s->n_stages && k < LM_DEVELOP_STAGES)
        g_strlcpy (s->stages[s->n_stages++].label, t->label, sizeof s->stages[k].label);
      if (k < s->n_stages)
        s->stages[k].ms += t->ms;
    }
  g_mutex_unlock (&run->lock);
}

static gboolean
render (Run *run, guint slot, Job *job, GError **error)
{
  const LmDevelopConfig *c = run->config;
  /* A fall-back to the CPU replaces the worker's backend in its slot. */
  LmBackend **backend = (LmBackend **) &c->backends->pdata[slot];
  g_autofree char *output = lm_batch_output_path (c->outdir, job->stack->id, c->ext);
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  LmTimings timings;
  lm_timings_init (&timings);
  const char *photo = lm_develop_photo_of (job->stack);
  /* Left on the device, so that lm_develop_encode brings it back into the pool's pinned
   * buffers (or nvJPEG encodes it there). */
  g_autoptr (LmImage) result = lm_develop_photo (backend, c->asked, photo, job->source, &job->pipeline, output,
                                                 TRUE, 0, NULL, NULL, &timings, said, error);
  gboolean ok = result != NULL
                && lm_develop_encode (*backend, result, output, c->nvjpeg, &c->save,
                                      lm_buffer_pool_allocator (run->pool), &job->encoded, &job->host, &timings, said,
                                      error);
  sum_stages (run, &timings);
  lm_timings_clear (&timings);
  g_clear_pointer (&job->source, lm_image_unref);
  if (said->len > 0)
    {
      g_ptr_array_add (said, NULL);
      add_note (job, photo, g_strjoinv ("; ", (char **) said->pdata));
    }
  return ok;
}

static gboolean
render_stage (LmPhotoStream *stream, gpointer data, guint worker, gpointer item, GError **error)
{
  Job *job = item;
  gint64 t = g_get_monotonic_time ();
  gboolean ok = render (data, worker, job, error);
  job->ms += lm_ms_since (t);
  return ok;
}

/* Encode, commit, journal. A node under the output's name fails its photo; a failing write
 * is the output folder's problem (a full disk fails every photo after it): it stops the run. */
static gboolean
write_stage (LmPhotoStream *stream, gpointer data, gpointer item, GError **error)
{
  Run *run = data;
  Job *job = item;
  const LmDevelopConfig *c = run->config;
  if (!lm_batch_output_replaceable (c->outdir, job->stack->id, c->ext, error))
    return FALSE;
  gint64 t = g_get_monotonic_time ();
  LmOutputSum sum;
  LmSaveOptions save = c->save;
  save.notes = job->save_notes;
  GError *e = NULL;
  gboolean ok = job->encoded ? lm_batch_write_encoded (job->encoded, c->outdir, job->stack->id, c->ext, &sum, &e)
                             : lm_batch_write_output (job->host, c->outdir, job->stack->id, c->ext, &save, &sum, &e);
  job->ms += lm_ms_since (t);
  if (ok && job->save_notes->len > 0)
    {
      g_autofree char *output = lm_batch_output_path (c->outdir, job->stack->id, c->ext);
      g_ptr_array_add (job->save_notes, NULL);
      add_note (job, output, g_strjoinv ("; ", (char **) job->save_notes->pdata));
    }
  if (ok && run->journal)
    ok = lm_journal_done (run->journal, job->stack->id, job->ms, &sum, job->notes, &e);
  if (!ok)
    {
      lm_photo_stream_stop (stream, e);
      return FALSE;
    }
  if (run->journal)
    lm_batch_crash_point (LM_CRASH_AFTER_JOURNAL);
  return TRUE;
}

static const LmPhotoStages stages = { start, load_stage, render_stage, write_stage, finish };

gboolean
lm_develop_batch_run (const LmDevelopConfig *config, GPtrArray *todo, LmJournal *journal, GPtrArray *failures,
                      LmDevelopStats *stats, GError **error)
{
  Run run = { .config = config, .journal = journal, .failures = failures };
  g_mutex_init (&run.lock);
  const LmAllocator *host = lm_backend_host_allocator (g_ptr_array_index (config->backends, 0));
  run.pool = config->pinned_cap ? lm_buffer_pool_new_capped (host, lm_allocator_host (), config->pinned_cap)
                                : lm_buffer_pool_new (host);
  LmPhotoStreamConfig stream = { .threads = config->load_threads, .workers = config->backends->len,
                                 .progress = config->progress, .progress_data = config->progress_data,
                                 .cancellable = config->cancellable };
  LmPhotoStreamStats done;
  gboolean ok = lm_photo_stream_run (&stages, &stream, &run, todo, &done, error);
  LmBufferPoolStats pool;
  lm_buffer_pool_stats (run.pool, &pool);
  lm_buffer_pool_free (run.pool);

  *stats = run.stages;
  stats->done = done.done, stats->failed = done.failed, stats->noted = run.noted, stats->cancelled = done.cancelled;
  stats->wall_s = done.wall_s;
  stats->load_ms = done.load_ms, stats->render_ms = done.work_ms, stats->write_ms = done.write_ms;
  stats->buffers = pool.allocations, stats->fresh_buffers = pool.fresh, stats->buffer_peak_bytes = pool.peak_bytes;
  g_mutex_clear (&run.lock);
  return ok;
}

gboolean
lm_develop_outputs_apart (const LmBatchList *list, const char *outdir, const char *ext, GError **error)
{
  GStatBuf out, in;
  for (guint k = 0; k < list->stacks->len; k++)
    {
      const LmBatchStack *s = list->stacks->pdata[k];
      g_autofree char *output = lm_batch_output_path (outdir, s->id, ext);
      const char *photo = lm_develop_photo_of (s);
      if (g_stat (output, &out) != 0 || g_stat (photo, &in) != 0 || out.st_dev != in.st_dev || out.st_ino != in.st_ino)
        continue;
      g_autofree char *name = g_filename_display_name (photo);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("“%s” would be replaced by its own export: choose another folder or name pattern"), name);
      return FALSE;
    }
  return TRUE;
}
