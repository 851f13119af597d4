#include "exif.h"

#include <stdlib.h>
#include <string.h>
#include <libexif/exif-data.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../pixel-budget.h"
#include "file-read.h"
#include "io-private.h"
#include "raw.h"
#include "raw-sniff.h"
#include "xmp.h"

static ExifData *
exif_from_block (GBytes *block)
{
  if (block == NULL)
    return NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (block, &len);
  if (len < 14 || len > G_MAXUINT)
    return NULL;
  ExifData *ed = exif_data_new_from_data (data, (unsigned int) len);
  if (ed != NULL && exif_data_get_byte_order (ed) != EXIF_BYTE_ORDER_MOTOROLA
      && exif_data_get_byte_order (ed) != EXIF_BYTE_ORDER_INTEL)
    g_clear_pointer (&ed, exif_data_unref);
  return ed;
}

int
lm_exif_orientation (GBytes *block)
{
  int orientation = lm_exif_orientation_stated (block);
  return orientation ? orientation : 1;
}

int
lm_exif_orientation_stated (GBytes *block)
{
  ExifData *ed = exif_from_block (block);
  if (ed == NULL)
    return 0;
  int orientation = 0;
  ExifEntry *entry = exif_content_get_entry (ed->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
  if (entry && entry->format == EXIF_FORMAT_SHORT && entry->components == 1)
    {
      int v = exif_get_short (entry->data, exif_data_get_byte_order (ed));
      if (v >= 1 && v <= 8)
        orientation = v;
    }
  exif_data_unref (ed);
  return orientation;
}

/* ExposureTime in seconds from ED, or 0 where it gives none that is usable. */
static double
exposure_seconds (ExifData *ed)
{
  ExifEntry *entry = exif_data_get_entry (ed, EXIF_TAG_EXPOSURE_TIME);
  ExifByteOrder order = exif_data_get_byte_order (ed);
  if (entry == NULL || entry->format != EXIF_FORMAT_RATIONAL || entry->components < 1
      || (order != EXIF_BYTE_ORDER_MOTOROLA && order != EXIF_BYTE_ORDER_INTEL))
    return 0.0;
  ExifRational r = exif_get_rational (entry->data, order);
  return r.numerator > 0 && r.denominator > 0 ? (double) r.numerator / r.denominator : 0.0;
}

/* Whether PATH is a camera raw, whose EXIF is in TIFF IFDs or a maker's container that
 * libexif's file reader (JPEG's APP1) does not look in. */
static gboolean
is_raw_file (const char *path)
{
  g_autoptr (GBytes) bytes = lm_file_map (path, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), NULL);
  gsize len = 0;
  const guint8 *data = bytes ? g_bytes_get_data (bytes, &len) : NULL;
  return data && lm_raw_sniff (data, len);
}

gboolean
lm_exif_exposure_time (const char *path, double *seconds, GError **error)
{
  if (is_raw_file (path))
    return lm_raw_exposure_time (path, seconds, error);
  ExifData *ed = exif_data_new_from_file (path);
  if (ed == NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("has no EXIF data to read the exposure time from"));
      return FALSE;
    }
  double t = exposure_seconds (ed);
  exif_data_unref (ed);
  if (t <= 0.0)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("its EXIF has no usable ExposureTime"));
      return FALSE;
    }
  *seconds = t;
  return TRUE;
}

double
lm_exif_exposure_seconds (GBytes *block)
{
  gsize len = 0;
  const guint8 *data = block ? g_bytes_get_data (block, &len) : NULL;
  if (data == NULL || len < 14 || len > G_MAXUINT)
    return 0.0;
  ExifData *ed = exif_data_new_from_data (data, (unsigned int) len);
  if (ed == NULL)
    return 0.0;
  double t = exposure_seconds (ed);
  exif_data_unref (ed);
  return t;
}

/* TAG of IFD, where the block has it, set to VALUE: a SHORT stays one where VALUE fits, anything
 * else becomes one LONG. EXIF allows either for the dimensions and cameras write either (Sony
 * SHORT, Nokia LONG); a SHORT cannot hold a width past 65535 (a panorama keeping its first
 * frame's EXIF), and any other form is no dimension a reader could take. */
