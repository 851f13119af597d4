#include "pipeline.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "../hdr/align.h"
#include "../timing.h"
#include "commit.h"

typedef struct {
  const LmBatchConfig *config;
  LmJournal *journal;
  GThreadPool *load_pool, *write_pool;
  GAsyncQueue *merge_queue;
  GPtrArray *workers; /* of GThread */

  GMutex lock;
  GCond changed; /* a stack left the pipeline, or the batch stopped */
  guint in_flight, done, failed;
  double stage_ms[LM_STAGE_COUNT];
  GError *fatal;
  gint stopping; /* atomic: set with FATAL, read without the lock */
} Run;

typedef struct {
  const LmBatchStack *stack;
  LmHdrStack *hdr;   /* host memory, until the merge */
  LmResponse response;
  LmImage *result;   /* host memory, to write */
  double ms[LM_STAGE_COUNT];
} Job;

/* Ends a merge worker's loop. */
static Job stop_job;

typedef struct {
  Run *run;
  LmBackend *backend;
} Worker;

static const char *const stage_names[] = {
  [LM_STAGE_LOAD] = N_("read + decode"),
  [LM_STAGE_ALIGN] = N_("align"),
  [LM_STAGE_CALIBRATE] = N_("calibrate"),
  [LM_STAGE_UPLOAD] = N_("upload"),
  [LM_STAGE_MERGE] = N_("merge"),
  [LM_STAGE_TONEMAP] = N_("tonemap"),
  [LM_STAGE_DOWNLOAD] = N_("download"),
  [LM_STAGE_WRITE] = N_("encode + write"),
};

const char *
lm_batch_stage_name (LmBatchStage stage)
{
  return _(stage_names[stage]);
}

static gboolean
stopping (Run *run)
{
  return g_atomic_int_get (&run->stopping);
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

/* The stack leaves the pipeline: done (ERROR NULL and not stopping), failed (ERROR), or
 * dropped because the batch stopped. */
static void
finish (Run *run, Job *job, GError *error)
{
  gboolean failed = error != NULL;
  if (failed)
    {
      GError *journal_error = NULL;
      if (!lm_journal_failed (run->journal, job->stack->id, error->message, &journal_error))
        stop (run, journal_error);
      g_error_free (error);
    }
  g_mutex_lock (&run->lock);
  run->in_flight--;
  if (failed)
    run->failed++;
  else if (job->result)
    run->done++;
  for (int s = 0; s < LM_STAGE_COUNT; s++)
    run->stage_ms[s] += job->ms[s];
  g_cond_broadcast (&run->changed);
  g_mutex_unlock (&run->lock);

  g_clear_pointer (&job->hdr, lm_hdr_stack_free);
  g_clear_pointer (&job->result, lm_image_unref);
  g_free (job);
}

static void
fail_or_stop (Run *run, Job *job, GError *error, gboolean fatal)
{
  if (fatal)
    {
      stop (run, error);
      finish (run, job, NULL);
    }
  else
    finish (run, job, error);
}

/* Load pool: everything before the backend, on the CPU. */
static gboolean
load (Run *run, Job *job, GError **error)
{
  const LmBatchConfig *c = run->config;
  gint64 t = g_get_monotonic_time ();
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GArray) times = NULL;
  if (!lm_batch_stack_members (job->stack, &files, &times, error))
    return FALSE;
  LmBackend *any = g_ptr_array_index (c->backends, 0);
  /* Fusion weighs pixels, not times: as `lumen-cli hdr`, distinct placeholders stand in for
   * EXIF times the files may lack. */
  g_autofree double *placeholders = NULL;
  if (times == NULL && c->merge.method == LM_HDR_MERTENS)
    {
      placeholders = g_new (double, MAX (files->len, 1));
      for (guint i = 0; i < files->len; i++)
        placeholders[i] = i + 1.0;
    }
  job->hdr = lm_hdr_stack_load ((const char *const *) files->pdata, files->len,
                                times ? (const double *) times->data : placeholders,
                                lm_backend_host_allocator (any), error);
  if (job->hdr == NULL)
    return FALSE;
  job->ms[LM_STAGE_LOAD] = lm_ms_since (t);

  if (c->align)
    {
      /* Integer shifts, equal on every backend: found here, over all cores, so that the
       * merge workers keep the devices busy with merging. */
      LmAlignParams params = LM_ALIGN_PARAMS_INIT;
      g_autofree LmShift *shifts = g_new0 (LmShift, job->hdr->n);
      t = g_get_monotonic_time ();
      if (!lm_hdr_align_mtb_cpu (&params, job->hdr, shifts, error)
          || !lm_hdr_stack_apply_shifts (&params, job->hdr, shifts, error))
        return FALSE;
      job->ms[LM_STAGE_ALIGN] = lm_ms_since (t);
    }

  /* Each stack has its own curve, as a per-stack OpenCV calibrate + merge. */
  t = g_get_monotonic_time ();
  if (c->response_given || c->merge.method == LM_HDR_MERTENS)
    job->response = c->merge.response;
  else if (c->merge.method == LM_HDR_ROBERTSON)
    {
      if (!lm_hdr_calibrate_robertson (job->hdr, 30, 0.01f, &job->response, error))
        return FALSE;
    }
  else if (!lm_hdr_calibrate_debevec (job->hdr, 70, 10.0f, &job->response, error))
    return FALSE;
  job->ms[LM_STAGE_CALIBRATE] = lm_ms_since (t);
  return TRUE;
}

