/* The develop batch's stages (develop.h). */
#include "develop.h"

#include <omp.h>
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

typedef struct {
  const LmDevelopConfig *config;
  LmJournal *journal;
  GPtrArray *failures;
  GMutex lock;
  GCond changed;     /* a photo left the run, or the run stopped */
  guint in_flight;
  guint done, failed, noted, cancelled;
  double load_ms, render_ms, write_ms;
  LmDevelopStats stages; /* its stages and n_stages only */
  GError *fatal;     /* the first error that stopped the run */
  gint stopping;     /* atomic */
  GThreadPool *load_pool, *write_pool;
  GAsyncQueue *render_queue;
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

/* Ends a render worker's loop. */
static Job stop_job;

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

static gboolean
stopping (Run *run)
{
  return g_atomic_int_get (&run->stopping)
         || (run->config->cancellable && g_cancellable_is_cancelled (run->config->cancellable));
}

static void
stop (Run *run, GError *error)
{
  g_mutex_lock (&run->lock);
  if (run->fatal == NULL)
    run->fatal = error;
  else
    g_error_free (error);
  g_atomic_int_set (&run->stopping, TRUE);
  g_cond_broadcast (&run->changed);
  g_mutex_unlock (&run->lock);
}

static void
add_note (Job *job, const char *file, char *text)
{
  LmBatchNote *note = g_new (LmBatchNote, 1);
  *note = (LmBatchNote) { g_strdup (file), text };
  g_ptr_array_add (job->notes, note);
}

/* The photo leaves the run: done (DONE), failed (ERROR), or dropped because the run stopped. */
static void
finish (Run *run, Job *job, gboolean done, GError *error)
{
  if (error)
    {
      GError *journal_error = NULL;
      if (run->journal && !lm_journal_failed (run->journal, job->stack->id, error->message, &journal_error))
        stop (run, journal_error);
    }
  g_clear_pointer (&job->source, lm_image_unref);
  g_clear_pointer (&job->host, lm_image_unref);
  g_clear_pointer (&job->encoded, g_bytes_unref);
  g_mutex_lock (&run->lock);
  run->in_flight--;
  if (error)
    {
      run->failed++;
      if (run->failures)
        {
          LmDevelopFailure *f = g_new (LmDevelopFailure, 1);
          *f = (LmDevelopFailure) { g_strdup (job->stack->id), g_strdup (error->message) };
          g_ptr_array_add (run->failures, f);
        }
    }
  else if (done)
    run->done++;
  else
    run->cancelled++;
  run->noted += done && job->notes->len > 0;
  g_cond_broadcast (&run->changed);
  g_mutex_unlock (&run->lock);
  g_clear_error (&error);
  g_ptr_array_unref (job->notes);
  g_ptr_array_unref (job->save_notes);
  g_free (job);
}

/* A full disk or a failed device would fail every photo after it: it stops the run. */
static gboolean
is_fatal (const GError *error)
{
  return g_error_matches (error, LUMEN_ERROR, LM_ERROR_NO_SPACE) || g_error_matches (error, LUMEN_ERROR, LM_ERROR_DEVICE);
}

static void
fail_or_stop (Run *run, Job *job, GError *error)
{
  if (is_fatal (error))
    {
      stop (run, error);
      finish (run, job, FALSE, NULL);
    }
  else
    finish (run, job, FALSE, error);
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

static void
load_task (gpointer data, gpointer user_data)
{
  Run *run = user_data;
  Job *job = data;
  /* The pool's threads are the parallelism: a team in each would oversubscribe the cores. */
  omp_set_num_threads (1);
  if (stopping (run))
    {
      finish (run, job, FALSE, NULL);
      return;
    }
  gint64 t = g_get_monotonic_time ();
  GError *error = NULL;
  gboolean ok = load (run, job, &error);
  double ms = lm_ms_since (t);
  g_mutex_lock (&run->lock);
  run->load_ms += ms;
  g_mutex_unlock (&run->lock);
  job->ms += ms;
  if (!ok)
    fail_or_stop (run, job, error);
  else
    g_async_queue_push (run->render_queue, job);
}

typedef struct {
  Run *run;
  guint slot; /* its backend in config->backends, which a fall-back to the CPU replaces */
  GThread *thread;
} Worker;

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
render (Run *run, Worker *worker, Job *job, GError **error)
{
  const LmDevelopConfig *c = run->config;
  LmBackend **backend = (LmBackend **) &c->backends->pdata[worker->slot];
  g_autofree char *output = lm_batch_output_path (c->outdir, job->stack->id, c->ext);
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  LmTimings timings;
  lm_timings_init (&timings);
  const char *photo = lm_develop_photo_of (job->stack);
  /* Left on the device, so that lm_develop_encode brings it back into the pool's pinned
   * buffers (or nvJPEG encodes it there). */
  g_autoptr (LmImage) result = lm_develop_photo (backend, c->asked, photo, job->source, &job->pipeline, output,
                                                 TRUE, 0, NULL, &timings, said, error);
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

static gpointer
render_worker (gpointer data)
{
  Worker *worker = data;
  Run *run = worker->run;
  for (;;)
    {
      Job *job = g_async_queue_pop (run->render_queue);
      if (job == &stop_job)
        break;
      if (stopping (run))
        {
          finish (run, job, FALSE, NULL);
          continue;
        }
      gint64 t = g_get_monotonic_time ();
      GError *error = NULL;
      gboolean ok = render (run, worker, job, &error);
      double ms = lm_ms_since (t);
      g_mutex_lock (&run->lock);
      run->render_ms += ms;
      g_mutex_unlock (&run->lock);
      job->ms += ms;
      if (!ok)
        fail_or_stop (run, job, error);
      else
        g_thread_pool_push (run->write_pool, job, NULL);
    }
  return NULL;
}

/* Encode, commit, journal. A node under the output's name fails its photo; a failing write
 * is the output folder's problem (a full disk fails every photo after it): it stops the run. */
static void
write_task (gpointer data, gpointer user_data)
{
  Run *run = user_data;
  Job *job = data;
  omp_set_num_threads (1);
  const LmDevelopConfig *c = run->config;
  GError *error = NULL;
  if (stopping (run))
    {
      finish (run, job, FALSE, NULL);
      return;
    }
  if (!lm_batch_output_replaceable (c->outdir, job->stack->id, c->ext, &error))
    {
      finish (run, job, FALSE, error);
      return;
    }
  gint64 t = g_get_monotonic_time ();
  LmOutputSum sum;
  LmSaveOptions save = c->save;
  save.notes = job->save_notes;
  gboolean ok = job->encoded ? lm_batch_write_encoded (job->encoded, c->outdir, job->stack->id, c->ext, &sum, &error)
                             : lm_batch_write_output (job->host, c->outdir, job->stack->id, c->ext, &save, &sum,
                                                      &error);
  double ms = lm_ms_since (t);
  job->ms += ms;
  g_mutex_lock (&run->lock);
  run->write_ms += ms;
  g_mutex_unlock (&run->lock);
  if (ok && job->save_notes->len > 0)
    {
      g_autofree char *output = lm_batch_output_path (c->outdir, job->stack->id, c->ext);
      g_ptr_array_add (job->save_notes, NULL);
      add_note (job, output, g_strjoinv ("; ", (char **) job->save_notes->pdata));
    }
  if (ok && run->journal)
    ok = lm_journal_done (run->journal, job->stack->id, job->ms, &sum, job->notes, &error);
  if (!ok)
    {
      stop (run, error);
      finish (run, job, FALSE, NULL);
      return;
    }
  if (run->journal)
    lm_batch_crash_point (LM_CRASH_AFTER_JOURNAL);
  finish (run, job, TRUE, NULL);
}

static void
report (Run *run)
{
  if (run->config->progress)
    run->config->progress (run->done, run->failed, run->config->progress_data);
}

/* Waits (holding RUN's lock) until something changes or a quarter second passes. */
static void
wait_and_report (Run *run)
{
  g_cond_wait_until (&run->changed, &run->lock, g_get_monotonic_time () + G_TIME_SPAN_SECOND / 4);
  guint done = run->done, failed = run->failed;
  g_mutex_unlock (&run->lock);
  if (run->config->progress)
    run->config->progress (done, failed, run->config->progress_data);
  g_mutex_lock (&run->lock);
}

gboolean
lm_develop_batch_run (const LmDevelopConfig *config, GPtrArray *todo, LmJournal *journal, GPtrArray *failures,
                      LmDevelopStats *stats, GError **error)
{
  gint64 t0 = g_get_monotonic_time ();
  Run run = { .config = config, .journal = journal, .failures = failures };
  g_mutex_init (&run.lock);
  g_cond_init (&run.changed);
  guint threads = config->load_threads ? config->load_threads : g_get_num_processors ();
  run.load_pool = g_thread_pool_new (load_task, &run, (int) threads, FALSE, NULL);
  run.write_pool = g_thread_pool_new (write_task, &run, (int) threads, FALSE, NULL);
  run.render_queue = g_async_queue_new ();
  run.pool = lm_buffer_pool_new (lm_backend_host_allocator (g_ptr_array_index (config->backends, 0)));
  guint n_workers = config->backends->len;
  Worker *workers = g_new0 (Worker, n_workers);
  for (guint i = 0; i < n_workers; i++)
    {
      workers[i] = (Worker) { &run, i, NULL };
      workers[i].thread = g_thread_new ("lumen-develop", render_worker, &workers[i]);
    }
  /* Photos in memory at once: enough for every loader and writer and two for each worker. */
  guint max_in_flight = 2 * threads + 2 * n_workers + 2;

  g_mutex_lock (&run.lock);
  for (guint i = 0; i < todo->len; i++)
    {
      while (run.in_flight >= max_in_flight && !stopping (&run))
        wait_and_report (&run);
      if (stopping (&run))
        {
          run.cancelled += todo->len - i;
          break;
        }
      Job *job = g_new0 (Job, 1);
      job->stack = todo->pdata[i];
      job->notes = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_batch_note_free);
      job->save_notes = g_ptr_array_new_with_free_func (g_free);
      run.in_flight++;
      g_thread_pool_push (run.load_pool, job, NULL);
    }
  while (run.in_flight > 0)
    wait_and_report (&run);
  g_mutex_unlock (&run.lock);

  g_thread_pool_free (run.load_pool, FALSE, TRUE);
  for (guint i = 0; i < n_workers; i++)
    g_async_queue_push (run.render_queue, &stop_job);
  for (guint i = 0; i < n_workers; i++)
    g_thread_join (workers[i].thread);
  g_free (workers);
  g_thread_pool_free (run.write_pool, FALSE, TRUE);
  g_async_queue_unref (run.render_queue);
  LmBufferPoolStats pool;
  lm_buffer_pool_stats (run.pool, &pool);
  lm_buffer_pool_free (run.pool);
  report (&run);

  *stats = run.stages;
  stats->done = run.done, stats->failed = run.failed, stats->noted = run.noted, stats->cancelled = run.cancelled;
  stats->wall_s = lm_ms_since (t0) / 1000.0;
  stats->load_ms = run.load_ms, stats->render_ms = run.render_ms, stats->write_ms = run.write_ms;
  stats->buffers = pool.allocations, stats->fresh_buffers = pool.fresh, stats->buffer_peak_bytes = pool.peak_bytes;
  g_cond_clear (&run.changed);
  g_mutex_clear (&run.lock);
  if (run.fatal)
    {
      g_propagate_error (error, run.fatal);
      return FALSE;
    }
  return TRUE;
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
