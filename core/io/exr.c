/* OpenEXR (.exr) through the OpenEXR library's C API (OpenEXRCore). Radiance is written as
 * half-float R, G, B (A too where the image has transparency) in ZIP-compressed scanlines:
 * lossless for the halves, and what OpenCV, darktable and GIMP read. Where the radiance carries
 * an RGB matrix-shaper ICC profile (a developed raw's linear Rec. 2020), the header's
 * chromaticities say its primaries and white, as OpenEXR wants scene-referred files described.
 * The library writes through a callback into the atomic file's descriptor, never to a name of
 * its own, so the temporary-and-rename of atomic-file.h holds as for every other format. The
 * chunks are compressed on every thread and written in the file's order by one: the file's
 * bytes are the same whatever the number of threads.
 * Reading takes scanline files with R, G, B (and A) or Y channels into float RGBA. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <omp.h>

#include <openexr.h>
#include <half.h> /* Imath's, usable from C: correctly rounded float ↔ half */

#include "io-private.h"
#include "../color/profile.h"
#include "../pixel-budget.h"
#include "text-input.h"

/* The largest finite half: beyond it a sample would become infinity. */
#define LM_HALF_MAX 65504.0f

/* Deflate's level: OpenEXR's C++ library writes 4 since 3.1.3 (its core API still zlib's 6).
 * On a 24 MP developed photo, 4 takes a third of 6's time for a file 1 % larger. */
#define LM_EXR_ZIP_LEVEL 4

/* What the library's callbacks report back: its first message, and errno of a failed write. */
typedef struct {
  int fd;
  const guint8 *data; /* reading: the mapped file */
  gsize len;
  int errsv;
  char *message;
} ExrStream;

/* The encoding threads may fail at once: the first message they report is kept. */
G_LOCK_DEFINE_STATIC (exr_message);

static void
on_error (exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
  void *user = NULL;
  /* The default handler prints to stderr; a message belongs in the GError instead. */
  if (exr_get_user_data (ctxt, &user) == EXR_ERR_SUCCESS && user != NULL)
    {
      ExrStream *stream = user;
      G_LOCK (exr_message);
      if (stream->message == NULL)
        /* The library quotes the file's bytes (a channel's name): escaped, cut, one line. */
        stream->message = lm_text_escape (msg ? msg : exr_get_default_error_message (code), -1, 200);
      G_UNLOCK (exr_message);
    }
}

static int64_t
write_at (exr_const_context_t ctxt, void *user, const void *buffer, uint64_t size, uint64_t offset,
          exr_stream_error_func_ptr_t error_cb)
{
  ExrStream *stream = user;
  const guint8 *p = buffer;
  uint64_t left = size;
  while (left > 0)
    {
      ssize_t n = pwrite (stream->fd, p, left, (off_t) offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (stream->errsv == 0)
            stream->errsv = n < 0 ? errno : EIO;
          return -1;
        }
      p += n, offset += n, left -= n;
    }
  return (int64_t) size;
}

static int64_t
read_at (exr_const_context_t ctxt, void *user, void *buffer, uint64_t size, uint64_t offset,
         exr_stream_error_func_ptr_t error_cb)
{
  ExrStream *stream = user;
  if (offset >= stream->len)
    return 0;
  uint64_t n = MIN (size, stream->len - offset);
  memcpy (buffer, stream->data + offset, n);
  return (int64_t) n;
}

static int64_t
query_size (exr_const_context_t ctxt, void *user)
{
  return (int64_t) ((ExrStream *) user)->len;
}

static const char *
cause (const ExrStream *stream, exr_result_t rv)
{
  return stream->message ? stream->message : exr_get_default_error_message (rv);
}

/* The half nearest to V, ties to even, as imath_float_to_half gives it, for 0 ≤ V ≤ LM_HALF_MAX:
 * without its branches, so that a row converts in vector instructions. A normal half is the
 * float's top bits rebiased and rounded in integers; below 2^-14 the half is subnormal, and
 * adding 0.5 brings its bits to the bottom of the float's significand, the addition rounding
 * them. */
