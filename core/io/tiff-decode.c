/* TIFF strips and tiles decoded on every core; see tiff-strips.h. libtiff's handles are not
 * shared between threads, so each thread opens its own on the file's bytes (already in
 * memory): opening parses the first directory again, microseconds against a strip. */
#include <math.h>
#include <string.h>
#include <omp.h>
#include <glib/gi18n.h>

#include "tiff-io.h"
#include "tiff-strips.h"

/* A buffer of one strip for each thread: a file of a few huge strips is read row by row. */
#define MAX_PIECE_BYTES ((gsize) 64 << 20)
/* Pieces a thread takes at a time: one-row strips (libtiff's default of 8 KiB) by dozens. */
#define CHUNK_BYTES ((gsize) 256 << 10)

/* A half (IEEE binary16) as a float: exactly, as every half is a float. */
static inline float
half_to_float (guint16 h)
{
  guint32 sign = (guint32) (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0)
    {
      float v = ldexpf ((float) mantissa, -24); /* zero and subnormals: mantissa × 2⁻²⁴ */
      return sign ? -v : v;
    }
  /* Infinities and NaNs keep their payload; normal numbers move their exponent's bias 15 → 127. */
  guint32 bits = sign | (exponent == 31 ? 0x7f800000u : (exponent + 112) << 23) | mantissa << 13;
  float f;
  memcpy (&f, &bits, sizeof f);
  return f;
}

/* Sample I of the float pixel at PX, BYTES wide. */
static inline float
float_sample (const guint8 *px, guint i, gsize bytes)
{
  if (bytes == 2)
    {
      guint16 h;
      memcpy (&h, px + 2 * i, 2);
      return half_to_float (h);
    }
  if (bytes == 4)
    {
      float f;
      memcpy (&f, px + 4 * i, 4);
      return f;
    }
  double d;
  memcpy (&d, px + 8 * i, 8);
  return (float) d;
}

static void
convert_floats (const guint8 *src, float *out, guint n, const LmTiffSamples *s)
{
  gboolean g1 = s->spp <= 2, alpha = s->spp == 2 || s->spp == 4;
  gsize bytes = s->bits / 8;
  for (guint x = 0; x < n; x++)
    {
      const guint8 *px = src + (gsize) x * s->spp * bytes;
      out[4 * x + 0] = float_sample (px, 0, bytes);
      out[4 * x + 1] = float_sample (px, g1 ? 0 : 1, bytes);
      out[4 * x + 2] = float_sample (px, g1 ? 0 : 2, bytes);
      out[4 * x + 3] = alpha ? float_sample (px, s->spp - 1, bytes) : 1.0f;
    }
}

void
lm_tiff_convert_pixels (const guint8 *src, guint8 *out, guint n, const LmTiffSamples *samples, LmFormat format)
{
  if (samples->floating)
    {
      convert_floats (src, (float *) out, n, samples);
      return;
    }
  guint spp = samples->spp, bits = samples->bits;
  gboolean gray = lm_format_channels (format) == 1;
  gboolean g1 = spp <= 2, alpha = spp == 2 || spp == 4;
  if (lm_format_depth (format) == 16)
    {
      const guint16 *px = (const guint16 *) src;
      guint16 *o = (guint16 *) out;
      if (gray)
        {
          for (guint x = 0; x < n; x++)
            o[x] = px[(gsize) x * spp];
          return;
        }
      for (guint x = 0; x < n; x++, px += spp)
        {
          o[4 * x + 0] = px[0];
          o[4 * x + 1] = px[g1 ? 0 : 1];
          o[4 * x + 2] = px[g1 ? 0 : 2];
          o[4 * x + 3] = alpha ? px[spp - 1] : 65535;
        }
      return;
    }
  if (bits == 8 && gray && spp == 1)
    {
      memcpy (out, src, n);
      return;
    }
  if (bits == 8 && spp == 4)
    {
      memcpy (out, src, (gsize) n * 4);
      return;
    }
  /* The high byte of a 16-bit sample, in the machine's order (libtiff swaps for us). */
  gsize step = bits / 8;
  const guint8 *hi = src + (bits == 16 && G_BYTE_ORDER == G_LITTLE_ENDIAN ? 1 : 0);
  for (guint x = 0; x < n; x++)
    {
      const guint8 *px = hi + (gsize) x * spp * step;
      if (gray)
        out[x] = px[0];
      else
        {
          out[4 * x + 0] = px[0];
          out[4 * x + 1] = px[(g1 ? 0 : 1) * step];
          out[4 * x + 2] = px[(g1 ? 0 : 2) * step];
          out[4 * x + 3] = alpha ? px[(spp - 1) * step] : 255;
        }
    }
}

