/* A JPEG's metadata segments: which APP segments an export carries (EXIF, XMP, ICC, IPTC), as
 * libjpeg's writer puts them or inserted into a file that an encoder wrote without them
 * (nvJPEG's has no say in its markers), after SOI and JFIF's APP0; and the XMP packet and
 * IPTC blocks read from a file's segments. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

#define LM_JPEG_SEGMENT_MAX 65533 /* bytes a segment holds after its two length bytes */
#define LM_JPEG_XMP_HEADER "http://ns.adobe.com/xap/1.0/"
#define LM_JPEG_XMP_HEADER_LEN 29 /* with its NUL */
/* The largest ICC profile a JPEG holds: 255 APP2 chunks of a segment less their 14-byte
 * heads (ICC.1 B.4), 16,707,345 bytes. A larger profile is left out of a JPEG export. */
#define LM_JPEG_ICC_MAX ((gsize) 255 * (LM_JPEG_SEGMENT_MAX - 14))

typedef struct {
  guint8 marker; /* 0xe1 for APP1, … */
  GBytes *payload;
} LmJpegSegment;

/* The segments an export of IMAGE carries, in file order: APP1 EXIF (lm_exif_for_jpeg),
 * APP1 XMP (lm_xmp_for_export), APP2 ICC chunks (ICC.1 B.4), APP13 IPTC. A part larger than
 * JPEG's segments hold is left out (EXIF, XMP: extended XMP is not written) or split (ICC
 * in up to 255 chunks, IPTC across APP13 segments as Photoshop does). An array of
 * LmJpegSegment that frees the payloads. */
GArray *lm_jpeg_export_segments (const LmImage *image);

/* What lm_jpeg_export_segments leaves out that changes how the file reads (a profile larger
 * than a JPEG holds: its colours then read as sRGB), as sentences added to NOTES (of char *;
 * NULL: nobody asked). Every JPEG writer, the CPU's and nvJPEG's, says it. */
void lm_jpeg_note_left_out (const LmImage *image, GPtrArray *notes);

/* JPEG (a complete file) with SEGMENTS inserted where libjpeg's writer puts them. JPEG itself
 * when it does not start with SOI or SEGMENTS is empty. */
GBytes *lm_jpeg_insert_segments (const guint8 *jpeg, gsize len, GArray *segments);

/* JPEG with the segments an export of IMAGE carries (lm_jpeg_export_segments). */
GBytes *lm_jpeg_insert_image_metadata (const guint8 *jpeg, gsize len, const LmImage *image);

/* JPEG (a complete file) with EXIF (an APP1 payload, "Exif\0\0" and the TIFF block; left out
 * when larger than a segment holds) and ICC (a profile, in APP2 chunks as ICC.1 B.4 says),
 * either may be NULL. JPEG itself when it does not start with SOI. */
GBytes *lm_jpeg_insert_metadata (const guint8 *jpeg, gsize len, GBytes *exif, GBytes *icc);

/* Reading, segment by segment in file order: the packet of an APP1 XMP segment (the first
 * one; *XMP is left as it is when already set or when PAYLOAD is not one), and the resource
 * bytes of an APP13 "Photoshop 3.0" segment appended to PHOTOSHOP (readers join them). */
void lm_jpeg_segment_xmp (const guint8 *payload, gsize len, GBytes **xmp);
void lm_jpeg_segment_photoshop (const guint8 *payload, gsize len, GByteArray *photoshop);

G_END_DECLS