static inline guint16
half_of (float v)
{
  guint32 bits, low_bits;
  memcpy (&bits, &v, sizeof bits);
  float low = v + 0.5f;
  memcpy (&low_bits, &low, sizeof low_bits);
  guint32 normal = (bits - 0x38000000u + 0xfffu + ((bits >> 13) & 1u)) >> 13;
  guint32 subnormal = low_bits - 0x3f000000u;
  return (guint16) (bits < 0x38800000u ? subnormal : normal);
}

/* One row of radiance as halves, RGBA interleaved (the alpha of an opaque image is converted
 * and not written: a loop without strides is the fast one). RGBE-like tools and the Radiance
 * writer clamp alike: negatives (Mertens' fusion dips below 0 at strong edges) and NaN become
 * 0, what half cannot hold its largest finite value, never infinity. */
static void
row_to_half (const float *in, guint width, guint16 *out)
{
  for (gsize i = 0; i < (gsize) width * 4; i++)
    {
      float v = in[i];
      out[i] = half_of (v > 0.0f ? MIN (v, LM_HALF_MAX) : 0.0f);
    }
}

/* A chunk compressed ahead of its turn: the file's chunks are written in order, by one thread,
 * while any thread may compress any of them. */
typedef struct {
  guint8 *bytes;
  gsize capacity, size;
  exr_result_t result;
} ExrPacked;

/* Replaces the pipeline's write: the compressed bytes are kept for the writing thread, in a
 * buffer that grows to the largest chunk its slot has held. */
static exr_result_t
keep_chunk (exr_encode_pipeline_t *encoder)
{
  ExrPacked *packed = encoder->encoding_user_data;
  if (encoder->compressed_bytes > packed->capacity)
    {
      guint8 *grown = g_try_realloc (packed->bytes, encoder->compressed_bytes);
      if (grown == NULL)
        return EXR_ERR_OUT_OF_MEMORY;
      packed->bytes = grown, packed->capacity = encoder->compressed_bytes;
    }
  memcpy (packed->bytes, encoder->compressed_buffer, encoder->compressed_bytes);
  packed->size = encoder->compressed_bytes;
  return EXR_ERR_SUCCESS;
}

/* One thread's pipeline and the halves of the chunk it is converting. */
typedef struct {
  exr_encode_pipeline_t encoder;
  gboolean started;
  guint16 *halves;
} ExrWorker;

/* Compresses the chunk starting at row Y into PACKED; the channels are filled from the
 * worker's chunk of halves (the file's order of channels is alphabetical, ours R, G, B, A). */
static exr_result_t
encode_chunk (exr_context_t ctx, int part, const LmImage *image, guint y, ExrWorker *worker, ExrPacked *packed)
{
  exr_encode_pipeline_t *encoder = &worker->encoder;
  gsize row_halves = (gsize) image->width * 4;
  exr_chunk_info_t chunk;
  exr_result_t rv = exr_write_scanline_chunk_info (ctx, part, (int) y, &chunk);
  if (rv == EXR_ERR_SUCCESS)
    rv = worker->started ? exr_encoding_update (ctx, part, &chunk, encoder)
                         : exr_encoding_initialize (ctx, part, &chunk, encoder);
  if (rv != EXR_ERR_SUCCESS)
    return rv;
  for (int r = 0; r < chunk.height; r++)
    row_to_half ((const float *) lm_image_row (image, y + r), image->width, worker->halves + row_halves * r);
  for (int c = 0; c < encoder->channel_count; c++)
    {
      const char *at = strchr ("RGBA", encoder->channels[c].channel_name[0]);
      exr_coding_channel_info_t *ch = &encoder->channels[c];
      ch->encode_from_ptr = (const uint8_t *) (worker->halves + (at - "RGBA"));
      ch->user_pixel_stride = (int32_t) (4 * sizeof (guint16));
      ch->user_line_stride = (int32_t) (row_halves * sizeof (guint16));
      ch->user_data_type = EXR_PIXEL_HALF;
      ch->user_bytes_per_element = sizeof (guint16);
    }
  if (!worker->started)
    {
      rv = exr_encoding_choose_default_routines (ctx, part, encoder);
      /* The default would wait for this chunk's turn in the file and write it. */
      encoder->yield_until_ready_fn = NULL;
      encoder->write_fn = keep_chunk;
    }
  worker->started = TRUE;
  encoder->encoding_user_data = packed;
  return rv == EXR_ERR_SUCCESS ? exr_encoding_run (ctx, part, encoder) : rv;
}

