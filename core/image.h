/* LmImage: a 2-D pixel buffer in host or device memory, with checked size arithmetic.
 *
 * Storage is not compute: sources stay as decoded (8-bit or 16-bit RGBA), operations read
 * their source's depth and compute in float registers, and store only what the next step
 * needs (gray after a full grayscale, 32-bit float RGBA for HDR radiance). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  LM_FORMAT_GRAY8,    /* 1 byte per pixel */
  LM_FORMAT_RGBA8,    /* 4 bytes per pixel: R, G, B, A in memory order */
  LM_FORMAT_RGBA_F32, /* 16 bytes per pixel: linear float (HDR radiance), alpha 1 */
  LM_FORMAT_RGBE8,    /* 4 bytes per pixel: Radiance's R, G, B and shared exponent
                       * (core/ops/rgbe-math.h), as a .hdr file stores it */
  LM_FORMAT_RGBA16,   /* 8 bytes per pixel: 16-bit R, G, B, A in memory order, host endian */
  LM_FORMAT_GRAY16,   /* 2 bytes per pixel, host endian */
  LM_FORMAT_GRAY_F32, /* 4 bytes per pixel: one float, as measured (FITS data, core/astro);
                       * NaN marks a blank pixel */
  LM_FORMAT_CFA16,    /* 2 bytes per pixel, host endian: a camera's sensor data, one sample per
                       * site, its colour given by the image's raw metadata (core/raw-info.h).
                       * Never displayed or saved: the raw development (core/raw) turns it into
                       * RGBA_F32 scene light. Not GRAY16, so that no operation takes it for one. */
} LmFormat;

typedef enum {
  LM_MEMORY_HOST,
  LM_MEMORY_DEVICE,
} LmMemory;

/* Rows start on this boundary so that every row allows 16-byte vector loads on both
 * the CPU and the GPU, and threads writing neighbouring rows never share a cache line. */
#define LM_ROW_ALIGN 64

/* What we accept: large panoramas pass; a forged header asking for terabytes does not. The
 * pixel count bounds the total (and the memory budget, core/pixel-budget.c, what this machine
 * can hold); a side may be as long as PNG allows (2³¹ − 1), so that strips such as 1 × 70000
 * load. TIFF's 2³² − 1 is past any side the pixel count admits, and sides stay within int for
 * the kernels' signed arithmetic. JPEG keeps its own 65,535 in its decoder. */
#define LM_IMAGE_MAX_SIDE   2147483647u
#define LM_IMAGE_MAX_PIXELS (G_GUINT64_CONSTANT (1) << 30)

typedef struct _LmAllocator LmAllocator;
struct _LmAllocator {
  const char *name;
  LmMemory memory;
  gpointer (*alloc) (const LmAllocator *self, gsize size, GError **error);
  void (*free) (const LmAllocator *self, gpointer mem);
  gpointer user_data;
};

typedef struct {
  guint width;
  guint height;
  gsize stride;    /* bytes from one row to the next */
  LmFormat format;
  gboolean opaque; /* no pixel is transparent, so alpha can be dropped */
  guint source_bit_depth; /* bits per channel in the file; above lm_format_depth (format) when a
                           * loader read it at fewer (a 16-bit TIFF layout read as 8 bits) */
  guint8 *data;
  const LmAllocator *allocator;

  /* Metadata carried from the source to the export; NULL when absent. */
  GBytes *icc_profile; /* ICC profile, raw bytes */
  GBytes *exif;        /* EXIF block as found in a JPEG APP1 segment, after "Exif\0\0" */
  GBytes *xmp;         /* XMP packet, the XML text as found in a JPEG APP1 segment after
                        * "http://ns.adobe.com/xap/1.0/\0", a PNG iTXt XML:com.adobe.xmp
                        * chunk or TIFF tag 700 */
  GBytes *iptc;        /* JPEG APP13 payload after "Photoshop 3.0\0": the image resource
                        * blocks that hold IPTC-IIM */
  gboolean raw_scene; /* RGBA_F32 scene light developed from camera raws (a merge of raw
                       * brackets): displayed in 16 bits as a raw is, in Rec. 2020, which a .hdr
                       * cannot say. Not copied with the metadata. */
  struct _LmRawInfo *raw; /* a camera raw's sensor layout, levels, white balance and matrices
                           * (core/raw-info.h): set on CFA16 sources by the raw loader; NULL
                           * otherwise. Not copied with the metadata: a developed image is no
                           * longer sensor data. */
  GPtrArray *notes;    /* of char *: what the loader could not take as the file has it and
                        * what it did instead ("its ICC profile ... : colours are taken as
                        * sRGB"), sentences without the file's name, for the user to see;
                        * NULL when none. Not copied with the metadata: they are the load's. */

  /*< private >*/
  gint ref_count;
  gsize capacity; /* bytes at DATA: lm_image_reshape may use them all */
} LmImage;

