/* fits-dump: what lm_fits_load reads, for tests/formats/test_fits.py.
 *
 *   fits-dump SPEC [RAW]        one line "width height bitpix hdu n_blank bscale bzero" on
 *                               stdout, the pixels as packed little-endian float32 to RAW
 *   fits-dump --io PATH [RAW]   the same through the common loader (lm_io_load)
 *   fits-dump --cards SPEC      the header's cards, one a line
 *
 * A failure prints the error's message on stderr and exits 1. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "core/astro/fits.h"
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

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
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
