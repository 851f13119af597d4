/* The outputs of one command committed together, or not at all: a catalogue and its label
 * image, a photo and its preset, a merge and its camera response. While a group is open on a
 * thread, lm_atomic_file_commit on that thread writes, flushes and syncs its temporary but
 * leaves the rename to the group; lm_atomic_group_commit then renames them all, or none.
 *
 * When the commit fails, every destination is as it was: one that was missing is missing,
 * one that existed has its old bytes. An existing destination that a later rename could
 * still undo (every one but the last) is kept under a hard link beside it until every rename
 * is done (a synced copy where the file system has no hard links, as FAT), and is renamed
 * back if a later rename fails.
 *
 * Against a machine crash: each destination holds its old bytes or its new ones, whole (the
 * temporaries are synced before the first rename); the group is not atomic across a crash.
 * A crash between two renames leaves the first destination new and the second old, and the
 * first one's old bytes beside it under a hidden name with the temporary infix
 * (".NAME.lumen-tmp-XXXXXX"). Once the commit has returned TRUE the folders are synced: the
 * new files outlive a crash.
 *
 * Test hook (as the batch's LUMEN_BATCH_CRASH_AT): LUMEN_ATOMIC_FAIL_AT=rename:K fails the
 * K-th rename of every group (EIO); LUMEN_ATOMIC_FAIL_AT=link fails every hard link as a
 * file system without them does (EPERM), so that copies are kept instead; both may be given,
 * separated by a comma. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _LmAtomicGroup LmAtomicGroup;

/* Opens a group on the calling thread; groups do not nest. */
LmAtomicGroup *lm_atomic_group_begin (void);

/* Renames the files committed into GROUP since it began, each over its destination, or on a
 * failure none (see above); closes and frees GROUP. The error names the file that failed. */
gboolean lm_atomic_group_commit (LmAtomicGroup *group, GError **error);

/* Removes the temporaries committed into GROUP, renaming nothing; closes and frees GROUP. */
void lm_atomic_group_abort (LmAtomicGroup *group);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmAtomicGroup, lm_atomic_group_abort)

/* For core/io/atomic-file.c: the group open on this thread (NULL: none), and a complete,
 * synced temporary TMP_PATH handed to it, to replace TARGET (what PATH, as the caller named
 * it, leads to). The group takes the three strings. */
LmAtomicGroup *lm_atomic_group_current (void);
void lm_atomic_group_take (LmAtomicGroup *group, char *path, char *target, char *tmp_path);

G_END_DECLS
