/* The source's EXIF written into a TIFF made with libtiff: IFD 0's descriptive tags in the
 * image's directory, the rest in EXIF and GPS sub-IFDs. */
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

G_END_DECLS
