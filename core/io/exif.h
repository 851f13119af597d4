/* EXIF through libexif: exposure times for HDR stacks, orientation on load, and a cleaned
 * copy of the source's EXIF for export. Blocks are APP1 payloads ("Exif\0\0" + TIFF). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What an APP1 payload of EXIF begins with. */
#define LM_EXIF_HEADER "Exif\0\0"
#define LM_EXIF_HEADER_LEN 6

/* A block as LmImage holds EXIF, from a container's EXIF (PNG's eXIf, WebP's EXIF chunk):
 * the TIFF structure alone, as their specifications have it, or, from some writers, with the
 * header before it already. */
GBytes *lm_exif_block_from_tiff (const guint8 *data, gsize len);

/* The EXIF Orientation (1..8) of BLOCK; 1 when absent or unreadable. */
int lm_exif_orientation (GBytes *block);
/* The same, but 0 where BLOCK states none (absent, unreadable, out of range): whether another
 * place may decide (orientation.c). */
int lm_exif_orientation_stated (GBytes *block);

/* ExposureTime in seconds from BLOCK (as LmImage.exif holds it), or 0 where it gives none. */
double lm_exif_exposure_seconds (GBytes *block);

/* ExposureTime in seconds from the EXIF of the file at PATH; from a camera raw's metadata
 * (LibRaw, core/io/raw.h) when PATH is one. */
gboolean lm_exif_exposure_time (const char *path, double *seconds, GError **error);

/* BLOCK rewritten for an exported image of WIDTH×HEIGHT: orientation 1 (pixels are stored
 * upright), Software "Lumen <version>", dimensions updated, the embedded thumbnail dropped
 * (it shows the unedited photo). NULL when BLOCK is NULL or unreadable. */
GBytes *lm_exif_for_export (GBytes *block, guint width, guint height);

/* lm_exif_for_export for a JPEG written by libjpeg: with the entries EXIF requires of a
 * JPEG's block (ComponentsConfiguration, YCbCrPositioning, PixelX/YDimension) added where
 * the source had none, as a TIFF source has not. */
GBytes *lm_exif_for_jpeg (GBytes *block, guint width, guint height);

G_END_DECLS
