/* PNG image data compressed on every core; see png-deflate.h for the layout of the stream. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include <zlib.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "png-deflate.h"

/* Filtered bytes per run: large enough that the sync markers (5 bytes a run) and the cut's
 * lost context cost nothing measurable, small enough that two threads get dozens of runs at
 * 24 MP and a wave of them stays a few MiB. */
#define RUN_BYTES ((gsize) 1 << 20)
#define WINDOW_BYTES ((gsize) 32768)

enum { FILTER_NONE, FILTER_SUB, FILTER_UP, FILTER_AVERAGE, FILTER_PAETH, FILTER_ADAPTIVE };

typedef struct {
  const LmImage *image;
  guint channels;    /* in the file */
  gsize sample_bytes; /* 1 or 2 */
  gsize bpp;          /* bytes per pixel in the file: the filters' distance */
  gsize row_bytes;    /* one packed row, without its filter byte */
  int level, strategy, filter;
} Encoder;

/* A worker's buffers and deflate state, made once per image and reused run after run:
 * fresh allocations of this size are fresh pages, and their faults cost more than the
 * filtering. */
typedef struct {
  z_stream z;
  gboolean z_ready;
  guint8 *filtered; /* the window's rows, then the run's */
  guint8 *rows;     /* previous, current and scratch packed rows */
} Worker;

typedef struct {
  guint y0, y1;
  guint8 *out; /* the deflate piece, OUT_CAP bytes kept from wave to wave */
  gsize out_cap, out_len;
  uLong adler;
  gsize in_len;
  gboolean failed;
} Run;

/* Row Y as PNG stores it: alpha left out where the file has none, 16-bit samples big-endian. */
static void
pack_row (const Encoder *e, guint y, guint8 *out)
{
  const guint8 *in = lm_image_row (e->image, y);
  guint width = e->image->width;
  guint in_channels = lm_format_channels (e->image->format);
  if (e->sample_bytes == 1)
    {
      if (e->channels == in_channels)
        memcpy (out, in, e->row_bytes);
      else
        for (guint x = 0; x < width; x++, in += 4, out += 3)
          out[0] = in[0], out[1] = in[1], out[2] = in[2];
      return;
    }
  const guint16 *in16 = (const guint16 *) in;
  for (guint x = 0; x < width; x++, in16 += in_channels)
    for (guint c = 0; c < e->channels; c++, out += 2)
      {
        guint16 v = in16[c];
        out[0] = v >> 8, out[1] = v & 0xFF;
      }
}

