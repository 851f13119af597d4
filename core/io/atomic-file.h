/* Writing a file so that it is never seen half-written: the bytes go to a temporary file
 * in the destination's folder, which is renamed over the destination once complete. A
 * destination that is a symbolic link is written through: the file it points to is
 * replaced (created when missing) and the link stays. Only a regular file is replaced: a
 * destination (or a link's target) that is a folder, a fifo, a device or a socket is
 * refused by name, when opened and again before the rename. Several files that belong
 * together are committed as one through core/io/atomic-group.h. */
#pragma once

#include <stdio.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _LmAtomicFile LmAtomicFile;

/* Temporary names carry this infix (".<name>.lumen-tmp-XXXXXX"), so leftovers of a killed
 * process can be recognised and removed. <name> is cut short (at a UTF-8 character's
 * boundary) where the whole would not fit in the folder's longest file name. */
#define LM_ATOMIC_TMP_INFIX ".lumen-tmp-"

/* The longest file name (bytes) of the file system holding DIR; NAME_MAX if it cannot say. */
long lm_atomic_file_name_max (const char *dir);
/* DIR/.<BASE>.lumen-tmp-XXXXXX, BASE shortened so that the name fits; for g_mkstemp. */
char *lm_atomic_file_temp_name (const char *dir, const char *base);

/* Whether a file written to PATH may replace what PATH names, after its symbolic links:
 * nothing, or a regular file. What lm_atomic_file_open checks, for a writer that renames
 * files of its own. */
gboolean lm_atomic_file_check_replaceable (const char *path, GError **error);
/* The same of TARGET, the file PATH's links lead to (PATH names it in the message). */
gboolean lm_atomic_file_check_target (const char *path, const char *target, GError **error);

LmAtomicFile *lm_atomic_file_open (const char *path, GError **error);
FILE *lm_atomic_file_stream (LmAtomicFile *file);
const char *lm_atomic_file_path (LmAtomicFile *file);

/* Records an error of the writer (e.g. from a codec) so that commit fails with it. */
void lm_atomic_file_take_error (LmAtomicFile *file, GError *error);

/* Flushes, syncs and renames; frees the file. On failure the temporary is removed and the
 * destination is untouched. While a group is open on this thread (lm_atomic_group_begin),
 * the rename is left to the group's commit. */
gboolean lm_atomic_file_commit (LmAtomicFile *file, GError **error);

/* Removes the temporary; frees the file. */
void lm_atomic_file_abort (LmAtomicFile *file);

/* LEN bytes of DATA as the whole of PATH: open, write, commit (within a group, as commit). */
gboolean lm_atomic_file_write (const char *path, const void *data, gsize len, GError **error);

/* A GError for a failed write to PATH, with errno's text; ENOSPC becomes LM_ERROR_NO_SPACE. */
void lm_set_write_error (GError **error, const char *path, int errsv);

G_END_DECLS
