/* A shard's journal and failure list in OUTDIR.
 *
 * The journal is appended one record per stack, each with one write(2) on an O_APPEND
 * descriptor: once write returns, the record survives a kill -9 of this process (it is in
 * the kernel). Against a crash of the machine, records are made durable in groups (at most
 * a second apart, and at the end): the output folder is fsync'd first, then the journal,
 * so that a durable "done" record never points at a rename that was lost. The output under
 * its final name, with the size and CRC-32 its done record gives, is the truth: a rerun
 * counts such an output as done; one that differs (cut short, damaged) gets a redo record
 * and is merged again. An output with no done record (killed between the rename and the
 * append: the rename commits only complete files) counts as done unless empty, and gets
 * its record then, so each stack is in the journals once.
 *
 * Records, tab-separated, times in µs since the epoch:
 *   start  TIME  I  N  SHARE  TOTAL   (N = 0: not sharded)
 *   done   TIME  ID  MS  SIZE  CRC32  (CRC32: 8 hex digits)
 *   redo   TIME  ID  REASON           (the output of an earlier done record is not it)
 *   failed TIME  ID  REASON
 *   end    TIME
 * Journals of earlier versions have done records without SIZE and CRC32: their outputs
 * count as done when not empty, as they did then.
 * The failure list (failed.tsv, or failed-I-of-N.tsv) holds this run's failures as
 * ID<TAB>REASON lines; it starts empty at every run, since a rerun tries failed stacks again.
 *
 * OUTDIR/stacks.txt lists the ids of the latest run's whole batch (every shard's), one a
 * line after a header; --report counts only those, so that records of stacks no longer in
 * the input (an earlier batch in the same folder) do not inflate it. */
#pragma once

#include <glib.h>

#include "output-sum.h"
#include "shard.h"

G_BEGIN_DECLS

typedef struct _LmJournal LmJournal;

/* Opens (creating) the shard's journal and failure list in OUTDIR and records the start.
 * Fails when another process holds this shard's journal. */
LmJournal *lm_journal_open (const char *outdir, const LmShard *shard, guint share, guint total,
                            GError **error);
/* Thread-safe. */
gboolean lm_journal_done (LmJournal *journal, const char *id, double ms, const LmOutputSum *sum,
                          GError **error);
gboolean lm_journal_redo (LmJournal *journal, const char *id, const char *reason, GError **error);
gboolean lm_journal_failed (LmJournal *journal, const char *id, const char *reason, GError **error);
/* Records the end (when COMPLETE), syncs and closes. */
gboolean lm_journal_close (LmJournal *journal, gboolean complete, GError **error);

#define LM_JOURNAL_STACKS_NAME "stacks.txt"

/* Writes OUTDIR/stacks.txt: the ids of IDS (of const char *, the whole batch's, sorted),
 * unless the file already lists exactly them. Call it while no other run of this OUTDIR
 * can write it (LmOutdirLock's admission): it also removes a killed writer's temporary. */
gboolean lm_journal_write_stacks (const char *outdir, GPtrArray *ids, GError **error);

/* What every journal in OUTDIR says. */
typedef struct {
  char *name;           /* journal-I-of-N.tsv */
  guint index, count;   /* the shard */
  guint share, total;   /* from its latest start record */
  guint done, failed;   /* stacks whose latest record is this journal's */
} LmJournalShard;

typedef struct {
  LmOutputSum sum;      /* size -1: a record of an earlier version, without one */
  guint shard;          /* index in LmJournalSummary.shards */
} LmJournalDone;

typedef struct {
  GHashTable *done;    /* id → LmJournalDone: the latest done record not undone by a redo */
  GHashTable *failed;  /* id → reason: failed, and done in none */
  GHashTable *redone;  /* ids whose latest done or redo record is a redo (a set) */
  GArray *shards;      /* of LmJournalShard */
  guint total;         /* the batch's stack count: stacks.txt's, else the latest start's */
  double busy_s;       /* union of the runs' intervals */
  guint duplicates;    /* stacks done twice with no redo between (none in a healthy batch) */
  guint outside;       /* stacks in the journals but not in stacks.txt: not counted above */
} LmJournalSummary;

/* Records are taken in time order over all journals, whatever shard wrote them. */
LmJournalSummary *lm_journal_read_all (const char *outdir, GError **error);
void lm_journal_summary_free (LmJournalSummary *summary);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmJournalSummary, lm_journal_summary_free)

G_END_DECLS