gboolean
lm_tiff_reads_in_pieces (TIFF *tif)
{
  if (TIFFIsTiled (tif))
    return TIFFTileSize64 (tif) > 0 && TIFFTileSize64 (tif) <= MAX_PIECE_BYTES;
  return TIFFNumberOfStrips (tif) > 1 && TIFFStripSize64 (tif) > 0 && TIFFStripSize64 (tif) <= MAX_PIECE_BYTES;
}

typedef struct {
  const char *path;
  const guint8 *data;
  gsize len;
  LmImage *image;
  const LmTiffSamples *samples;
  gboolean tiled;
  guint32 piece_width, piece_height, across;
  gsize piece_bytes, pixel_bytes; /* in the file */
  gint failed;
  char *message;
} Reader;

static void
fail (Reader *r, const char *why)
{
#pragma omp critical(lm_tiff_decode_message)
  if (r->message[0] == '\0' && why != NULL && why[0] != '\0')
    g_strlcpy (r->message, why, 256);
  g_atomic_int_set (&r->failed, 1);
}

/* Piece I (a strip, or a tile in rows of tiles) through T into the image. */
static gboolean
read_piece (Reader *r, TIFF *t, guint32 i, guint8 *buf)
{
  LmImage *image = r->image;
  guint32 x0 = r->tiled ? (i % r->across) * r->piece_width : 0;
  guint32 y0 = (r->tiled ? i / r->across : i) * r->piece_height;
  if (y0 >= image->height || x0 >= image->width)
    return TRUE; /* past the image: no pixel of it is shown */
  guint32 rows = MIN (r->piece_height, image->height - y0);
  guint32 n = MIN (r->piece_width, image->width - x0);
  gsize row_bytes = r->piece_width * r->pixel_bytes;
  tmsize_t want = (tmsize_t) (r->tiled ? r->piece_bytes : rows * row_bytes);
  tmsize_t got = r->tiled ? TIFFReadEncodedTile (t, i, buf, (tmsize_t) r->piece_bytes)
                          : TIFFReadEncodedStrip (t, i, buf, want);
  if (got < want)
    return FALSE;
  gsize out_pixel = lm_format_bytes_per_pixel (image->format);
  for (guint32 y = 0; y < rows; y++)
    lm_tiff_convert_pixels (buf + y * row_bytes, lm_image_row (image, y0 + y) + x0 * out_pixel, n, r->samples,
                            image->format);
  return TRUE;
}

gboolean
lm_tiff_read_pieces (const char *path, const guint8 *data, gsize len, TIFF *tif, LmImage *image,
                     const LmTiffSamples *samples, char *message)
{
  Reader r = { .path = path, .data = data, .len = len, .image = image, .samples = samples,
               .tiled = TIFFIsTiled (tif), .message = message,
               .pixel_bytes = (gsize) samples->spp * samples->bits / 8 };
  guint32 n_pieces;
  if (r.tiled)
    {
      TIFFGetField (tif, TIFFTAG_TILEWIDTH, &r.piece_width);
      TIFFGetField (tif, TIFFTAG_TILELENGTH, &r.piece_height);
      r.across = (image->width + r.piece_width - 1) / r.piece_width;
      r.piece_bytes = (gsize) TIFFTileSize64 (tif);
      n_pieces = TIFFNumberOfTiles (tif);
    }
  else
    {
      guint32 rows_per_strip = image->height;
      TIFFGetFieldDefaulted (tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
      r.piece_width = image->width;
      r.piece_height = MAX (1u, MIN (rows_per_strip, image->height));
      r.piece_bytes = (gsize) TIFFStripSize64 (tif);
      n_pieces = TIFFNumberOfStrips (tif);
    }
  if (r.piece_width == 0 || r.piece_height == 0
      || r.piece_bytes < (gsize) r.piece_width * r.piece_height * r.pixel_bytes)
    return FALSE; /* libtiff's sizes disagree with the layout: the file is damaged */
  guint chunk = (guint) MAX (1, CHUNK_BYTES / r.piece_bytes);
  guint n_threads = MAX (1, MIN ((guint) omp_get_max_threads (), (n_pieces + chunk - 1) / chunk));

#pragma omp parallel num_threads(n_threads)
  {
    TiffIo io = { .data = data, .len = len };
    TIFF *t = lm_tiff_open_memory (path, &io);
    guint8 *buf = t != NULL ? g_try_malloc (r.piece_bytes) : NULL;
    if (buf == NULL)
      fail (&r, t == NULL ? io.message : _("not enough memory"));
#pragma omp for schedule(dynamic, chunk)
    for (guint32 i = 0; i < n_pieces; i++)
      if (!g_atomic_int_get (&r.failed) && !read_piece (&r, t, i, buf))
        fail (&r, io.message);
    g_free (buf);
    if (t != NULL)
      TIFFClose (t);
  }
  return !r.failed;
}
