/* The source's EXIF in a TIFF, through libtiff's own EXIF support: every entry is converted
 * to the type libtiff's field info declares for its tag (count passed or fixed, rationals as
 * float or double, scalars by value), so no tag table is kept here. libtiff 4.5 keeps EXIF
 * rationals as float: 1/15 s is written as the fraction of that float, 8947849/134217728,
 * 3e-8 from the exact value. TIFF strings end at their first NUL (libtiff takes C strings),
 * so of EXIF's "photographer\0editor" Copyright the photographer part is kept. */
#include "tiff-exif.h"

#include <string.h>
#include <libexif/exif-data.h>

#include "exif.h"

/* The source's IFD 0 tags that describe the photo; the others there describe the file it
 * came from (YCbCr layout, thumbnail) or are written by us (Orientation = 1). */
static gboolean
keep_ifd0_tag (guint16 tag)
{
  static const guint16 tags[] = {
    TIFFTAG_IMAGEDESCRIPTION, TIFFTAG_MAKE, TIFFTAG_MODEL, TIFFTAG_XRESOLUTION,
    TIFFTAG_YRESOLUTION, TIFFTAG_RESOLUTIONUNIT, TIFFTAG_SOFTWARE, TIFFTAG_DATETIME,
    TIFFTAG_ARTIST, TIFFTAG_HOSTCOMPUTER, TIFFTAG_COPYRIGHT,
  };
  for (gsize i = 0; i < G_N_ELEMENTS (tags); i++)
    if (tags[i] == tag)
      return TRUE;
  return FALSE;
}

/* Left out of the EXIF IFD although libtiff knows them: MakerNote holds offsets into the
 * source file's layout that would point at the wrong bytes here; ComponentsConfiguration
 * and CompressedBitsPerPixel describe the source's JPEG stream. Left out because libtiff
 * 4.5 cannot represent them: the Interoperability IFD (libtiff has no field array for it)
 * and tags missing from libtiff's EXIF and GPS field arrays (vendor and Windows XP tags);
 * set_from_entry finds no field for those. */
static gboolean
keep_exif_tag (guint16 tag)
{
  return tag != EXIF_TAG_MAKER_NOTE && tag != EXIF_TAG_COMPONENTS_CONFIGURATION
         && tag != EXIF_TAG_COMPRESSED_BITS_PER_PIXEL;
}

static gboolean
keep_any_tag (guint16 tag)
{
  return TRUE;
}

/* Component I of ENTRY as a number; FALSE for text, unknown formats and zero denominators. */
static gboolean
entry_number (const ExifEntry *entry, ExifByteOrder order, guint i, double *value)
{
  const guint8 *p = entry->data + (gsize) i * exif_format_get_size (entry->format);
  switch (entry->format)
    {
    case EXIF_FORMAT_BYTE:
    case EXIF_FORMAT_UNDEFINED:
      *value = p[0];
      return TRUE;
    case EXIF_FORMAT_SBYTE:
      *value = (gint8) p[0];
      return TRUE;
    case EXIF_FORMAT_SHORT:
      *value = exif_get_short (p, order);
      return TRUE;
    case EXIF_FORMAT_SSHORT:
      *value = exif_get_sshort (p, order);
      return TRUE;
    case EXIF_FORMAT_LONG:
      *value = exif_get_long (p, order);
      return TRUE;
    case EXIF_FORMAT_SLONG:
      *value = exif_get_slong (p, order);
      return TRUE;
    case EXIF_FORMAT_RATIONAL:
      {
        ExifRational r = exif_get_rational (p, order);
        *value = (double) r.numerator / r.denominator;
        return r.denominator != 0;
      }
    case EXIF_FORMAT_SRATIONAL:
      {
        ExifSRational r = exif_get_srational (p, order);
        *value = (double) r.numerator / r.denominator;
        return r.denominator != 0;
      }
    default:
      return FALSE;
    }
}

