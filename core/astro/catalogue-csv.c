/* The catalogue as CSV (catalogue.h): doubles with 17 significant digits, so that a reader
 * gets the very values back, and in the C locale's form whatever LC_NUMERIC says. */

#include "catalogue.h"

#include <errno.h>
#include <stdio.h>

#include "../io/atomic-file.h"

static void
put_double (FILE *out, double value, char separator)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  fputs (g_ascii_formatd (text, sizeof text, "%.17g", value), out);
  fputc (separator, out);
}

static void
put_source (FILE *out, const LmSource *s)
{
  fprintf (out, "%u,", s->label);
  put_double (out, s->x, ',');
  put_double (out, s->y, ',');
  put_double (out, s->x + 1.0, ',');
  put_double (out, s->y + 1.0, ',');
  put_double (out, s->flux, ',');
  put_double (out, s->flux_raw, ',');
  put_double (out, s->background, ',');
  /* A float as a double: 17 digits give its exact value back too. */
  put_double (out, s->peak, ',');
  fprintf (out, "%u,%u,%u,%u,%u,%u,%u,", s->peak_x, s->peak_y, s->area, s->xmin, s->ymin, s->xmax, s->ymax);
  put_double (out, s->x2, ',');
  put_double (out, s->y2, ',');
  put_double (out, s->xy, ',');
  put_double (out, s->a, ',');
  put_double (out, s->b, ',');
  put_double (out, s->theta, ',');
  put_double (out, s->fwhm, '\n');
}

gboolean
lm_catalogue_write_csv (const char *path, const LmDetectResult *result, GError **error)
{
  g_return_val_if_fail (path != NULL && result != NULL, FALSE);
  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    return FALSE;
  FILE *out = lm_atomic_file_stream (file);
  fputs ("id,x,y,x_fits,y_fits,flux,flux_raw,background,peak,peak_x,peak_y,area,xmin,ymin,xmax,ymax,"
         "x2,y2,xy,a,b,theta,fwhm\n", out);
  for (guint i = 0; i < result->n_sources; i++)
    put_source (out, &result->sources[i]);
  return lm_atomic_file_commit (file, error);
}
