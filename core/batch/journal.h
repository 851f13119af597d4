/* A shard's journal and failure list in OUTDIR.
 *
 * The journal is appended one record per stack, each with one write(2) on an O_APPEND
 * descriptor: once write returns, the record survives a kill -9 of this process (it is in
 * the kernel). Against a crash of the machine, records are made durable in groups (at most
 * a second apart, and at the end): the output folder is fsync'd first, then the journal,
 * so that a durable "done" record never points at a rename that was lost. The output under
 * its final name stays the truth: a rerun counts an output as done even when its record
 * never reached the journal (killed between the rename and the append) and then appends the
 * missing record, so each stack is in the journals once.
 *
 * Records, tab-separated, times in µs since the epoch:
 *   start  TIME  I  N  SHARE  TOTAL   (N = 0: not sharded)
 *   done   TIME  ID  MS
 *   failed TIME  ID  REASON
 *   end    TIME
 * The failure list (failed.tsv, or failed-I-of-N.tsv) holds this run's failures as
 * ID<TAB>REASON lines; it starts empty at every run, since a rerun tries failed stacks again. */
#pragma once

#include <glib.h>

#include "shard.h"

G_BEGIN_DECLS

typedef struct _LmJournal LmJournal;

/* Opens (creating) the shard's journal and failure list in OUTDIR and records the start.
 * Fails when another process holds this shard's journal. */
LmJournal *lm_journal_open (const char *outdir, const LmShard *shard, guint share, guint total,
                            GError **error);
/* Thread-safe. */
gboolean lm_journal_done (LmJournal *journal, const char *id, double ms, GError **error);
gboolean lm_journal_failed (LmJournal *journal, const char *id, const char *reason, GError **error);
/* Records the end (when COMPLETE), syncs and closes. */
gboolean lm_journal_close (LmJournal *journal, gboolean complete, GError **error);

/* What every journal in OUTDIR says. */
typedef struct {
  char *name;           /* journal-I-of-N.tsv */
  guint index, count;   /* the shard */
  guint share, total;   /* from its latest start record */
  guint done, failed;   /* stacks (once each) */
} LmJournalShard;

typedef struct {
  GHashTable *done;    /* id → NULL: a done record in some journal */
  GHashTable *failed;  /* id → reason: failed, and done in none */
  GArray *shards;      /* of LmJournalShard */
  guint total;         /* the batch's stack count, as the latest start record said */
  double busy_s;       /* union of the runs' intervals */
  guint duplicates;    /* done records of an id already done (none in a healthy batch) */
} LmJournalSummary;

LmJournalSummary *lm_journal_read_all (const char *outdir, GError **error);
void lm_journal_summary_free (LmJournalSummary *summary);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmJournalSummary, lm_journal_summary_free)

G_END_DECLS
