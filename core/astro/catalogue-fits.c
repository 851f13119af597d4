/* The catalogue as a FITS binary table and the label image as a FITS image (catalogue.h).
 * cfitsio builds the file in memory and the bytes go through core/io/atomic-file.h, so that
 * the final name only ever holds a whole file; the memory is the file's size, at most 4 bytes
 * a pixel for the labels, within what the pixel budget counts a pixel. */

#include "catalogue.h"

#include <fitsio.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/atomic-file.h"

/* A FITS file being made in memory. */
typedef struct {
  fitsfile *f;
  void *buffer; /* cfitsio reallocs it with realloc () */
  size_t size;
  int status;
} MemFits;

static gboolean
mem_fits_open (MemFits *m, gsize expected)
{
  m->size = MAX (expected, 2880);
  m->buffer = malloc (m->size);
  m->status = 0;
  if (m->buffer == NULL)
    return FALSE;
  fits_create_memfile (&m->f, &m->buffer, &m->size, 1 << 20, realloc, &m->status);
  return m->status == 0;
}

static void
set_fits_write_error (GError **error, const char *path, int status)
{
  char text[FLEN_STATUS] = "";
  fits_get_errstatus (status, text);
  fits_clear_errmsg ();
  lm_set_file_error (error, status == MEMORY_ALLOCATION ? LM_ERROR_OUT_OF_MEMORY : LM_ERROR_IO, path,
                     _("cannot write the FITS file (cfitsio status %d: %s)"), status, text);
}

/* Closes M and writes its bytes to PATH atomically; frees M's memory either way. */
static gboolean
mem_fits_commit (MemFits *m, const char *path, GError **error)
{
  LONGLONG head = 0, data = 0, end = 0;
  /* The end of the last HDU's data unit, padded to FITS's 2880-byte blocks: the file's size
   * (the buffer may be longer: cfitsio grows it a megabyte at a time). */
  if (m->status == 0)
    fits_flush_file (m->f, &m->status);
  if (m->status == 0)
    fits_get_hduaddrll (m->f, &head, &data, &end, &m->status);
  int status = m->status;
  int close_status = 0;
  if (m->f)
    fits_close_file (m->f, &close_status);
  if (status == 0)
    status = close_status;
  gboolean ok = FALSE;
  if (status != 0)
    set_fits_write_error (error, path, status);
  else
    {
      LmAtomicFile *file = lm_atomic_file_open (path, error);
      if (file != NULL)
        {
          if (fwrite (m->buffer, 1, (size_t) end, lm_atomic_file_stream (file)) != (size_t) end)
            {
              GError *e = NULL;
              lm_set_write_error (&e, path, errno ? errno : EIO);
              lm_atomic_file_take_error (file, e);
            }
          ok = lm_atomic_file_commit (file, error);
        }
    }
  free (m->buffer);
  m->buffer = NULL;
  fits_clear_errmsg ();
  return ok;
}

enum { N_COLUMNS = 23 };

static const struct {
  const char *name, *form, *unit;
} columns[N_COLUMNS] = {
  { "id", "1J", "" },          { "x", "1D", "pix" },        { "y", "1D", "pix" },
  { "x_fits", "1D", "pix" },   { "y_fits", "1D", "pix" },   { "flux", "1D", "" },
  { "flux_raw", "1D", "" },    { "background", "1D", "" },  { "peak", "1E", "" },
  { "peak_x", "1J", "pix" },   { "peak_y", "1J", "pix" },   { "area", "1J", "pix2" },
  { "xmin", "1J", "pix" },     { "ymin", "1J", "pix" },     { "xmax", "1J", "pix" },
  { "ymax", "1J", "pix" },     { "x2", "1D", "pix2" },      { "y2", "1D", "pix2" },
  { "xy", "1D", "pix2" },      { "a", "1D", "pix" },        { "b", "1D", "pix" },
  { "theta", "1D", "rad" },    { "fwhm", "1D", "pix" },
};

/* Column COL of every source, as doubles (exact for the floats and 32-bit integers too). */
static void
column_values (const LmDetectResult *r, int col, double *v)
{
  for (guint i = 0; i < r->n_sources; i++)
    {
      const LmSource *s = &r->sources[i];
      const double all[N_COLUMNS] = {
        s->label, s->x, s->y, s->x + 1.0, s->y + 1.0, s->flux, s->flux_raw, s->background, s->peak,
        s->peak_x, s->peak_y, s->area, s->xmin, s->ymin, s->xmax, s->ymax, s->x2, s->y2, s->xy,
        s->a, s->b, s->theta, s->fwhm,
      };
      v[i] = all[col];
    }
}

gboolean
lm_catalogue_write_fits (const char *path, const LmDetectResult *result, GError **error)
{
  g_return_val_if_fail (path != NULL && result != NULL, FALSE);
  MemFits m = { 0 };
  if (!mem_fits_open (&m, 2880 * 4 + (gsize) result->n_sources * 200))
    {
      set_fits_write_error (error, path, m.status ? m.status : MEMORY_ALLOCATION);
      free (m.buffer);
      return FALSE;
    }
  char *names[N_COLUMNS], *forms[N_COLUMNS], *units[N_COLUMNS];
  for (int c = 0; c < N_COLUMNS; c++)
    {
      names[c] = (char *) columns[c].name;
      forms[c] = (char *) columns[c].form;
      units[c] = (char *) columns[c].unit;
    }
  fits_create_img (m.f, BYTE_IMG, 0, NULL, &m.status);
  fits_create_tbl (m.f, BINARY_TBL, result->n_sources, N_COLUMNS, names, forms, units, "CATALOGUE",
                   &m.status);
  /* The clipped statistics of the whole image, as SExtractor's header keeps its background. */
  fits_write_key_dbl (m.f, "GLOBMED", result->global.median, -17, "clipped median of the image", &m.status);
  fits_write_key_dbl (m.f, "GLOBSTD", result->global.std, -17, "clipped std of the image", &m.status);
  if (result->n_sources > 0)
    {
      g_autofree double *values = g_new (double, result->n_sources);
      for (int c = 0; c < N_COLUMNS && m.status == 0; c++)
        {
          column_values (result, c, values);
          fits_write_col (m.f, TDOUBLE, c + 1, 1, 1, result->n_sources, values, &m.status);
        }
    }
  return mem_fits_commit (&m, path, error);
}

gboolean
lm_labels_write_fits (const char *path, const LmDetectResult *result, GError **error)
{
  g_return_val_if_fail (path != NULL && result != NULL, FALSE);
  g_return_val_if_fail (result->labels != NULL || result->width == 0 || result->height == 0, FALSE);
  MemFits m = { 0 };
  gsize data_bytes = (gsize) result->width * result->height * 4;
  if (!mem_fits_open (&m, 2880 * 2 + data_bytes + 2880))
    {
      set_fits_write_error (error, path, m.status ? m.status : MEMORY_ALLOCATION);
      free (m.buffer);
      return FALSE;
    }
  long naxes[2] = { (long) result->width, (long) result->height };
  fits_create_img (m.f, LONG_IMG, 2, naxes, &m.status);
  fits_write_key (m.f, TSTRING, "EXTNAME", "LABELS", "source labels; 0: background", &m.status);
  guint n_sources = result->n_sources;
  fits_write_key (m.f, TUINT, "NSOURCES", &n_sources, "sources labelled 1 to NSOURCES", &m.status);
  if (data_bytes > 0)
    fits_write_img (m.f, TUINT, 1, (LONGLONG) result->width * result->height, result->labels, &m.status);
  return mem_fits_commit (&m, path, error);
}