static void
load_task (gpointer data, gpointer user_data)
{
  Run *run = user_data;
  Job *job = data;
  GError *error = NULL;
  if (stopping (run))
    finish (run, job, NULL);
  else if (!load (run, job, &error))
    fail_or_stop (run, job, error, g_error_matches (error, LUMEN_ERROR, LM_ERROR_NO_SPACE));
  else
    g_async_queue_push (run->merge_queue, job);
}

/* Merge worker: the backend's part. Device errors stop the batch: a failed device would
 * fail every later stack too. */
static gboolean
merge (Run *run, LmBackend *backend, Job *job, GError **error)
{
  const LmBatchConfig *c = run->config;
  LmHdrStack *hdr = job->hdr;
  guint w = hdr->images[0]->width, h = hdr->images[0]->height;
  gint64 t = g_get_monotonic_time ();
  g_autofree LmImage **work_images = g_new0 (LmImage *, hdr->n);
  LmHdrStack work = { .n = hdr->n, .images = work_images, .times = hdr->times, .paths = hdr->paths };
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < hdr->n; i++)
    ok = (work_images[i] = lm_backend_upload (backend, hdr->images[i], error)) != NULL;
  g_autoptr (LmImage) radiance = NULL, mapped = NULL;
  if (ok)
    {
      job->ms[LM_STAGE_UPLOAD] = lm_ms_since (t);
      t = g_get_monotonic_time ();
      LmHdrMergeParams params = c->merge;
      params.response = job->response;
      radiance = lm_image_new (LM_FORMAT_RGBA_F32, w, h, lm_backend_work_allocator (backend), error);
      ok = radiance && lm_backend_hdr_merge (backend, &params, &work, radiance, error)
           && lm_backend_synchronize (backend, error);
      job->ms[LM_STAGE_MERGE] = lm_ms_since (t);
    }
  for (guint i = 0; i < hdr->n; i++)
    g_clear_pointer (&work_images[i], lm_image_unref);
  if (ok && c->tonemap)
    {
      t = g_get_monotonic_time ();
      mapped = lm_image_new (LM_FORMAT_RGBA8, w, h, lm_backend_work_allocator (backend), error);
      ok = mapped && lm_backend_tonemap (backend, &c->tone, radiance, mapped, error)
           && lm_backend_synchronize (backend, error);
      job->ms[LM_STAGE_TONEMAP] = lm_ms_since (t);
    }
  if (ok)
    {
      t = g_get_monotonic_time ();
      job->result = lm_backend_download (backend, c->tonemap ? mapped : radiance, error);
      ok = job->result != NULL;
      job->ms[LM_STAGE_DOWNLOAD] = lm_ms_since (t);
    }
  /* As `lumen-cli hdr`: an 8-bit output carries the first exposure's profile and EXIF. */
  if (ok && c->tonemap)
    lm_image_copy_metadata (job->result, hdr->images[0]);
  g_clear_pointer (&job->hdr, lm_hdr_stack_free);
  return ok;
}

static gpointer
merge_worker (gpointer data)
{
  Worker *worker = data;
  Run *run = worker->run;
  for (;;)
    {
      Job *job = g_async_queue_pop (run->merge_queue);
      if (job == &stop_job)
        break;
      GError *error = NULL;
      if (stopping (run))
        finish (run, job, NULL);
      else if (!merge (run, worker->backend, job, &error))
        {
          g_clear_pointer (&job->result, lm_image_unref);
          fail_or_stop (run, job, error, g_error_matches (error, LUMEN_ERROR, LM_ERROR_DEVICE));
        }
      else
        g_thread_pool_push (run->write_pool, job, NULL);
    }
  g_free (worker);
  return NULL;
}

