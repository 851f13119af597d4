/* The checks of fits-tiles.h. A tile-compressed image is a binary table with a row per tile;
 * the compressed bytes of each lie in the table's heap, where the row's descriptor (count,
 * offset) says. Each check answers something cfitsio allocates or inflates without bound. */
#include "fits-tiles.h"

#include <string.h>
#include <zlib.h>
#include <glib/gi18n.h>

#include "../error.h"

static gboolean
refuse (GError **error, const char *spec, int hdu, const char *why)
{
  fits_clear_errmsg ();
  lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("the compressed image of HDU %d (extension %d) is damaged: %s"),
                     hdu, hdu - 1, why);
  return FALSE;
}

/* ZTILEn within ZNAXISn, for each axis (cfitsio's defaults where absent: a row a tile). */
static gboolean
tiles_within_image (fitsfile *f, const char *spec, int hdu, GError **error)
{
  int status = 0, axes = 0;
  fits_read_key (f, TINT, "ZNAXIS", &axes, NULL, &status);
  for (int n = 1; n <= axes && status == 0; n++)
    {
      char key[FLEN_KEYWORD];
      LONGLONG length = 0, tile = n == 1 ? -1 : 1;
      g_snprintf (key, sizeof key, "ZNAXIS%d", n);
      fits_read_key (f, TLONGLONG, key, &length, NULL, &status);
      g_snprintf (key, sizeof key, "ZTILE%d", n);
      int absent = 0;
      fits_read_key (f, TLONGLONG, key, &tile, NULL, &absent);
      if (n == 1 && absent != 0)
        tile = length;
      if (status == 0 && (tile < 1 || tile > MAX (length, 1)))
        return refuse (error, spec, hdu, _("its tiles are larger than the image"));
    }
  if (status != 0)
    return refuse (error, spec, hdu, _("its ZNAXISn keywords cannot be read"));
  return TRUE;
}

/* Every descriptor of every variable-length column within the heap. */
static gboolean
descriptors_within_heap (fitsfile *f, const char *spec, int hdu, GError **error)
{
  int status = 0, columns = 0;
  LONGLONG row_bytes = 0, rows = 0, pcount = 0;
  fits_read_key (f, TLONGLONG, "NAXIS1", &row_bytes, NULL, &status);
  fits_read_key (f, TLONGLONG, "NAXIS2", &rows, NULL, &status);
  fits_read_key (f, TLONGLONG, "PCOUNT", &pcount, NULL, &status);
  fits_get_num_cols (f, &columns, &status);
  LONGLONG heap_start = row_bytes * rows; /* the header walker bounded both */
  int absent = 0;
  fits_read_key (f, TLONGLONG, "THEAP", &heap_start, NULL, &absent);
  if (status != 0)
    return refuse (error, spec, hdu, _("its table's keywords cannot be read"));
  LONGLONG heap = row_bytes * rows + pcount - heap_start;
  for (int column = 1; column <= columns; column++)
    {
      int type = 0;
      LONGLONG repeat = 0, width = 0;
      if (fits_get_coltypell (f, column, &type, &repeat, &width, &status) != 0)
        return refuse (error, spec, hdu, _("a column of its table cannot be read"));
      if (type >= 0)
        continue; /* fixed length: in the row */
      for (LONGLONG row = 1; row <= rows; row++)
        {
          LONGLONG count = 0, offset = 0;
          if (fits_read_descriptll (f, column, row, &count, &offset, &status) != 0)
            return refuse (error, spec, hdu, _("a tile's descriptor cannot be read"));
          /* Bits (X) are packed 8 to a byte; other elements are WIDTH bytes each. */
          LONGLONG elements = type == -TBIT ? count / 8 + (count % 8 != 0) : count;
          if (count < 0 || offset < 0
              || (count > 0 && (offset >= heap || elements > (heap - offset) / MAX (width, 1))))
            return refuse (error, spec, hdu, _("a tile lies outside the table's data"));
        }
    }
  return TRUE;
}