/* A batch holds 32 chunks a thread (a batch ends with its slowest chunk: the threads lose some
 * half a chunk's time in 32), fewer where their halves would pass 128 MiB, one a thread at the
 * least. */
#define LM_EXR_BATCH_PER_THREAD 32
#define LM_EXR_BATCH_BYTES ((gsize) 128 << 20)

/* Encodes every scanline chunk of PART: the threads compress a batch of chunks, each into its
 * own slot, then one writes the batch in the file's order. The bytes do not depend on the
 * number of threads: each chunk is compressed alone. */
static exr_result_t
encode_chunks (exr_context_t ctx, int part, const LmImage *image, int channels)
{
  int32_t lines = 1;
  exr_result_t rv = exr_get_scanlines_per_chunk (ctx, part, &lines);
  if (rv != EXR_ERR_SUCCESS)
    return rv;
  gsize chunk_halves = (gsize) image->width * 4 * lines;
  gsize chunks = ((gsize) image->height + lines - 1) / lines;
  gsize threads = (gsize) omp_get_max_threads ();
  gsize fit = LM_EXR_BATCH_BYTES / MAX ((gsize) image->width * channels * lines * sizeof (guint16), 1);
  gsize batch = MIN (chunks, MAX (threads, MIN (LM_EXR_BATCH_PER_THREAD * threads, fit)));
  ExrPacked *slots = g_try_new0 (ExrPacked, batch);
  if (slots == NULL)
    return EXR_ERR_OUT_OF_MEMORY;

  /* The first failure in the file's order; only the writing thread sets it, between barriers. */
  exr_result_t failed = EXR_ERR_SUCCESS;
#pragma omp parallel
  {
    ExrWorker worker = { .encoder = EXR_ENCODE_PIPELINE_INITIALIZER, .halves = g_try_new (guint16, chunk_halves) };
    for (gsize first = 0; first < chunks; first += batch)
      {
        gsize count = MIN (batch, chunks - first);
#pragma omp for schedule(dynamic)
        for (gsize i = 0; i < count; i++)
          slots[i].result = failed != EXR_ERR_SUCCESS ? failed
                          : worker.halves == NULL     ? EXR_ERR_OUT_OF_MEMORY
                                                      : encode_chunk (ctx, part, image, (guint) ((first + i) * lines),
                                                                      &worker, &slots[i]);
#pragma omp single
        for (gsize i = 0; i < count && failed == EXR_ERR_SUCCESS; i++)
          failed = slots[i].result != EXR_ERR_SUCCESS
                       ? slots[i].result
                       : exr_write_scanline_chunk (ctx, part, (int) ((first + i) * lines), slots[i].bytes, slots[i].size);
      }
    if (worker.started)
      exr_encoding_destroy (ctx, &worker.encoder);
    g_free (worker.halves);
  }
  for (gsize i = 0; i < batch; i++)
    g_free (slots[i].bytes);
  g_free (slots);
  return failed;
}

/* The primaries and white of IMAGE's ICC profile as OpenEXR's chromaticities (CIE 1931 xy):
 * the profile's colorants with their adaptation to ICC's D50 undone (LmColorProfile), each
 * primary's xy and the white's (RGB 1, 1, 1). FALSE where the image has no profile, or one that
 * is no usable RGB matrix-shaper: the header then says nothing, and readers take Rec. 709's. */
static gboolean
chromaticities_of (const LmImage *image, exr_attr_chromaticities_t *out)
{
  if (image->icc_profile == NULL)
    return FALSE;
  g_autofree char *note = NULL;
  g_autoptr (LmColorProfile) profile = lm_color_profile_new (image->icc_profile, &note);
  if (note != NULL)
    return FALSE;
  double m[3][3];
  lm_color_profile_rgb_to_xyz (profile, m);
  float xy[4][2];
  for (int c = 0; c < 4; c++)
    {
      double v[3];
      for (int r = 0; r < 3; r++)
        v[r] = c < 3 ? m[r][c] : m[r][0] + m[r][1] + m[r][2];
      double sum = v[0] + v[1] + v[2];
      if (!(sum > 0.0) || !isfinite (sum))
        return FALSE;
      xy[c][0] = (float) (v[0] / sum), xy[c][1] = (float) (v[1] / sum);
    }
  *out = (exr_attr_chromaticities_t) { xy[0][0], xy[0][1], xy[1][0], xy[1][1], xy[2][0], xy[2][1], xy[3][0], xy[3][1] };
  return TRUE;
}

