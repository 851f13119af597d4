/* The codecs behind io.c; each reads or writes one family of formats and declares it as an
 * LmFileFormat, which io.c walks (as libvips's foreign classes declare their suffixes and
 * sniffers): adding a format is one file and one line of io.c's list, no switch. */
#pragma once

#include <string.h>
#include <glib.h>

#include "atomic-file.h"
#include "../error.h"
#include "../image.h"
#include "io.h"

G_BEGIN_DECLS

typedef LmImage *(*LmFileLoad) (const char *path, const guint8 *data, gsize len,
                                const LmAllocator *allocator, GError **error);
typedef gboolean (*LmFileSave) (const LmImage *image, LmAtomicFile *file, const LmSaveOptions *options,
                                GError **error);

/* A file format as its codec declares it. */
typedef struct {
  LmFileType type;
  const char *name;            /* for people: "JPEG", "Radiance HDR" */
  const char *const *suffixes; /* what an output's name ends in (".jpg"), NULL-terminated;
                                * NULL where Lumen writes no such files */
  /* Whether the LEN bytes of a file (its first ones, or all of it) are of this format. */
  gboolean (*sniff) (const guint8 *data, gsize len);
  LmFileLoad load;             /* DATA: the whole file */
  LmFileSave save;             /* NULL: not written */
  const char *no_save;         /* N_(): why this build cannot write the files SUFFIXES name */
  gboolean radiance;           /* holds linear float radiance, not 8- or 16-bit pixels */
  const char *wrong_kind;      /* N_(): why an image of the other kind does not go in it;
                                * NULL: io.c's sentence for 8- and 16-bit formats */
} LmFileFormat;

extern const LmFileFormat lm_file_format_jpeg, lm_file_format_png, lm_file_format_tiff,
  lm_file_format_webp, lm_file_format_bmp, lm_file_format_gif, lm_file_format_radiance,
  lm_file_format_exr, lm_file_format_fits;
extern const LmFileFormat lm_file_format_raw;

/* OpenEXR's magic number, for exr.c and, in a build without the library, exr-absent.c. */
static inline gboolean
lm_exr_sniff (const guint8 *h, gsize n)
{
  return n >= 4 && memcmp (h, "\x76\x2f\x31\x01", 4) == 0;
}

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
