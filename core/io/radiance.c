/* Radiance RGBE (.hdr): read by our own reader (radiance-read.c); written here by our own
 * encoder of Radiance's run-length encoded scanlines from RGBE pixels (core/ops/rgbe-math.h),
 * so that the pixels can be converted where the radiance is (on the GPU in the batch) and the
 * host only encodes runs. Radiance stores RGB; alpha is 1 on load and dropped on save. */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "io-private.h"
#include "../ops/rgbe-math.h"
#include "rgbe.h"
#include "../ops/simd.h"

LM_SIMD_CLONES static void
encode_row (const float *restrict in, guint32 *restrict px, guint width)
{
  for (guint x = 0; x < width; x++)
    px[x] = lm_rgbe_encode (in[4 * x + 0], in[4 * x + 1], in[4 * x + 2]);
}

void
lm_rgbe_encode_cpu (const LmImage *radiance, LmImage *out)
{
  g_return_if_fail (radiance->format == LM_FORMAT_RGBA_F32 && out->format == LM_FORMAT_RGBE8
                    && radiance->width == out->width && radiance->height == out->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < radiance->height; y++)
    encode_row ((const float *) lm_image_row (radiance, y), (guint32 *) lm_image_row (out, y), radiance->width);
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

/* The first P ≥ X where BYTES[P..P+3] are equal (RLE_MIN_RUN of them), or N. Eight places at a
 * time: a photo's mantissas are mostly literals, and the byte-by-byte search for runs was most
 * of a writer's encoding. */
static gsize
next_run (const guint8 *bytes, gsize x, gsize n)
{
  const guint64 ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  for (; x + 11 <= n; x += 8)
    {
      guint64 w[4];
      for (int k = 0; k < 4; k++)
        {
          memcpy (&w[k], bytes + x + k, 8);
          w[k] = GUINT64_FROM_LE (w[k]); /* the first byte lowest, where the borrows start */
        }
      guint64 w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
      /* Byte k is 0 where the four bytes from X + k are equal. */
      guint64 v = (w0 ^ w1) | (w1 ^ w2) | (w2 ^ w3);
      /* Its lowest zero byte exactly (a borrow only runs upwards from one). */
      guint64 zero = (v - ones) & ~v & highs;
      if (zero)
        return x + (gsize) __builtin_ctzll (zero) / 8;
    }
  for (; x + RLE_MIN_RUN <= n; x++)
    if (bytes[x] == bytes[x + 1] && bytes[x] == bytes[x + 2] && bytes[x] == bytes[x + 3])
      return x;
  return n;
}

/* One channel's N bytes, encoded into OUT. Returns the end of what it wrote. */
static guint8 *
rle_channel (guint8 *out, const guint8 *bytes, gsize n)
{
  gsize literal = 0, x = 0;
  while (x < n)
    {
      /* X starts a group of equal bytes; those before the next run of four are literals
       * whatever their groups (each shorter than four). */
      x = next_run (bytes, x, n);
      if (x == n)
        break;
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

LM_SIMD_CLONES static void
split_planes (const guint8 *restrict px, guint width, guint8 *restrict r, guint8 *restrict g, guint8 *restrict b,
              guint8 *restrict e)
{
  for (guint x = 0; x < width; x++)
    {
      r[x] = px[4 * x];
      g[x] = px[4 * x + 1];
      b[x] = px[4 * x + 2];
      e[x] = px[4 * x + 3];
    }
}

/* Scanline PX (WIDTH RGBE pixels) into OUT (rle_bound (WIDTH) bytes), through PLANES
 * (4 × WIDTH bytes) where the channels are separated. Returns the encoded size. */
static gsize
rle_scanline (const guint8 *px, guint width, guint8 *planes, guint8 *out)
{
  split_planes (px, width, planes, planes + width, planes + 2 * (gsize) width, planes + 3 * (gsize) width);
  guint8 *end = out;
  *end++ = 2;
  *end++ = 2;
  *end++ = (guint8) (width >> 8);
  *end++ = (guint8) (width & 0xff);
  for (int c = 0; c < 4; c++)
    end = rle_channel (end, planes + (gsize) c * width, width);
  return end - out;
}

/* Scanlines are encoded a chunk at a time, CHUNK_BYTES of pixels or more, and each chunk goes
 * to the file in one write: a write per scanline (16 KiB at 4000 pixels) kept the disk below
 * its sequential rate. */
#define CHUNK_BYTES ((gsize) 8 << 20)

static guint
chunk_rows (guint width)
{
  return (guint) MAX (1, CHUNK_BYTES / (4 * (gsize) width));
}

/* Rows Y0 .. Y0 + N − 1 of RGBE as the file holds them, into OUT (N · rle_bound (width)
 * bytes): each row encoded into its own slot (in parallel where PARALLEL), then the slots
 * moved together. Returns the bytes written at OUT. */
static gsize
encode_rows (const LmImage *rgbe, guint y0, guint n, guint8 *out, gboolean parallel)
{
  guint w = rgbe->width;
  if (!rle_width (w))
    {
      for (guint i = 0; i < n; i++)
        memcpy (out + (gsize) i * 4 * w, lm_image_row (rgbe, y0 + i), 4 * (gsize) w);
      return (gsize) n * 4 * w;
    }
  gsize bound = rle_bound (w);
  g_autofree gsize *lengths = g_new (gsize, n);
#pragma omp parallel if (parallel && n > 1)
  {
    g_autofree guint8 *planes = g_malloc (4 * (gsize) w);
#pragma omp for schedule(dynamic, 4)
    for (guint i = 0; i < n; i++)
      lengths[i] = rle_scanline (lm_image_row (rgbe, y0 + i), w, planes, out + (gsize) i * bound);
  }
  gsize end = lengths[0];
  for (guint i = 1; i < n; i++)
    {
      memmove (out + end, out + (gsize) i * bound, lengths[i]);
      end += lengths[i];
    }
  return end;
}

static gsize
chunk_bound (guint width)
{
  return rle_width (width) ? rle_bound (width) : 4 * (gsize) width;
}

/* Asks the kernel to start writing what the stream has written so far, without waiting: the
 * disk then writes one chunk while the next is encoded, and the fsync that commits the file
 * waits for the last chunk only. Without it nothing reaches the disk before that fsync (the
 * kernel starts writing back only at gigabytes of dirty pages), and the encoding and the
 * writing took turns. */
static void
start_writeback (FILE *stream)
{
#ifdef SYNC_FILE_RANGE_WRITE
  sync_file_range (fileno (stream), 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
}

static const char header_format[] = "#?RADIANCE\n# Written by Lumen\nFORMAT=32-bit_rle_rgbe\n\n-Y %u +X %u\n";

static gboolean
write_rgbe (const LmImage *rgbe, LmAtomicFile *file, GError **error)
{
  const char *path = lm_atomic_file_path (file);
  FILE *stream = lm_atomic_file_stream (file);
  guint w = rgbe->width, h = rgbe->height, rows = MIN (h, chunk_rows (w));
  g_autofree guint8 *chunk = g_try_malloc ((gsize) rows * chunk_bound (w));
  if (chunk == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to encode Radiance HDR"));
      return FALSE;
    }
  /* Readers (stb_image, OpenCV, Radiance) want the format line and a blank line before the
   * resolution; "-Y H +X W" is the usual top-to-bottom, left-to-right order. */
  errno = 0;
  gboolean ok = fprintf (stream, header_format, h, w) > 0;
  for (guint y = 0; ok && y < h; y += rows)
    {
      guint n = MIN (rows, h - y);
      gsize len = encode_rows (rgbe, y, n, chunk, TRUE);
      ok = fwrite (chunk, 1, len, stream) == len && fflush (stream) == 0;
      start_writeback (stream);
    }
  if (!ok)
    lm_set_write_error (error, path, errno ? errno : EIO);
  return ok;
}

GBytes *
lm_rgbe_encode_file (const LmImage *rgbe, const char *path, GError **error)
{
  g_return_val_if_fail ((rgbe->format == LM_FORMAT_RGBE8 || rgbe->format == LM_FORMAT_RGBA_F32)
                          && rgbe->allocator->memory == LM_MEMORY_HOST, NULL);
  g_autoptr (LmImage) converted = NULL;
  if (rgbe->format == LM_FORMAT_RGBA_F32)
    {
      if ((converted = lm_io_image_new (LM_FORMAT_RGBE8, rgbe->width, rgbe->height, lm_allocator_host (), path,
                                        error)) == NULL)
        return NULL;
      for (guint y = 0; y < rgbe->height; y++)
        encode_row ((const float *) lm_image_row (rgbe, y), (guint32 *) lm_image_row (converted, y), rgbe->width);
      rgbe = converted;
    }
  guint w = rgbe->width, h = rgbe->height;
  g_autofree char *header = g_strdup_printf (header_format, h, w);
  gsize len = strlen (header);
  /* Runs make the file smaller than its pixels: what is reserved is trimmed at the end. */
  guint8 *file = g_try_malloc (len + (gsize) h * chunk_bound (w));
  if (file == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to encode Radiance HDR"));
      return NULL;
    }
  memcpy (file, header, len);
  /* One thread: the batch encodes many files at once. */
  guint rows = chunk_rows (w);
  for (guint y = 0; y < h; y += rows)
    len += encode_rows (rgbe, y, MIN (rows, h - y), file + len, FALSE);
  return g_bytes_new_take (g_realloc (file, len), len);
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

static gboolean
sniff_radiance (const guint8 *h, gsize n)
{
  return (n >= 10 && memcmp (h, "#?RADIANCE", 10) == 0) || (n >= 6 && memcmp (h, "#?RGBE", 6) == 0);
}

static gboolean
save_radiance (const LmImage *image, LmAtomicFile *file, const LmSaveOptions *options, GError **error)
{
  return lm_radiance_save (image, file, error);
}

static const char *const radiance_suffixes[] = { ".hdr", NULL };

const LmFileFormat lm_file_format_radiance = {
  .type = LM_FILE_RADIANCE,
  .name = "Radiance HDR",
  .suffixes = radiance_suffixes,
  .sniff = sniff_radiance,
  .load = lm_radiance_load,
  .save = save_radiance,
  .radiance = TRUE,
  .wrong_kind = N_("Radiance HDR holds linear radiance; this 8-bit result belongs in a .png, .jpg or .tif file"),
};
