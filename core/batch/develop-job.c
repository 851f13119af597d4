/* The develop batch in the background (develop-job.h). */
#include "develop-job.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../context-post.h"
#include "../error.h"
#include "backends.h"
#include "outdir-lock.h"

/* Shared by the job's thread, the callbacks queued on the context and the caller: freed by
 * whoever lets go last. */
typedef struct {
  LmBatchList *list;
  LmDevelopConfig config;
  char *outdir, *ext, *preset;
  LmStage resize;
  LmBackendKind kind;
  GMainContext *context;
  LmDevelopProgress progress;
  LmDevelopJobDone done;
  gpointer user_data;
  GCancellable *cancellable;
  gint dropped;         /* atomic: the caller freed the job; no more callbacks */
  gboolean reported;    /* on the context: the end came (the thread is leaving) */
  GDestroyNotify gone;  /* on the context: the job was let go, and its thread has finished */
  gpointer gone_data;
  gint progress_queued; /* atomic: a progress callback waits on the context */
  gint done_count, failed_count;
  LmDevelopStats stats;
  GPtrArray *failures;
  GError *error;
} Shared;

struct _LmDevelopJob {
  Shared *shared;
  GThread *thread;
};

static void
shared_clear (gpointer data)
{
  Shared *s = data;
  lm_batch_list_free (s->list);
  g_free (s->outdir);
  g_free (s->ext);
  g_free (s->preset);
  g_main_context_unref (s->context);
  g_object_unref (s->cancellable);
  g_clear_pointer (&s->failures, g_ptr_array_unref);
  g_clear_error (&s->error);
}

static void
shared_unref (Shared *s)
{
  g_atomic_rc_box_release_full (s, shared_clear);
}

/* FUNC (holding one reference of S) on the caller's context (the window's callbacks touch
 * widgets). */
static void
on_context (Shared *s, GSourceFunc func, Shared *ref)
{
  lm_context_post (s->context, NULL, func, ref, (GDestroyNotify) shared_unref);
}

static gboolean
report_progress (gpointer data)
{
  Shared *s = data;
  g_atomic_int_set (&s->progress_queued, FALSE);
  if (!g_atomic_int_get (&s->dropped) && s->progress)
    s->progress ((guint) g_atomic_int_get (&s->done_count), (guint) g_atomic_int_get (&s->failed_count),
                 s->user_data);
  return G_SOURCE_REMOVE;
}

/* On the run's thread: one callback at a time waits on the context, with the latest counts. */
static void
on_progress (guint done, guint failed, gpointer data)
{
  Shared *s = data;
  g_atomic_int_set (&s->done_count, (gint) done);
  g_atomic_int_set (&s->failed_count, (gint) failed);
  if (g_atomic_int_compare_and_exchange (&s->progress_queued, FALSE, TRUE))
    on_context (s, report_progress, g_atomic_rc_box_acquire (s));
}

static gboolean
report_done (gpointer data)
{
  Shared *s = data;
  s->reported = TRUE;
  if (s->gone)
    s->gone (s->gone_data);
  else if (!g_atomic_int_get (&s->dropped))
    s->done (&s->stats, s->failures, s->error, s->user_data);
  return G_SOURCE_REMOVE;
}

static gpointer
run (gpointer data)
{
  Shared *s = data;
  g_autoptr (GPtrArray) backends = NULL;
  if (lm_develop_outputs_apart (s->list, s->outdir, s->config.ext, &s->error) && lm_outdir_make (s->outdir, &s->error)
      && (backends = lm_batch_backends_open (s->kind, NULL, 0, &s->error)) != NULL)
    {
      s->config.backends = backends;
      lm_develop_batch_run (&s->config, s->list->stacks, NULL, s->failures, &s->stats, &s->error);
      s->config.backends = NULL;
    }
  else
    s->stats.cancelled = s->list->stacks->len;
  on_context (s, report_done, s);
  return NULL;
}

LmDevelopJob *
lm_develop_job_start (LmBatchList *list, const LmDevelopConfig *config, LmBackendKind kind, GMainContext *context,
                      LmDevelopProgress progress, LmDevelopJobDone done, gpointer user_data)
{
  Shared *s = g_atomic_rc_box_new0 (Shared);
  s->list = list;
  s->outdir = g_strdup (config->outdir);
  s->ext = g_strdup (config->ext);
  s->preset = g_strdup (config->preset);
  s->kind = kind;
  s->context = g_main_context_ref (context);
  s->progress = progress;
  s->done = done;
  s->user_data = user_data;
  s->cancellable = g_cancellable_new ();
  s->failures = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_develop_failure_free);
  s->config = *config;
  s->config.outdir = s->outdir;
  s->config.ext = s->ext;
  s->config.preset = s->preset;
  s->config.save.notes = NULL;
  if (config->resize)
    {
      s->resize = *config->resize;
      s->config.resize = &s->resize;
    }
  s->config.asked = kind;
  s->config.progress = on_progress;
  s->config.progress_data = s;
  s->config.cancellable = s->cancellable;
  LmDevelopJob *job = g_new0 (LmDevelopJob, 1);
  job->shared = s;
  /* The thread's reference goes with its last callback. */
  job->thread = g_thread_new ("lumen-exports", run, g_atomic_rc_box_acquire (s));
  return job;
}

void
lm_develop_job_cancel (LmDevelopJob *job)
{
  g_cancellable_cancel (job->shared->cancellable);
}

void
lm_develop_job_let_go (LmDevelopJob *job, GDestroyNotify gone, gpointer gone_data)
{
  g_return_if_fail (job != NULL && gone != NULL);
  Shared *s = job->shared;
  g_atomic_int_set (&s->dropped, TRUE);
  g_cancellable_cancel (s->cancellable);
  s->gone = gone, s->gone_data = gone_data;
  if (s->reported)
    {
      /* The thread only returns after queueing its end: joined at once. */
      g_thread_join (job->thread);
      lm_context_post_call (s->context, gone, gone_data);
    }
  else
    g_thread_unref (job->thread); /* it finishes the photos in hand on its own */
  shared_unref (s);
  g_free (job);
}

void
lm_develop_job_free (LmDevelopJob *job)
{
  if (job == NULL)
    return;
  g_atomic_int_set (&job->shared->dropped, TRUE);
  g_cancellable_cancel (job->shared->cancellable);
  g_thread_join (job->thread);
  shared_unref (job->shared);
  g_free (job);
}
