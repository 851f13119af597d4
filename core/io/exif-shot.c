/* How a photo was taken, as the lens correction reads it (LmShotInfo): a camera raw's
 * metadata (LibRaw, core/raw-info.h) or the EXIF of any other file (libexif). */
#include "exif-shot.h"

#include <string.h>
#include <libexif/exif-data.h>

#include "../raw-info.h"

/* An ASCII entry's text, its trailing spaces (padding some cameras write) cut. */
static void
ascii_tag (ExifData *ed, ExifTag tag, char *out, gsize size)
{
  ExifEntry *entry = exif_data_get_entry (ed, tag);
  if (entry == NULL || entry->format != EXIF_FORMAT_ASCII || entry->size == 0)
    return;
  gsize n = MIN (entry->size, size - 1);
  memcpy (out, entry->data, n);
  out[n] = '\0';
  g_strchomp (out);
  if (!g_utf8_validate (out, -1, NULL))
    out[0] = '\0';
}

static float
rational_tag (ExifData *ed, ExifTag tag)
{
  ExifEntry *entry = exif_data_get_entry (ed, tag);
  if (entry == NULL || entry->components < 1)
    return 0.0f;
  ExifByteOrder order = exif_data_get_byte_order (ed);
  if (entry->format == EXIF_FORMAT_RATIONAL && entry->size >= 8)
    {
      ExifRational r = exif_get_rational (entry->data, order);
      return r.denominator ? (float) ((double) r.numerator / r.denominator) : 0.0f;
    }
  if (entry->format == EXIF_FORMAT_SHORT && entry->size >= 2)
    return exif_get_short (entry->data, order);
  return 0.0f;
}

static void
from_exif (GBytes *block, LmShotInfo *out)
{
  gsize len = 0;
  const guint8 *data = block ? g_bytes_get_data (block, &len) : NULL;
  if (data == NULL || len < 14 || len > G_MAXUINT)
    return;
  ExifData *ed = exif_data_new_from_data (data, (unsigned int) len);
  if (ed == NULL)
    return;
  ascii_tag (ed, EXIF_TAG_MAKE, out->make, sizeof out->make);
  ascii_tag (ed, EXIF_TAG_MODEL, out->model, sizeof out->model);
  ascii_tag (ed, EXIF_TAG_LENS_MODEL, out->lens, sizeof out->lens);
  out->focal_mm = rational_tag (ed, EXIF_TAG_FOCAL_LENGTH);
  out->f_number = rational_tag (ed, EXIF_TAG_FNUMBER);
  out->focal35_mm = rational_tag (ed, EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM);
  out->distance_m = rational_tag (ed, EXIF_TAG_SUBJECT_DISTANCE);
  exif_data_unref (ed);
}

void
lm_shot_info_from_image (const LmImage *image, LmShotInfo *out)
{
  memset (out, 0, sizeof *out);
  if (image->raw)
    {
      const LmRawInfo *raw = image->raw;
      g_strlcpy (out->make, raw->make ? raw->make : "", sizeof out->make);
      g_strlcpy (out->model, raw->model ? raw->model : "", sizeof out->model);
      g_strlcpy (out->lens, raw->lens ? raw->lens : "", sizeof out->lens);
      out->focal_mm = raw->focal_mm, out->f_number = raw->f_number;
      return;
    }
  from_exif (image->exif, out);
}
