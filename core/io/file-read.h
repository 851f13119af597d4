/* Every file Lumen reads whole goes through here: an image, an exposure of a stack, a
 * journal, a list, a sidecar, a profile. Only a regular file has an end, so a folder, a
 * fifo, a device (/dev/zero never ends; reading some devices does something) or a socket
 * is refused by name before a byte is read, and so is a file larger than the caller's bound:
 * a name given by mistake or by an attacker costs one stat, not gigabytes or a hang. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What the caller expects the file to be; messages name it ("is a folder, not a text file"). */
typedef enum {
  LM_FILE_KIND_TEXT,    /* a sidecar, a list, an exposures or response file, a manifest */
  LM_FILE_KIND_IMAGE,   /* an image or an exposure */
  LM_FILE_KIND_RECORDS, /* a batch's journal or its stacks.txt */
  LM_FILE_KIND_PROFILE, /* an ICC profile */
  LM_FILE_KIND_OUTPUT,  /* a batch's output, read back to check it */
  LM_FILE_KIND_LOCK,    /* a batch's lock file */
} LmFileKind;

/* Bounds of the files that are not images (images: lm_io_file_max_bytes in io.h). */
#define LM_FILE_RECORDS_MAX ((guint64) 1 << 30) /* a journal of a few million stacks */
#define LM_FILE_PROFILE_MAX ((guint64) 64 << 20) /* the largest LUT profiles are a few MB */

/* An open descriptor on PATH (close-on-exec, non-blocking), the check both readers below
 * make, for a caller that reads or writes the file itself: PATH is stat'ed before it is
 * opened (opening a device can do something: rewind a tape, arm a watchdog; a fifo without
 * a writer would block a reader), and the descriptor after (the name may have changed in
 * between); a folder, anything not a regular file, and a file larger than MAX_BYTES
 * (G_MAXUINT64: no bound) are refused by name, -1 with ERROR. FLAGS: O_RDONLY, or O_RDWR
 * with any of O_CREAT (a missing file is created, 0666 less the umask), O_APPEND and
 * O_TRUNC. *SIZE (may be NULL) receives the file's size as the descriptor has it. */
int lm_file_open_checked (const char *path, LmFileKind kind, int flags, guint64 max_bytes, guint64 *size,
                          GError **error);

/* PATH's bytes, read to its end (the file may change size meanwhile: the bound holds
 * either way), with a NUL after them that the length does not count, so that text can be
 * read as a string. Refused without reading: a missing file, a folder, anything not a
 * regular file, a file of more than MAX_BYTES. Every message begins with PATH. */
GBytes *lm_file_read (const char *path, LmFileKind kind, guint64 max_bytes, GError **error);

/* As lm_file_read, mapped instead of copied (a photo of gigabytes is not read twice); the
 * bytes stay valid while the GBytes lives. An empty file gives empty bytes. */
GBytes *lm_file_map (const char *path, LmFileKind kind, guint64 max_bytes, GError **error);

G_END_DECLS
