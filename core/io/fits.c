/* FITS images through cfitsio (fits.h). cfitsio applies BSCALE, BZERO and BLANK while it
 * converts to float, so the values are those of the file's physical units, computed in double
 * and rounded once to float. */
#include "fits.h"

#include <fitsio.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "file-read.h"
#include "io-private.h"
#include "fits-extent.h"
#include "fits-gzip.h"

#define MAX_AXES 999                  /* FITS's bound on NAXIS */
#define READ_RUN ((guint64) 1 << 20) /* values a cfitsio call reads: 4 MB of floats */

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

/* A cube's refusal: AXIS (1-based) is the first beyond the second that is not 1. cfitsio's
 * image sections choose a plane of at most 4 axes. */
static void
set_cube_error (GError **error, const char *spec, int hdu, int naxis, int axis, long long length)
{
  if (naxis <= 4)
    lm_set_file_error (error, LM_ERROR_FORMAT, spec,
                       _("HDU %d (extension %d) is a cube of %d axes (NAXIS%d = %lld); Lumen reads 2-D images "
                         "(choose a plane with cfitsio's syntax, e.g. %s)"),
                       hdu, hdu - 1, naxis, axis, length, naxis == 3 ? "file.fits[*,*,1]" : "file.fits[*,*,1,1]");
  else
    lm_set_file_error (error, LM_ERROR_FORMAT, spec,
                       _("HDU %d (extension %d) is a cube of %d axes (NAXIS%d = %lld); Lumen reads 2-D images "
                         "(cfitsio's syntax chooses planes of 4 axes at most)"),
                       hdu, hdu - 1, naxis, axis, length);
}

/* WIDTH and HEIGHT of the image at the current HDU, or an error saying why it is not one Lumen
 * reads: a table, no data, one axis, a cube (of up to 999 axes, as FITS allows). */
static gboolean
image_shape (fitsfile *f, const char *spec, int hdu, guint *width, guint *height, GError **error)
{
  int type = 0, naxis = 0, bitpix = 0, status = 0;
  g_autofree LONGLONG *naxes = g_new0 (LONGLONG, MAX_AXES);
  fits_get_hdu_type (f, &type, &status);
  if (status == 0 && type != IMAGE_HDU)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("HDU %d (extension %d) is a table, not an image"), hdu,
                         hdu - 1);
      return FALSE;
    }
  if (fits_get_img_paramll (f, MAX_AXES, &bitpix, &naxis, naxes, &status) != 0)
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
  for (int axis = 2; axis < MIN (naxis, MAX_AXES); axis++)
    if (naxes[axis] != 1)
      {
        set_cube_error (error, spec, hdu, naxis, axis + 1, (long long) naxes[axis]);
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

/* The image's pixels in runs of up to READ_RUN values, one cfitsio call a run whatever the
 * image's shape (a call a row made a 1 × 40M image 40M calls). Rows padded beyond their
 * pixels are filled from a run read aside. */
static void
read_pixels (fitsfile *f, LmImage *image, int *status)
{
  guint64 width = image->width, total = width * image->height;
  gboolean packed = image->stride == width * sizeof (float);
  g_autofree float *aside = packed ? NULL : g_new (float, MIN (total, READ_RUN));
  float blank = NAN;
  int any_blank = 0;
  for (guint64 first = 0; first < total && *status == 0; first += READ_RUN)
    {
      guint64 n = MIN (READ_RUN, total - first);
      float *run = packed ? (float *) image->data + first : aside;
      if (fits_read_img (f, TFLOAT, (LONGLONG) first + 1, (LONGLONG) n, &blank, run, &any_blank, status) != 0
          || packed)
        continue;
      for (guint64 at = first; at < first + n;)
        {
          guint64 x = at % width, count = MIN (width - x, first + n - at);
          memcpy ((float *) lm_image_row (image, (guint) (at / width)) + x, run + (at - first), count * sizeof (float));
          at += count;
        }
    }
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

/* The image at F's current HDU. */
static LmImage *
read_image (fitsfile *f, const char *spec, const char *path, const LmAllocator *allocator, LmFitsInfo **info_out,
            GError **error)
{
  int status = 0, hdu = 0;
  guint width = 0, height = 0;
  fits_get_hdu_num (f, &hdu);
  if (!image_shape (f, spec, hdu, &width, &height, error))
    return NULL;
  /* lm_io_image_new applies the pixel budget before anything of the declared size exists. */
  g_autoptr (LmImage) image = lm_io_image_new (LM_FORMAT_GRAY_F32, width, height, allocator, spec, error);
  if (image == NULL)
    return NULL;
  g_autoptr (LmFitsInfo) info = g_new0 (LmFitsInfo, 1);
  read_pixels (f, image, &status);
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
      return NULL;
    }
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
}

static void
close_file (fitsfile *f)
{
  int status = 0;
  fits_close_file (f, &status);
  fits_clear_errmsg ();
}

/* The HDU to read, as a name given to lm_fits_load says it ("a.fits[2]", "a.fits[SCI,2]"). */
typedef struct {
  guint goal;             /* for the walker: HDU n, the first image, or every HDU (by name) */
  char name[FLEN_VALUE];  /* EXTNAME or HDUNAME, when by name */
  int version, type;      /* EXTVER (0: any) and the kind of HDU, as fits_parse_extspec gives them */
} HduChoice;

static void
set_no_hdu_error (GError **error, const char *spec, int status)
{
  if (status == END_OF_FILE || status == BAD_HDU_NUM)
    lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("has no such HDU"));
  else
    set_status_error (error, spec, status);
  fits_clear_errmsg ();
}

