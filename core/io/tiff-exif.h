/* A TIFF's metadata: the source's EXIF written into a TIFF made with libtiff (IFD 0's
 * descriptive tags in the image's directory, the rest in EXIF and GPS sub-IFDs), XMP and
 * IPTC beside it; and all of them read from a TIFF. */
#pragma once

#include <glib.h>
#include <tiffio.h>

#include "../image.h"

G_BEGIN_DECLS

/* Call on a TIFF just opened for writing, before any tag of the image is set: writes the EXIF
 * and GPS sub-IFDs of the cleaned copy of IMAGE's EXIF (lm_exif_for_export), then starts a
 * fresh image directory holding IFD 0's descriptive tags and the sub-IFD pointers. Does
 * nothing when IMAGE has no EXIF. Entries libtiff cannot take are logged (debug) and
 * skipped, never fatal; MESSAGE is the buffer TIF's error handler fills, emptied after each
 * such complaint so that it is not reported as the file's error. */
void lm_tiff_write_exif (TIFF *tif, const LmImage *image, const char *path, char *message);

/* lm_tiff_write_exif, then in the image's directory Software (Lumen and its version), the XMP
 * packet (lm_xmp_for_export) in tag 700 and the IPTC records in tag 33723 (IPTC/NAA). */
void lm_tiff_write_metadata (TIFF *tif, const LmImage *image, const char *path, char *message);

/* Into IMAGE, from the TIFF file DATA (LEN bytes) open as TIF at its first directory: the
 * EXIF of IFD 0's descriptive tags and of the EXIF and GPS IFDs as a JPEG-style block
 * (values copied as stored; Orientation left out: the loader applies it to the pixels), the
 * XMP packet (tag 700) and the IPTC (Photoshop's resource blocks of tag 34377, or else the
 * records of tag 33723 as one block). */
void lm_tiff_read_metadata (TIFF *tif, const guint8 *data, gsize len, LmImage *image);

/* The EXIF block (as LmImage.exif holds it) of the TIFF-structured file DATA (LEN bytes): IFD 0's
 * descriptive tags and the EXIF and GPS IFDs, read where they lie, without libtiff; NULL where
 * DATA is not a TIFF or states none. A raw built on TIFF (CR2, NEF, DNG) has its EXIF there too. */
GBytes *lm_tiff_exif_block (const guint8 *data, gsize len);

G_END_DECLS