gboolean
lm_exr_save (const LmImage *image, LmAtomicFile *file, GError **error)
{
  g_return_val_if_fail (image->format == LM_FORMAT_RGBA_F32, FALSE);
  const char *path = lm_atomic_file_path (file);
  if (image->width > G_MAXINT32 || image->height > G_MAXINT32)
    {
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path, _("the image is too large for OpenEXR"));
      return FALSE;
    }
  ExrStream stream = { .fd = fileno (lm_atomic_file_stream (file)) };
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.user_data = &stream;
  init.write_fn = write_at;
  init.error_handler_fn = on_error;

  int channels = image->opaque ? 3 : 4;
  static const char *const names[] = { "R", "G", "B", "A" };
  exr_context_t ctx = NULL;
  int part = 0;
  /* With a write callback the name only labels messages; the library opens nothing. */
  exr_result_t rv = exr_start_write (&ctx, path, EXR_WRITE_FILE_DIRECTLY, &init);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_add_part (ctx, NULL, EXR_STORAGE_SCANLINE, &part);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_initialize_required_attr_simple (ctx, part, (int32_t) image->width, (int32_t) image->height,
                                              EXR_COMPRESSION_ZIP);
  for (int c = 0; c < channels && rv == EXR_ERR_SUCCESS; c++)
    rv = exr_add_channel (ctx, part, names[c], EXR_PIXEL_HALF,
                          c < 3 ? EXR_PERCEPTUALLY_LOGARITHMIC : EXR_PERCEPTUALLY_LINEAR, 1, 1);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_set_zip_compression_level (ctx, part, LM_EXR_ZIP_LEVEL);
  exr_attr_chromaticities_t chromaticities;
  if (rv == EXR_ERR_SUCCESS && chromaticities_of (image, &chromaticities))
    rv = exr_attr_set_chromaticities (ctx, part, "chromaticities", &chromaticities);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_write_header (ctx);
  if (rv == EXR_ERR_SUCCESS)
    rv = encode_chunks (ctx, part, image, channels);
  /* exr_finish writes the chunk offsets: the file is complete only when it succeeds. */
  exr_result_t finish_rv = ctx ? exr_finish (&ctx) : EXR_ERR_SUCCESS;
  if (rv == EXR_ERR_SUCCESS)
    rv = finish_rv;

  gboolean ok = rv == EXR_ERR_SUCCESS && stream.errsv == 0;
  if (stream.errsv != 0)
    lm_set_write_error (error, path, stream.errsv);
  else if (rv == EXR_ERR_OUT_OF_MEMORY)
    lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to encode OpenEXR"));
  else if (!ok)
    lm_set_file_error (error, LM_ERROR_IO, path, _("cannot encode OpenEXR: %s"), cause (&stream, rv));
  g_free (stream.message);
  return ok;
}

/* Where each of our R, G, B, A comes from in the file: a channel index, or -1. A file of
 * luminance (Y) alone is gray: Y feeds R, G and B. */
static gboolean
map_channels (const exr_attr_chlist_t *list, int from[4])
{
  int y = -1;
  from[0] = from[1] = from[2] = from[3] = -1;
  for (int i = 0; i < list->num_channels; i++)
    {
      const char *name = list->entries[i].name.str;
      if (list->entries[i].x_sampling != 1 || list->entries[i].y_sampling != 1)
        continue;
      const char *at = strlen (name) == 1 ? strchr ("RGBA", name[0]) : NULL;
      if (at && *at)
        from[at - "RGBA"] = i;
      else if (strcmp (name, "Y") == 0)
        y = i;
    }
  if (from[0] < 0 && from[1] < 0 && from[2] < 0 && y >= 0)
    from[0] = from[1] = from[2] = y;
  return from[0] >= 0 && from[1] >= 0 && from[2] >= 0;
}

/* Alpha is decoded into a plane of its own, then copied into the rows: where A, B, G, R are the
 * file's only channels, OpenEXR (3.1 to this day) takes their reversed interleaving for a fast
 * path that stores them in the file's order (A where R belongs). */
