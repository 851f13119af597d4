/* XMP in PNG: an iTXt chunk keyed "XML:com.adobe.xmp" (XMP Specification Part 3, 1.1.5). */
#pragma once

#include <png.h>

#include "../image.h"

G_BEGIN_DECLS

#define LM_PNG_XMP_KEY "XML:com.adobe.xmp"
/* The largest packet read, once inflated: a raw converter's history stays far below it; a
 * few hundred kilobytes of compressed text could otherwise inflate to gigabytes. */
#define LM_PNG_XMP_MAX ((gsize) 16 << 20)

typedef enum {
  LM_PNG_XMP_NONE,      /* another chunk's text, or an empty packet */
  LM_PNG_XMP_READ,
  LM_PNG_XMP_TOO_LARGE, /* over LM_PNG_XMP_MAX once inflated */
  LM_PNG_XMP_DAMAGED,   /* its compressed text does not inflate, or its header is cut short */
} LmPngXmpRead;

/* The packet of an iTXt chunk whose data (as the file holds it: keyword, flags, language,
 * translated keyword, text) is DATA, LEN bytes, into *PACKET when the chunk is XMP's:
 * inflated where it is compressed, and never past LM_PNG_XMP_MAX. Other iTXt chunks are not
 * inflated at all. */
LmPngXmpRead lm_png_xmp_from_itxt (const guint8 *data, gsize len, GBytes **packet);

/* The export's packet (lm_xmp_for_export of IMAGE's) as an uncompressed iTXt chunk in INFO,
 * before png_write_info: readers that look only before the image data find it. */
void lm_png_set_xmp (png_structp png, png_infop info, const LmImage *image);

G_END_DECLS
