/* A TIFF's pixels on every core: strips compressed in parallel on the way out, strips or
 * tiles decompressed in parallel on the way in. Contiguous 8- or 16-bit gray (+alpha) and
 * RGB(A), and those of floats, only: tiff.c sends every other integer layout through
 * libtiff's RGBA reader. */
#pragma once

#include <glib.h>
#include <tiffio.h>

#include "../image.h"

G_BEGIN_DECLS

/* Writes IMAGE's rows into TIF, whose tags are all set (RowsPerStrip, Compression and
 * Predictor among them), with SPP samples a pixel (3 drops IMAGE's alpha). Each strip is
 * compressed by libtiff's own codec in a TIFF in memory on a worker thread, then put into TIF
 * in order with TIFFWriteRawStrip, so the file's bytes are those that TIFFWriteScanline would
 * write. On failure MESSAGE (256 bytes) says why unless TIF's handler filled it already. */
gboolean lm_tiff_write_strips (TIFF *tif, const LmImage *image, guint spp, char *message);

/* A TIFF's samples as the readers below take them: SPP a pixel (gray, gray + alpha, RGB or
 * RGBA), each of BITS bits, unsigned integers (8 or 16 bits) or, when FLOATING, IEEE floats
 * (16-bit halves, floats or doubles). */
typedef struct {
  guint spp, bits;
  gboolean floating;
} LmTiffSamples;

/* Whether TIF (open on the first directory, of the layouts above) is read by
 * lm_tiff_read_pieces: tiled, or of several strips that are not too large for a buffer each
 * thread. A file of one strip is read row by row instead, a few rows in memory at a time. */
gboolean lm_tiff_reads_in_pieces (TIFF *tif);

/* Decodes the strips or tiles of TIF, the file DATA (LEN bytes) at PATH, into IMAGE (of
 * TIF's size and the format lm_tiff_convert_pixels makes of SAMPLES), each thread through a
 * TIFF of its own open on DATA. On failure MESSAGE (256 bytes) holds libtiff's first
 * complaint, or is left empty when libtiff had none. */
gboolean lm_tiff_read_pieces (const char *path, const guint8 *data, gsize len, TIFF *tif,
                              LmImage *image, const LmTiffSamples *samples, char *message);

/* N pixels at SRC as the file holds them (SAMPLES, host order as libtiff gives them) into
 * pixels of FORMAT at OUT: integer gray stays one channel (GRAY8, GRAY16), gray + alpha and
 * RGB become RGBA8 or RGBA16, 16-bit samples keep 16 bits in a 16-bit image and give their
 * high byte to an 8-bit one; float samples of any width become RGBA_F32, gray repeated in R,
 * G and B, alpha as stored (1 where the file has none). */
void lm_tiff_convert_pixels (const guint8 *src, guint8 *out, guint n, const LmTiffSamples *samples,
                             LmFormat format);

G_END_DECLS
