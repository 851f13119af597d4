/* The develop batch in the background, for the window's Export Selected…: a thread and
 * backends of its own (never the window's render worker), progress and the end reported on the
 * caller's main context, Cancel at any moment. No journal: the output folder is the person's. */
#pragma once

#include <glib.h>

#include "develop.h"
#include "stacks.h"

G_BEGIN_DECLS

typedef struct _LmDevelopJob LmDevelopJob;

/* STATS of the run; FAILURES (of LmDevelopFailure, the job's) in the order they came; ERROR:
 * what stopped the run (a full disk, no backend), else NULL. */
typedef void (*LmDevelopJobDone) (const LmDevelopStats *stats, GPtrArray *failures, const GError *error,
                                  gpointer user_data);

/* Develops LIST's photos (LIST taken) into CONFIG->outdir (created where missing) as
 * lm_develop_batch_run does, with CONFIG's outdir, ext, save options, preset and resize
 * (copied), on backends of KIND opened by the job. PROGRESS (photos done, failed; may be NULL)
 * and DONE run on CONTEXT, DONE once at the end unless the job is freed first. */
LmDevelopJob *lm_develop_job_start (LmBatchList *list, const LmDevelopConfig *config, LmBackendKind kind,
                                    GMainContext *context, LmDevelopProgress progress, LmDevelopJobDone done,
                                    gpointer user_data);

/* Photos not started are left; those in hand finish (a photo is never half written). DONE
 * follows with the count of those left in LmDevelopStats.cancelled. */
void lm_develop_job_cancel (LmDevelopJob *job);

/* Cancels, waits for the job's thread and frees JOB; PROGRESS and DONE are not called after. */
void lm_develop_job_free (LmDevelopJob *job);

/* Cancels and frees JOB without waiting: its thread finishes the photos in hand (none is left
 * half written), then GONE (GONE_DATA) runs on the job's context, once, never before this
 * returns. PROGRESS and DONE are not called after. Called on the thread that runs the job's
 * context. A window closing a dialog lets go so that it never waits on a photo, and holds
 * the application until GONE. */
void lm_develop_job_let_go (LmDevelopJob *job, GDestroyNotify gone, gpointer gone_data);

G_END_DECLS
