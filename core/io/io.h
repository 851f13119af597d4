/* Reading and writing image files. Every failure is a GError whose message names the file
 * and the cause, ready to show to the user as it is. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

typedef enum {
  LM_FILE_UNKNOWN,
  LM_FILE_JPEG,
  LM_FILE_PNG,
  LM_FILE_TIFF,
  LM_FILE_WEBP,
  LM_FILE_BMP,
  LM_FILE_GIF,
  LM_FILE_RADIANCE,
  LM_FILE_EXR,
  LM_FILE_FITS, /* astronomy data: loaded as LM_FORMAT_GRAY_F32, not written */
  LM_FILE_RAW,  /* a camera's raw file (LibRaw): loaded undeveloped, not written */
} LmFileType;

typedef struct {
  int quality;     /* JPEG quality 1..100 */
  gboolean to_srgb; /* convert the pixels from their ICC profile to sRGB (core/color/convert.h)
                     * and embed sRGB's; FALSE keeps the source's profile and values */
  int png_level;    /* PNG zlib level 0..9: 0 stores, 1 is the fastest; start from
                     * LM_SAVE_OPTIONS_INIT, as a zeroed struct would store */
  gboolean nvjpeg;  /* JPEG: encode on the GPU where the render's result is there
                     * (core/render/jpeg-gpu.h); lm_io_save itself always encodes on the CPU */
  guint depth;      /* 16: an 8-bit photo is rendered at 16 bits per channel and so written, where
                     * the format holds 16 (PNG, TIFF), the render's gradations kept (the render
                     * job and lumen-cli --depth 16 do it: core/io/depth.h); 0 or 8: as the photo
                     * renders. lm_io_save itself writes the image's own depth */
  GPtrArray *notes; /* of char *, may be NULL: where a writer says what of the image it could
                     * not write as it is (a profile too large for the format), as sentences
                     * without the file's name, for the caller to show */
} LmSaveOptions;

/* The PNG level when none is asked for: see docs/files.md, "PNG". */
#define LM_PNG_LEVEL_MIN 0
#define LM_PNG_LEVEL_MAX 9
#define LM_PNG_LEVEL_DEFAULT 1

#define LM_SAVE_OPTIONS_INIT { .quality = 92, .png_level = LM_PNG_LEVEL_DEFAULT }

/* The type a file's first bytes announce, whatever its name says. */
LmFileType lm_file_type_sniff (const guint8 *head, gsize len);

/* The type an output path's extension asks for, or LM_FILE_UNKNOWN. */
LmFileType lm_file_type_for_output (const char *path);
const char *lm_file_type_name (LmFileType type);

/* Whether files of TYPE hold linear float radiance (Radiance HDR, OpenEXR), not 8-bit pixels. */
gboolean lm_file_type_is_radiance (LmFileType type);

/* Whether this build writes TYPE; when not, ERROR says why (OpenEXR is an optional library). */
gboolean lm_file_type_writable (LmFileType type, GError **error);

/* Loads PATH into memory from ALLOCATOR (pinned host memory when CUDA is present).
 * 8-bit files become LM_FORMAT_RGBA8 (GRAY8 for gray PNG and TIFF) with EXIF orientation
 * applied; 16-bit PNG and TIFF files LM_FORMAT_RGBA16 (GRAY16); Radiance and OpenEXR files
 * become LM_FORMAT_RGBA_F32. Camera raw files load undeveloped and unturned, with their
 * LmRawInfo (image->raw): LM_FORMAT_CFA16 (sensor data behind a colour filter array),
 * GRAY16 (a monochrome sensor) or RGBA16 (LinearRaw, sRAW: camera RGB). The ICC profile and
 * EXIF block travel on the image. */
LmImage *lm_io_load (const char *path, const LmAllocator *allocator, GError **error);

/* Told of the image a load decodes into, allocated, once the file's header is read and before
 * its pixels are decoded (the decoder writes them from the first row on), on the loading
 * thread: for what a caller can prepare beside the decoding. A photo turned upright by its
 * EXIF orientation is told as decoded. */
typedef void (*LmIoImageFunc) (LmImage *image, gpointer data);

/* As lm_io_load, telling TOLD (with DATA) of the image at most once. A loader that learns
 * the image's shape only with the pixels (gdk-pixbuf's) tells it before copying them. */
LmImage *lm_io_load_telling (const char *path, const LmAllocator *allocator, LmIoImageFunc told, gpointer data,
                             GError **error);

/* As lm_io_load, from the LEN bytes of a file already read into memory (DATA must stay
 * valid for the call only); PATH names the file in messages. */
LmImage *lm_io_load_from_memory (const char *path, const guint8 *data, gsize len,
                                 const LmAllocator *allocator, GError **error);

/* Checks, before any work is done, that PATH names a format we write and a place we can
 * create files in. */
gboolean lm_io_check_output (const char *path, GError **error);
/* Whether a file can be created at PATH (not a folder, a place that takes files), whatever
 * its format: checked by creating and dropping one. */
gboolean lm_io_check_writable (const char *path, GError **error);

/* Writes IMAGE (host memory) to PATH, by PATH's extension, through a temporary file that is
 * renamed into place: PATH is never left partly written. A 16-bit image is written as 16-bit
 * PNG or TIFF, and rounded to 8 bits for JPEG (lm_image_to_depth8). */
gboolean lm_io_save (const LmImage *image, const char *path, const LmSaveOptions *options,
                     GError **error);

G_END_DECLS
