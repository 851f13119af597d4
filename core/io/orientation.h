#pragma once

#include "../image.h"

G_BEGIN_DECLS

/* For each EXIF orientation, where the output pixel (x, y) is read in the stored image of
 * width w and height h. Orientations 5..8 swap the sides. */
static inline void
lm_orientation_source_of (int orientation, guint x, guint y, guint w, guint h, guint *sx, guint *sy)
{
  switch (orientation)
    {
    case 2: *sx = w - 1 - x; *sy = y; break;             /* mirrored */
    case 3: *sx = w - 1 - x; *sy = h - 1 - y; break;     /* rotated 180° */
    case 4: *sx = x; *sy = h - 1 - y; break;             /* mirrored vertically */
    case 5: *sx = y; *sy = x; break;                     /* transposed */
    case 6: *sx = y; *sy = h - 1 - x; break;             /* to be turned 90° clockwise */
    case 7: *sx = w - 1 - y; *sy = h - 1 - x; break;     /* transversed */
    case 8: *sx = w - 1 - y; *sy = x; break;             /* to be turned 90° anticlockwise */
    default: *sx = x; *sy = y; break;
    }
}


/* A copy of SRC turned upright according to EXIF ORIENTATION (1..8); a new reference to
 * SRC when ORIENTATION is 1. */
LmImage *lm_image_orient (LmImage *src, int orientation, GError **error);

/* The orientation (1..8) the file's metadata gives IMAGE's stored pixels: EXIF's, or where
 * the EXIF block states none, XMP's tiff:Orientation; 1 when neither does. */
int lm_io_orientation (const LmImage *image);
/* The same, of an EXIF block and an XMP packet (either may be NULL) not yet on an image. */
int lm_io_orientation_of (GBytes *exif, GBytes *xmp);

/* How every loader ends: IMAGE (taken) turned upright by lm_io_orientation, so that the
 * export's Orientation 1 is true; NULL with an error naming PATH when there is no memory
 * for the turn. Each loader that can carry an orientation calls it, none turns on its own. */
LmImage *lm_io_orient_upright (LmImage *image, const char *path, GError **error);

/* As lm_io_orient_upright, by ORIENTATION (1..8; others leave IMAGE as it is) where the file
 * gives it elsewhere than in its EXIF block (a TIFF's own Orientation tag). */
LmImage *lm_io_orient_by (LmImage *image, int orientation, const char *path, GError **error);

G_END_DECLS
