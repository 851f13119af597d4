/* fits-dump: what lm_fits_load reads, for tests/formats/test_fits.py.
 *
 *   fits-dump SPEC [RAW]        one line "width height bitpix hdu n_blank bscale bzero" on
 *                               stdout, the pixels as packed little-endian float32 to RAW
 *   fits-dump --io PATH [RAW]   the same through the common loader (lm_io_load)
 *   fits-dump --cards SPEC      the header's cards, one a line
 *   fits-dump --catalogue CSV FITS LABELS RAW
 *                               writes a made-up detection result with the catalogue and label
 *                               writers ("-": not that one), and its values to RAW: for each
 *                               source its 23 columns as little-endian doubles, then the labels
 *                               as little-endian uint32; the line "n_sources width height"
 *
 * A failure prints the error's message on stderr and exits 1. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "core/astro/catalogue.h"
#include "core/io/fits.h"
#include "core/io/io.h"

static gboolean
write_pixels (const LmImage *image, const char *raw, GError **error)
{
  FILE *out = fopen (raw, "wb");
  if (out == NULL)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: cannot write", raw);
      return FALSE;
    }
  gboolean ok = TRUE;
  for (guint y = 0; y < image->height && ok; y++)
    {
      const float *row = (const float *) lm_image_row (image, y);
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
      ok = fwrite (row, sizeof (float), image->width, out) == image->width;
#else
#error "fits-dump writes little-endian floats on little-endian hosts only"
#endif
    }
  if (fclose (out) != 0 || !ok)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, "%s: cannot write", raw);
      return FALSE;
    }
  return TRUE;
}

/* Values that test a writer's precision: thirds and tenths (17 digits needed), a subnormal,
 * the largest double, a negative zero, floats that are not short decimals. */
static double
odd_value (guint i, guint col)
{
  switch ((i * 7 + col) % 6)
    {
    case 0:
      return (i + 1) / 3.0 + col * 1e-9;
    case 1:
      return -(i + 0.1) * (col + 0.7);
    case 2:
      return i == 2 ? 4.9e-320 : 1e10 / (col + i + 3.0);
    case 3:
      return i == 3 ? 1.7976931348623157e308 : 1234.5678901234567 * (i + 1);
    case 4:
      return i == 4 ? -0.0 : 0.1 * (i + col);
    default:
      return G_PI * (i + 1) * 1e-5;
    }
}

static int
write_catalogue (char **argv)
{
  enum { N = 9, W = 37, H = 23 };
  LmSource sources[N] = { 0 };
  guint32 labels[W * H];
  for (guint p = 0; p < W * H; p++)
    labels[p] = (p * 2654435761u >> 7) % (N + 1);
  for (guint i = 0; i < N; i++)
    {
      LmSource *s = &sources[i];
      s->label = i + 1;
      double *doubles[] = { &s->x, &s->y, &s->flux, &s->flux_raw, &s->background, &s->x2, &s->y2,
                            &s->xy, &s->a, &s->b, &s->theta, &s->fwhm };
      for (guint c = 0; c < G_N_ELEMENTS (doubles); c++)
        *doubles[c] = odd_value (i, c);
      s->peak = (float) odd_value (i, 20) * 1.1f;
      s->peak_x = i * 3 % W;
      s->peak_y = i * 5 % H;
      s->area = 5 + i * 1000003u % 1000;
      s->xmin = i;
      s->ymin = i / 2;
      s->xmax = W - 1 - i;
      s->ymax = H - 1;
    }
  LmDetectResult result = { .width = W, .height = H, .labels = labels, .sources = sources, .n_sources = N };
  result.global.median = 1.0 / 7;
  result.global.std = 2.0 / 3;
  g_autoptr (GError) error = NULL;
  if ((strcmp (argv[0], "-") != 0 && !lm_catalogue_write_csv (argv[0], &result, &error))
      || (strcmp (argv[1], "-") != 0 && !lm_catalogue_write_fits (argv[1], &result, &error))
      || (strcmp (argv[2], "-") != 0 && !lm_labels_write_fits (argv[2], &result, &error)))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  FILE *raw = fopen (argv[3], "wb");
  if (raw == NULL)
    return 1;
  for (guint i = 0; i < N; i++)
    {
      const LmSource *s = &sources[i];
      const double row[23] = {
        s->label, s->x, s->y, s->x + 1.0, s->y + 1.0, s->flux, s->flux_raw, s->background, s->peak,
        s->peak_x, s->peak_y, s->area, s->xmin, s->ymin, s->xmax, s->ymax, s->x2, s->y2, s->xy,
        s->a, s->b, s->theta, s->fwhm,
      };
      fwrite (row, sizeof row, 1, raw);
    }
  fwrite (labels, sizeof labels, 1, raw);
  if (fclose (raw) != 0)
    return 1;
  printf ("%d %d %d\n", N, W, H);
  return 0;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, ""); /* as the programs do: the writers must not follow LC_NUMERIC */
  g_autoptr (GError) error = NULL;
  if (argc == 6 && strcmp (argv[1], "--catalogue") == 0)
    return write_catalogue (argv + 2);
  if (argc >= 3 && strcmp (argv[1], "--cards") == 0)
    {
      g_autoptr (LmFitsInfo) info = NULL;
      g_autoptr (LmImage) image = lm_fits_load (argv[2], NULL, &info, &error);
      if (image == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      for (char **card = info->cards; *card; card++)
        printf ("%s\n", *card);
      return 0;
    }
  if (argc >= 3 && strcmp (argv[1], "--io") == 0)
    {
      g_autoptr (LmImage) image = lm_io_load (argv[2], NULL, &error);
      if (image == NULL || (argc >= 4 && !write_pixels (image, argv[3], &error)))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      printf ("%u %u %s\n", image->width, image->height, lm_format_name (image->format));
      return 0;
    }
  if (argc < 2 || argc > 3 || argv[1][0] == '-')
    {
      fprintf (stderr, "usage: fits-dump SPEC [RAW] | --io PATH [RAW] | --cards SPEC\n");
      return 2;
    }
  g_autoptr (LmFitsInfo) info = NULL;
  g_autoptr (LmImage) image = lm_fits_load (argv[1], NULL, &info, &error);
  if (image == NULL || (argc == 3 && !write_pixels (image, argv[2], &error)))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  char bscale[G_ASCII_DTOSTR_BUF_SIZE], bzero[G_ASCII_DTOSTR_BUF_SIZE];
  printf ("%u %u %d %d %" G_GUINT64_FORMAT " %s %s %s\n", image->width, image->height, info->bitpix,
          info->hdu, info->n_blank, g_ascii_formatd (bscale, sizeof bscale, "%.17g", info->bscale),
          g_ascii_formatd (bzero, sizeof bzero, "%.17g", info->bzero), info->path);
  return 0;
}
