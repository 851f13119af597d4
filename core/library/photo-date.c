#include "photo-date.h"

#include <string.h>
#include <libexif/exif-data.h>

#include "../io/file-read.h"
#include "../io/io.h"
#include "../io/raw.h"
#include "../io/tiff-exif.h"

/* The ASCII value of TAG in the EXIF IFD, at most SIZE - 1 characters, NUL-terminated; FALSE
 * where it is absent or not text. */
static gboolean
exif_text (ExifData *ed, ExifTag tag, char *out, gsize size)
{
  ExifEntry *entry = exif_content_get_entry (ed->ifd[EXIF_IFD_EXIF], tag);
  if (entry == NULL || entry->format != EXIF_FORMAT_ASCII || entry->data == NULL || entry->size == 0)
    return FALSE;
  gsize n = MIN ((gsize) entry->size, size - 1);
  memcpy (out, entry->data, n);
  out[n] = '\0';
  return TRUE;
}

/* "+HH:MM" or "-HH:MM" (EXIF 2.31's OffsetTime*) as a zone; NULL where TEXT is not one. */
static GTimeZone *
zone_of_offset (const char *text)
{
  int hours, minutes;
  char sign, end;
  if (sscanf (text, "%c%2d:%2d%c", &sign, &hours, &minutes, &end) != 3 || (sign != '+' && sign != '-')
      || hours < 0 || hours > 14 || minutes < 0 || minutes > 59 || strlen (text) != 6)
    return NULL;
  gint32 seconds = (hours * 3600 + minutes * 60) * (sign == '-' ? -1 : 1);
  return g_time_zone_new_offset (seconds);
}

/* "YYYY:MM:DD HH:MM:SS" in ZONE (local time when NULL); FALSE for the blank or zeroed forms
 * cameras write when their clock was never set, and for any other text. */
static gboolean
parse_exif_time (const char *text, GTimeZone *zone, gint64 *unix_seconds)
{
  int y, mo, d, h, mi, s;
  char end;
  if (strlen (text) != 19 || sscanf (text, "%4d:%2d:%2d %2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &end) != 6)
    return FALSE;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60)
    return FALSE;
  g_autoptr (GTimeZone) local = zone ? NULL : g_time_zone_new_local ();
  g_autoptr (GDateTime) t = g_date_time_new (zone ? zone : local, y, mo, d, h, mi, MIN (s, 59));
  if (t == NULL)
    return FALSE;
  *unix_seconds = g_date_time_to_unix (t);
  return TRUE;
}

static gboolean
date_of (ExifData *ed, ExifTag time_tag, ExifTag offset_tag, gint64 *unix_seconds)
{
  char text[32], offset[16];
  if (!exif_text (ed, time_tag, text, sizeof text))
    return FALSE;
  g_autoptr (GTimeZone) zone = exif_text (ed, offset_tag, offset, sizeof offset) ? zone_of_offset (offset) : NULL;
  return parse_exif_time (text, zone, unix_seconds);
}

gboolean
lm_photo_date_from_exif (const guint8 *data, gsize len, gint64 *unix_seconds)
{
  if (data == NULL || len < 14)
    return FALSE;
  ExifData *ed = exif_data_new_from_data (data, (unsigned int) MIN (len, G_MAXUINT));
  if (ed == NULL)
    return FALSE;
  gboolean found = date_of (ed, EXIF_TAG_DATE_TIME_ORIGINAL, EXIF_TAG_OFFSET_TIME_ORIGINAL, unix_seconds)
                   || date_of (ed, EXIF_TAG_DATE_TIME_DIGITIZED, EXIF_TAG_OFFSET_TIME_DIGITIZED, unix_seconds);
  exif_data_unref (ed);
  return found;
}

/* The EXIF of a TIFF-structured file, read from its IFDs where they lie in the mapping. */
static gboolean
tiff_date (const guint8 *data, gsize len, gint64 *unix_seconds)
{
  g_autoptr (GBytes) block = lm_tiff_exif_block (data, len);
  return block && lm_photo_date_from_exif (g_bytes_get_data (block, NULL), g_bytes_get_size (block), unix_seconds);
}

gboolean
lm_photo_date_taken (const char *photo, gint64 *unix_seconds, GError **error)
{
  g_autoptr (GBytes) bytes = lm_file_map (photo, LM_FILE_KIND_IMAGE, G_MAXUINT64, error);
  if (bytes == NULL)
    return FALSE;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gboolean tiff_structured = len >= 8 && (memcmp (data, "II*\0", 4) == 0 || memcmp (data, "MM\0*", 4) == 0);
  gint64 t = 0;
  gboolean found = FALSE;
  switch (lm_file_type_sniff (data, len))
    {
    case LM_FILE_JPEG:
      found = lm_photo_date_from_exif (data, len, &t);
      break;
    case LM_FILE_TIFF:
      found = tiff_structured && tiff_date (data, len, &t);
      break;
    case LM_FILE_RAW:
      /* The EXIF IFD states the zone where the camera wrote one; LibRaw's timestamp, the
       * same clock taken as local time, reads the makers' other containers (CR3, RAF, …). */
      found = (tiff_structured && tiff_date (data, len, &t))
              || (lm_raw_date_taken (photo, data, len, &t, NULL) && t > 0);
      break;
    default:
      break;
    }
  if (found)
    *unix_seconds = t;
  return found;
}