static exr_result_t
decode_chunks (exr_context_t ctx, int part, const exr_attr_box2i_t *window, const int from[4], LmImage *image)
{
  int32_t lines = 1;
  exr_result_t rv = exr_get_scanlines_per_chunk (ctx, part, &lines);
  exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
  gboolean started = FALSE;
  float *alpha = NULL;
  if (rv == EXR_ERR_SUCCESS && from[3] >= 0 && (alpha = g_try_new (float, (gsize) image->width * MAX (lines, 1))) == NULL)
    rv = EXR_ERR_OUT_OF_MEMORY;
  /* 64-bit: a data window ending near INT32_MAX must not wrap the counter. */
  for (gint64 y = window->min.y; y <= window->max.y && rv == EXR_ERR_SUCCESS; y += lines)
    {
      exr_chunk_info_t chunk;
      rv = exr_read_scanline_chunk_info (ctx, part, (int) y, &chunk);
      if (rv == EXR_ERR_SUCCESS)
        rv = started ? exr_decoding_update (ctx, part, &chunk, &decoder)
                     : exr_decoding_initialize (ctx, part, &chunk, &decoder);
      if (rv != EXR_ERR_SUCCESS)
        break;
      guint first = (guint) (chunk.start_y - window->min.y);
      guint8 *row = lm_image_row (image, first);
      for (int c = 0; c < decoder.channel_count; c++)
        {
          exr_coding_channel_info_t *ch = &decoder.channels[c];
          ch->decode_to_ptr = NULL; /* skipped unless one of ours */
          ch->user_pixel_stride = 4 * sizeof (float);
          ch->user_line_stride = (int32_t) image->stride;
          for (int k = 0; k < 3; k++)
            if (from[k] == c && ch->decode_to_ptr == NULL)
              ch->decode_to_ptr = row + k * sizeof (float);
          if (from[3] == c)
            {
              ch->decode_to_ptr = (uint8_t *) alpha;
              ch->user_pixel_stride = sizeof (float);
              ch->user_line_stride = (int32_t) (image->width * sizeof (float));
            }
          ch->user_data_type = EXR_PIXEL_FLOAT;
          ch->user_bytes_per_element = sizeof (float);
        }
      if (!started)
        rv = exr_decoding_choose_default_routines (ctx, part, &decoder);
      started = TRUE;
      if (rv == EXR_ERR_SUCCESS)
        rv = exr_decoding_run (ctx, part, &decoder);
      for (int r = 0; alpha != NULL && rv == EXR_ERR_SUCCESS && r < chunk.height; r++)
        {
          float *out = (float *) lm_image_row (image, first + r);
          for (guint x = 0; x < image->width; x++)
            out[4 * x + 3] = alpha[(gsize) image->width * r + x];
        }
    }
  if (started)
    exr_decoding_destroy (ctx, &decoder);
  g_free (alpha);
  return rv;
}

/* The compressed data of every chunk must be in the file before the image is allocated: the
 * chunk table is read (and checked against the file's size) first, and what the chunks
 * declare must be reachable from the bytes they hold. No codec of OpenEXR expands data more
 * than deflate's 1032:1; the bound leaves room above that. */
#define LM_EXR_MAX_EXPANSION 4096

/* WINDOW's sides are known to fit a guint (and the budget) here. */
static gboolean
check_chunks (exr_context_t ctx, const exr_attr_box2i_t *window, gsize len, ExrStream *stream,
              const char *path, GError **error)
{
  int32_t lines = 1;
  exr_result_t rv = exr_get_scanlines_per_chunk (ctx, 0, &lines);
  guint64 packed = 0, unpacked = 0;
  for (gint64 y = window->min.y; y <= window->max.y && rv == EXR_ERR_SUCCESS; y += MAX (lines, 1))
    {
      exr_chunk_info_t chunk;
      rv = exr_read_scanline_chunk_info (ctx, 0, (int) y, &chunk);
      packed += chunk.packed_size;
      unpacked += chunk.unpacked_size;
    }
  if (rv != EXR_ERR_SUCCESS)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("the file is truncated or damaged: %s"), cause (stream, rv));
      return FALSE;
    }
  if (packed > len || unpacked / LM_EXR_MAX_EXPANSION > len)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path,
                         _("the file is truncated: its data cannot fill the %u×%u pixels it declares"),
                         (guint) (window->max.x - window->min.x + 1), (guint) (window->max.y - window->min.y + 1));
      return FALSE;
    }
  return TRUE;
}

