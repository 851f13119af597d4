/* FITS images through cfitsio (fits.h). cfitsio applies BSCALE, BZERO and BLANK while it
 * converts to float, so the values are those of the file's physical units, computed in double
 * and rounded once to float. */
#include "fits.h"

#include <fitsio.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../error.h"
#include "../io/io-private.h"

void
lm_fits_info_free (LmFitsInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->path);
  g_strfreev (info->cards);
  g_free (info);
}

gboolean
lm_fits_sniff (const guint8 *head, gsize len)
{
  /* The first card is SIMPLE, its value T in column 30; the '=' in column 9 is enough to tell
   * FITS from any other format, and a file with SIMPLE = F is still FITS to say why not. */
  return len >= 10 && memcmp (head, "SIMPLE  = ", 10) == 0;
}

/* cfitsio's status as a sentence about SPEC. */
static void
set_status_error (GError **error, const char *spec, int status)
{
  char text[FLEN_STATUS] = "";
  fits_get_errstatus (status, text);
  fits_clear_errmsg ();
  LmErrorCode code = LM_ERROR_FORMAT;
  switch (status)
    {
    case FILE_NOT_OPENED:
      code = LM_ERROR_IO;
      lm_set_file_error (error, code, spec, _("cannot be opened as a FITS file (cfitsio: %s)"), text);
      return;
    case END_OF_FILE:
    case READ_ERROR:
      lm_set_file_error (error, code, spec, _("the FITS file ends before its data does: it is truncated"));
      return;
    case BAD_HDU_NUM:
    case URL_PARSE_ERROR:
      lm_set_file_error (error, code, spec, _("has no such HDU (cfitsio: %s)"), text);
      return;
    case MEMORY_ALLOCATION:
      code = LM_ERROR_OUT_OF_MEMORY;
      break;
    default:
      break;
    }
  lm_set_file_error (error, code, spec, _("is not a FITS image Lumen can read (cfitsio status %d: %s)"),
                     status, text);
}

/* Whether SPEC names an HDU ("a.fits[2]", "a.fits[SCI]") for cfitsio to move to. */
static gboolean
spec_names_hdu (const char *spec)
{
  char urltype[FLEN_FILENAME], infile[FLEN_FILENAME], outfile[FLEN_FILENAME];
  char extspec[FLEN_FILENAME], filter[FLEN_FILENAME], binspec[FLEN_FILENAME], colspec[FLEN_FILENAME];
  int status = 0;
  if (strlen (spec) >= FLEN_FILENAME)
    return FALSE; /* fits_open_file refuses such names with its own status */
  fits_parse_input_url ((char *) spec, urltype, infile, outfile, extspec, filter, binspec, colspec, &status);
  fits_clear_errmsg ();
  return status == 0 && (extspec[0] != '\0' || filter[0] != '\0' || binspec[0] != '\0');
}

/* Moves to the first HDU holding an image of two axes or more: many files keep their image in
 * extension 1 behind an empty primary HDU. */
static gboolean
move_to_first_image (fitsfile *f, const char *spec, GError **error)
{
  for (int hdu = 1;; hdu++)
    {
      int type = 0, status = 0, naxis = 0;
      if (fits_movabs_hdu (f, hdu, &type, &status) != 0)
        {
          fits_clear_errmsg ();
          if (status == END_OF_FILE || status == BAD_HDU_NUM)
            lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("holds no 2-D image in any of its %d HDUs"),
                               hdu - 1);
          else
            set_status_error (error, spec, status);
          return FALSE;
        }
      if (type == IMAGE_HDU && fits_get_img_dim (f, &naxis, &status) == 0 && naxis >= 2)
        return TRUE;
      if (status != 0)
        {
          set_status_error (error, spec, status);
          return FALSE;
        }
    }
}

/* WIDTH and HEIGHT of the image at the current HDU, or an error saying why it is not one Lumen
 * reads: a table, no data, one axis, a cube. */
