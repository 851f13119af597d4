/* The source's EXIF in a TIFF, through libtiff's own EXIF support: every entry is converted
 * to the type libtiff's field info declares for its tag (count passed or fixed, rationals as
 * float or double, scalars by value), so no tag table is kept here. libtiff 4.5 keeps EXIF
 * rationals as float: 1/15 s is written as the fraction of that float, 8947849/134217728,
 * 3e-8 from the exact value. TIFF strings end at their first NUL (libtiff takes C strings),
 * so of EXIF's "photographer\0editor" Copyright the photographer part is kept. */
#include "tiff-exif.h"

#include <string.h>
#include <glib/gi18n.h>
#include <libexif/exif-data.h>

#include "exif.h"
#include "iptc.h"
#include "xmp.h"

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

/* Reading. libtiff hands EXIF rationals back as floats (1/15 s would not come back as 1/15),
 * so the entries are copied from the file's bytes instead: IFD 0's descriptive tags and the
 * EXIF and GPS IFDs, each value as stored, into an ExifData of the file's byte order, which
 * libexif saves as the JPEG-style block LmImage.exif holds. Classic TIFF only: a BigTIFF's
 * EXIF is not read. */

#define IFD_ENTRIES_MAX 1000
#define ENTRY_BYTES_MAX 65535 /* more than an APP1 segment holds is of no use */

typedef struct {
  const guint8 *data;
  gsize len;
  gboolean big_endian;
  ExifMem *mem;
} RawTiff;

static guint32
raw_u16 (const RawTiff *t, gsize at)
{
  const guint8 *p = t->data + at;
  return t->big_endian ? (guint32) (p[0] << 8 | p[1]) : (guint32) (p[1] << 8 | p[0]);
}

static guint32
raw_u32 (const RawTiff *t, gsize at)
{
  const guint8 *p = t->data + at;
  return t->big_endian ? (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3]
                       : (guint32) p[3] << 24 | (guint32) p[2] << 16 | (guint32) p[1] << 8 | p[0];
}

static void
add_raw_entry (ExifData *ed, ExifIfd ifd, RawTiff *t, guint16 tag, ExifFormat format, guint32 count,
               const guint8 *bytes, gsize size)
{
  ExifEntry *entry = exif_entry_new_mem (t->mem);
  void *copy = exif_mem_alloc (t->mem, (ExifLong) size);
  if (entry == NULL || copy == NULL)
    {
      exif_mem_free (t->mem, copy);
      if (entry)
        exif_entry_unref (entry);
      return;
    }
  memcpy (copy, bytes, size);
  entry->tag = tag;
  entry->format = format;
  entry->components = count;
  entry->size = (unsigned int) size;
  entry->data = copy;
  exif_content_add_entry (ed->ifd[ifd], entry);
  exif_entry_unref (entry);
}

/* The entries of the IFD at OFFSET that KEEP accepts, into IFD of ED; the EXIF and GPS IFDs'
 * offsets where this one points to them. FALSE when the IFD lies outside the file. */
static gboolean
read_raw_ifd (RawTiff *t, guint32 offset, ExifData *ed, ExifIfd ifd, gboolean (*keep) (guint16 tag),
              guint32 *exif_offset, guint32 *gps_offset)
{
  if (offset < 8 || offset > t->len || t->len - offset < 2)
    return FALSE;
  guint32 n = raw_u16 (t, offset);
  if (n > IFD_ENTRIES_MAX || (t->len - offset - 2) / 12 < n)
    return FALSE;
  for (guint32 k = 0; k < n; k++)
    {
      gsize at = offset + 2 + (gsize) k * 12;
      guint16 tag = (guint16) raw_u16 (t, at);
      ExifFormat format = (ExifFormat) raw_u16 (t, at + 2);
      guint32 count = raw_u32 (t, at + 4);
      if (tag == EXIF_TAG_EXIF_IFD_POINTER && exif_offset)
        *exif_offset = raw_u32 (t, at + 8);
      if (tag == EXIF_TAG_GPS_INFO_IFD_POINTER && gps_offset)
        *gps_offset = raw_u32 (t, at + 8);
      gsize unit = format >= EXIF_FORMAT_BYTE && format <= EXIF_FORMAT_DOUBLE ? exif_format_get_size (format) : 0;
      if (unit == 0 || count == 0 || count > ENTRY_BYTES_MAX / unit || !keep (tag))
        continue;
      gsize size = unit * count;
      gsize where = size <= 4 ? at + 8 : raw_u32 (t, at + 8);
      if (where > t->len || t->len - where < size)
        continue;
      add_raw_entry (ed, ifd, t, tag, format, count, t->data + where, size);
    }
  return TRUE;
}

/* Of the EXIF IFD, the sub-IFD pointer (libexif writes its own) and MakerNote (its offsets
 * point into the source file) are left; everything else is the photo's. */
