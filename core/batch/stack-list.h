/* OUTDIR/stacks.txt: the ids of the latest run's whole batch (every shard's), one a line
 * after a header that carries the SHA-256 of those lines. --report counts only the stacks it
 * lists, so that records of stacks no longer in the input (an earlier batch in the same
 * folder) do not inflate it; the checksum tells a list cut short or edited since, which
 * would count the wrong stacks, from the list a run wrote. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LM_STACK_LIST_NAME "stacks.txt"

/* Writes OUTDIR/stacks.txt: the ids of IDS (of const char *, the whole batch's, sorted),
 * unless the file already lists exactly them; a list that is damaged or too large to read
 * is replaced, one that is not a regular file (a pipe, a device) is refused. Call it while
 * no other run of this OUTDIR can write it (LmOutdirLock's admission): it also removes a
 * killed writer's temporary. */
gboolean lm_stack_list_write (const char *outdir, GPtrArray *ids, GError **error);

/* The ids OUTDIR/stacks.txt lists (a set) in *IDS, or NULL where there is no such file (a
 * batch of an earlier version). Fails, naming the file, on one that cannot be read whole
 * (not a regular file, larger than LM_FILE_RECORDS_MAX) or whose lines do not match its
 * checksum. */
gboolean lm_stack_list_read (const char *outdir, GHashTable **ids, GError **error);

G_END_DECLS