/* Write pool: encode, commit, journal. Failing to write is the output folder's problem,
 * not the stack's: it stops the batch. */
static void
write_task (gpointer data, gpointer user_data)
{
  Run *run = user_data;
  Job *job = data;
  const LmBatchConfig *c = run->config;
  GError *error = NULL;
  if (stopping (run))
    {
      g_clear_pointer (&job->result, lm_image_unref);
      finish (run, job, NULL);
      return;
    }
  gint64 t = g_get_monotonic_time ();
  gboolean ok = lm_batch_write_output (job->result, c->outdir, job->stack->id, c->ext, &c->save, &error);
  job->ms[LM_STAGE_WRITE] = lm_ms_since (t);
  double total = 0.0;
  for (int s = 0; s < LM_STAGE_COUNT; s++)
    total += job->ms[s];
  ok = ok && lm_journal_done (run->journal, job->stack->id, total, &error);
  if (!ok)
    {
      g_clear_pointer (&job->result, lm_image_unref);
      stop (run, error);
    }
  else
    lm_batch_crash_point (LM_CRASH_AFTER_JOURNAL);
  finish (run, job, NULL);
}

static void
wait_and_report (Run *run, LmProgress *progress)
{
  gint64 deadline = g_get_monotonic_time () + lm_progress_interval_us (progress);
  g_cond_wait_until (&run->changed, &run->lock, deadline);
  lm_progress_update (progress, run->done, run->failed);
}

gboolean
lm_batch_run (const LmBatchConfig *config, GPtrArray *todo, guint share, guint before, LmJournal *journal,
              LmBatchStats *stats, GError **error)
{
  Run run = { .config = config, .journal = journal };
  g_mutex_init (&run.lock);
  g_cond_init (&run.changed);
  guint threads = config->load_threads ? config->load_threads : g_get_num_processors ();
  guint workers = config->backends->len;
  /* Enough to keep every stage busy, few enough that memory is a small multiple of one
   * stack's. */
  guint limit = config->in_flight ? config->in_flight : threads + 2 * workers + 2;
  gint64 start = g_get_monotonic_time ();

  run.merge_queue = g_async_queue_new ();
  run.load_pool = g_thread_pool_new (load_task, &run, (int) threads, TRUE, NULL);
  run.write_pool = g_thread_pool_new (write_task, &run, (int) threads, TRUE, NULL);
  run.workers = g_ptr_array_new ();
  for (guint i = 0; i < workers; i++)
    {
      Worker *worker = g_new0 (Worker, 1);
      worker->run = &run;
      worker->backend = g_ptr_array_index (config->backends, i);
      g_ptr_array_add (run.workers, g_thread_new ("lumen-merge", merge_worker, worker));
    }

  LmProgress *progress = lm_progress_new (config->progress, share, before);
  g_mutex_lock (&run.lock);
  for (guint i = 0; i < todo->len && !stopping (&run); i++)
    {
      while (run.in_flight >= limit && !stopping (&run))
        wait_and_report (&run, progress);
      if (stopping (&run))
        break;
      run.in_flight++;
      g_mutex_unlock (&run.lock);
      Job *job = g_new0 (Job, 1);
      job->stack = todo->pdata[i];
      g_thread_pool_push (run.load_pool, job, NULL);
      g_mutex_lock (&run.lock);
    }
  while (run.in_flight > 0)
    wait_and_report (&run, progress);
  g_mutex_unlock (&run.lock);

  /* Every stack has left the pipeline: the stages are idle. */
  g_thread_pool_free (run.load_pool, FALSE, TRUE);
  for (guint i = 0; i < workers; i++)
    g_async_queue_push (run.merge_queue, &stop_job);
  for (guint i = 0; i < workers; i++)
    g_thread_join (run.workers->pdata[i]);
  g_thread_pool_free (run.write_pool, FALSE, TRUE);
  g_ptr_array_unref (run.workers);
  g_async_queue_unref (run.merge_queue);

  lm_progress_finish (progress, run.done, run.failed);
  *stats = (LmBatchStats) { .done = run.done, .failed = run.failed, .load_threads = threads, .in_flight = limit };
  for (int s = 0; s < LM_STAGE_COUNT; s++)
    stats->stage_ms[s] = run.stage_ms[s];
  stats->wall_s = (g_get_monotonic_time () - start) / 1e6;
  g_mutex_clear (&run.lock);
  g_cond_clear (&run.changed);
  if (run.fatal)
    {
      g_propagate_error (error, run.fatal);
      return FALSE;
    }
  return TRUE;
}