static gboolean
keep_read_exif_tag (guint16 tag)
{
  return tag != EXIF_TAG_INTEROPERABILITY_IFD_POINTER && tag != EXIF_TAG_MAKER_NOTE;
}

static GBytes *
read_exif_block (const guint8 *data, gsize len)
{
  if (len < 8 || !((memcmp (data, "II*\0", 4) == 0) || memcmp (data, "MM\0*", 4) == 0))
    return NULL;
  RawTiff t = { data, len, data[0] == 'M', exif_mem_new_default () };
  ExifData *ed = exif_data_new_mem (t.mem);
  exif_data_set_byte_order (ed, t.big_endian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL);
  guint32 exif_offset = 0, gps_offset = 0;
  if (read_raw_ifd (&t, raw_u32 (&t, 4), ed, EXIF_IFD_0, keep_ifd0_tag, &exif_offset, &gps_offset))
    {
      if (exif_offset)
        read_raw_ifd (&t, exif_offset, ed, EXIF_IFD_EXIF, keep_read_exif_tag, NULL, NULL);
      if (gps_offset)
        read_raw_ifd (&t, gps_offset, ed, EXIF_IFD_GPS, keep_any_tag, NULL, NULL);
    }
  GBytes *block = NULL;
  if (ed->ifd[EXIF_IFD_EXIF]->count + ed->ifd[EXIF_IFD_GPS]->count + ed->ifd[EXIF_IFD_0]->count > 0)
    {
      unsigned char *out = NULL;
      unsigned int out_len = 0;
      exif_data_save_data (ed, &out, &out_len);
      if (out != NULL && out_len > 0)
        block = g_bytes_new (out, out_len);
      exif_mem_free (t.mem, out);
    }
  exif_data_unref (ed);
  exif_mem_unref (t.mem);
  return block;
}

GBytes *
lm_tiff_exif_block (const guint8 *data, gsize len)
{
  return read_exif_block (data, len);
}

/* Field TAG of the current directory as bytes (libtiff's count-and-pointer form). */
static GBytes *
read_bytes_field (TIFF *tif, guint32 tag)
{
  guint32 count = 0;
  void *value = NULL;
  const TIFFField *field = TIFFFindField (tif, tag, TIFF_ANY);
  if (field == NULL || TIFFFieldSetGetSize (field) != 1 || !TIFFFieldPassCount (field)
      || TIFFFieldReadCount (field) != TIFF_VARIABLE2 || !TIFFGetField (tif, tag, &count, &value)
      || value == NULL || count == 0)
    return NULL;
  return g_bytes_new (value, count);
}

/* XMP packets travel as UTF-8 (lm_xmp_for_export reads them so), as XMP asks of a TIFF's; it
 * allows UTF-16 and UTF-32 elsewhere, and some tools write those into tag 700 too. Their byte
 * order comes from the byte order mark, or else from the zero bytes around the packet's first
 * '<'. UNIT is 1 for UTF-8. */
static guint
xmp_code_unit (const guint8 *p, gsize n, gboolean *big_endian, gsize *bom)
{
  static const struct {
    const char *start;
    gsize len;
    guint unit;
    gboolean big_endian, bom;
  } marks[] = {
    /* UTF-32's marks first: FF FE 00 00 would be UTF-16's mark and a NUL. */
    { "\0\0\xfe\xff", 4, 4, TRUE, TRUE }, { "\xff\xfe\0\0", 4, 4, FALSE, TRUE },
    { "\xfe\xff", 2, 2, TRUE, TRUE },       { "\xff\xfe", 2, 2, FALSE, TRUE },
    { "\0\0\0<", 4, 4, TRUE, FALSE },      { "<\0\0\0", 4, 4, FALSE, FALSE },
    { "\0<", 2, 2, TRUE, FALSE },            { "<\0", 2, 2, FALSE, FALSE },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (marks); i++)
    if (n >= marks[i].len && memcmp (p, marks[i].start, marks[i].len) == 0)
      {
        *big_endian = marks[i].big_endian;
        *bom = marks[i].bom ? marks[i].len : 0;
        return marks[i].unit;
      }
  return 1;
}

/* Code unit I (of UNIT bytes) at P. */
static guint32
code_unit (const guint8 *p, gsize i, guint unit, gboolean big_endian)
{
  p += i * unit;
  if (unit == 2)
    return big_endian ? (guint32) (p[0] << 8 | p[1]) : (guint32) (p[1] << 8 | p[0]);
  return big_endian ? (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3]
                    : (guint32) p[3] << 24 | (guint32) p[2] << 16 | (guint32) p[1] << 8 | p[0];
}

/* The text of the UTF-16 or UTF-32 code units at P (N bytes, whole units, no terminator), as
 * UTF-8 of *LEN bytes; NULL where they are not valid (an odd byte, a lone surrogate, a NUL)
 * or there is no memory for them. */