/* F at the HDU CHOICE names; where it is not among the whole HDUs, WALK's reason for stopping,
 * if it stopped short. */
static gboolean
move_to_choice (fitsfile *f, const char *spec, const HduChoice *choice, LmFitsWalk *walk, GError **error)
{
  int status = 0, type = 0;
  GError *e = NULL;
  if (choice->goal == LM_FITS_FIRST_IMAGE)
    move_to_first_image (f, spec, &e);
  else if (choice->name[0] != '\0')
    fits_movnam_hdu (f, choice->type, (char *) choice->name, choice->version, &status);
  else
    fits_movabs_hdu (f, (int) choice->goal, &type, &status);
  if (e == NULL && status == 0)
    return TRUE;
  if (walk->stop != NULL)
    {
      g_clear_error (&e);
      g_propagate_error (error, g_steal_pointer (&walk->stop));
      fits_clear_errmsg ();
    }
  else if (e != NULL)
    g_propagate_error (error, e);
  else
    set_no_hdu_error (error, spec, status);
  return FALSE;
}

/* Whether cfitsio places F's current HDU where the walker found it whole. cfitsio reads a
 * memory file wherever its own reading of a header says (it extends the file to the end of
 * the last HDU it meets): the two must agree before it reads any data. */
static gboolean
check_extent (fitsfile *f, const char *spec, const LmFitsWalk *walk, GError **error)
{
  int hdu = 0, status = 0;
  LONGLONG head = 0, start = 0, end = 0;
  fits_get_hdu_num (f, &hdu);
  fits_get_hduaddrll (f, &head, &start, &end, &status);
  fits_clear_errmsg ();
  const LmFitsHdu *whole = lm_fits_walk_hdu (walk, (guint) hdu);
  if (status == 0 && whole != NULL && (guint64) head == whole->start && (guint64) start == whole->data_start
      && (guint64) end == whole->end)
    return TRUE;
  lm_set_file_error (error, LM_ERROR_FORMAT, spec,
                     _("the header of HDU %d (extension %d) does not say plainly where its data ends"), hdu, hdu - 1);
  return FALSE;
}

static void
set_not_fits_error (GError **error, const char *spec)
{
  lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("is not a FITS file (it does not begin with a SIMPLE card)"));
}

/* A copy of DATA with the last block's padding, all that is missing of its last HDU, as FITS
 * pads (zeros): cfitsio reads whole blocks. Not for an image beyond the pixel budget, which
 * would only be refused after the copy. */
static guint8 *
pad_last_block (const char *spec, const guint8 *data, gsize len, const LmFitsWalk *walk, GError **error)
{
  const LmFitsHdu *last = lm_fits_walk_hdu (walk, walk->hdus->len);
  if (!lm_fits_hdu_within_budget (last, spec, error))
    return NULL;
  guint8 *copy = g_try_malloc0 ((gsize) walk->end);
  if (copy == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, spec, _("not enough memory to read it"));
      return NULL;
    }
  memcpy (copy, data, len);
  return copy;
}

