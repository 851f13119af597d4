/* A shard's journal and failure list in OUTDIR.
 *
 * The journal is appended one record per stack, each with one write(2) on an O_APPEND
 * descriptor: once write returns, the record survives a kill -9 of this process (it is in
 * the kernel). Against a crash of the machine, records are made durable in groups (at most
 * a second apart, and at the end): the output folder is fsync'd first, then the journal,
 * so that a durable "done" record never points at a rename that was lost.
 *
 * A stack is done when a whole done record of this form names it, with no redo record
 * after it, and its output under its final name has the size and CRC-32 the record gives:
 * a rerun reads every output of its share back; --report checks the sizes. Anything less
 * proves nothing: the output is removed and the stack merged again, after a redo record
 * where the output differs from its done record (cut short, damaged since), without one
 * where no whole done record names it (a kill between the rename and the append, a journal
 * cut short or damaged, a record of an earlier version). The cost of that rule is one
 * stack's merge after such a kill; what it buys is that no output cut short passes as done.
 *
 * Records, tab-separated, one a line, times in µs since the epoch:
 *   start  TIME  I  N  SHARE  TOTAL   (N = 0: not sharded)
 *   done   TIME  ID  MS  SIZE  CRC32  (SIZE: bytes, more than 0; CRC32: 8 hex digits)
 *   redo   TIME  ID  REASON           (the output of an earlier done record is not it)
 *   failed TIME  ID  REASON
 *   end    TIME
 * A line that is not exactly one of these (a field short or too many, a number that does
 * not parse, a NUL byte, an id no stack can have) is not a record: it counts for nothing,
 * and the reader says how many there were. The last line without its newline is a record
 * being written or cut by a crash, and the next run ends it with a newline so that its own
 * records start whole lines. Done records of earlier versions, "done TIME ID MS" without
 * SIZE and CRC32, look exactly like a record cut after its MS field: they count for
 * nothing either (their stacks are merged again, once).
 *
 * The failure list (failed.tsv, or failed-I-of-N.tsv) holds this run's failures as
 * ID<TAB>REASON lines, an id longer than any file name as lm_batch_id_short gives it; it
 * starts empty at every run, since a rerun tries failed stacks again.
 *
 * The notes list (notes.tsv, or notes-I-of-N.tsv) says what a loader or a writer could not
 * keep as the files have it (an exposure's ICC profile that cannot be read, a profile too
 * large for a JPEG output): ID<TAB>FILE<TAB>NOTES lines, one for each file of a merged stack
 * that has notes, written with the stack's done record. It keeps its lines from run to run,
 * as the outputs they are about stay; a stack merged again adds its lines again.
 *
 * Journals and lists must be regular files: one that is a pipe or a device is refused by
 * name, as is a journal larger than LM_FILE_RECORDS_MAX; skipping one would count its
 * stacks wrong. Nor does the writer take a journal past that bound: the record that would
 * is refused, which stops the batch, and a run under another shard count (new journals)
 * goes on; records of every journal in the folder count. */
#pragma once

#include <glib.h>

#include "output-sum.h"
#include "shard.h"

G_BEGIN_DECLS

typedef struct _LmJournal LmJournal;

/* Opens (creating) the shard's journal and lists in OUTDIR and records the start. Fails
 * when another process holds this shard's journal, when one is not a regular file, or when
 * the journal is full. */
LmJournal *lm_journal_open (const char *outdir, const LmShard *shard, guint share, guint total,
                            GError **error);
/* What a loader or a writer could not keep of one file of a stack, for the notes list. */
typedef struct {
  char *file; /* an exposure or the output */
  char *text; /* its notes (LmImage.notes, LmSaveOptions.notes) joined by "; " */
} LmBatchNote;

void lm_batch_note_free (LmBatchNote *note);

/* Thread-safe. NOTES (of LmBatchNote, may be NULL) go to the notes list with the record. */
gboolean lm_journal_done (LmJournal *journal, const char *id, double ms, const LmOutputSum *sum, GPtrArray *notes,
                          GError **error);
gboolean lm_journal_redo (LmJournal *journal, const char *id, const char *reason, GError **error);
gboolean lm_journal_failed (LmJournal *journal, const char *id, const char *reason, GError **error);
/* Records the end (when COMPLETE), syncs and closes. */
gboolean lm_journal_close (LmJournal *journal, gboolean complete, GError **error);

/* What every journal in OUTDIR says. */
typedef struct {
  char *name;           /* journal-I-of-N.tsv */
  guint index, count;   /* the shard */
  guint share, total;   /* from its latest start record */
  guint done, failed;   /* stacks whose latest record is this journal's */
  guint not_records;    /* whole lines that are not records (cut short, damaged) */
  guint earlier;        /* done records without size and CRC-32 (cut short or of an earlier version) */
} LmJournalShard;

typedef struct {
  LmOutputSum sum;      /* what the output must be */
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
  guint unmatched;     /* stacks dropped from done by lm_journal_check_sizes */
} LmJournalSummary;

/* Records are taken in time order over all journals, whatever shard wrote them. Fails,
 * naming the file, on a journal or stacks.txt that cannot be read whole. */
LmJournalSummary *lm_journal_read_all (const char *outdir, GError **error);
void lm_journal_summary_free (LmJournalSummary *summary);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmJournalSummary, lm_journal_summary_free)

/* Drops from SUMMARY's done the stacks whose output in OUTDIR, <id>.<ext> for an extension
 * of EXTS (NULL-terminated), is missing or not of its record's size: a stat each, no read
 * (--report's check; a rerun reads the outputs back). */
void lm_journal_check_sizes (LmJournalSummary *summary, const char *outdir, const char *const *exts);

/* For the user, one line (of char *) for each of OUTDIR's journals with lines that are not
 * records or with done records without size and CRC-32. */
GPtrArray *lm_journal_summary_notes (const LmJournalSummary *summary, const char *outdir);

G_END_DECLS