static gboolean
image_shape (fitsfile *f, const char *spec, int hdu, guint *width, guint *height, GError **error)
{
  int type = 0, naxis = 0, bitpix = 0, status = 0;
  LONGLONG naxes[9] = { 0 };
  fits_get_hdu_type (f, &type, &status);
  if (status == 0 && type != IMAGE_HDU)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("HDU %d (extension %d) is a table, not an image"), hdu,
                         hdu - 1);
      return FALSE;
    }
  if (fits_get_img_paramll (f, G_N_ELEMENTS (naxes), &bitpix, &naxis, naxes, &status) != 0)
    {
      set_status_error (error, spec, status);
      return FALSE;
    }
  if (naxis < 2 || naxes[0] <= 0 || naxes[1] <= 0)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("HDU %d (extension %d) holds no 2-D image (NAXIS = %d)"),
                         hdu, hdu - 1, naxis);
      return FALSE;
    }
  for (int axis = 2; axis < MIN (naxis, (int) G_N_ELEMENTS (naxes)); axis++)
    if (naxes[axis] != 1)
      {
        lm_set_file_error (error, LM_ERROR_FORMAT, spec,
                           _("HDU %d (extension %d) is a cube of %d axes (NAXIS%d = %lld); Lumen "
                             "reads 2-D images (choose a plane with cfitsio's syntax, e.g. "
                             "file.fits[*,*,1])"),
                           hdu, hdu - 1, naxis, axis + 1, (long long) naxes[axis]);
        return FALSE;
      }
  if ((guint64) naxes[0] > LM_IMAGE_MAX_SIDE || (guint64) naxes[1] > LM_IMAGE_MAX_SIDE)
    {
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, spec, _("its image of %lld × %lld pixels is larger than Lumen accepts"),
                         (long long) naxes[0], (long long) naxes[1]);
      return FALSE;
    }
  *width = (guint) naxes[0];
  *height = (guint) naxes[1];
  return TRUE;
}

static char **
read_cards (fitsfile *f, int *status)
{
  int n_keys = 0;
  if (fits_get_hdrspace (f, &n_keys, NULL, status) != 0)
    return NULL;
  GPtrArray *cards = g_ptr_array_new_full (n_keys + 1, g_free);
  for (int i = 1; i <= n_keys; i++)
    {
      char card[FLEN_CARD] = "";
      if (fits_read_record (f, i, card, status) != 0)
        {
          g_ptr_array_free (cards, TRUE);
          return NULL;
        }
      g_ptr_array_add (cards, g_strdup (card));
    }
  g_ptr_array_add (cards, NULL);
  return (char **) g_ptr_array_free (cards, FALSE);
}

static double
read_double_key (fitsfile *f, const char *name, double otherwise)
{
  double value = otherwise;
  int status = 0;
  if (fits_read_key (f, TDOUBLE, name, &value, NULL, &status) != 0)
    {
      fits_clear_errmsg ();
      return otherwise;
    }
  return value;
}

/* The image at F's current HDU (or the first image when CHOOSE_FIRST), closing F. */
static LmImage *
load_open (fitsfile *f, const char *spec, const char *path, gboolean choose_first,
           const LmAllocator *allocator, LmFitsInfo **info_out, GError **error)
{
  int status = 0, hdu = 0;
  guint width = 0, height = 0;
  g_autoptr (LmImage) image = NULL;
  g_autoptr (LmFitsInfo) info = g_new0 (LmFitsInfo, 1);

  if (choose_first && !move_to_first_image (f, spec, error))
    goto fail;
  fits_get_hdu_num (f, &hdu);
  if (!image_shape (f, spec, hdu, &width, &height, error))
    goto fail;
  /* lm_io_image_new applies the pixel budget before anything of the declared size exists. */
  image = lm_io_image_new (LM_FORMAT_GRAY_F32, width, height, allocator, spec, error);
  if (image == NULL)
    goto fail;

  float blank = NAN;
  int any_blank = 0;
  for (guint y = 0; y < height && status == 0; y++)
    fits_read_img (f, TFLOAT, (LONGLONG) y * width + 1, width, &blank, lm_image_row (image, y),
                   &any_blank, &status);
  if (status == 0)
    {
      info->path = g_strdup (path);
      info->hdu = hdu;
      fits_get_img_type (f, &info->bitpix, &status);
      info->bscale = read_double_key (f, "BSCALE", 1.0);
      info->bzero = read_double_key (f, "BZERO", 0.0);
      info->flip_view = TRUE;
      info->cards = read_cards (f, &status);
    }
  if (status != 0)
    {
      set_status_error (error, spec, status);
      goto fail;
    }
  fits_close_file (f, &status);
  fits_clear_errmsg ();

  for (guint y = 0; y < height; y++)
    {
      const float *row = (const float *) lm_image_row (image, y);
      for (guint x = 0; x < width; x++)
        info->n_blank += isnan (row[x]);
    }
  image->opaque = TRUE;
  image->source_bit_depth = 32;
  if (info_out)
    *info_out = g_steal_pointer (&info);
  return g_steal_pointer (&image);

fail:
  status = 0;
  fits_close_file (f, &status);
  fits_clear_errmsg ();
  return NULL;
}

