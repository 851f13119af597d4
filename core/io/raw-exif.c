/* An EXIF block for what is developed from a raw, made from its LmRawInfo with libexif:
 * the shooting data a photographer looks for, not the raw's TIFF structure, whose maker notes
 * and sensor IFDs would carry megabytes into every export. */
#include "raw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <libexif/exif-data.h>

/* A new entry TAG of IFD, FORMAT × COMPONENTS, its data zeroed, held by the IFD; NULL when
 * libexif has no memory. */
static ExifEntry *
add_entry (ExifData *ed, ExifIfd ifd, ExifTag tag, ExifFormat format, unsigned long components)
{
  ExifMem *mem = exif_mem_new_default ();
  ExifEntry *entry = exif_entry_new_mem (mem);
  unsigned int size = exif_format_get_size (format) * components;
  void *data = exif_mem_alloc (mem, size);
  if (entry != NULL && data != NULL)
    {
      memset (data, 0, size);
      entry->tag = tag;
      entry->format = format;
      entry->components = components;
      entry->size = size;
      entry->data = data;
      exif_content_add_entry (ed->ifd[ifd], entry);
      exif_entry_unref (entry); /* the IFD holds it */
    }
  else
    {
      exif_mem_free (mem, data);
      if (entry != NULL)
        exif_entry_unref (entry);
      entry = NULL;
    }
  exif_mem_unref (mem);
  return entry;
}

static void
set_text (ExifData *ed, ExifIfd ifd, ExifTag tag, const char *text)
{
  if (text == NULL || *text == '\0')
    return;
  gsize n = strlen (text) + 1;
  ExifEntry *entry = add_entry (ed, ifd, tag, EXIF_FORMAT_ASCII, n);
  if (entry != NULL)
    memcpy (entry->data, text, n);
}

static void
set_short (ExifData *ed, ExifIfd ifd, ExifTag tag, guint value)
{
  ExifEntry *entry = add_entry (ed, ifd, tag, EXIF_FORMAT_SHORT, 1);
  if (entry != NULL)
    exif_set_short (entry->data, exif_data_get_byte_order (ed), (ExifShort) MIN (value, G_MAXUINT16));
}

static void
set_rational (ExifData *ed, ExifIfd ifd, ExifTag tag, double numerator, double denominator)
{
  if (!(numerator > 0 && denominator > 0 && numerator < G_MAXUINT32 && denominator < G_MAXUINT32))
    return;
  ExifEntry *entry = add_entry (ed, ifd, tag, EXIF_FORMAT_RATIONAL, 1);
  ExifRational r = { (ExifLong) numerator, (ExifLong) denominator };
  if (entry != NULL)
    exif_set_rational (entry->data, exif_data_get_byte_order (ed), r);
}

/* Tenths, as cameras state apertures and focal lengths. */
static void
set_tenths (ExifData *ed, ExifIfd ifd, ExifTag tag, float value)
{
  if (value > 0.0f)
    set_rational (ed, ifd, tag, round (value * 10.0), 10);
}

/* An exposure time as cameras write it: 1/400 for short ones, tenths for long ones. */
static void
set_exposure_time (ExifData *ed, float seconds)
{
  if (!(seconds > 0.0f))
    return;
  if (seconds < 0.5f)
    set_rational (ed, EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_TIME, 1, round (1.0 / seconds));
  else
    set_rational (ed, EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_TIME, round (seconds * 10.0), 10);
}

/* DateTimeOriginal: LibRaw took the camera's local time through mktime, so localtime gives
 * back what the camera wrote. */
static void
set_time (ExifData *ed, gint64 timestamp)
{
  if (timestamp <= 0)
    return;
  g_autoptr (GDateTime) t = g_date_time_new_from_unix_local (timestamp);
  g_autofree char *text = t ? g_date_time_format (t, "%Y:%m:%d %H:%M:%S") : NULL;
  set_text (ed, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, text);
}

GBytes *
lm_raw_exif_block (const LmRawInfo *info)
{
  ExifData *ed = exif_data_new ();
  if (ed == NULL)
    return NULL;
  exif_data_set_byte_order (ed, EXIF_BYTE_ORDER_INTEL);
  set_text (ed, EXIF_IFD_0, EXIF_TAG_MAKE, info->make);
  set_text (ed, EXIF_IFD_0, EXIF_TAG_MODEL, info->model);
  set_short (ed, EXIF_IFD_0, EXIF_TAG_ORIENTATION, 1); /* the development turns the pixels */
  set_time (ed, info->timestamp);
  set_exposure_time (ed, info->exposure_s);
  set_tenths (ed, EXIF_IFD_EXIF, EXIF_TAG_FNUMBER, info->f_number);
  if (info->iso > 0.0f)
    set_short (ed, EXIF_IFD_EXIF, EXIF_TAG_ISO_SPEED_RATINGS, (guint) lroundf (info->iso));
  set_tenths (ed, EXIF_IFD_EXIF, EXIF_TAG_FOCAL_LENGTH, info->focal_mm);
  set_text (ed, EXIF_IFD_EXIF, EXIF_TAG_LENS_MODEL, info->lens);

  unsigned char *out = NULL;
  unsigned int out_len = 0;
  exif_data_save_data (ed, &out, &out_len);
  exif_data_unref (ed);
  if (out == NULL || out_len == 0)
    {
      free (out);
      return NULL;
    }
  return g_bytes_new_with_free_func (out, out_len, free, out);
}
