/* Where a thumbnail's pixels come from: an embedded preview when the file has one that is
 * large enough (EXIF's IFD1 thumbnail of a JPEG, a camera raw's preview through LibRaw),
 * else a small decode (libjpeg-turbo's IDCT scaling) or, for other formats, the whole
 * decode; then an area-averaged shrink (the resize operation's CPU reference, OpenCV's
 * INTER_AREA weights). Always the file as it is: edits are thumbnail-edited.h's. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

/* The thumbnail size of a W × H photo: longest side SIZE (never enlarged), the other in
 * proportion, rounded, at least 1. */
void lm_thumbnail_fit (guint w, guint h, int size, guint *out_w, guint *out_h);

/* SRC (RGBA8, host) shrunk to lm_thumbnail_fit's size; a new reference when it fits. */
LmImage *lm_thumbnail_shrink (LmImage *src, int size, GError **error);
/* SRC shrunk to W × H (at most its own size); a new reference when it is that size. */
LmImage *lm_thumbnail_shrink_to (LmImage *src, guint w, guint h, GError **error);
/* DECODED, the photo DATA decoded (at 1/2, 1/4 or 1/8, or its EXIF preview), shrunk to the
 * thumbnail of the photo's stored size rather than of its own: a scaled decode rounds the
 * photo's sides up, and the GPU, which decodes the whole photo, must give the same size. */
LmImage *lm_thumbnail_shrink_photo (LmImage *decoded, const guint8 *data, gsize len, int size, GError **error);

/* Any decoded image as RGBA8 in host memory (gray expanded, 16 bits rounded, float clamped
 * to 0..1); a new reference when it is RGBA8 already. */
LmImage *lm_thumbnail_to_rgba8 (LmImage *src, const char *path, GError **error);

/* PHOTO's pixels (LEN bytes at DATA) upright as RGBA8 in host memory, at least SIZE on their
 * longest side when the photo is: an embedded preview, a scaled decode, or the whole image.
 * *MIME (may be NULL) receives the type's MIME name, or NULL. Messages name PHOTO. */
LmImage *lm_thumbnail_decode (const char *photo, const guint8 *data, gsize len, int size, const char **mime,
                              GError **error);

/* The EXIF IFD1 thumbnail of a JPEG (DATA), decoded and turned upright by the photo's
 * orientation, when it is at least SIZE on its longest side and has the photo's shape (of
 * PHOTO_W × PHOTO_H stored pixels); NULL otherwise. */
LmImage *lm_thumbnail_exif_preview (const guint8 *data, gsize len, int size, guint photo_w, guint photo_h);

/* A JPEG's stored size (before its orientation) from its frame header, without decoding;
 * FALSE when the markers before it do not hold together. */
gboolean lm_thumbnail_jpeg_stored_size (const guint8 *data, gsize len, guint *w, guint *h);

/* lm_thumbnail_exif_preview of a JPEG, its stored size read by lm_thumbnail_jpeg_stored_size. */
LmImage *lm_thumbnail_jpeg_preview (const guint8 *data, gsize len, int size);

/* A camera raw's largest embedded preview through LibRaw (libraw_unpack_thumb), upright by
 * the raw's orientation, as RGBA8; NULL with a message naming PATH when it has none that
 * LibRaw can give. */
LmImage *lm_thumbnail_raw_preview (const char *path, const guint8 *data, gsize len, int size, GError **error);

/* PHOTO read and decoded (lm_thumbnail_decode), then shrunk to SIZE. */
LmImage *lm_thumbnail_make (const char *photo, int size, const char **mime, GError **error);

G_END_DECLS
