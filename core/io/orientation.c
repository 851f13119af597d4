#include "orientation.h"

#include <string.h>

#include "../error.h"
#include "exif.h"
#include "xmp.h"

LmImage *
lm_image_orient (LmImage *src, int orientation, GError **error)
{
  if (orientation <= 1 || orientation > 8)
    return lm_image_ref (src);

  gboolean swap = orientation >= 5;
  guint dw = swap ? src->height : src->width;
  guint dh = swap ? src->width : src->height;
  LmImage *dst = lm_image_new (src->format, dw, dh, src->allocator, error);
  if (dst == NULL)
    return NULL;
  dst->opaque = src->opaque;
  dst->source_bit_depth = src->source_bit_depth;
  lm_image_copy_metadata (dst, src);
  /* The turned image is what the loader gives: the notes of its reading go with it. */
  if (src->notes)
    dst->notes = g_ptr_array_ref (src->notes);

  gsize bpp = lm_format_bytes_per_pixel (src->format);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < dh; y++)
    {
      guint8 *out = lm_image_row (dst, y);
      for (guint x = 0; x < dw; x++)
        {
          guint sx, sy;
          lm_orientation_source_of (orientation, x, y, src->width, src->height, &sx, &sy);
          memcpy (out + x * bpp, lm_image_row (src, sy) + sx * bpp, bpp);
        }
    }
  return dst;
}

/* EXIF's Orientation where the block states one, XMP's tiff:Orientation where it does not:
 * exiftool ranks XMP's below EXIF's and gives it where EXIF has none, Exiv2 takes it into EXIF
 * (syncExifWithXmp) and digiKam reads it so; darktable reads EXIF's alone, and so agrees
 * wherever EXIF has one. Lumen's exports set both to 1. */
int
lm_io_orientation_of (GBytes *exif, GBytes *xmp)
{
  int stated = lm_exif_orientation_stated (exif);
  if (stated != 0)
    return stated;
  stated = lm_xmp_orientation (xmp);
  return stated != 0 ? stated : 1;
}

int
lm_io_orientation (const LmImage *image)
{
  return lm_io_orientation_of (image->exif, image->xmp);
}

LmImage *
lm_io_orient_upright (LmImage *image, const char *path, GError **error)
{
  return lm_io_orient_by (image, lm_io_orientation (image), path, error);
}

LmImage *
lm_io_orient_by (LmImage *image, int orientation, const char *path, GError **error)
{
  if (orientation <= 1 || orientation > 8)
    return image;
  GError *e = NULL;
  LmImage *upright = lm_image_orient (image, orientation, &e);
  lm_image_unref (image);
  if (upright == NULL)
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
    }
  return upright;
}
