/* The freedesktop Thumbnail Managing Standard's cache, shared with GNOME's file manager and
 * every other program that follows it: $XDG_CACHE_HOME/thumbnails/<folder>/<MD5 of the
 * photo's URI>.png, valid while its Thumb::URI and Thumb::MTime (and Thumb::Size, when
 * present) match the photo. Failures are kept under fail/lumen-<version>/, read by Lumen
 * only, so that a file that cannot be read is not tried again until it changes. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

#include "../image.h"

G_BEGIN_DECLS

/* The largest thumbnail the standard has a folder for (xx-large). */
#define LM_THUMBNAIL_SIZE_MAX 1024

/* What a cached thumbnail must match: the photo's URI, and its modification time (whole
 * seconds) and size when the thumbnail was made. */
typedef struct {
  char *uri;
  gint64 mtime;
  gint64 size;
} LmThumbnailKey;

/* PHOTO's key: its absolute URI as g_file_get_uri has it (RFC 3986 escaping: "a b.jpg" →
 * "file:///…/a%20b.jpg"), and its stat. FALSE with a message naming PHOTO when it cannot be
 * stat'ed. */
gboolean lm_thumbnail_key_init (LmThumbnailKey *key, const char *photo, GError **error);
void lm_thumbnail_key_clear (LmThumbnailKey *key);

/* $XDG_CACHE_HOME/thumbnails (a blank or relative XDG_CACHE_HOME counts as unset:
 * ~/.cache/thumbnails), read at each call. */
char *lm_thumbnail_root (void);

/* The standard's folder size for a thumbnail of SIZE: 128 (normal), 256 (large), 512
 * (x-large) or 1024 (xx-large), the smallest at least SIZE; 0 when SIZE is out of 1..1024. */
int lm_thumbnail_folder_size (int size);
/* "normal", "large", "x-large", "xx-large" for the folder sizes above; NULL otherwise. */
const char *lm_thumbnail_folder_name (int folder_size);

/* <root>/<folder>/<md5 of URI>.png and <root>/fail/lumen-<version>/<md5 of URI>.png. */
char *lm_thumbnail_cache_path (const char *uri, int folder_size);
char *lm_thumbnail_fail_path (const char *uri);

/* The thumbnail at PATH when it is valid for KEY; NULL when it is missing, stale, damaged or
 * larger than FOLDER_SIZE (all mean: make a new one). */
LmImage *lm_thumbnail_cache_lookup (const char *path, const LmThumbnailKey *key, int folder_size);

/* Writes THUMB to PATH with KEY's tEXt (and MIME as Thumb::Mimetype, when given), through a
 * temporary file in PATH's folder that is renamed into place, files 0600 and folders 0700
 * (thumbnails show the photos). FALSE when the cache cannot be written: the caller keeps
 * the thumbnail in memory. */
gboolean lm_thumbnail_cache_store (const char *path, const LmImage *thumb, const LmThumbnailKey *key,
                                   const char *mime, GError **error);

/* Whether a failure is recorded for KEY (and valid); *MESSAGE then holds its message. */
gboolean lm_thumbnail_fail_lookup (const LmThumbnailKey *key, char **message);
/* Records that no thumbnail could be made of KEY's file, with MESSAGE (one line). */
gboolean lm_thumbnail_fail_store (const LmThumbnailKey *key, const char *message, GError **error);

G_END_DECLS
