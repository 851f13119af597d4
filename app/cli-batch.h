/* lumen-cli batch: its pieces. */
#pragma once

#include <glib.h>

#include "core/batch/journal.h"
#include "core/batch/outdir-lock.h"
#include "core/batch/shard.h"
#include "core/batch/stacks.h"

G_BEGIN_DECLS

int lm_cli_batch_main (int argc, char **argv);
/* --report OUTDIR */
int lm_cli_batch_report (const char *outdir, gboolean photos);
/* lumen-cli batch develop */
int lm_cli_batch_develop_main (int argc, char **argv);
/* lumen-cli batch detect-objects */
int lm_cli_batch_objects_main (int argc, char **argv);

/* The exit status where a batch's INPUT list could not be made: a usage error where the INPUTs
 * name nothing usable (LM_ERROR_INVALID), else a failure; said on stderr. Frees ERROR. */
int lm_cli_batch_list_failed (GError *error);

/* The exit status of a batch that ran: 0, or 1 where FAILED items failed; where it stopped
 * (OK FALSE) with ERROR, that is said (a full disk with how to go on) and it is 1. Frees
 * ERROR. */
int lm_cli_batch_exit (gboolean ok, guint failed, GError *error);

/* The share SHARD of LIST not done yet in OUTDIR (outputs <id>.EXT), in the list's order:
 * an output under its final name is done when a whole done record gives it and it has that
 * record's size and CRC-32 (all read back, READ_THREADS files at a time; 0: 4); any other is
 * made again, after a redo record in JOURNAL where a done record named it. BEFORE: the
 * share's items done by earlier runs. */
GPtrArray *lm_cli_batch_todo (const char *outdir, const char *ext, const LmShard *shard, guint read_threads,
                              LmBatchList *list, LmJournal *journal, guint *before, GError **error);

/* OUTDIR locked for SHARD and LIST's ids written as the batch's list, before anything in it
 * is opened or removed (another batch may be working there); NULL with ERROR where either
 * fails. The caller holds the lock for the run. */
LmOutdirLock *lm_cli_batch_admit (const char *outdir, const LmShard *shard, LmBatchList *list, GError **error);

/* LIST's items that SHARD takes. */
guint lm_cli_batch_share (const LmShard *shard, const LmBatchList *list);

/* JOURNAL closed after a run that went *OK: a close that fails makes a run that went well
 * fail with its error (a run that had already failed keeps its own). */
void lm_cli_batch_close_journal (LmJournal *journal, gboolean *ok, GError **error);

G_END_DECLS