/* cfitsio on the whole HDUs WALK found among the LEN bytes of DATA, and nothing after them:
 * the image CHOICE names. */
static LmImage *
open_and_read (const char *spec, const char *path, const guint8 *data, gsize len, const HduChoice *choice,
               LmFitsWalk *walk, const LmAllocator *allocator, LmFitsInfo **info, GError **error)
{
  g_autofree guint8 *padded = NULL;
  if (walk->end > len && (padded = pad_last_block (spec, data, len, walk, error)) == NULL)
    return NULL;
  /* The buffer and its size: cfitsio keeps their addresses until the file is closed. */
  void *buffer = padded != NULL ? padded : (void *) data;
  size_t size = (size_t) walk->end;
  fitsfile *f = NULL;
  int status = 0;
  /* Opened read-only, cfitsio reads the bytes in place and never writes them. */
  if (fits_open_memfile (&f, "lumen-memory.fits", READONLY, &buffer, &size, 0, NULL, &status) != 0)
    {
      set_status_error (error, spec, status);
      return NULL;
    }
  LmImage *image = NULL;
  if (move_to_choice (f, spec, choice, walk, error) && check_extent (f, spec, walk, error))
    image = read_image (f, spec, path, allocator, info, error);
  close_file (f);
  return image;
}

/* The image CHOICE names among the LEN bytes of DATA, a whole FITS file in memory. Its HDUs
 * are walked up to that one first; any of them cut short or damaged is refused. */
static LmImage *
load_bytes (const char *spec, const char *path, const guint8 *data, gsize len, const HduChoice *choice,
            const LmAllocator *allocator, LmFitsInfo **info, GError **error)
{
  LmFitsWalk walk;
  lm_fits_walk (data, len, choice->goal, spec, &walk);
  LmImage *image = NULL;
  /* By name the goal is unknown to the walker: HDUs cut after those it found whole are
   * refused only if cfitsio finds no such HDU among them (move_to_choice). */
  if (walk.stop != NULL && (choice->goal != LM_FITS_EVERY_HDU || walk.hdus->len == 0))
    g_propagate_error (error, g_steal_pointer (&walk.stop));
  else if (walk.hdus->len == 0)
    set_not_fits_error (error, spec);
  else
    image = open_and_read (spec, path, data, len, choice, &walk, allocator, info, error);
  lm_fits_walk_clear (&walk);
  return image;
}

/* SPEC through cfitsio's own reading of the file: a filter, an image section or binning in
 * its name. cfitsio then copies every HDU of the file, so all of them must be whole. */
static LmImage *
load_filtered (const char *spec, const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
               LmFitsInfo **info, GError **error)
{
  LmFitsWalk walk;
  lm_fits_walk (data, len, LM_FITS_EVERY_HDU, spec, &walk);
  LmImage *image = NULL;
  fitsfile *f = NULL;
  int status = 0;
  if (walk.stop != NULL)
    g_propagate_error (error, g_steal_pointer (&walk.stop));
  else if (fits_open_file (&f, spec, READONLY, &status) != 0)
    set_no_hdu_error (error, spec, status);
  else
    {
      image = read_image (f, spec, path, allocator, info, error);
      close_file (f);
    }
  lm_fits_walk_clear (&walk);
  return image;
}

/* What SPEC names: the file (ROOT) and its HDU; FILTERED when cfitsio must read the file
 * itself (filters, image sections, binning, an image in a table cell). */