static void
set_dimension (ExifData *ed, ExifIfd ifd, ExifTag tag, guint value)
{
  ExifContent *content = ed->ifd[ifd];
  ExifEntry *entry = exif_content_get_entry (content, tag);
  if (entry == NULL)
    return;
  ExifByteOrder order = exif_data_get_byte_order (ed);
  if (entry->format == EXIF_FORMAT_SHORT && entry->components == 1 && entry->size >= 2 && value <= G_MAXUINT16)
    {
      exif_set_short (entry->data, order, (ExifShort) value);
      return;
    }
  if (entry->format == EXIF_FORMAT_LONG && entry->components == 1 && entry->size >= 4)
    {
      exif_set_long (entry->data, order, value);
      return;
    }
  while ((entry = exif_content_get_entry (content, tag)) != NULL)
    exif_content_remove_entry (content, entry);
  ExifMem *mem = exif_mem_new_default ();
  entry = exif_entry_new_mem (mem);
  void *data = exif_mem_alloc (mem, 4);
  if (entry != NULL && data != NULL)
    {
      exif_set_long (data, order, value);
      entry->tag = tag;
      entry->format = EXIF_FORMAT_LONG;
      entry->components = 1;
      entry->size = 4;
      entry->data = data;
      exif_content_add_entry (content, entry);
    }
  else
    exif_mem_free (mem, data);
  if (entry != NULL)
    exif_entry_unref (entry); /* the IFD holds it */
  exif_mem_unref (mem);
}

/* Every dimension the block states, where it states them: the EXIF IFD's PixelXDimension and
 * PixelYDimension, and IFD 0's ImageWidth and ImageLength, which some cameras write into a
 * JPEG's EXIF too and readers show when the EXIF IFD has none. */
static void
set_dimensions (ExifData *ed, guint width, guint height)
{
  set_dimension (ed, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION, width);
  set_dimension (ed, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION, height);
  set_dimension (ed, EXIF_IFD_0, EXIF_TAG_IMAGE_WIDTH, width);
  set_dimension (ed, EXIF_IFD_0, EXIF_TAG_IMAGE_LENGTH, height);
}

/* Orientation 1, whatever form the source gave it. An entry other than one SHORT (a fuzzed
 * 53-byte block had SLONG 7) is read as 1 by lm_exif_orientation, so the pixels were not
 * turned; kept as it was, libexif reads it back as SHORT 7 once the saved block is loaded
 * again, and the export, Lumen included, turns the upright pixels. */
static void
set_orientation_upright (ExifData *ed)
{
  ExifContent *ifd0 = ed->ifd[EXIF_IFD_0];
  ExifEntry *entry = exif_content_get_entry (ifd0, EXIF_TAG_ORIENTATION);
  if (entry == NULL)
    return; /* absent means 1 */
  if (entry->format != EXIF_FORMAT_SHORT || entry->components != 1 || entry->size < 2)
    {
      while ((entry = exif_content_get_entry (ifd0, EXIF_TAG_ORIENTATION)) != NULL)
        exif_content_remove_entry (ifd0, entry);
      entry = exif_entry_new ();
      exif_content_add_entry (ifd0, entry);
      exif_entry_initialize (entry, EXIF_TAG_ORIENTATION);
      exif_entry_unref (entry); /* the IFD holds it */
    }
  if (entry->data != NULL)
    exif_set_short (entry->data, exif_data_get_byte_order (ed), 1);
}

