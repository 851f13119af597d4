/* The products of source detection: the catalogue (CSV, or a FITS binary table) and the
 * label image (FITS). Each is written to a temporary file and renamed (core/io/atomic-file.h):
 * never a partial file under the final name. */
#pragma once

#include <glib.h>

#include "detect.h"

G_BEGIN_DECLS

/* One row a source, the columns named in the header line; positions also 1-based for FITS
 * (x_fits = x + 1). */
gboolean lm_catalogue_write_csv (const char *path, const LmDetectResult *result, GError **error);
/* A FITS file with an empty primary HDU and a BINTABLE of the same columns. */
gboolean lm_catalogue_write_fits (const char *path, const LmDetectResult *result, GError **error);
/* The label image as a 32-bit integer FITS image (0: background). */
gboolean lm_labels_write_fits (const char *path, const LmDetectResult *result, GError **error);

G_END_DECLS
