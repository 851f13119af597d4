/* The stages of a batch of photos (photo-stream.h). */
#include "photo-stream.h"

#include <omp.h>

#include "../error.h"
#include "../timing.h"

struct _LmPhotoStream {
  const LmPhotoStages *stages;
  const LmPhotoStreamConfig *config;
  gpointer data;
  GMutex lock;
  GCond changed; /* a photo left the run, or the run stopped */
  guint in_flight;
  guint done, failed, cancelled;
  double load_ms, work_ms, write_ms;
  GError *fatal; /* the first error that stopped the run */
  gint stopping; /* atomic */
  GThreadPool *load_pool, *write_pool;
  GAsyncQueue *work_queue;
};

typedef struct {
  LmPhotoStream *stream;
  guint index;
  GThread *thread;
} Worker;

/* Ends a worker's loop. */
static int stop_item;

gboolean
lm_photo_stream_stopping (LmPhotoStream *s)
{
  return g_atomic_int_get (&s->stopping) || (s->config->cancellable && g_cancellable_is_cancelled (s->config->cancellable));
}

void
lm_photo_stream_stop (LmPhotoStream *s, GError *error)
{
  g_mutex_lock (&s->lock);
  if (s->fatal == NULL)
    s->fatal = error;
  else
    g_error_free (error);
  g_atomic_int_set (&s->stopping, TRUE);
  g_cond_broadcast (&s->changed);
  g_mutex_unlock (&s->lock);
}

/* The photo leaves the run: done (DONE), failed (ERROR, taken), or dropped. */
static void
finish (LmPhotoStream *s, gpointer item, gboolean done, GError *error)
{
  s->stages->finish (s, s->data, item, done, error);
  g_mutex_lock (&s->lock);
  s->in_flight--;
  if (error)
    s->failed++;
  else if (done)
    s->done++;
  else
    s->cancelled++;
  g_cond_broadcast (&s->changed);
  g_mutex_unlock (&s->lock);
  g_clear_error (&error);
}

/* A full disk or a failed device would fail every photo after it: it stops the run. */
static gboolean
is_fatal (const GError *error)
{
  return g_error_matches (error, LUMEN_ERROR, LM_ERROR_NO_SPACE) || g_error_matches (error, LUMEN_ERROR, LM_ERROR_DEVICE);
}

/* After a stage that returned FALSE: the photo fails, or the run stops and it is dropped. */
static void
fail_or_stop (LmPhotoStream *s, gpointer item, GError *error)
{
  if (error && is_fatal (error))
    {
      lm_photo_stream_stop (s, error);
      error = NULL;
    }
  finish (s, item, FALSE, error);
}

static void
add_ms (LmPhotoStream *s, double *sum, gint64 since)
{
  double ms = lm_ms_since (since);
  g_mutex_lock (&s->lock);
  *sum += ms;
  g_mutex_unlock (&s->lock);
}

/* Whether ITEM goes into its next stage: not once the stream is stopping (it ends, not done). */
static gboolean
going_on (LmPhotoStream *s, gpointer item)
{
  if (!lm_photo_stream_stopping (s))
    return TRUE;
  finish (s, item, FALSE, NULL);
  return FALSE;
}

/* After a stage of ITEM that began at SINCE (its time joins SUM): TRUE where it went well,
 * else its ERROR is dealt with. */
static gboolean
stage_done (LmPhotoStream *s, gpointer item, gboolean ok, GError *error, double *sum, gint64 since)
{
  add_ms (s, sum, since);
  if (!ok)
    fail_or_stop (s, item, error);
  return ok;
}

static void
load_task (gpointer item, gpointer user_data)
{
  LmPhotoStream *s = user_data;
  /* The pool's threads are the parallelism: a team in each would oversubscribe the cores. */
  omp_set_num_threads (1);
  if (!going_on (s, item))
    return;
  gint64 t = g_get_monotonic_time ();
  GError *error = NULL;
  gboolean ok = s->stages->load (s, s->data, item, &error);
  if (stage_done (s, item, ok, error, &s->load_ms, t))
    g_async_queue_push (s->work_queue, item);
}