/* IFD 0's Software, the program that wrote the file: Lumen now, whatever made the source. */
static void
set_software (ExifData *ed)
{
  ExifContent *ifd0 = ed->ifd[EXIF_IFD_0];
  ExifEntry *entry;
  while ((entry = exif_content_get_entry (ifd0, EXIF_TAG_SOFTWARE)) != NULL)
    exif_content_remove_entry (ifd0, entry);
  const char *software = lm_xmp_creator_tool ();
  gsize size = strlen (software) + 1;
  ExifMem *mem = exif_mem_new_default ();
  entry = exif_entry_new_mem (mem);
  void *data = exif_mem_alloc (mem, (ExifLong) size);
  if (entry != NULL && data != NULL)
    {
      memcpy (data, software, size);
      entry->tag = EXIF_TAG_SOFTWARE;
      entry->format = EXIF_FORMAT_ASCII;
      entry->components = size;
      entry->size = (unsigned int) size;
      entry->data = data;
      exif_content_add_entry (ifd0, entry);
    }
  else
    exif_mem_free (mem, data);
  if (entry != NULL)
    exif_entry_unref (entry); /* the IFD holds it */
  exif_mem_unref (mem);
}

/* ED saved as a block and let go of; NULL when libexif saves nothing. */
static GBytes *
block_of (ExifData *ed)
{
  unsigned char *out = NULL;
  unsigned int out_len = 0;
  exif_data_save_data (ed, &out, &out_len);
  exif_data_unref (ed);
  if (out == NULL || out_len == 0)
    return NULL;
  /* libexif allocates with malloc; hand the buffer to GBytes without copying. */
  return g_bytes_new_with_free_func (out, out_len, free, out);
}

GBytes *
lm_exif_for_export (GBytes *block, guint width, guint height)
{
  ExifData *ed = exif_from_block (block);
  if (ed == NULL)
    return NULL;

  set_orientation_upright (ed);
  set_software (ed);
  set_dimensions (ed, width, height);

  /* The thumbnail IFD describes the thumbnail; drop both. */
  if (ed->data)
    {
      free (ed->data);
      ed->data = NULL;
      ed->size = 0;
    }
  while (ed->ifd[EXIF_IFD_1]->count > 0)
    exif_content_remove_entry (ed->ifd[EXIF_IFD_1], ed->ifd[EXIF_IFD_1]->entries[0]);

  return block_of (ed);
}

/* ENTRY of IFD, made with libexif's default value where the block has none. */
static ExifEntry *
ensure_entry (ExifData *ed, ExifIfd ifd, ExifTag tag)
{
  ExifEntry *entry = exif_content_get_entry (ed->ifd[ifd], tag);
  if (entry != NULL)
    return entry;
  entry = exif_entry_new ();
  exif_content_add_entry (ed->ifd[ifd], entry);
  exif_entry_initialize (entry, tag);
  exif_entry_unref (entry); /* the IFD holds it */
  return entry;
}

GBytes *
lm_exif_for_jpeg (GBytes *block, guint width, guint height)
{
  g_autoptr (GBytes) exported = lm_exif_for_export (block, width, height);
  ExifData *ed = exif_from_block (exported);
  if (ed == NULL)
    return NULL;
  /* What EXIF requires of a JPEG's block, and a TIFF source's lacks: libjpeg writes YCbCr,
   * centred, and the dimensions are the file's. */
  ensure_entry (ed, EXIF_IFD_EXIF, EXIF_TAG_COMPONENTS_CONFIGURATION);
  ensure_entry (ed, EXIF_IFD_0, EXIF_TAG_YCBCR_POSITIONING);
  ensure_entry (ed, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION);
  ensure_entry (ed, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION);
  set_dimensions (ed, width, height);
  return block_of (ed);
}

GBytes *
lm_exif_block_from_tiff (const guint8 *data, gsize len)
{
  if (len >= LM_EXIF_HEADER_LEN && memcmp (data, LM_EXIF_HEADER, LM_EXIF_HEADER_LEN) == 0)
    return g_bytes_new (data, len);
  guint8 *block = g_malloc (len + LM_EXIF_HEADER_LEN);
  memcpy (block, LM_EXIF_HEADER, LM_EXIF_HEADER_LEN);
  memcpy (block + LM_EXIF_HEADER_LEN, data, len);
  return g_bytes_new_take (block, len + LM_EXIF_HEADER_LEN);
}