/* The values a libtiff number type holds; FALSE for the types EXIF does not use. */
static gboolean
type_range (TIFFDataType type, double *lo, double *hi)
{
  switch (type)
    {
    case TIFF_BYTE:
    case TIFF_UNDEFINED:
      *lo = 0, *hi = G_MAXUINT8;
      return TRUE;
    case TIFF_SBYTE:
      *lo = G_MININT8, *hi = G_MAXINT8;
      return TRUE;
    case TIFF_SHORT:
      *lo = 0, *hi = G_MAXUINT16;
      return TRUE;
    case TIFF_SSHORT:
      *lo = G_MININT16, *hi = G_MAXINT16;
      return TRUE;
    case TIFF_LONG:
    case TIFF_RATIONAL:
      *lo = 0, *hi = G_MAXUINT32;
      return TRUE;
    case TIFF_SLONG:
    case TIFF_SRATIONAL:
      *lo = G_MININT32, *hi = G_MAXINT32;
      return TRUE;
    default:
      return FALSE;
    }
}

/* V stored as libtiff keeps it: SIZE bytes, a float or double for rationals. */
static void
store_value (guint8 *out, int size, gboolean rational, double v)
{
  if (rational && size == 4)
    {
      float f = (float) v;
      memcpy (out, &f, 4);
    }
  else if (rational)
    memcpy (out, &v, sizeof v);
  else if (size == 1)
    out[0] = (guint8) (gint64) v;
  else if (size == 2)
    {
      guint16 s = (guint16) (gint64) v;
      memcpy (out, &s, 2);
    }
  else
    {
      guint32 l = (guint32) (gint64) v;
      memcpy (out, &l, 4);
    }
}

/* Sets ENTRY's tag in the current directory in the form libtiff's field info declares for
 * it (count passed or fixed, rationals as float or double, scalars by value). NULL when set,
 * otherwise why not. */
static const char *
set_from_entry (TIFF *tif, const ExifEntry *entry, ExifByteOrder order)
{
  const TIFFField *field = TIFFFindField (tif, entry->tag, TIFF_ANY);
  if (field == NULL)
    return "libtiff has no field for this tag";
  TIFFDataType type = TIFFFieldDataType (field);
  int count = TIFFFieldWriteCount (field);
  gboolean pass = TIFFFieldPassCount (field);
  guint n = entry->components;
  gsize fsize = exif_format_get_size (entry->format);
  if (n == 0 || fsize == 0 || entry->data == NULL || entry->size < n * fsize)
    return "empty or malformed entry";

  if (type == TIFF_ASCII)
    {
      if (entry->format != EXIF_FORMAT_ASCII)
        return "not text, as libtiff expects";
      g_autofree char *text = g_strndup ((const char *) entry->data, entry->size);
      gboolean ok = pass ? TIFFSetField (tif, entry->tag, (guint32) strlen (text) + 1, text)
                         : TIFFSetField (tif, entry->tag, text);
      return ok ? NULL : "libtiff refused the value";
    }

  double lo, hi;
  gboolean rational = type == TIFF_RATIONAL || type == TIFF_SRATIONAL;
  gboolean exif_rational = entry->format == EXIF_FORMAT_RATIONAL
                           || entry->format == EXIF_FORMAT_SRATIONAL;
  gboolean bytes = type == TIFF_BYTE || type == TIFF_SBYTE || type == TIFF_UNDEFINED;
  if (!type_range (type, &lo, &hi) || count == TIFF_SPP)
    return "libtiff's type for this tag is not one EXIF uses";
  if (rational != exif_rational || (bytes && fsize != 1))
    return "its format does not match libtiff's";
  if (!pass && n != (guint) MAX (count, 1))
    return "unexpected number of values";

  int size = TIFFFieldSetGetSize (field);
  g_autofree guint8 *values = g_malloc0 ((gsize) n * size);
  double first = 0;
  for (guint i = 0; i < n; i++)
    {
      double v;
      if (!entry_number (entry, order, i, &v))
        return "a value is not a number or has a zero denominator";
      if (v < lo || v > hi)
        return "a value is out of range";
      store_value (values + (gsize) i * size, size, rational, v);
      if (i == 0)
        first = v;
    }

  gboolean ok;
  if (pass && count == TIFF_VARIABLE2)
    ok = TIFFSetField (tif, entry->tag, (guint32) n, values);
  else if (pass)
    ok = TIFFSetField (tif, entry->tag, (int) n, values);
  else if (count != 1)
    ok = TIFFSetField (tif, entry->tag, values);
  else if (rational)
    ok = TIFFSetField (tif, entry->tag, first);
  else if (type == TIFF_LONG)
    ok = TIFFSetField (tif, entry->tag, (guint32) first);
  else if (type == TIFF_SLONG)
    ok = TIFFSetField (tif, entry->tag, (gint32) first);
  else
    ok = TIFFSetField (tif, entry->tag, (int) first);
  return ok ? NULL : "libtiff refused the value";
}