/* Whether PATH begins as FITS does, plainly or gzip-compressed (which cfitsio reads). */
static gboolean
looks_like_fits (const char *path)
{
  guint8 head[10] = { 0 };
  FILE *f = g_fopen (path, "rb");
  if (f == NULL)
    return TRUE; /* cfitsio's own status says more */
  gsize n = fread (head, 1, sizeof head, f);
  fclose (f);
  return lm_fits_sniff (head, n) || (n >= 2 && head[0] == 0x1f && head[1] == 0x8b);
}

LmImage *
lm_fits_load (const char *spec, const LmAllocator *allocator, LmFitsInfo **info, GError **error)
{
  g_return_val_if_fail (spec != NULL, NULL);
  fitsfile *f = NULL;
  int status = 0;
  char root[FLEN_FILENAME] = "";
  if (strlen (spec) < FLEN_FILENAME)
    fits_parse_rootname ((char *) spec, root, &status);
  fits_clear_errmsg ();
  status = 0;
  if (fits_open_file (&f, spec, READONLY, &status) != 0)
    {
      /* cfitsio says "could not open the named file" for a file that is there but empty. */
      if (root[0] != '\0' && g_file_test (root, G_FILE_TEST_IS_REGULAR))
        {
          GStatBuf st;
          if (g_stat (root, &st) == 0 && st.st_size == 0)
            {
              fits_clear_errmsg ();
              lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("the file is empty"));
              return NULL;
            }
        }
      else if (root[0] != '\0' && !g_file_test (root, G_FILE_TEST_EXISTS))
        {
          fits_clear_errmsg ();
          lm_set_file_error (error, LM_ERROR_IO, spec, _("no such file"));
          return NULL;
        }
      if (spec_names_hdu (spec) && (status == END_OF_FILE || status == BAD_HDU_NUM))
        {
          fits_clear_errmsg ();
          lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("has no such HDU"));
          return NULL;
        }
      if (root[0] != '\0' && !looks_like_fits (root))
        {
          fits_clear_errmsg ();
          lm_set_file_error (error, LM_ERROR_FORMAT, spec,
                             _("is not a FITS file (it does not begin with a SIMPLE card)"));
          return NULL;
        }
      set_status_error (error, spec, status);
      return NULL;
    }
  if (allocator == NULL)
    allocator = lm_allocator_host ();
  return load_open (f, spec, root[0] ? root : spec, !spec_names_hdu (spec), allocator, info, error);
}

LmImage *
lm_fits_load_memory (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
                     LmFitsInfo **info, GError **error)
{
  fitsfile *f = NULL;
  int status = 0;
  /* Opened read-only, cfitsio reads the caller's bytes in place and never writes them. */
  void *buffer = (void *) data;
  size_t size = len;
  if (fits_open_memfile (&f, "lumen-memory.fits", READONLY, &buffer, &size, 0, NULL, &status) != 0)
    {
      set_status_error (error, path, status);
      return NULL;
    }
  return load_open (f, path, path, TRUE, allocator ? allocator : lm_allocator_host (), info, error);
}
