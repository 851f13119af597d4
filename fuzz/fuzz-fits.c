/* FITS through lm_io_load_from_memory (core/io/fits.c): the header walker
 * (fits-extent.c), cfitsio's memory driver, and gzip-compressed FITS inflated within the
 * budget (fits-gzip.c). A plain input is also loaded gzip-compressed, and the two loads must
 * agree: the same image, bit for bit, or both refused. */
#include <math.h>
#include <string.h>
#include <zlib.h>

#include "fuzz-util.h"
#include "core/io/fits-gzip.h"
#include "core/io/fits.h"

static const char path[] = "fuzz-input.fits";

/* DATA gzip-compressed (fast), or NULL. */
static GBytes *
gzip_of (const uint8_t *data, size_t size)
{
  z_stream z = { 0 };
  if (deflateInit2 (&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return NULL;
  gsize capacity = deflateBound (&z, size);
  guint8 *out = g_malloc (capacity);
  z.next_in = (Bytef *) data;
  z.avail_in = (uInt) size;
  z.next_out = out;
  z.avail_out = (uInt) capacity;
  int r = deflate (&z, Z_FINISH);
  gsize n = capacity - z.avail_out;
  deflateEnd (&z);
  LM_FUZZ_CHECK (r == Z_STREAM_END, "deflate: %d", r);
  return g_bytes_new_take (out, n);
}

/* The image IMAGE is (or the failure), checked; returns IMAGE. */
static LmImage *
checked (const char *what, LmImage *image, GError *error)
{
  if (image == NULL)
    {
      lm_fuzz_check_failure (what, error, path);
      g_error_free (error);
      return NULL;
    }
  LM_FUZZ_CHECK (error == NULL, "%s: a loaded image and an error: %s", what, error->message);
  LM_FUZZ_CHECK (image->format == LM_FORMAT_GRAY_F32, "%s: FITS loaded as %s", what, lm_format_name (image->format));
  LM_FUZZ_CHECK (image->width > 0 && image->height > 0, "%s: an image of %u×%u", what, image->width, image->height);
  LM_FUZZ_CHECK (image->stride >= image->width * sizeof (float), "%s: stride %zu for %u floats", what,
                 image->stride, image->width);
  return image;
}

static gboolean
same_pixels (const LmImage *a, const LmImage *b)
{
  if (a->width != b->width || a->height != b->height)
    return FALSE;
  for (guint y = 0; y < a->height; y++)
    if (memcmp (lm_image_row (a, y), lm_image_row (b, y), a->width * sizeof (float)) != 0)
      return FALSE;
  return TRUE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  gboolean plain = lm_fits_sniff (data, size);
  if (!plain && !lm_fits_gzip_sniff (data, size))
    return LM_FUZZ_REJECT;

  GError *error = NULL;
  LmImage *image = lm_io_load_from_memory (path, data, size, lm_fuzz_allocator (), &error);
  image = checked ("lm_io_load_from_memory", image, error);
  if (plain)
    {
      g_autoptr (GBytes) packed = gzip_of (data, size);
      gsize n = 0;
      const guint8 *bytes = g_bytes_get_data (packed, &n);
      g_autoptr (LmFitsInfo) info = NULL;
      error = NULL;
      LmImage *inflated = lm_fits_load_memory (path, bytes, n, lm_fuzz_allocator (), &info, &error);
      inflated = checked ("lm_fits_load_memory (gzip)", inflated, error);
      LM_FUZZ_CHECK ((image == NULL) == (inflated == NULL), "plain %s, gzip-compressed %s",
                     image ? "loaded" : "refused", inflated ? "loaded" : "refused");
      if (inflated != NULL)
        {
          LM_FUZZ_CHECK (same_pixels (image, inflated), "plain and gzip-compressed loads differ");
          LM_FUZZ_CHECK (info->hdu >= 1 && info->cards != NULL && info->cards[0] != NULL, "HDU %d, no cards",
                         info->hdu);
          LM_FUZZ_CHECK (info->n_blank <= (guint64) image->width * image->height, "%" G_GUINT64_FORMAT " blank",
                         info->n_blank);
          lm_image_unref (inflated);
        }
    }
  if (image != NULL)
    lm_image_unref (image);
  return 0;
}
