/* Metadata put into a JPEG file that an encoder wrote without it (nvJPEG's has no say in
 * its markers): where libjpeg's writer puts them, after SOI and JFIF's APP0. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* JPEG (a complete file) with EXIF (an APP1 payload, "Exif\0\0" and the TIFF block; left out
 * when larger than a segment holds) and ICC (a profile, in APP2 chunks as ICC.1 B.4 says),
 * either may be NULL. JPEG itself when it does not start with SOI. */
GBytes *lm_jpeg_insert_metadata (const guint8 *jpeg, gsize len, GBytes *exif, GBytes *icc);

G_END_DECLS
