/* Radiance RGBE (.hdr): read by our own reader (radiance-read.c); written here by our own
 * encoder of Radiance's run-length encoded scanlines from RGBE pixels (core/hdr/rgbe-math.h),
 * so that the pixels can be converted where the radiance is (on the GPU in the batch) and the
 * host only encodes runs. Radiance stores RGB; alpha is 1 on load and dropped on save. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "io-private.h"
#include "../hdr/rgbe-math.h"
#include "../hdr/rgbe.h"

void
lm_rgbe_encode_cpu (const LmImage *radiance, LmImage *out)
{
  g_return_if_fail (radiance->format == LM_FORMAT_RGBA_F32 && out->format == LM_FORMAT_RGBE8
                    && radiance->width == out->width && radiance->height == out->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < radiance->height; y++)
    {
      const float *in = (const float *) lm_image_row (radiance, y);
      guint32 *px = (guint32 *) lm_image_row (out, y);
      for (guint x = 0; x < radiance->width; x++)
        px[x] = lm_rgbe_encode (in[4 * x + 0], in[4 * x + 1], in[4 * x + 2]);
    }
}

/* Radiance's run-length encoding of one scanline ("new-style", Radiance's color.c and every
 * reader since 1991): a marker 2, 2, width (big-endian), then each of R, G, B and E on its
 * own as runs (128 + n, byte: n ≤ 127 repeats) and literals (n, n bytes: n ≤ 128). Readers
 * take this form only for widths 8..32767; others are written flat, which no pixel of ours
 * can mistake for a marker (the largest channel's mantissa is at least 128). */
#define RLE_MIN_WIDTH 8
#define RLE_MAX_WIDTH 0x7fff
/* Shorter runs cost as much as literals (2 bytes for 2); Radiance's writer uses 4 too. */
#define RLE_MIN_RUN 4
#define RLE_MAX_RUN 127
#define RLE_MAX_LITERAL 128

static gboolean
rle_width (guint width)
{
  return width >= RLE_MIN_WIDTH && width <= RLE_MAX_WIDTH;
}

/* The most bytes one encoded scanline takes: the marker, and per channel one count byte for
 * every 128 literal bytes at worst. */
static gsize
rle_bound (guint width)
{
  return 4 + 4 * ((gsize) width + (width + RLE_MAX_LITERAL - 1) / RLE_MAX_LITERAL);
}

static guint8 *
rle_literal (guint8 *out, const guint8 *bytes, gsize n)
{
  while (n > 0)
    {
      gsize k = MIN (n, RLE_MAX_LITERAL);
      *out++ = (guint8) k;
      memcpy (out, bytes, k);
      out += k, bytes += k, n -= k;
    }
  return out;
}

/* One channel's N bytes, encoded into OUT. Returns the end of what it wrote. */
static guint8 *
rle_channel (guint8 *out, const guint8 *bytes, gsize n)
{
  gsize literal = 0, x = 0;
  while (x < n)
    {
      gsize run = 1;
      while (x + run < n && run < RLE_MAX_RUN && bytes[x + run] == bytes[x])
        run++;
      if (run >= RLE_MIN_RUN)
        {
          out = rle_literal (out, bytes + literal, x - literal);
          *out++ = (guint8) (128 + run);
          *out++ = bytes[x];
          literal = x + run;
        }
      x += run;
    }
  return rle_literal (out, bytes + literal, n - literal);
}

/* Scanline PX (WIDTH RGBE pixels) into OUT (rle_bound (WIDTH) bytes), through PLANES
 * (4 × WIDTH bytes) where the channels are separated. Returns the encoded size. */
static gsize
rle_scanline (const guint8 *px, guint width, guint8 *planes, guint8 *out)
{
  for (guint x = 0; x < width; x++)
    for (int c = 0; c < 4; c++)
      planes[(gsize) c * width + x] = px[4 * x + c];
  guint8 *end = out;
  *end++ = 2;
  *end++ = 2;
  *end++ = (guint8) (width >> 8);
  *end++ = (guint8) (width & 0xff);
  for (int c = 0; c < 4; c++)
    end = rle_channel (end, planes + (gsize) c * width, width);
  return end - out;
}

static gboolean
write_rgbe (const LmImage *rgbe, LmAtomicFile *file, GError **error)
{
  const char *path = lm_atomic_file_path (file);
  FILE *stream = lm_atomic_file_stream (file);
  guint w = rgbe->width, h = rgbe->height;
  gboolean rle = rle_width (w);
  g_autofree guint8 *scratch = NULL;
  if (rle && (scratch = g_try_malloc (4 * (gsize) w + rle_bound (w))) == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to encode Radiance HDR"));
      return FALSE;
    }
  /* Readers (stb_image, OpenCV, Radiance) want the format line and a blank line before the
   * resolution; "-Y H +X W" is the usual top-to-bottom, left-to-right order. */
  errno = 0;
  gboolean ok = fprintf (stream, "#?RADIANCE\n# Written by Lumen\nFORMAT=32-bit_rle_rgbe\n\n-Y %u +X %u\n", h, w) > 0;
  for (guint y = 0; ok && y < h; y++)
    {
      const guint8 *px = lm_image_row (rgbe, y);
      if (!rle)
        ok = fwrite (px, 4, w, stream) == w;
      else
        {
          guint8 *encoded = scratch + 4 * (gsize) w;
          gsize n = rle_scanline (px, w, scratch, encoded);
          ok = fwrite (encoded, 1, n, stream) == n;
        }
    }
  if (!ok)
    lm_set_write_error (error, path, errno ? errno : EIO);
  return ok;
}

gboolean
lm_radiance_save (const LmImage *image, LmAtomicFile *file, GError **error)
{
  if (image->format == LM_FORMAT_RGBE8)
    return write_rgbe (image, file, error);
  g_return_val_if_fail (image->format == LM_FORMAT_RGBA_F32, FALSE);
  g_autoptr (LmImage) rgbe = lm_io_image_new (LM_FORMAT_RGBE8, image->width, image->height, lm_allocator_host (),
                                              lm_atomic_file_path (file), error);
  if (rgbe == NULL)
    return FALSE;
  lm_rgbe_encode_cpu (image, rgbe);
  return write_rgbe (rgbe, file, error);
}

gboolean
lm_rgbe_save (const LmImage *rgbe, const char *path, GError **error)
{
  g_return_val_if_fail (rgbe->format == LM_FORMAT_RGBE8 && rgbe->allocator->memory == LM_MEMORY_HOST, FALSE);
  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    return FALSE;
  GError *codec_error = NULL;
  if (!write_rgbe (rgbe, file, &codec_error))
    lm_atomic_file_take_error (file, codec_error);
  return lm_atomic_file_commit (file, error);
}
