/* A PNG's image data (its IDAT chunks), filtered and compressed in parallel. libpng filters
 * and deflates on one thread: 6.4 s for a 24 MP photo on two cores. Here the rows are cut
 * into fixed runs, each filtered and deflated on its own thread into a raw deflate piece that
 * ends on a byte boundary (Z_SYNC_FLUSH, as pigz does), primed with the 32 KiB that precede
 * it so that matches still reach across the cut; the pieces concatenate into the one zlib
 * stream PNG requires, and their Adler-32 sums combine. The runs depend on the image only,
 * never on the number of threads: the same image gives the same bytes on every machine. */
#pragma once

#include <stdio.h>
#include <glib.h>

#include "../image.h"
#include "io.h"

G_BEGIN_DECLS

/* The IDAT chunks of IMAGE (GRAY8/16 or RGBA8/16; with CHANNELS 3 the alpha samples are
 * left out), compressed at zlib LEVEL 0..9, written to STREAM after the chunks libpng wrote
 * before the image data. On a write failure returns FALSE with errno set; ERROR says why
 * for anything else (no memory, a zlib failure). */
gboolean lm_png_write_image_data (FILE *stream, const LmImage *image, guint channels, int level,
                                  int *write_errno, GError **error);

/* The IEND chunk that ends the file. */
gboolean lm_png_write_end_chunk (FILE *stream);

G_END_DECLS
