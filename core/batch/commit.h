/* One output's way into OUTDIR: encoded to a temporary name (complete and synced), then
 * renamed to OUTDIR/<id>.<ext>. The rename commits the file: the final name never holds a
 * partial output of ours. The stack is done once its done record, appended after the rename
 * (journal.h), gives the output's size and CRC-32: a file under the final name proves
 * nothing alone (a copy cut short looks the same). A killed run leaves at most temporaries,
 * which the next run of the same stacks removes, and an output without its record, which
 * it merges again.
 *
 * Crash points for tests: LUMEN_BATCH_CRASH_AT=STEP[:K] kills the process (SIGKILL, as
 * kill -9) at the K-th (default first) time it passes STEP: after-temp-write, after-rename
 * or after-journal. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "../io/io.h"
#include "output-sum.h"
#include "stacks.h"

G_BEGIN_DECLS

typedef enum {
  LM_CRASH_AFTER_TEMP_WRITE,
  LM_CRASH_AFTER_RENAME,
  LM_CRASH_AFTER_JOURNAL,
} LmCrashPoint;

/* Reads LUMEN_BATCH_CRASH_AT; fails on a value it does not know. */
gboolean lm_batch_crash_points_init (GError **error);
void lm_batch_crash_point (LmCrashPoint point);

char *lm_batch_output_path (const char *outdir, const char *id, const char *ext);

/* FALSE, naming it, when the stack's output name holds something a commit must not replace
 * (a fifo, a device, a folder, a link to one): that stack fails, the batch goes on. */
gboolean lm_batch_output_replaceable (const char *outdir, const char *id, const char *ext, GError **error);

/* The extensions of the formats a batch writes, NULL-terminated. */
extern const char *const lm_batch_formats[];

/* Whether OUTDIR/<id>.<EXT> can exist at all for STACK: a file name longer than OUTDIR's file
 * system takes fails its stack alone, before anything is read, with a reason that names
 * where the stack was given. (Staging names always fit: a long id is shortened in them.) */
gboolean lm_batch_output_name_fits (const char *outdir, const LmBatchStack *stack, const char *ext, GError **error);

/* Writes IMAGE (host memory) as OUTDIR/<ID>.<EXT>, committed by a rename; SUM: what was
 * committed, for the journal. */
gboolean lm_batch_write_output (const LmImage *image, const char *outdir, const char *id, const char *ext,
                                const LmSaveOptions *options, LmOutputSum *sum, GError **error);

/* Writes BYTES, a file already encoded (by the GPU), as OUTDIR/<ID>.<EXT>, the same way. */
gboolean lm_batch_write_encoded (GBytes *bytes, const char *outdir, const char *id, const char *ext,
                                 LmOutputSum *sum, GError **error);

/* Looks at OUTDIR once: removes the temporaries of the stacks in IDS (left by a killed run;
 * those of other shards' stacks may be in use) and returns the ids of IDS whose output
 * OUTDIR/<id>.<EXT> exists (a set). REMOVED: how many temporaries went. */
GHashTable *lm_batch_scan_outdir (const char *outdir, GHashTable *ids, const char *ext, guint *removed,
                                  GError **error);

G_END_DECLS
