/* Thumbnail PNGs as the freedesktop Thumbnail Managing Standard has them: 8-bit RGB(A) with
 * the original's identity in tEXt chunks (Thumb::URI, Thumb::MTime, …). Read from a cache
 * that other programs write too, so every file is treated as hostile. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

/* The longest side a thumbnail PNG read from the cache may have: the largest folder's
 * (xx-large, 1024) with room for writers that round up; anything larger is refused before
 * its pixels are allocated. */
#define LM_THUMBNAIL_PNG_SIDE_MAX 4096

/* The tEXt keys and values of DATA (a PNG, LEN bytes) that come before its pixel data, in
 * *TEXT (key → value, both UTF-8; Latin-1 values converted), and, when PIXELS is TRUE, its
 * pixels as an RGBA8 image in host memory. FALSE with a message (not naming a file: the
 * caller does) when the PNG is damaged, too large or not a PNG. */
gboolean lm_thumbnail_png_read (const guint8 *data, gsize len, gboolean pixels, GHashTable **text,
                                LmImage **image, GError **error);

/* DATA's text only: what a validity check needs, without decoding pixels. */
static inline gboolean
lm_thumbnail_png_read_text (const guint8 *data, gsize len, GHashTable **text, GError **error)
{
  return lm_thumbnail_png_read (data, len, FALSE, text, NULL, error);
}

/* IMAGE (RGBA8, host memory; written as RGB where opaque) as a PNG to FD, with the tEXt
 * pairs of KEYS and VALUES (N of each) before the pixels. FD is left open. */
gboolean lm_thumbnail_png_write (int fd, const LmImage *image, const char *const *keys, const char *const *values,
                                 guint n, GError **error);

G_END_DECLS