/* Copies the entries of CONTENT that KEEP accepts into the current directory and returns
 * how many. A strange entry never fails the export: it is logged and skipped, and libtiff's
 * complaint about it is not kept as the file's error. */
static guint
copy_entries (TIFF *tif, char *message, const char *path, ExifContent *content, ExifByteOrder order,
              gboolean (*keep) (guint16 tag))
{
  guint copied = 0;
  for (guint i = 0; content != NULL && i < content->count; i++)
    {
      const ExifEntry *entry = content->entries[i];
      if (!keep (entry->tag))
        continue;
      const char *why = set_from_entry (tif, entry, order);
      if (why == NULL)
        copied++;
      else
        g_debug ("%s: EXIF tag 0x%04x (%s) left out: %s%s%s", path, entry->tag,
                 exif_tag_get_name_in_ifd (entry->tag, exif_content_get_ifd (content)), why,
                 message[0] ? "; libtiff: " : "", message);
      message[0] = '\0';
    }
  return copied;
}

/* CONTENT as a custom directory made by CREATE (EXIF or GPS); its offset, 0 when empty. */
static guint64
write_sub_ifd (TIFF *tif, char *message, const char *path, ExifContent *content,
               ExifByteOrder order, int (*create) (TIFF *), gboolean (*keep) (guint16 tag))
{
  if (content == NULL || content->count == 0)
    return 0;
  TIFFFreeDirectory (tif);
  create (tif);
  guint64 offset = 0;
  if (copy_entries (tif, message, path, content, order, keep) > 0
      && !TIFFWriteCustomDirectory (tif, &offset))
    {
      /* A write error is kept by the TIFF's write procedure and fails the save; anything
       * else only costs the metadata. */
      g_debug ("%s: EXIF sub-IFD not written: %s", path, message);
      message[0] = '\0';
      offset = 0;
    }
  return offset;
}

void
lm_tiff_write_exif (TIFF *tif, const LmImage *image, const char *path, char *message)
{
  g_autoptr (GBytes) block = lm_exif_for_export (image->exif, image->width, image->height);
  if (block == NULL)
    return;
  gsize len;
  const guint8 *data = g_bytes_get_data (block, &len);
  ExifData *ed = exif_data_new_from_data (data, (unsigned int) len);
  if (ed == NULL)
    return;
  /* The sub-IFDs come first in the file: libtiff's documented order (image first, then go
   * back and patch the pointer) reads the file back, and the atomic file is write-only.
   * TIFFCreate*Directory replaces the current directory, so the image's one comes after. */
  ExifByteOrder order = exif_data_get_byte_order (ed);
  guint64 exif = write_sub_ifd (tif, message, path, ed->ifd[EXIF_IFD_EXIF], order,
                                TIFFCreateEXIFDirectory, keep_exif_tag);
  guint64 gps = write_sub_ifd (tif, message, path, ed->ifd[EXIF_IFD_GPS], order,
                               TIFFCreateGPSDirectory, keep_any_tag);
  TIFFFreeDirectory (tif);
  TIFFCreateDirectory (tif);
  copy_entries (tif, message, path, ed->ifd[EXIF_IFD_0], order, keep_ifd0_tag);
  if (exif != 0)
    TIFFSetField (tif, TIFFTAG_EXIFIFD, exif);
  if (gps != 0)
    TIFFSetField (tif, TIFFTAG_GPSIFD, gps);
  exif_data_unref (ed);
}
