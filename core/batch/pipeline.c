#include "pipeline.h"

#include <omp.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../merge/job.h"
#include "../timing.h"
#include "buffer-pool.h"
#include "commit.h"
#include "merge-stage.h"
#include "stack-read.h"

/* The merge workers of one device (or of the host), with their queue of stacks: a stack
 * decoded into a device's memory must be merged on that device. */
typedef struct {
  int device;                /* -1: the CPU backend, in host memory */
  GAsyncQueue *queue;
  LmBufferPool *device_pool; /* images decoded on the device; NULL for the host */
} Group;

typedef struct {
  const LmBatchConfig *config;
  LmJournal *journal;
  GThreadPool *read_pool, *decode_pool, *write_pool;
  GPtrArray *groups;  /* of Group */
  GPtrArray *workers; /* of GThread */
  GPtrArray *worker_groups; /* of Group: each worker's */
  LmBufferPool *host_pool;
  gboolean resident;  /* stacks may stay on the GPU (see pipeline.h) */

  /* nvJPEG decoders, one per decode thread at most (DECODE_LANES a device when stacks stay
   * on the GPU), each used by one thread at a time. */
  GAsyncQueue *decoders;
  guint decoders_made, decoders_max;
  /* Stacks read and waiting for a decoder, when a decoder takes several (run->resident): the
   * decode pool's tasks (batch_token) take them from here. */
  GAsyncQueue *waiting;

  GMutex lock;
  GCond changed; /* a stack left the pipeline, or the batch stopped */
  guint in_flight, done, failed;
  double stage_ms[LM_STAGE_COUNT];
  guint64 bytes_read;
  guint nvjpeg_files, cpu_files, resident_stacks, nvjpeg_encoded;
  gint device_batches; /* atomic: calls of lm_batch_decode_on_device */
  guint retried; /* stacks tried again after a device error */
  guint noted;   /* stacks done with notes */
  GError *fatal;
  gint stopping; /* atomic: set with FATAL, read without the lock */
} Run;

typedef struct {
  const LmBatchStack *stack;
  LmBatchRead *read; /* the files in memory, until decoded */
  LmHdrStack *hdr;   /* host memory, or GROUP's device memory, until the merge */
  Group *group;      /* where the stack was decoded; NULL: host memory */
  LmResponse response;
  guint32 *samples;  /* the calibration's pixels, read on the GPU while the decoder was at hand */
  guint n_samples;   /* points */
  LmImage *result;   /* host memory, to write */
  GBytes *encoded;   /* or the file, encoded on the GPU */
  guint nvjpeg_files, cpu_files;
  double ms[LM_STAGE_COUNT];
  gboolean retried; /* after a device error: a second one stops the batch */
  /* What the loaders and the writer could not keep, the stack's own: writers run side by
   * side, and one array for all would be written by several threads. */
  GPtrArray *notes;      /* of LmBatchNote: each file's, for the notes list */
  GPtrArray *save_notes; /* of char *: the output's, as the writer (or nvJPEG's) says them */
} Job;

static Job *
job_new (const LmBatchStack *stack)
{
  Job *job = g_new0 (Job, 1);
  job->stack = stack;
  job->notes = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_batch_note_free);
  job->save_notes = g_ptr_array_new_with_free_func (g_free);
  return job;
}

static void
add_note (Job *job, const char *file, char *text)
{
  LmBatchNote *note = g_new (LmBatchNote, 1);
  *note = (LmBatchNote) { g_strdup (file), text };
  g_ptr_array_add (job->notes, note);
}

/* Ends a merge worker's loop. */
static Job stop_job;
/* A decode task that takes the stacks waiting (Run.waiting), as many as a decoder takes. */
static Job batch_token;

/* How many stacks a decoder takes at once when that many wait, and how many decoders a
 * device has: its hardware decoder's rate grows with the batch and falls with more callers
 * (bench/RESULTS.md, "Batch HDR"; on an H200, nvJPEG alone decoded 146 stacks of 3 a second
 * 3 files a call on 4 threads, 286 12 files a call on 2 threads; the batch made 117 stacks a
 * second one stack a call on up to 16 decoders, 189 with 4 stacks a call on 4, 222 on 2). */
#define DECODE_STACKS 4
#define DECODE_LANES 2

typedef struct {
  Run *run;
  Group *group;
  LmMergeStage *stage;
  int omp_threads; /* the CPU backend's share of the cores; 0: a GPU's worker */
} Worker;