LmImage *
lm_exr_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator, GError **error)
{
  ExrStream stream = { .fd = -1, .data = data, .len = len };
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.user_data = &stream;
  init.read_fn = read_at;
  init.size_fn = query_size;
  init.error_handler_fn = on_error;
  init.flags = EXR_CONTEXT_FLAG_DISABLE_CHUNK_RECONSTRUCTION; /* a damaged file is an error */

  exr_context_t ctx = NULL;
  exr_storage_t storage = EXR_STORAGE_SCANLINE;
  exr_attr_box2i_t window;
  memset (&window, 0, sizeof window);
  const exr_attr_chlist_t *list = NULL;
  int from[4];
  LmImage *image = NULL;
  GError *e = NULL;
  exr_result_t rv = exr_start_read (&ctx, path, &init);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_get_storage (ctx, 0, &storage);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_get_data_window (ctx, 0, &window);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_get_channels (ctx, 0, &list);
  if (rv != EXR_ERR_SUCCESS)
    lm_set_file_error (error, LM_ERROR_FORMAT, path, _("not a readable OpenEXR file: %s"), cause (&stream, rv));
  else if (storage != EXR_STORAGE_SCANLINE)
    lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                       _("a tiled or deep OpenEXR file; Lumen reads scanline images only"));
  else if (!map_channels (list, from))
    lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                       _("the OpenEXR file has no R, G and B (or Y) channels at full resolution"));
  else if ((gint64) window.max.x - window.min.x + 1 <= 0 || (gint64) window.max.y - window.min.y + 1 <= 0
           || (gint64) window.max.x - window.min.x + 1 > G_MAXUINT || (gint64) window.max.y - window.min.y + 1 > G_MAXUINT)
    lm_set_file_error (error, LM_ERROR_FORMAT, path, _("the OpenEXR data window is empty or invalid"));
  else if (!lm_pixel_budget_check ((guint) (window.max.x - window.min.x + 1), (guint) (window.max.y - window.min.y + 1), &e))
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_clear_error (&e);
    }
  else if (!check_chunks (ctx, &window, len, &stream, path, error))
    ;
  else if ((image = lm_io_image_new (LM_FORMAT_RGBA_F32, (guint) (window.max.x - window.min.x + 1),
                                     (guint) (window.max.y - window.min.y + 1), allocator, path, error))
           == NULL)
    ;
  else
    {
      if (from[3] < 0)
        for (guint y = 0; y < image->height; y++)
          {
            float *row = (float *) lm_image_row (image, y);
            for (guint x = 0; x < image->width; x++)
              row[4 * x + 3] = 1.0f;
          }
      rv = decode_chunks (ctx, 0, &window, from, image);
      if (rv != EXR_ERR_SUCCESS)
        {
          lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode OpenEXR: %s"), cause (&stream, rv));
          g_clear_pointer (&image, lm_image_unref);
        }
      else
        {
          image->opaque = from[3] < 0;
          if (from[1] == from[0] && from[2] == from[0]) /* luminance: one channel decoded, into R */
            for (guint y = 0; y < image->height; y++)
              {
                float *row = (float *) lm_image_row (image, y);
                for (guint x = 0; x < image->width; x++)
                  row[4 * x + 1] = row[4 * x + 2] = row[4 * x];
              }
        }
    }
  if (ctx)
    exr_finish (&ctx);
  g_free (stream.message);
  return image;
}

static gboolean
save_exr (const LmImage *image, LmAtomicFile *file, const LmSaveOptions *options, GError **error)
{
  return lm_exr_save (image, file, error);
}

static const char *const exr_suffixes[] = { ".exr", NULL };

const LmFileFormat lm_file_format_exr = {
  .type = LM_FILE_EXR,
  .name = "OpenEXR",
  .suffixes = exr_suffixes,
  .sniff = lm_exr_sniff,
  .load = lm_exr_load,
  .save = save_exr,
  .radiance = TRUE,
  .wrong_kind = N_("OpenEXR holds linear radiance here; this 8-bit result belongs in a .png, .jpg or .tif file"),
};