/* Plain page-aligned host memory. */
const LmAllocator *lm_allocator_host (void);

guint lm_format_channels (LmFormat format);
/* Bits per channel: 8 (GRAY8, RGBA8, RGBE8), 16 (GRAY16, RGBA16, CFA16), 32 (RGBA_F32, GRAY_F32). */
guint lm_format_depth (LmFormat format);
/* The format of FORMAT's depth with 1 or 4 channels: how an operation that makes gray (or
 * colour) keeps its source's depth. RGBA_F32 and RGBE8 have no gray twin and come back
 * unchanged. */
LmFormat lm_format_gray_of (LmFormat format);
LmFormat lm_format_rgba_of (LmFormat format);
gsize lm_format_bytes_per_pixel (LmFormat format);
const char *lm_format_name (LmFormat format);

/* Stride and total size for an image of this shape, or an error when it is out of
 * bounds or the arithmetic would overflow. */
gboolean lm_image_layout (LmFormat format, guint width, guint height, gsize *stride,
                          gsize *size, GError **error);

LmImage *lm_image_new (LmFormat format, guint width, guint height,
                       const LmAllocator *allocator, GError **error);
LmImage *lm_image_ref (LmImage *image);
void lm_image_unref (LmImage *image);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmImage, lm_image_unref)

/* Gives IMAGE another format and size within the bytes it already holds, where they suffice
 * and nobody else holds a reference: how a cache keeps one buffer when an operation's output
 * switches between formats, instead of freeing it and allocating another. The pixels are then
 * undefined; the metadata is kept. FALSE, and IMAGE unchanged, otherwise. */
gboolean lm_image_reshape (LmImage *image, LmFormat format, guint width, guint height);

/* Faults in the pages of IMAGE (host memory) now, a huge page at a time until *STOP (may be
 * NULL) turns non-zero: the kernel's zeroing of fresh pages then happens here, on this thread,
 * not inside the first operation that writes them. IMAGE's pixels are undefined afterwards
 * (where the kernel cannot populate pages, a byte of each is written). Returns how many
 * bytes are faulted in. */
gsize lm_image_prefault (LmImage *image, const gint *stop);

gsize lm_image_size_bytes (const LmImage *image);
gboolean lm_image_same_shape (const LmImage *a, const LmImage *b);
void lm_image_copy_metadata (LmImage *dst, const LmImage *src);
/* The W × H pixels of IMAGE (host memory) from (X, Y), which must lie inside it, copied into
 * a new image of ALLOCATOR's (host memory), with IMAGE's opacity but not its metadata. */
LmImage *lm_image_cut (const LmImage *image, guint x, guint y, guint w, guint h, const LmAllocator *allocator,
                       GError **error);

/* Adds a note (see LmImage.notes). */
void lm_image_add_note (LmImage *image, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* The notes joined by "; ", or NULL when there are none. */
char *lm_image_notes_text (const LmImage *image);

static inline guint8 *
lm_image_row (const LmImage *image, guint y)
{
  return image->data + (gsize) y * image->stride;
}

G_END_DECLS
