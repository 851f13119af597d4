/* The checks of fits-tiles.h. A tile-compressed image is a binary table with a row per tile;
 * the compressed bytes of each lie in the table's heap, where the row's descriptor (count,
 * offset) says. */
#include "fits-tiles.h"

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

gboolean
lm_fits_check_tiles (fitsfile *f, const char *spec, GError **error)
{
  int status = 0, hdu = 0;
  gboolean compressed = fits_is_compressed_image (f, &status);
  fits_clear_errmsg ();
  if (!compressed || status != 0)
    return TRUE;
  fits_get_hdu_num (f, &hdu);
  return tiles_within_image (f, spec, hdu, error) && descriptors_within_heap (f, spec, hdu, error);
}
