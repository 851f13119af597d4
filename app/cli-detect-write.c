/* The background map as a FITS image (and the noise map as its first extension). cfitsio writes it into memory (a mem:// file) and the
 * bytes go out through core/io/atomic-file.h: never a partial file under the final name,
 * and a symbolic link is written through as every other output of Lumen's is. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fitsio.h>
#include <glib/gi18n.h>

#include "cli-detect-write.h"
#include "core/error.h"
#include "core/io/atomic-file.h"

/* The header cards that place the map on the sky as the image is placed (the WCS keywords
 * of FITS's paper I and II); the rest of the image's header describes the image, not this. */
static gboolean
is_wcs_card (const char *card)
{
  static const char *const prefixes[] = { "WCSAXES", "CTYPE", "CRPIX", "CRVAL", "CDELT", "CUNIT", "CROTA",
                                          "CD1_",    "CD2_",  "PC1_",  "PC2_",  "PV1_",  "PV2_",  "LONPOLE",
                                          "LATPOLE", "EQUINOX", "RADESYS", "EPOCH", "MJD-OBS", "DATE-OBS" };
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (card, prefixes[i]))
      return TRUE;
  return FALSE;
}

static void
set_fits_error (GError **error, const char *path, int status)
{
  char text[FLEN_STATUS] = "";
  fits_get_errstatus (status, text);
  fits_clear_errmsg ();
  lm_set_file_error (error, LM_ERROR_IO, path, _("cannot write the FITS image: %s"), text);
}

gboolean
lm_cli_detect_write_background (const char *path, const LmDetectResult *result, const LmFitsInfo *info,
                                GError **error)
{
  size_t size = 2880 * 4;
  void *memory = malloc (size);
  if (memory == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("out of memory"));
      return FALSE;
    }
  fitsfile *fits = NULL;
  int status = 0;
  long naxes[2] = { (long) result->width, (long) result->height };
  LONGLONG head = 0, data = 0, end = 0;
  fits_create_memfile (&fits, &memory, &size, 2880 * 64, realloc, &status);
  /* The noise map beside the background: together they say which pixels were over the
   * threshold, for anyone checking the segmentation. */
  const float *maps[] = { result->background, result->noise };
  const char *names[] = { "BACKGROUND", "NOISE" };
  const char *comments[] = { "lumen-cli detect's background map", "lumen-cli detect's noise (sigma) map" };
  for (int m = 0; m < 2; m++)
    {
      fits_create_img (fits, FLOAT_IMG, 2, naxes, &status);
      for (int i = 0; info && info->cards && info->cards[i] && status == 0; i++)
        if (is_wcs_card (info->cards[i]))
          fits_write_record (fits, info->cards[i], &status);
      fits_write_key_str (fits, "EXTNAME", names[m], comments[m], &status);
      fits_write_img (fits, TFLOAT, 1, (LONGLONG) result->width * result->height, (void *) maps[m], &status);
    }
  /* The end of the padded data is the file's length: the memory behind it is cfitsio's
   * spare room. */
  fits_flush_file (fits, &status);
  fits_get_hduaddrll (fits, &head, &data, &end, &status);
  int close_status = 0;
  if (fits)
    fits_close_file (fits, &close_status);
  if (status == 0)
    status = close_status;
  if (status != 0)
    {
      free (memory);
      set_fits_error (error, path, status);
      return FALSE;
    }

  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    {
      free (memory);
      return FALSE;
    }
  if (fwrite (memory, 1, (size_t) end, lm_atomic_file_stream (file)) != (size_t) end)
    {
      GError *e = NULL;
      lm_set_write_error (&e, path, errno);
      lm_atomic_file_take_error (file, e);
    }
  free (memory);
  return lm_atomic_file_commit (file, error);
}