static const char *const stage_names[] = {
  [LM_STAGE_READ] = N_("read"),
  [LM_STAGE_DECODE] = N_("decode"),
  [LM_STAGE_ALIGN] = N_("align"),
  [LM_STAGE_CALIBRATE] = N_("calibrate"),
  [LM_STAGE_UPLOAD] = N_("upload"),
  [LM_STAGE_MERGE] = N_("merge"),
  [LM_STAGE_TONEMAP] = N_("tonemap"),
  [LM_STAGE_RGBE] = N_("RGBE conversion"),
  [LM_STAGE_DOWNLOAD] = N_("download"),
  [LM_STAGE_ENCODE] = N_("encode (nvJPEG)"),
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
  /* A stop must never look like a finished batch: without a cause, it still gets one. */
  if (error == NULL)
    error = g_error_new_literal (LUMEN_ERROR, LM_ERROR_IO, _("the batch stopped on an unexpected failure"));
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
  gboolean failed = error != NULL, done = !failed && (job->result != NULL || job->encoded != NULL);
  gboolean gpu_encoded = done && job->encoded != NULL;
  if (failed)
    {
      GError *journal_error = NULL;
      if (!lm_journal_failed (run->journal, job->stack->id, error->message, &journal_error))
        stop (run, journal_error);
      g_error_free (error);
    }
  g_clear_pointer (&job->read, lm_batch_read_free);
  g_clear_pointer (&job->hdr, lm_hdr_stack_free);
  g_clear_pointer (&job->result, lm_image_unref);
  g_clear_pointer (&job->encoded, g_bytes_unref);
  g_mutex_lock (&run->lock);
  run->in_flight--;
  if (failed)
    run->failed++;
  else if (done)
    run->done++;
  run->noted += done && job->notes->len > 0;
  for (int s = 0; s < LM_STAGE_COUNT; s++)
    run->stage_ms[s] += job->ms[s];
  run->nvjpeg_files += job->nvjpeg_files;
  run->cpu_files += job->cpu_files;
  run->resident_stacks += done && job->group != NULL;
  run->nvjpeg_encoded += gpu_encoded;
  g_cond_broadcast (&run->changed);
  g_mutex_unlock (&run->lock);
  g_ptr_array_unref (job->notes);
  g_ptr_array_unref (job->save_notes);
  g_free (job->samples);
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

/* Read pool: the stack's files into memory, bound by the disk, not the CPU. */
static void
read_task (gpointer data, gpointer user_data)
{
  Run *run = user_data;
  Job *job = data;
  GError *error = NULL;
  if (stopping (run))
    {
      finish (run, job, NULL);
      return;
    }
  gint64 t = g_get_monotonic_time ();
  /* An output that no file name can hold fails its stack before any work, not the batch. */
  if (lm_batch_output_name_fits (run->config->outdir, job->stack, run->config->ext, &error))
    job->read = lm_batch_read (job->stack, &error);
  if (job->read == NULL)
    {
      finish (run, job, error);
      return;
    }
  job->ms[LM_STAGE_READ] = lm_ms_since (t);
  g_mutex_lock (&run->lock);
  run->bytes_read += job->read->total_bytes;
  g_mutex_unlock (&run->lock);
  if (run->waiting)
    {
      /* Pushed before its task: the task, or one before it, takes it. */
      g_async_queue_push (run->waiting, job);
      g_thread_pool_push (run->decode_pool, &batch_token, NULL);
    }
  else
    g_thread_pool_push (run->decode_pool, job, NULL);
}

/* A decoder of this thread's own for the stack, or NULL (libjpeg-turbo). Decoders past the
 * first are made on demand; one that cannot be made leaves the CPU to decode. */
static LmNvjpeg *
take_decoder (Run *run)
{
  if (run->decoders == NULL)
    return NULL;
  LmNvjpeg *d = g_async_queue_try_pop (run->decoders);
  if (d)
    return d;
  g_mutex_lock (&run->lock);
  guint k = run->decoders_made < run->decoders_max ? run->decoders_made++ : G_MAXUINT;
  gboolean none = k == G_MAXUINT && run->decoders_made == 0;
  g_mutex_unlock (&run->lock);
  if (none)
    return NULL; /* no GPU decoder could be made: the CPU decodes */
  if (k == G_MAXUINT)
    return g_async_queue_pop (run->decoders);
  GArray *devices = run->config->nvjpeg_devices;
  int device = devices && devices->len ? g_array_index (devices, int, k % devices->len) : 0;
  GError *error = NULL;
  d = lm_nvjpeg_new (device, &error);
  if (d == NULL)
    {
      g_debug ("%s", error->message);
      g_error_free (error);
      /* Not counted, and no more tried: the threads wait only for decoders that exist. */
      g_mutex_lock (&run->lock);
      run->decoders_max = --run->decoders_made;
      g_mutex_unlock (&run->lock);
    }
  return d;
}

static Group *
group_of_device (Run *run, int device)
{
  for (guint i = 0; i < run->groups->len; i++)
    if (((Group *) run->groups->pdata[i])->device == device)
      return run->groups->pdata[i];
  return NULL;
}

static void
give_decoder (Run *run, LmNvjpeg *decoder)
{
  if (decoder)
    g_async_queue_push (run->decoders, decoder);
}

/* The workers whose device DECODER decodes on, when stacks stay on the GPU; else NULL. */
static Group *
resident_home (Run *run, LmNvjpeg *decoder)
{
  Group *home = decoder && run->resident ? group_of_device (run, lm_nvjpeg_device (decoder)) : NULL;
  return home && home->device_pool ? home : NULL;
}

static void
take_resident (Job *job, Group *home, LmHdrStack *hdr)
{
  job->hdr = hdr;
  job->group = home;
  job->nvjpeg_files = hdr->n;
}

/* Into host memory: nvJPEG (DECODER, may be NULL) the files it takes, the CPU the others. */
static gboolean
decode_on_host (Run *run, Job *job, LmNvjpeg *decoder, GError **error)
{
  guint on_gpu = 0;
  job->hdr = lm_batch_decode (job->read, run->config->merge.method, lm_buffer_pool_allocator (run->host_pool),
                              decoder, &on_gpu, error);
  if (job->hdr == NULL)
    return FALSE;
  job->nvjpeg_files = on_gpu;
  job->cpu_files = job->hdr->n - on_gpu;
  return TRUE;
}

/* What lm_batch_decode_on_device made of the job's stack: HDR (device memory), or BAD (the
 * stack's own failure, given to ERROR), or neither (into host memory here, DECODER taking the
 * files nvJPEG takes). */
static gboolean
take_decoded (Run *run, Job *job, Group *home, LmHdrStack *hdr, GError *bad, LmNvjpeg *decoder, GError **error)
{
  if (bad)
    {
      g_propagate_error (error, bad);
      return FALSE;
    }
  if (hdr)
    {
      take_resident (job, home, hdr);
      return TRUE;
    }
  return decode_on_host (run, job, decoder, error); /* not nvJPEG's whole, or not upright */
}

/* Into the memory of DECODER's device, when the stack can stay there; else into host memory. */
static gboolean
decode_files (Run *run, Job *job, LmNvjpeg *decoder, GError **error)
{
  Group *home = resident_home (run, decoder);
  if (home == NULL)
    return decode_on_host (run, job, decoder, error);
  LmHdrStack *hdr = NULL;
  GError *bad = NULL;
  g_atomic_int_inc (&run->device_batches);
  if (!lm_batch_decode_on_device (&job->read, 1, run->config->merge.method,
                                  lm_buffer_pool_allocator (home->device_pool), decoder, &hdr, &bad, error))
    {
      g_clear_error (&bad); /* the device's failure is said; the stack is tried again */
      return FALSE;
    }
  return take_decoded (run, job, home, hdr, bad, decoder, error);
}

/* The files are decoded: what the HDR job checks of the stack's depth. The files stay read
 * until the GPU has given what the calibration samples of the stack: a device error until
 * then is tried again from them. */
static gboolean
decoded (Run *run, Job *job, GError **error)
{
  return lm_hdr_job_prepare_depth (run->config->merge.method, run->config->response_given, job->hdr, error);
}

/* For a stack decoded into a GPU's memory: the few pixels its calibration reads, read by the
 * decoder there. */
static gboolean
sample_on_gpu (Job *job, LmNvjpeg *decoder, GError **error)
{
  guint xy[2 * LM_HDR_MAX_SAMPLES];
  job->n_samples = lm_hdr_job_calibration_points (job->hdr, xy);
  job->samples = g_new (guint32, (gsize) job->n_samples * job->hdr->n);
  return lm_nvjpeg_sample (decoder, job->hdr->n, job->hdr->images, xy, job->n_samples, job->samples, error);
}

/* Whether the job finds a curve of its own: each stack has its own, as a per-stack OpenCV
 * calibrate + merge, unless one is given or none is needed (fusion, linear 16-bit data). */
static gboolean
needs_curve (const LmBatchConfig *c, Job *job)
{
  LmHdrMethod merged_by = lm_hdr_job_method_for (c->merge.method, job->hdr);
  return !c->response_given && merged_by != LM_HDR_MERTENS && merged_by != LM_HDR_LINEAR;
}

/* The curve as the HDR job finds it, from the stack where it is: a stack on the GPU from its
 * samples, read by DECODER unless they were read already. */
static gboolean
calibrate (const LmBatchConfig *c, Job *job, LmNvjpeg *decoder, GError **error)
{
  if (!needs_curve (c, job))
    {
      job->response = c->merge.response;
      return TRUE;
    }
  if (job->group == NULL)
    return lm_hdr_job_calibrate (c->merge.method, job->hdr, &job->response, error);
  return (job->samples != NULL || sample_on_gpu (job, decoder, error))
         && lm_hdr_job_calibrate_pixels (job->hdr, job->n_samples, job->samples, &job->response, error);
}

/* Decode pool: everything before the backend, on the CPU (and nvJPEG). These are the HDR
 * job's steps (core/merge/job.h) taken apart so that stacks overlap: the job's checks run in
 * decoding (stack-read.c), then its alignment and calibration here, its merge in the merge
 * workers (merge-stage.c). */
static gboolean
decode_with (Run *run, Job *job, LmNvjpeg *decoder, GError **error)
{
  const LmBatchConfig *c = run->config;
  gint64 t = g_get_monotonic_time ();
  if (!decode_files (run, job, decoder, error))
    return FALSE; /* the files stay read: a device error is tried again */
  if (!decoded (run, job, error))
    return FALSE;
  job->ms[LM_STAGE_DECODE] = lm_ms_since (t);

  if (c->align)
    {
      /* Integer shifts, equal on every backend: found here, over all cores, so that the
       * merge workers keep the devices busy with merging. */
      g_autofree LmShift *shifts = g_new0 (LmShift, job->hdr->n);
      t = g_get_monotonic_time ();
      if (!lm_hdr_job_align (NULL, job->hdr, shifts, error))
        return FALSE;
      job->ms[LM_STAGE_ALIGN] = lm_ms_since (t);
    }

  t = g_get_monotonic_time ();
  if (!calibrate (c, job, decoder, error))
    return FALSE;
  g_clear_pointer (&job->read, lm_batch_read_free);
  job->ms[LM_STAGE_CALIBRATE] = lm_ms_since (t);
  return TRUE;
}

static gboolean
decode (Run *run, Job *job, GError **error)
{
  LmNvjpeg *decoder = take_decoder (run);
  gboolean ok = decode_with (run, job, decoder, error);
  give_decoder (run, decoder);
  return ok;
}

/* What each exposure's loader could not take as the file has it (a profile, an XMP packet). */
static void
take_load_notes (Job *job)
{
  for (guint i = 0; i < job->hdr->n; i++)
    {
      char *text = lm_image_notes_text (job->hdr->images[i]);
      if (text)
        add_note (job, job->hdr->paths[i], text);
    }
}

/* A stack in device memory goes to its device's workers; one in host memory to the
 * workers with the fewest stacks waiting. */
static void
to_merge (Run *run, Job *job)
{
  Group *group = job->group;
  for (guint i = 0; job->group == NULL && i < run->groups->len; i++)
    {
      Group *g = run->groups->pdata[i];
      if (group == NULL || g_async_queue_length (g->queue) < g_async_queue_length (group->queue))
        group = g;
    }
  g_async_queue_push (group->queue, job);
}

/* Errors that would fail every later stack too stop the batch. */
static gboolean
is_fatal (const GError *error)
{
  return g_error_matches (error, LUMEN_ERROR, LM_ERROR_NO_SPACE) || g_error_matches (error, LUMEN_ERROR, LM_ERROR_DEVICE);
}

/* A device error may be passing (an ECC retirement, a watchdog, LUMEN_CUDA_FAULT): the stack
 * is tried once more from where it was. A second one stops the batch, which a rerun resumes:
 * a device that fails twice would fail every later stack too. */
static gboolean
retry_after (Run *run, Job *job, GError **error)
{
  if (job->retried || !g_error_matches (*error, LUMEN_ERROR, LM_ERROR_DEVICE))
    return FALSE;
  g_debug ("stack %s: %s; trying it again", job->stack->id, (*error)->message);
  g_clear_error (error);
  job->retried = TRUE;
  g_clear_pointer (&job->result, lm_image_unref);
  g_clear_pointer (&job->encoded, g_bytes_unref);
  g_ptr_array_set_size (job->save_notes, 0);
  g_mutex_lock (&run->lock);
  run->retried++;
  g_mutex_unlock (&run->lock);
  return TRUE;
}

/* The stack decoded (OK) or not (ERROR): on to the merge workers, or out. */
static void
decode_done (Run *run, Job *job, gboolean ok, GError *error)
{
  if (stopping (run) && error == NULL)
    finish (run, job, NULL);
  else if (!ok)
    fail_or_stop (run, job, error, is_fatal (error));
  else
    {
      take_load_notes (job);
      to_merge (run, job);
    }
}

/* What a failed try decoded of the job's stack, dropped before the next try, which decodes
 * it again from its files. */
static void
forget_decoded (Job *job)
{
  g_clear_pointer (&job->hdr, lm_hdr_stack_free);
  g_clear_pointer (&job->samples, g_free);
  job->group = NULL;
  job->nvjpeg_files = job->cpu_files = 0;
}

/* One stack through the decode stage, tried again after a passing device error. */
static void
decode_alone (Run *run, Job *job)
{
  GError *error = NULL;
  gboolean ok = FALSE;
  while (!stopping (run) && !(ok = decode (run, job, &error)) && job->read != NULL && retry_after (run, job, &error))
    forget_decoded (job);
  decode_done (run, job, ok, error);
}

/* Up to DECODE_STACKS stacks of Run.waiting whose files make one batch of the decoder, into
 * JOBS: their count. Under the queue's lock: a stack that does not fit goes back before any
 * other task can find the queue empty and give up its token, so the next task takes it. */
static guint
take_waiting (Run *run, Job **jobs)
{
  guint n = 0, files = 0;
  Job *job;
  g_async_queue_lock (run->waiting);
  while (n < DECODE_STACKS && (job = g_async_queue_try_pop_unlocked (run->waiting)))
    {
      if (n > 0 && files + job->read->n > LM_NVJPEG_BATCH_MAX)
        {
          g_async_queue_push_front_unlocked (run->waiting, job);
          break;
        }
      files += job->read->n;
      jobs[n++] = job;
    }
  g_async_queue_unlock (run->waiting);
  return n;
}

/* After their batch failed, each of the N JOBS alone: a device error counts as each one's first
 * (a second stops the batch); anything else, as no memory for the whole batch, is not
 * theirs, and alone each may fit. */
static void
decode_again (Run *run, Job **jobs, guint n, GError *error)
{
  gboolean device = g_error_matches (error, LUMEN_ERROR, LM_ERROR_DEVICE);
  for (guint i = 0; i < n; i++)
    {
      GError *e = device ? g_error_copy (error) : NULL;
      if (!device || retry_after (run, jobs[i], &e))
        decode_alone (run, jobs[i]);
      else
        decode_done (run, jobs[i], FALSE, e);
    }
  g_error_free (error);
}

/* The stacks waiting when a decoder comes free (there are more while every decoder is busy),
 * decoded into the GPU's memory in one batch; what the calibration reads of each is read
 * while the decoder is at hand, and the curves are found on this thread after it went
 * back, so that the next batch starts meanwhile. */
static void
decode_waiting (Run *run)
{
  const LmBatchConfig *c = run->config;
  LmNvjpeg *decoder = take_decoder (run);
  Job *jobs[DECODE_STACKS];
  guint n = take_waiting (run, jobs);
  Group *home = resident_home (run, decoder);
  if (n == 0 || home == NULL || stopping (run))
    {
      give_decoder (run, decoder);
      for (guint i = 0; i < n; i++)
        decode_alone (run, jobs[i]); /* the CPU decodes, or the batch stops */
      return;
    }
  gint64 t = g_get_monotonic_time ();
  LmBatchRead *reads[DECODE_STACKS];
  LmHdrStack *stacks[DECODE_STACKS];
  GError *errors[DECODE_STACKS], *error = NULL;
  for (guint i = 0; i < n; i++)
    reads[i] = jobs[i]->read;
  g_atomic_int_inc (&run->device_batches);
  if (!lm_batch_decode_on_device (reads, n, c->merge.method, lm_buffer_pool_allocator (home->device_pool), decoder,
                                  stacks, errors, &error))
    {
      give_decoder (run, decoder);
      for (guint i = 0; i < n; i++)
        g_clear_error (&errors[i]); /* said again when the stack is tried alone */
      decode_again (run, jobs, n, error);
      return;
    }
  gboolean ok[DECODE_STACKS], again[DECODE_STACKS];
  for (guint i = 0; i < n; i++)
    {
      Job *job = jobs[i];
      GError *bad = g_steal_pointer (&errors[i]);
      again[i] = FALSE;
      ok[i] = take_decoded (run, job, home, stacks[i], bad, decoder, &errors[i]);
      ok[i] = ok[i] && decoded (run, job, &errors[i])
              && (job->group == NULL || !needs_curve (c, job) || sample_on_gpu (job, decoder, &errors[i]));
      if (!ok[i] && !stopping (run) && retry_after (run, job, &errors[i]))
        {
          forget_decoded (job); /* a device error decoding or sampling: alone, as any stack's second try */
          again[i] = TRUE;
          continue;
        }
      if (ok[i])
        g_clear_pointer (&job->read, lm_batch_read_free); /* what the GPU had to give is here */
    }
  give_decoder (run, decoder);
  double each_ms = lm_ms_since (t) / n;
  for (guint i = 0; i < n; i++)
    {
      Job *job = jobs[i];
      if (again[i])
        {
          decode_alone (run, job);
          continue;
        }
      job->ms[LM_STAGE_DECODE] = each_ms;
      if (ok[i])
        {
          gint64 c0 = g_get_monotonic_time ();
          ok[i] = calibrate (c, job, NULL, &errors[i]);
          job->ms[LM_STAGE_CALIBRATE] = lm_ms_since (c0);
        }
      decode_done (run, job, ok[i], errors[i]);
    }
}

static void
decode_task (gpointer data, gpointer user_data)
{
  Run *run = user_data;
  /* The pool's threads are the parallelism: a team in each (the PNG and TIFF codecs open one)
   * would put cores × cores threads on the cores. */
  omp_set_num_threads (1);
  if (data == &batch_token)
    decode_waiting (run);
  else
    decode_alone (run, data);
}

static gpointer
merge_worker (gpointer data)
{
  Worker *worker = data;
  Run *run = worker->run;
  if (worker->omp_threads)
    omp_set_num_threads (worker->omp_threads);
  for (;;)
    {
      Job *job = g_async_queue_pop (worker->group->queue);
      if (job == &stop_job)
        break;
      GError *error = NULL;
      gboolean ok = FALSE;
      while (!stopping (run)
             && !(ok = lm_merge_stage_run (worker->stage, run->config, job->hdr, &job->response,
                                           lm_buffer_pool_allocator (run->host_pool), &job->result, &job->encoded,
                                           job->save_notes, job->ms, &error))
             && retry_after (run, job, &error))
        ;
      if (stopping (run) && error == NULL)
        finish (run, job, NULL);
      else if (!ok)
        /* Device errors stop the batch: a failed device would fail every later stack. */
        fail_or_stop (run, job, error, g_error_matches (error, LUMEN_ERROR, LM_ERROR_DEVICE));
      else
        {
          g_clear_pointer (&job->hdr, lm_hdr_stack_free); /* its buffers, back to the pool */
          g_thread_pool_push (run->write_pool, job, NULL);
        }
    }
  lm_merge_stage_free (worker->stage);
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
  omp_set_num_threads (1); /* as decode_task */
  const LmBatchConfig *c = run->config;
  GError *error = NULL;
  if (stopping (run))
    {
      g_clear_pointer (&job->result, lm_image_unref);
      finish (run, job, NULL);
      return;
    }
  /* A node under the output's name is this stack's failure; a failing write stops the batch
   * (a full disk fails every stack after it). */
  if (!lm_batch_output_replaceable (c->outdir, job->stack->id, c->ext, &error))
    {
      g_clear_pointer (&job->result, lm_image_unref);
      g_clear_pointer (&job->encoded, g_bytes_unref);
      finish (run, job, error);
      return;
    }
  gint64 t = g_get_monotonic_time ();
  LmOutputSum sum;
  LmSaveOptions save = c->save;
  save.notes = job->save_notes;
  gboolean ok = job->encoded
                  ? lm_batch_write_encoded (job->encoded, c->outdir, job->stack->id, c->ext, &sum, &error)
                  : lm_batch_write_output (job->result, c->outdir, job->stack->id, c->ext, &save, &sum, &error);
  job->ms[LM_STAGE_WRITE] = lm_ms_since (t);
  if (ok && job->save_notes->len > 0)
    {
      g_autofree char *output = lm_batch_output_path (c->outdir, job->stack->id, c->ext);
      g_ptr_array_add (job->save_notes, NULL);
      add_note (job, output, g_strjoinv ("; ", (char **) job->save_notes->pdata));
    }
  double total = 0.0;
  for (int s = 0; s < LM_STAGE_COUNT; s++)
    total += job->ms[s];
  ok = ok && lm_journal_done (run->journal, job->stack->id, total, &sum, job->notes, &error);
  if (!ok)
    {
      g_clear_pointer (&job->result, lm_image_unref);
      g_clear_pointer (&job->encoded, g_bytes_unref);
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

/* Reads need threads of their own to keep a disk's queue full; a local NVMe disk wants a
 * few, network storage more (--read-threads). */
#define DEFAULT_READ_THREADS 4

static Group *
group_for (Run *run, LmBackend *backend)
{
  int device = lm_backend_cuda_device (backend);
  Group *group = group_of_device (run, device);
  if (group)
    return group;
  group = g_new0 (Group, 1);
  group->device = device;
  group->queue = g_async_queue_new ();
  const LmAllocator *work = lm_backend_work_allocator (backend);
  if (run->resident && work->memory == LM_MEMORY_DEVICE)
    group->device_pool = lm_buffer_pool_new (work);
  g_ptr_array_add (run->groups, group);
  return group;
}

/* The worker's GPU encoder, when the batch asks for one and it starts; else the CPU's. */
static LmNvjpegEncoder *
encoder_for (const LmBatchConfig *c, LmBackend *backend)
{
  int device = lm_backend_cuda_device (backend);
  if (!c->nvjpeg_encode || device < 0 || !lm_batch_writes_jpeg (c))
    return NULL;
  GError *e = NULL;
  LmNvjpegEncoder *encoder = lm_nvjpeg_encoder_new (device, c->save.quality, &e);
  if (encoder == NULL)
    {
      g_debug ("%s", e->message);
      g_error_free (e);
    }
  return encoder;
}

/* A radiance file is some 36 MB a 12 MP stack, and its writer waits on the disk about half its
 * time: on 16 cores, 16 writers spent 539 ms a stack (29.7 stacks/s at most) where the disk
 * takes 52 such files a second from 16 writers that each sync theirs. Two a core keep it busy;
 * a tone-mapped file is small and its encoding is the work. */
static guint
writers_for (const LmBatchConfig *c, guint threads)
{
  return c->tonemap ? threads : 2 * threads;
}

static void
start_stages (Run *run, guint readers, guint threads)
{
  const LmBatchConfig *c = run->config;
  run->read_pool = g_thread_pool_new (read_task, run, (int) readers, TRUE, NULL);
  run->decode_pool = g_thread_pool_new (decode_task, run, (int) threads, TRUE, NULL);
  run->write_pool = g_thread_pool_new (write_task, run, (int) writers_for (c, threads), TRUE, NULL);
  run->host_pool = lm_buffer_pool_new (lm_backend_host_allocator (g_ptr_array_index (c->backends, 0)));
  /* Alignment and Robertson's calibration read every pixel on the host. */
  run->resident = c->nvjpeg && !c->align && c->merge.method != LM_HDR_ROBERTSON;
  if (c->nvjpeg)
    {
      run->decoders = g_async_queue_new ();
      g_async_queue_push (run->decoders, c->nvjpeg);
      run->decoders_made = 1;
      guint devices = c->nvjpeg_devices && c->nvjpeg_devices->len ? c->nvjpeg_devices->len : 1;
      run->decoders_max = run->resident ? MIN (threads, DECODE_LANES * devices) : threads;
    }
  if (run->resident)
    run->waiting = g_async_queue_new ();
  run->groups = g_ptr_array_new ();
  run->workers = g_ptr_array_new ();
  run->worker_groups = g_ptr_array_new ();
  guint cpu_workers = 0;
  for (guint i = 0; i < c->backends->len; i++)
    cpu_workers += lm_backend_work_allocator (g_ptr_array_index (c->backends, i))->memory == LM_MEMORY_HOST;
  for (guint i = 0; i < c->backends->len; i++)
    {
      LmBackend *backend = g_ptr_array_index (c->backends, i);
      Worker *worker = g_new0 (Worker, 1);
      worker->run = run;
      worker->group = group_for (run, backend);
      worker->stage = lm_merge_stage_new (backend, encoder_for (c, backend));
      if (lm_backend_work_allocator (backend)->memory == LM_MEMORY_HOST)
        worker->omp_threads = MAX (1, (int) (g_get_num_processors () / cpu_workers));
      g_ptr_array_add (run->worker_groups, worker->group);
      g_ptr_array_add (run->workers, g_thread_new ("lumen-merge", merge_worker, worker));
    }
}

/* Every stack has left the pipeline: the stages are idle. */
static void
stop_stages (Run *run, LmBatchStats *stats)
{
  g_thread_pool_free (run->read_pool, FALSE, TRUE);
  g_thread_pool_free (run->decode_pool, FALSE, TRUE);
  g_clear_pointer (&run->waiting, g_async_queue_unref);
  /* One stop for each worker, in its own queue. */
  for (guint i = 0; i < run->workers->len; i++)
    g_async_queue_push (((Group *) run->worker_groups->pdata[i])->queue, &stop_job);
  for (guint i = 0; i < run->workers->len; i++)
    g_thread_join (run->workers->pdata[i]);
  g_thread_pool_free (run->write_pool, FALSE, TRUE);
  g_ptr_array_unref (run->workers);
  g_ptr_array_unref (run->worker_groups);
  if (run->decoders)
    {
      LmNvjpeg *d;
      while ((d = g_async_queue_try_pop (run->decoders)))
        if (d != run->config->nvjpeg)
          lm_nvjpeg_free (d);
      g_async_queue_unref (run->decoders);
    }
  for (guint i = 0; i < run->groups->len; i++)
    {
      Group *group = run->groups->pdata[i];
      g_async_queue_unref (group->queue);
      g_clear_pointer (&group->device_pool, lm_buffer_pool_free);
      g_free (group);
    }
  g_ptr_array_unref (run->groups);
  LmBufferPoolStats pool;
  lm_buffer_pool_stats (run->host_pool, &pool);
  stats->host_allocations = pool.allocations;
  stats->fresh_allocations = pool.fresh;
  stats->host_peak_bytes = pool.peak_bytes;
  lm_buffer_pool_free (run->host_pool);
}

gboolean
lm_batch_run (const LmBatchConfig *config, GPtrArray *todo, guint share, guint before, LmJournal *journal,
              LmBatchStats *stats, GError **error)
{
  Run run = { .config = config, .journal = journal };
  g_mutex_init (&run.lock);
  g_cond_init (&run.changed);
  guint threads = config->load_threads ? config->load_threads : g_get_num_processors ();
  guint readers = config->read_threads ? config->read_threads : DEFAULT_READ_THREADS;
  /* Enough to keep every stage busy, few enough that memory is a small multiple of one
   * stack's. */
  guint limit = config->in_flight ? config->in_flight
                                   : readers + writers_for (config, threads) + 2 * config->backends->len + 2;
  gint64 start = g_get_monotonic_time ();
  *stats = (LmBatchStats) { .read_threads = readers, .load_threads = threads, .in_flight = limit };
  start_stages (&run, readers, threads);

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
      Job *job = job_new (todo->pdata[i]);
      g_thread_pool_push (run.read_pool, job, NULL);
      g_mutex_lock (&run.lock);
    }
  while (run.in_flight > 0)
    wait_and_report (&run, progress);
  g_mutex_unlock (&run.lock);
  stop_stages (&run, stats);

  lm_progress_finish (progress, run.done, run.failed);
  stats->done = run.done;
  stats->failed = run.failed;
  stats->bytes_read = run.bytes_read;
  stats->nvjpeg_files = run.nvjpeg_files;
  stats->cpu_files = run.cpu_files;
  stats->nvjpeg_decoders = run.decoders_made;
  stats->resident_stacks = run.resident_stacks;
  stats->device_batches = (guint) g_atomic_int_get (&run.device_batches);
  stats->nvjpeg_encoded = run.nvjpeg_encoded;
  stats->retried = run.retried;
  stats->noted = run.noted;
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