/* Whether the LEN bytes at DATA are a whole gzip stream of at most LIMIT bytes inflated. */
static gboolean
inflates_within (const guint8 *data, gsize len, guint64 limit)
{
  guint8 out[65536];
  z_stream z = { .next_in = (Bytef *) data, .avail_in = (uInt) len };
  if (inflateInit2 (&z, 16 + MAX_WBITS) != Z_OK)
    return FALSE;
  int r = Z_OK;
  while (r == Z_OK && z.total_out <= limit)
    {
      z.next_out = out;
      z.avail_out = sizeof out;
      r = inflate (&z, Z_NO_FLUSH);
    }
  gboolean within = r == Z_STREAM_END && z.total_out <= limit;
  inflateEnd (&z);
  return within;
}

/* The tiles of a gzip column, inflated aside: each a whole stream of at most LIMIT bytes.
 * cfitsio inflates a tile into a buffer it grows for as long as the stream goes on (a tile
 * of a few kilobytes may inflate to gigabytes), and for ever where the stream is cut short. */
static gboolean
gzip_tiles_within (fitsfile *f, const char *spec, int hdu, const char *name, guint64 limit, GError **error)
{
  int status = 0, column = 0;
  LONGLONG rows = 0;
  if (fits_get_colnum (f, CASEINSEN, (char *) name, &column, &status) != 0)
    {
      fits_clear_errmsg ();
      return TRUE; /* no such column */
    }
  fits_get_num_rowsll (f, &rows, &status);
  for (LONGLONG row = 1; row <= rows && status == 0; row++)
    {
      LONGLONG count = 0, offset = 0;
      if (fits_read_descriptll (f, column, row, &count, &offset, &status) != 0 || count == 0)
        continue;
      g_autofree guint8 *bytes = g_try_malloc ((gsize) count);
      if (bytes == NULL
          || fits_read_col (f, TBYTE, column, row, 1, count, NULL, bytes, NULL, &status) != 0)
        break;
      if (!inflates_within (bytes, (gsize) count, limit))
        return refuse (error, spec, hdu, _("a tile's gzip data is cut short or inflates to more than its pixels"));
    }
  if (status != 0)
    return refuse (error, spec, hdu, _("a tile cannot be read"));
  return TRUE;
}

/* The largest tile's pixels at 8 bytes each: what any tile may inflate to. */
static guint64
tile_bytes (fitsfile *f)
{
  int status = 0, axes = 0;
  guint64 bytes = 8;
  fits_read_key (f, TINT, "ZNAXIS", &axes, NULL, &status);
  for (int n = 1; n <= axes && status == 0; n++)
    {
      char key[FLEN_KEYWORD];
      LONGLONG tile = 1;
      g_snprintf (key, sizeof key, n == 1 ? "ZNAXIS%d" : "ZTILE%d", n);
      fits_read_key (f, TLONGLONG, key, &tile, NULL, &status);
      g_snprintf (key, sizeof key, "ZTILE%d", n);
      int absent = 0;
      fits_read_key (f, TLONGLONG, key, &tile, NULL, &absent);
      if (!g_uint64_checked_mul (&bytes, bytes, (guint64) MAX (tile, 1)))
        return G_MAXUINT64;
    }
  fits_clear_errmsg ();
  return bytes;
}

gboolean
lm_fits_check_tiles (fitsfile *f, const char *spec, GError **error)
{
  int status = 0, hdu = 0;
  gboolean compressed = fits_is_compressed_image (f, &status);
  fits_clear_errmsg ();
  if (!compressed || status != 0)
    return TRUE;
  fits_get_hdu_num (f, &hdu);
  if (!tiles_within_image (f, spec, hdu, error) || !descriptors_within_heap (f, spec, hdu, error))
    return FALSE;
  /* Tiles of GZIP_1 and GZIP_2 are gzip streams, and so is the GZIP_COMPRESSED_DATA column
   * that any compression may add for tiles it could not compress otherwise. */
  char kind[FLEN_VALUE] = "";
  fits_read_key (f, TSTRING, "ZCMPTYPE", kind, NULL, &status);
  fits_clear_errmsg ();
  guint64 limit = tile_bytes (f);
  gboolean gzip = status == 0 && g_str_has_prefix (kind, "GZIP_");
  return (!gzip || gzip_tiles_within (f, spec, hdu, "COMPRESSED_DATA", limit, error))
         && gzip_tiles_within (f, spec, hdu, "GZIP_COMPRESSED_DATA", limit, error);
}