static char *
utf8_of_units (const guint8 *p, gsize n, guint unit, gboolean big_endian, gsize *len)
{
  gsize count = n / unit;
  glong read = 0, written = 0;
  char *text = NULL;
  if (n % unit != 0 || count > G_MAXLONG)
    return NULL;
  if (unit == 2)
    {
      g_autofree gunichar2 *units = g_try_new (gunichar2, MAX (count, 1));
      if (units == NULL)
        return NULL;
      for (gsize i = 0; i < count; i++)
        units[i] = (gunichar2) code_unit (p, i, unit, big_endian);
      text = g_utf16_to_utf8 (units, (glong) count, &read, &written, NULL);
    }
  else
    {
      g_autofree gunichar *chars = g_try_new (gunichar, MAX (count, 1));
      if (chars == NULL)
        return NULL;
      for (gsize i = 0; i < count; i++)
        if (!g_unichar_validate (chars[i] = code_unit (p, i, unit, big_endian)))
          return NULL;
      text = g_ucs4_to_utf8 (chars, (glong) count, &read, &written, NULL);
    }
  if (text != NULL && (gsize) read != count) /* stopped at a NUL */
    g_clear_pointer (&text, g_free);
  *len = (gsize) written;
  return text;
}

/* PACKET (tag 700) as UTF-8: itself when it is, its text when it is UTF-16 or UTF-32 (without
 * the byte order mark and a C string's terminating NUL); NULL, with a note on IMAGE, when its
 * text cannot be decoded. */
static GBytes *
xmp_as_utf8 (GBytes *packet, LmImage *image)
{
  gsize n;
  const guint8 *p = g_bytes_get_data (packet, &n);
  gboolean big_endian = FALSE;
  gsize bom = 0;
  guint unit = xmp_code_unit (p, n, &big_endian, &bom);
  if (unit == 1)
    return g_bytes_ref (packet);
  p += bom, n -= bom;
  while (n >= unit && n % unit == 0 && code_unit (p, n / unit - 1, unit, big_endian) == 0)
    n -= unit;
  gsize len = 0;
  char *text = utf8_of_units (p, n, unit, big_endian, &len);
  if (text == NULL)
    {
      lm_image_add_note (image, _("its XMP packet (TIFF tag 700) is not valid UTF-%u: it is left out"), unit * 8);
      return NULL;
    }
  return g_bytes_new_take (text, len);
}

void
lm_tiff_read_metadata (TIFF *tif, const guint8 *data, gsize len, LmImage *image)
{
  image->exif = read_exif_block (data, len);
  g_autoptr (GBytes) xmp = read_bytes_field (tif, TIFFTAG_XMLPACKET);
  image->xmp = xmp ? xmp_as_utf8 (xmp, image) : NULL;
  g_autoptr (GBytes) photoshop = read_bytes_field (tif, TIFFTAG_PHOTOSHOP);
  if (photoshop)
    image->iptc = lm_iptc_from_resources (g_bytes_get_data (photoshop, NULL), g_bytes_get_size (photoshop));
  g_autoptr (GBytes) records = image->iptc ? NULL : read_bytes_field (tif, TIFFTAG_RICHTIFFIPTC);
  if (records)
    image->iptc = lm_iptc_blocks_from_records (g_bytes_get_data (records, NULL), g_bytes_get_size (records));
}

/* Software (Lumen) in any case: a TIFF names the program that wrote it in its own tag. */
void
lm_tiff_write_metadata (TIFF *tif, const LmImage *image, const char *path, char *message)
{
  lm_tiff_write_exif (tif, image, path, message);
  TIFFSetField (tif, TIFFTAG_SOFTWARE, lm_xmp_creator_tool ());
  /* Baseline TIFF requires a resolution; without the source's, the customary 72 dpi. */
  float resolution;
  if (!TIFFGetField (tif, TIFFTAG_XRESOLUTION, &resolution) || !TIFFGetField (tif, TIFFTAG_YRESOLUTION, &resolution))
    {
      TIFFSetField (tif, TIFFTAG_XRESOLUTION, 72.0);
      TIFFSetField (tif, TIFFTAG_YRESOLUTION, 72.0);
      TIFFSetField (tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_INCH);
    }
  g_autoptr (GBytes) xmp = lm_xmp_for_export (image->xmp, image->width, image->height);
  if (xmp && g_bytes_get_size (xmp) <= G_MAXUINT32)
    TIFFSetField (tif, TIFFTAG_XMLPACKET, (guint32) g_bytes_get_size (xmp), g_bytes_get_data (xmp, NULL));
  /* IPTC/NAA, where readers of TIFF look for IPTC (exiftool calls Photoshop's tag a
   * non-standard place for it). libtiff declares the tag UNDEFINED and writes it so; the
   * standard says LONG, which exiftool's validation notes, and readers take either. */
  g_autoptr (GBytes) records = lm_iptc_records (image->iptc);
  if (records && g_bytes_get_size (records) <= G_MAXUINT32)
    TIFFSetField (tif, TIFFTAG_RICHTIFFIPTC, (guint32) g_bytes_get_size (records), g_bytes_get_data (records, NULL));
}
