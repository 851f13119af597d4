/* gzip-compressed FITS (.fits.gz), inflated by Lumen rather than by cfitsio, which inflates a
 * whole file into memory whatever it holds: a 3 MB file may declare gigabytes. Here the stream
 * is inflated only as far as the HDU that will be read, and never beyond what the pixel
 * budget allows (core/pixel-budget.h). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when DATA is gzip whose first bytes inflate to a FITS file's first card. */
gboolean lm_fits_gzip_sniff (const guint8 *data, gsize len);

/* The FITS file that the gzip stream DATA holds, inflated through the HDU GOAL (as
 * lm_fits_walk takes it) and no further: refused (LM_ERROR_TOO_LARGE) as soon as GOAL's
 * header declares an image beyond the pixel budget, or when more than
 * lm_pixel_budget_file_bytes () would have to be inflated. Bytes cut short come back as they
 * are, for the header walker to say what is missing. Messages name PATH. */
GBytes *lm_fits_gunzip (const char *path, const guint8 *data, gsize len, guint goal, GError **error);

G_END_DECLS
