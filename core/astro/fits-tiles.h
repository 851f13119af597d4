/* Tile-compressed images (fits-tiles.c): what cfitsio allocates for them, checked first. */
#pragma once

#include <fitsio.h>
#include <glib.h>

G_BEGIN_DECLS

/* FALSE (naming SPEC) when the image at F's current HDU is tile-compressed and its tiles
 * are larger than the image (cfitsio allocates a whole tile's pixels, unclipped), a row's
 * descriptor points outside the table's heap (cfitsio allocates what a descriptor says
 * before it reads the tile), or a gzip tile inflates to more than a tile's pixels (cfitsio
 * grows its buffer for as long as the stream goes on). TRUE for any other HDU. */
gboolean lm_fits_check_tiles (fitsfile *f, const char *spec, GError **error);

G_END_DECLS
