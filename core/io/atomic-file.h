/* Writing a file so that it is never seen half-written: the bytes go to a temporary file
 * in the destination's folder, which is renamed over the destination once complete. A
 * destination that is a symbolic link is written through: the file it points to is
 * replaced (created when missing) and the link stays. */
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

LmAtomicFile *lm_atomic_file_open (const char *path, GError **error);
FILE *lm_atomic_file_stream (LmAtomicFile *file);
const char *lm_atomic_file_path (LmAtomicFile *file);

/* Records an error of the writer (e.g. from a codec) so that commit fails with it. */
void lm_atomic_file_take_error (LmAtomicFile *file, GError *error);

/* Flushes, syncs and renames; frees the file. On failure the temporary is removed and the
 * destination is untouched. */
gboolean lm_atomic_file_commit (LmAtomicFile *file, GError **error);

/* Removes the temporary; frees the file. */
void lm_atomic_file_abort (LmAtomicFile *file);

/* A GError for a failed write to PATH, with errno's text; ENOSPC becomes LM_ERROR_NO_SPACE. */
void lm_set_write_error (GError **error, const char *path, int errsv);

G_END_DECLS
