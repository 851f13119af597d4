/* The codecs behind io.c; each reads or writes one family of formats. */
#pragma once

#include <glib.h>

#include "atomic-file.h"
#include "../error.h"
#include "../image.h"
#include "io.h"

G_BEGIN_DECLS

/* An image of FORMAT, WIDTH × HEIGHT, for the file at PATH: where it cannot be had (past the
 * pixel budget, no memory) the error names the file, as the rest of a loader's errors do. */
LmImage *lm_io_image_new (LmFormat format, guint width, guint height, const LmAllocator *allocator,
                          const char *path, GError **error);

LmImage *lm_jpeg_load (const char *path, const guint8 *data, gsize len,
                       const LmAllocator *allocator, GError **error);
gboolean lm_jpeg_save (const LmImage *image, LmAtomicFile *file, const LmSaveOptions *options,
                       GError **error);

/* The first frame of a GIF (giflib) or an animated WebP (libwebp), at the frame's size. */
LmImage *lm_gif_load (const char *path, const guint8 *data, gsize len,
                      const LmAllocator *allocator, GError **error);
LmImage *lm_webp_load (const char *path, const guint8 *data, gsize len,
                       const LmAllocator *allocator, GError **error);

/* Through gdk-pixbuf's loader for TYPE (named, so that no MIME database is needed). */
LmImage *lm_pixbuf_load (const char *path, LmFileType type, const guint8 *data, gsize len,
                         const LmAllocator *allocator, GError **error);

LmImage *lm_png_load (const char *path, const guint8 *data, gsize len,
                      const LmAllocator *allocator, GError **error);
LmImage *lm_tiff_load (const char *path, const guint8 *data, gsize len,
                       const LmAllocator *allocator, GError **error);
gboolean lm_tiff_save (const LmImage *image, LmAtomicFile *file, GError **error);

/* LEVEL: zlib's 0..9, the pixel data compressed on every core (png-deflate.h). */
gboolean lm_png_save (const LmImage *image, LmAtomicFile *file, int level, GError **error);

LmImage *lm_radiance_load (const char *path, const guint8 *data, gsize len,
                           const LmAllocator *allocator, GError **error);
gboolean lm_radiance_save (const LmImage *image, LmAtomicFile *file, GError **error);

/* OpenEXR, where the build has the library (LUMEN_HAVE_OPENEXR). */
LmImage *lm_exr_load (const char *path, const guint8 *data, gsize len,
                      const LmAllocator *allocator, GError **error);
gboolean lm_exr_save (const LmImage *image, LmAtomicFile *file, GError **error);


G_END_DECLS
