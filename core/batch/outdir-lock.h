/* One batch per output folder at a time: a run without shards alone, or the shards of one
 * count N together (a Slurm array's tasks share OUTDIR), never two kinds at once: an
 * unsharded run does every stack and removes every stack's temporaries, and shards of
 * other counts overlap, so either would redo another's stacks and delete its temporaries
 * mid-write. (Two processes on one shard are kept apart by their journal's lock.)
 *
 * The locks are open file description locks on OUTDIR/batch.lock (a regular file: a fifo or
 * a device there is refused by name, never opened), which the kernel drops when the process
 * dies, however it dies; they hold across NFS as POSIX locks do:
 *   byte 0       admission: held for the moment a run checks the others and takes its own
 *                locks (and writes stacks.txt), so that two runs cannot both check first;
 *   bytes 1..    a run without shards locks them all for writing; a shard of N reads-locks
 *                byte 1 + N: shards of one N share it, anything else conflicts. */
#pragma once

#include <glib.h>

#include "shard.h"

G_BEGIN_DECLS

typedef struct _LmOutdirLock LmOutdirLock;

/* OUTDIR made where it is missing (its parents too); FALSE with ERROR naming it where it
 * cannot be: what every batch does first. */
gboolean lm_outdir_make (const char *outdir, GError **error);

/* Takes OUTDIR's admission and SHARD's lock; fails, naming who holds OUTDIR, when another
 * kind of run is working there. Admission is held until lm_outdir_lock_admitted. */
LmOutdirLock *lm_outdir_lock_new (const char *outdir, const LmShard *shard, GError **error);
/* Lets the next run check in; this one keeps its lock. */
void lm_outdir_lock_admitted (LmOutdirLock *lock);
/* Releases everything. */
void lm_outdir_lock_free (LmOutdirLock *lock);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmOutdirLock, lm_outdir_lock_free)

G_END_DECLS