static gboolean
parse_spec (const char *spec, char **root, HduChoice *choice, gboolean *filtered, GError **error)
{
  *choice = (HduChoice) { .goal = LM_FITS_FIRST_IMAGE };
  *filtered = FALSE;
  if (strlen (spec) >= FLEN_FILENAME)
    {
      *root = g_strdup (spec); /* too long for cfitsio's syntax: a plain file name */
      return TRUE;
    }
  char urltype[FLEN_FILENAME], infile[FLEN_FILENAME], outfile[FLEN_FILENAME], extspec[FLEN_FILENAME];
  char filter[FLEN_FILENAME], binspec[FLEN_FILENAME], colspec[FLEN_FILENAME];
  int status = 0;
  if (fits_parse_input_url ((char *) spec, urltype, infile, outfile, extspec, filter, binspec, colspec, &status) != 0)
    {
      set_status_error (error, spec, status);
      return FALSE;
    }
  if (strcmp (urltype, "file://") != 0)
    {
      lm_set_file_error (error, LM_ERROR_IO, spec, _("is not a local file (Lumen reads no FITS file through %s)"),
                         urltype);
      return FALSE;
    }
  *root = g_strdup (infile);
  *filtered = outfile[0] != '\0' || filter[0] != '\0' || binspec[0] != '\0' || colspec[0] != '\0';
  if (extspec[0] == '\0')
    return TRUE;
  char column[FLEN_VALUE], rows[FLEN_FILENAME];
  int number = 0;
  if (fits_parse_extspec (extspec, &number, choice->name, &choice->version, &choice->type, column, rows, &status)
      != 0)
    {
      set_status_error (error, spec, status);
      return FALSE;
    }
  *filtered = *filtered || column[0] != '\0' || rows[0] != '\0';
  choice->goal = choice->name[0] != '\0' ? LM_FITS_EVERY_HDU : (guint) number + 1;
  return TRUE;
}

static gboolean
is_gzip (const guint8 *data, gsize len)
{
  return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

LmImage *
lm_fits_load (const char *spec, const LmAllocator *allocator, LmFitsInfo **info, GError **error)
{
  g_return_val_if_fail (spec != NULL, NULL);
  g_autofree char *root = NULL;
  HduChoice choice;
  gboolean filtered;
  if (!parse_spec (spec, &root, &choice, &filtered, error))
    return NULL;
  /* Mapped, not read: the walker touches the headers, cfitsio the data of the HDU it reads. */
  g_autoptr (GBytes) bytes = lm_file_map (root, LM_FILE_KIND_IMAGE, G_MAXUINT64, error);
  if (bytes == NULL)
    return NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  if (allocator == NULL)
    allocator = lm_allocator_host ();
  if (len == 0)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, spec, _("the file is empty"));
      return NULL;
    }
  if (is_gzip (data, len))
    {
      if (filtered)
        {
          lm_set_file_error (error, LM_ERROR_UNSUPPORTED, spec,
                             _("filters and image sections are not read from a gzip-compressed file; "
                               "decompress it first"));
          return NULL;
        }
      g_autoptr (GBytes) plain = lm_fits_gunzip (spec, data, len, choice.goal, error);
      if (plain == NULL)
        return NULL;
      data = g_bytes_get_data (plain, &len);
      return load_bytes (spec, root, data, len, &choice, allocator, info, error);
    }
  if (!lm_fits_sniff (data, len))
    {
      set_not_fits_error (error, spec);
      return NULL;
    }
  if (filtered)
    return load_filtered (spec, root, data, len, allocator, info, error);
  return load_bytes (spec, root, data, len, &choice, allocator, info, error);
}

LmImage *
lm_fits_load_memory (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
                     LmFitsInfo **info, GError **error)
{
  static const HduChoice first = { .goal = LM_FITS_FIRST_IMAGE };
  if (allocator == NULL)
    allocator = lm_allocator_host ();
  if (!is_gzip (data, len))
    return load_bytes (path, path, data, len, &first, allocator, info, error);
  g_autoptr (GBytes) plain = lm_fits_gunzip (path, data, len, first.goal, error);
  if (plain == NULL)
    return NULL;
  const guint8 *bytes = g_bytes_get_data (plain, &len);
  return load_bytes (path, path, bytes, len, &first, allocator, info, error);
}

static gboolean
sniff_fits (const guint8 *data, gsize len)
{
  return lm_fits_sniff (data, len) || lm_fits_gzip_sniff (data, len);
}

/* As LM_FORMAT_GRAY_F32, plain or gzip-compressed; its header comes with lm_fits_load. */
static LmImage *
load_fits (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator, GError **error)
{
  return lm_fits_load_memory (path, data, len, allocator, NULL, error);
}

/* Not written: FITS data leaves as a catalogue or through a display stretch. */
const LmFileFormat lm_file_format_fits = {
  .type = LM_FILE_FITS,
  .name = "FITS",
  .sniff = sniff_fits,
  .load = load_fits,
};