static inline guint8
paeth (int a, int b, int c)
{
  int p = a + b - c, pa = abs (p - a), pb = abs (p - b), pc = abs (p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* OUT[0] is the filter type, OUT[1..] the filtered bytes of CUR; PREV is the row above
 * (zeros for the first row). */
static void
apply_filter (int type, const guint8 *cur, const guint8 *prev, gsize n, gsize bpp, guint8 *out)
{
  out[0] = (guint8) type;
  guint8 *f = out + 1;
  switch (type)
    {
    case FILTER_NONE:
      memcpy (f, cur, n);
      break;
    case FILTER_SUB:
      memcpy (f, cur, MIN (bpp, n));
      for (gsize i = bpp; i < n; i++)
        f[i] = cur[i] - cur[i - bpp];
      break;
    case FILTER_UP:
      for (gsize i = 0; i < n; i++)
        f[i] = cur[i] - prev[i];
      break;
    case FILTER_AVERAGE:
      for (gsize i = 0; i < MIN (bpp, n); i++)
        f[i] = cur[i] - (prev[i] >> 1);
      for (gsize i = bpp; i < n; i++)
        f[i] = cur[i] - ((cur[i - bpp] + prev[i]) >> 1);
      break;
    default:
      for (gsize i = 0; i < MIN (bpp, n); i++)
        f[i] = cur[i] - prev[i];
      for (gsize i = bpp; i < n; i++)
        f[i] = cur[i] - paeth (cur[i - bpp], prev[i], prev[i - bpp]);
      break;
    }
}

static guint64
sum_of_magnitudes (const guint8 *f, gsize n)
{
  guint64 sum = 0;
  for (gsize i = 0; i < n; i++)
    sum += f[i] < 128 ? f[i] : 256 - f[i];
  return sum;
}

/* libpng's heuristic for its adaptive filtering: the filter whose bytes, read as signed,
 * sum to the least magnitude. SCRATCH holds one filtered row. */
static void
filter_row (const Encoder *e, const guint8 *cur, const guint8 *prev, guint8 *out, guint8 *scratch)
{
  if (e->filter != FILTER_ADAPTIVE)
    {
      apply_filter (e->filter, cur, prev, e->row_bytes, e->bpp, out);
      return;
    }
  guint64 best = G_MAXUINT64;
  for (int type = FILTER_NONE; type <= FILTER_PAETH; type++)
    {
      guint8 *target = type == FILTER_NONE ? out : scratch;
      apply_filter (type, cur, prev, e->row_bytes, e->bpp, target);
      guint64 sum = sum_of_magnitudes (target + 1, e->row_bytes);
      if (sum < best)
        {
          best = sum;
          if (target != out)
            memcpy (out, target, e->row_bytes + 1);
        }
    }
}

/* Filters rows FIRST..Y1-1 into BUF (each 1 + row_bytes); FIRST may precede the run's rows
 * to give the deflate window its preceding bytes. ROWS holds 3 rows + 1 byte. */
static void
filter_rows (const Encoder *e, guint first, guint y1, guint8 *buf, guint8 *rows)
{
  guint8 *prev = rows, *cur = rows + e->row_bytes, *scratch = rows + 2 * e->row_bytes;
  if (first > 0)
    pack_row (e, first - 1, prev);
  else
    memset (prev, 0, e->row_bytes);
  for (guint y = first; y < y1; y++, buf += e->row_bytes + 1)
    {
      pack_row (e, y, cur);
      filter_row (e, cur, prev, buf, scratch);
      guint8 *t = prev;
      prev = cur, cur = t;
    }
}

static guint
window_rows (const Encoder *e)
{
  gsize stride = e->row_bytes + 1;
  return (guint) ((WINDOW_BYTES + stride - 1) / stride);
}

static gboolean
worker_ready (const Encoder *e, Worker *w, guint rows_per_run)
{
  if (w->filtered == NULL)
    {
      w->filtered = g_try_malloc ((gsize) (window_rows (e) + rows_per_run) * (e->row_bytes + 1));
      w->rows = g_try_malloc (3 * e->row_bytes + 1);
    }
  if (!w->z_ready)
    w->z_ready = deflateInit2 (&w->z, e->level, Z_DEFLATED, -15, 8, e->strategy) == Z_OK;
  else
    deflateReset (&w->z);
  return w->filtered != NULL && w->rows != NULL && w->z_ready;
}

static void
worker_clear (Worker *w)
{
  if (w->z_ready)
    deflateEnd (&w->z);
  g_free (w->filtered);
  g_free (w->rows);
}

static void
compress_run (const Encoder *e, Worker *w, guint rows_per_run, Run *run, gboolean last)
{
  gsize stride = e->row_bytes + 1;
  guint first = run->y0 > window_rows (e) ? run->y0 - window_rows (e) : 0;
  gsize dict_len = (gsize) (run->y0 - first) * stride;
  run->in_len = (gsize) (run->y1 - run->y0) * stride;
  if (!worker_ready (e, w, rows_per_run))
    {
      run->failed = TRUE;
      return;
    }
  filter_rows (e, first, run->y1, w->filtered, w->rows);
  const guint8 *data = w->filtered + dict_len;
  run->adler = adler32 (adler32 (0, NULL, 0), data, run->in_len);
  gsize dict_used = MIN (dict_len, WINDOW_BYTES);
  z_stream *z = &w->z;
  if (dict_used > 0 && e->level > 0)
    deflateSetDictionary (z, data - dict_used, (uInt) dict_used);
  z->next_in = (Bytef *) data;
  z->avail_in = (uInt) run->in_len;
  z->next_out = run->out;
  z->avail_out = (uInt) run->out_cap;
  int rc = deflate (z, last ? Z_FINISH : Z_SYNC_FLUSH);
  run->out_len = run->out_cap - z->avail_out;
  run->failed = last ? rc != Z_STREAM_END : rc != Z_OK || z->avail_in != 0 || z->avail_out == 0;
}

static gboolean
put (FILE *stream, const void *data, gsize n, guint32 *crc)
{
  if (n == 0)
    return TRUE;
  *crc = crc32 (*crc, data, (uInt) n);
  return fwrite (data, 1, n, stream) == n;
}

/* One chunk of NAME whose data is the N_PARTS pieces of PARTS, one after the other. */
static gboolean
write_chunk (FILE *stream, const char *name, const guint8 *const *parts, const gsize *lens, int n_parts)
{
  gsize total = 0;
  for (int i = 0; i < n_parts; i++)
    total += lens[i];
  guint32 be = GUINT32_TO_BE ((guint32) total);
  if (fwrite (&be, 4, 1, stream) != 1)
    return FALSE;
  guint32 crc = crc32 (0, NULL, 0);
  gboolean ok = put (stream, name, 4, &crc);
  for (int i = 0; i < n_parts && ok; i++)
    ok = put (stream, parts[i], lens[i], &crc);
  be = GUINT32_TO_BE (crc);
  return ok && fwrite (&be, 4, 1, stream) == 1;
}

gboolean
lm_png_write_end_chunk (FILE *stream)
{
  return write_chunk (stream, "IEND", NULL, NULL, 0);
}

/* The zlib header (RFC 1950): deflate with a 32 KiB window, FLEVEL as zlib writes it. */
static void
zlib_header (int level, guint8 out[2])
{
  int flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  out[0] = 0x78;
  out[1] = (guint8) (flevel << 6);
  out[1] += 31 - (out[0] * 256 + out[1]) % 31;
}

static void
encoder_init (Encoder *e, const LmImage *image, guint channels, int level)
{
  e->image = image;
  e->channels = channels;
  e->sample_bytes = lm_format_depth (image->format) / 8;
  e->bpp = channels * e->sample_bytes;
  e->row_bytes = (gsize) image->width * e->bpp;
  e->level = CLAMP (level, LM_PNG_LEVEL_MIN, LM_PNG_LEVEL_MAX);
  /* Level 1 is OpenCV's imwrite default (SUB filter, Z_RLE): as fast as it gets and still a
   * real compression. Above it, libpng's defaults: adaptive filters, Z_FILTERED. Level 0
   * stores. */
  e->filter = e->level == 0 ? FILTER_NONE : e->level == 1 ? FILTER_SUB : FILTER_ADAPTIVE;
  e->strategy = e->level == 1 ? Z_RLE : Z_DEFAULT_STRATEGY;
}

gboolean
lm_png_write_image_data (FILE *stream, const LmImage *image, guint channels, int level,
                         int *write_errno, GError **error)
{
  Encoder e;
  encoder_init (&e, image, channels, level);
  guint rows_per_run = (guint) MAX (1, RUN_BYTES / (e.row_bytes + 1));
  guint n_runs = (image->height + rows_per_run - 1) / rows_per_run;
  /* Waves of several runs a thread: each ends at a barrier, where threads that finished
   * early wait, and on a busy machine one of them may be descheduled. */
  guint n_workers = (guint) MAX (1, omp_get_max_threads ());
  guint wave = MIN (n_runs, 4 * n_workers);
  g_autofree Run *runs = g_new0 (Run, wave);
  g_autofree Worker *workers = g_new0 (Worker, n_workers);
  /* zlib's bound for one stream, plus the stored blocks' headers (level 0 and data that does
   * not compress), plus the sync marker (an empty stored block). */
  gsize run_bytes = (gsize) rows_per_run * (e.row_bytes + 1);
  gsize out_cap = compressBound ((uLong) run_bytes) + 5 * (run_bytes / 16000 + 1) + 64;
  gboolean failed = FALSE, write_failed = FALSE;
  for (guint k = 0; k < wave && !failed; k++)
    {
      runs[k].out_cap = out_cap;
      failed = (runs[k].out = g_try_malloc (out_cap)) == NULL;
    }
  guint8 header[2];
  zlib_header (e.level, header);
  uLong adler = adler32 (0, NULL, 0);
  *write_errno = 0;

  for (guint start = 0; start < n_runs && !failed && !write_failed; start += wave)
    {
      guint count = MIN (wave, n_runs - start);
#pragma omp parallel for schedule(dynamic) num_threads(n_workers)
      for (guint k = 0; k < count; k++)
        {
          Run *run = &runs[k];
          run->y0 = (start + k) * rows_per_run;
          run->y1 = MIN (image->height, run->y0 + rows_per_run);
          run->failed = FALSE;
          compress_run (&e, &workers[omp_get_thread_num ()], rows_per_run, run, start + k == n_runs - 1);
        }
      for (guint k = 0; k < count; k++)
        failed = failed || runs[k].failed;
      /* Written in order on this thread: a failed write stops here, never inside a worker. */
      for (guint k = 0; k < count && !failed && !write_failed; k++)
        {
          gboolean first = start + k == 0, last = start + k == n_runs - 1;
          adler = adler32_combine (adler, runs[k].adler, (z_off_t) runs[k].in_len);
          guint8 trailer[4];
          guint32 be = GUINT32_TO_BE ((guint32) adler);
          memcpy (trailer, &be, 4);
          const guint8 *parts[3] = { header, runs[k].out, trailer };
          gsize lens[3] = { first ? 2 : 0, runs[k].out_len, last ? 4 : 0 };
          errno = 0;
          write_failed = !write_chunk (stream, "IDAT", parts, lens, 3);
        }
    }
  for (guint k = 0; k < wave; k++)
    g_free (runs[k].out);
  for (guint t = 0; t < n_workers; t++)
    worker_clear (&workers[t]);
  if (write_failed)
    {
      *write_errno = errno ? errno : EIO;
      return FALSE;
    }
  if (failed)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to compress the image"));
      return FALSE;
    }
  return TRUE;
}
