/* A photo's thumbnail: from the freedesktop cache shared with the file manager when it is
 * valid there, else made (thumbnail-source.h) and stored there. The file as it is: an edited
 * photo's look is thumbnail-edited.h's, kept in Lumen's own cache. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

/* RGBA8 in host memory, upright, longest side <= SIZE (1..1024; 128, 256, 512 and 1024 are
 * the cache's own sizes, others are shrunk from the next one up), never enlarged. A cache
 * that cannot be written (a read-only home, a full disk) leaves the thumbnail in memory,
 * never a failure. A file that cannot be read gets a message naming it and the cause, and a
 * failure entry, so that it is not read again until it changes. */
LmImage *lm_thumbnail_load (const char *photo, int size, GError **error);

/* The cache's answer alone: TRUE when it has a valid thumbnail of PHOTO (*THUMB, shrunk to
 * SIZE) or a valid failure entry (*THUMB NULL, ERROR set); FALSE when the thumbnail must be
 * made (or PHOTO cannot be stat'ed: ERROR set, *THUMB NULL). */
gboolean lm_thumbnail_lookup (const char *photo, int size, LmImage **thumb, GError **error);

/* Keeps MADE (a thumbnail of PHOTO at lm_thumbnail_folder_size (SIZE), e.g. from the GPU)
 * in the cache, with MIME, or, when MADE is NULL, FAILURE as PHOTO's failure entry (a file
 * that cannot be read, not a passing cause such as a lack of memory); returns MADE shrunk to
 * SIZE (NULL when MADE is). */
LmImage *lm_thumbnail_keep (const char *photo, int size, LmImage *made, const char *mime, const GError *failure);

G_END_DECLS