static gpointer
worker_main (gpointer data)
{
  Worker *worker = data;
  LmPhotoStream *s = worker->stream;
  for (;;)
    {
      gpointer item = g_async_queue_pop (s->work_queue);
      if (item == &stop_item)
        break;
      if (!going_on (s, item))
        continue;
      gint64 t = g_get_monotonic_time ();
      GError *error = NULL;
      gboolean ok = s->stages->work (s, s->data, worker->index, item, &error);
      if (!stage_done (s, item, ok, error, &s->work_ms, t))
        continue;
      if (s->stages->write)
        g_thread_pool_push (s->write_pool, item, NULL);
      else
        finish (s, item, TRUE, NULL);
    }
  return NULL;
}

static void
write_task (gpointer item, gpointer user_data)
{
  LmPhotoStream *s = user_data;
  omp_set_num_threads (1);
  if (!going_on (s, item))
    return;
  gint64 t = g_get_monotonic_time ();
  GError *error = NULL;
  gboolean ok = s->stages->write (s, s->data, item, &error);
  if (stage_done (s, item, ok, error, &s->write_ms, t))
    finish (s, item, TRUE, NULL);
}

/* Waits (holding the lock) until something changes or a quarter second passes; reports. */
static void
wait_and_report (LmPhotoStream *s)
{
  g_cond_wait_until (&s->changed, &s->lock, g_get_monotonic_time () + G_TIME_SPAN_SECOND / 4);
  guint done = s->done, failed = s->failed;
  g_mutex_unlock (&s->lock);
  if (s->config->progress)
    s->config->progress (done, failed, s->config->progress_data);
  g_mutex_lock (&s->lock);
}

gboolean
lm_photo_stream_run (const LmPhotoStages *stages, const LmPhotoStreamConfig *config, gpointer data,
                     GPtrArray *inputs, LmPhotoStreamStats *stats, GError **error)
{
  g_return_val_if_fail (config->workers > 0, FALSE);
  gint64 t0 = g_get_monotonic_time ();
  LmPhotoStream s = { .stages = stages, .config = config, .data = data };
  g_mutex_init (&s.lock);
  g_cond_init (&s.changed);
  guint threads = config->threads ? config->threads : g_get_num_processors ();
  s.load_pool = g_thread_pool_new (load_task, &s, (int) threads, FALSE, NULL);
  s.write_pool = stages->write ? g_thread_pool_new (write_task, &s, (int) threads, FALSE, NULL) : NULL;
  s.work_queue = g_async_queue_new ();
  Worker *workers = g_new0 (Worker, config->workers);
  for (guint i = 0; i < config->workers; i++)
    {
      workers[i] = (Worker) { &s, i, NULL };
      workers[i].thread = g_thread_new ("lumen-photos", worker_main, &workers[i]);
    }
  /* Photos in memory at once: enough for every loader and writer and two for each worker. */
  guint max_in_flight = 2 * threads + 2 * config->workers + 2;

  g_mutex_lock (&s.lock);
  for (guint i = 0; i < inputs->len; i++)
    {
      while (s.in_flight >= max_in_flight && !lm_photo_stream_stopping (&s))
        wait_and_report (&s);
      if (lm_photo_stream_stopping (&s))
        {
          s.cancelled += inputs->len - i;
          break;
        }
      gpointer item = stages->start (data, inputs->pdata[i]);
      s.in_flight++;
      g_thread_pool_push (s.load_pool, item, NULL);
    }
  while (s.in_flight > 0)
    wait_and_report (&s);
  g_mutex_unlock (&s.lock);

  g_thread_pool_free (s.load_pool, FALSE, TRUE);
  for (guint i = 0; i < config->workers; i++)
    g_async_queue_push (s.work_queue, &stop_item);
  for (guint i = 0; i < config->workers; i++)
    g_thread_join (workers[i].thread);
  g_free (workers);
  if (s.write_pool)
    g_thread_pool_free (s.write_pool, FALSE, TRUE);
  g_async_queue_unref (s.work_queue);
  if (config->progress)
    config->progress (s.done, s.failed, config->progress_data);

  *stats = (LmPhotoStreamStats) { .done = s.done, .failed = s.failed, .cancelled = s.cancelled,
                                  .wall_s = lm_ms_since (t0) / 1000.0, .load_ms = s.load_ms,
                                  .work_ms = s.work_ms, .write_ms = s.write_ms };
  g_cond_clear (&s.changed);
  g_mutex_clear (&s.lock);
  if (s.fatal)
    {
      g_propagate_error (error, s.fatal);
      return FALSE;
    }
  return TRUE;
}
