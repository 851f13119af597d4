/* Text files a user hands to Lumen, taken with care: the small text files lumen-cli reads (a
 * sidecar, an exposures list, a camera response) read whole within a bound. Their numbers and
 * quotations: core/text.h. */
#pragma once

#include <glib.h>

#include "../text.h"

G_BEGIN_DECLS

/* A sidecar or a list is a few kilobytes; this leaves room for any real one and stops a
 * read of /dev/zero or of a photo given by mistake. */
#define LM_TEXT_FILE_MAX ((gsize) 16 << 20)

typedef enum {
  LM_TEXT_FILE_ANY = 0,
  LM_TEXT_FILE_UTF8 = 1 << 0, /* refuse text that is not UTF-8, naming its first such line */
} LmTextFileFlags;

/* Reads PATH whole, as text: a regular file (a folder, a fifo, a device such as /dev/zero
 * are refused without reading), of at most LM_TEXT_FILE_MAX bytes, without NUL bytes. The
 * result is NUL-terminated; LENGTH (may be NULL) is its length. Every message starts with
 * the file's name. */
char *lm_text_file_read (const char *path, LmTextFileFlags flags, gsize *length, GError **error);

G_END_DECLS
