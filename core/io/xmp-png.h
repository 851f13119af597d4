/* XMP in PNG: an iTXt chunk keyed "XML:com.adobe.xmp" (XMP Specification Part 3, 1.1.5). */
#pragma once

#include <png.h>

#include "../image.h"

G_BEGIN_DECLS

#define LM_PNG_XMP_KEY "XML:com.adobe.xmp"

/* The packet of the first XMP chunk libpng has read into INFO (compressed or not), into
 * IMAGE->xmp. Call once the file is read to its end: the chunk may follow the image data. */
void lm_png_read_xmp (png_structp png, png_infop info, LmImage *image);

/* The export's packet (lm_xmp_for_export of IMAGE's) as an uncompressed iTXt chunk in INFO,
 * before png_write_info: readers that look only before the image data find it. */
void lm_png_set_xmp (png_structp png, png_infop info, const LmImage *image);

G_END_DECLS
