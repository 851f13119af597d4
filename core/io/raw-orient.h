#pragma once

#include "../image.h"

G_BEGIN_DECLS

/* A camera raw's sensor data (CFA16, RGBA16 or GRAY16 with image->raw) turned upright by its
 * raw->orientation, with the colour filter pattern, the black table and the crop turned with
 * it and the orientation then 1; a new reference to IMAGE when it is upright already. The
 * mosaic is turned rather than the developed result so that every size Lumen computes (the
 * pipeline's, the view's, the tiles') is the upright one from the start: the turn moves whole
 * sites, and the demosaics treat rows and columns alike. */
LmImage *lm_raw_orient (LmImage *image, GError **error);

G_END_DECLS
