/* PNG through libpng directly. Reading: a truncated file is an error (gdk-pixbuf's
 * incremental loader returns it half gray), gray files stay one channel, 16-bit files stay
 * 16-bit (RGBA16, or GRAY16 for gray ones, as 8-bit gray files stay GRAY8; PNG stores them
 * big-endian, the image holds host order), and no MIME database is needed; of the text
 * chunks only XMP's iTXt is read, within a bound, and eXIf's Orientation (or XMP's) turns
 * the image upright. A profile that is not used is said in a note. Writing: gray
 * images are written as gray, 16-bit images as 16-bit, EXIF (eXIf) and the ICC profile
 * (iCCP) travel; libpng writes the chunks before the image data, png-deflate.c the image
 * data itself, on every core. */
#include <errno.h>
#include <setjmp.h>
#include <string.h>
#include <png.h>
#include <glib/gi18n.h>

#include "exif.h"
#include "icc-input.h"
#include "io-private.h"
#include "orientation.h"
#include "png-deflate.h"
#include "xmp-png.h"

#if !defined(PNG_READ_USER_CHUNKS_SUPPORTED) || !defined(PNG_HANDLE_AS_UNKNOWN_SUPPORTED)
#error "Lumen reads PNG text chunks itself (on_chunk): libpng must be built with user chunks"
#endif

#define PNG_SIGNATURE_LEN 8
/* The most an ancillary chunk may hold, inflated where it is compressed: ICC profiles, the
 * largest chunks Lumen reads, stay well under it. */
#define CHUNK_INFLATE_MAX ((png_alloc_size_t) 16 << 20)
/* The text chunks, which libpng would inflate and keep, every one of them (a 2 MB file of
 * zTXt chunks took 2 GB): Lumen reads none but XMP's iTXt, which on_chunk takes. */
static const png_byte TEXT_CHUNKS[] = "tEXt\0zTXt\0iTXt";

typedef struct {
  png_structp png;
  png_infop info;
  char message[256];
  GBytes *exif;
  /* reading */
  const guint8 *data;
  gsize len, pos;
  LmImage *image;
  png_bytep *rows;
  GError *load_error; /* set before a longjmp, read after it: lives in memory */
  GBytes *xmp;
  LmPngXmpRead xmp_read;
  gboolean has_iccp;          /* the file has an iCCP chunk */
  gboolean itxt_dropped;      /* libpng dropped an iTXt chunk too large to read */
  char iccp_refusal[128];     /* libpng's last word on it, when it has one */
} PngState;

static void
on_png_error (png_structp png, png_const_charp message)
{
  PngState *s = png_get_error_ptr (png);
  g_strlcpy (s->message, message, sizeof s->message);
  png_longjmp (png, 1);
}

/* libpng drops a profile it refuses with a warning ("iCCP: …"), kept to say why; and an iTXt
 * chunk over CHUNK_INFLATE_MAX before on_chunk sees it ("iTXt: chunk data is too large"),
 * which may have been the XMP packet. */
static void
on_png_warning (png_structp png, png_const_charp message)
{
  PngState *s = png_get_error_ptr (png);
  if (g_str_has_prefix (message, "iCCP: "))
    g_strlcpy (s->iccp_refusal, message + 6, sizeof s->iccp_refusal);
  else if (g_str_has_prefix (message, "iTXt: "))
    s->itxt_dropped = TRUE;
}

/* Each text chunk and each chunk libpng does not know, instead of libpng's handling: the
 * first XMP packet is read, any other chunk dropped without being inflated. 0 for a critical
 * chunk, which libpng then refuses as before. */
static int
on_chunk (png_structp png, png_unknown_chunkp chunk)
{
  PngState *s = png_get_user_chunk_ptr (png);
  if (memcmp (chunk->name, "iTXt", 4) == 0 && s->xmp == NULL && s->xmp_read != LM_PNG_XMP_TOO_LARGE
      && s->xmp_read != LM_PNG_XMP_DAMAGED)
    s->xmp_read = lm_png_xmp_from_itxt (chunk->data, chunk->size, &s->xmp);
  return (chunk->name[0] & 0x20) != 0; /* PNG's ancillary bit: a lowercase first letter */
}

static void
read_from_memory (png_structp png, png_bytep out, png_size_t n)
{
  PngState *s = png_get_io_ptr (png);
  if (n > s->len - s->pos)
    {
      g_strlcpy (s->message, _("the file is truncated: image data ends early"), sizeof s->message);
      png_longjmp (png, 1);
    }
  memcpy (out, s->data + s->pos, n);
  s->pos += n;
}

/* Carries a photo's profile as it is, even the slightly off sRGB profiles that libpng knows
 * and would otherwise refuse, on reading and on writing alike. */
static void
accept_profiles_as_they_are (png_structp png)
{
#ifdef PNG_SKIP_sRGB_CHECK_PROFILE
  png_set_option (png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
#endif
  png_set_benign_errors (png, 1);
}

static void
png_state_free (PngState *s, gboolean reading)
{
  if (reading)
    png_destroy_read_struct (&s->png, &s->info, NULL);
  else
    png_destroy_write_struct (&s->png, &s->info);
  g_clear_pointer (&s->exif, g_bytes_unref);
  g_clear_pointer (&s->xmp, g_bytes_unref);
  g_clear_pointer (&s->image, lm_image_unref);
  g_clear_error (&s->load_error);
  g_free (s->rows);
  g_free (s);
}

/* The profile libpng kept and lcms2 reads; otherwise a note says why none is used. */
static void
read_profile (PngState *s)
{
  png_charp name;
  int compression;
  png_bytep profile;
  png_uint_32 profile_len;
  if (png_get_iCCP (s->png, s->info, &name, &compression, &profile, &profile_len) && profile_len > 0)
    lm_io_take_profile (s->image, profile, profile_len);
  else if (s->has_iccp && s->iccp_refusal[0] != '\0')
    {
      g_autofree char *why = g_strdup_printf (_("its ICC profile was refused by libpng (%s)"), s->iccp_refusal);
      lm_io_note_profile_unused (s->image, why);
    }
  else if (s->has_iccp)
    lm_io_note_profile_unused (s->image, _("its ICC profile was refused by libpng"));
}

static void
read_metadata (PngState *s)
{
  read_profile (s);
#ifdef PNG_eXIf_SUPPORTED
  png_bytep exif;
  png_uint_32 exif_len;
  if (png_get_eXIf_1 (s->png, s->info, &exif_len, &exif) && exif_len > 0)
    s->image->exif = lm_exif_block_from_tiff (exif, exif_len);
#endif
  s->image->xmp = g_steal_pointer (&s->xmp);
  if (s->xmp_read == LM_PNG_XMP_TOO_LARGE)
    {
      g_autofree char *most = g_format_size (LM_PNG_XMP_MAX);
      lm_image_add_note (s->image, _("its XMP packet is larger than %s once inflated, so it was left out"), most);
    }
  else if (s->xmp_read == LM_PNG_XMP_DAMAGED)
    lm_image_add_note (s->image, _("its XMP packet is damaged, so it was left out"));
  else if (s->image->xmp == NULL && s->itxt_dropped)
    {
      g_autofree char *most = g_format_size (CHUNK_INFLATE_MAX);
      lm_image_add_note (s->image, _("an iTXt chunk larger than %s (perhaps its XMP packet) was left out unread"),
                         most);
    }
}

/* Whether every chunk up to IEND fits in the LEN bytes of DATA; if not, NEED and LEFT say
 * what the first that does not declares and what was left; HAS_ICCP, whether an iCCP chunk
 * is among them. libpng only warns when a chunk is longer than its limit (a benign error,
 * and reading makes those warnings), then allocates and zeroes the length declared: a
 * 137-byte file declaring a 1 GB tEXt chunk took 1 GB and 7 s before its missing bytes were
 * noticed. A file cut short is refused in any case; here it is refused before anything is
 * allocated for it. */
static gboolean
chunks_fit (const guint8 *data, gsize len, gsize *need, gsize *left, gboolean *has_iccp)
{
  gsize at = PNG_SIGNATURE_LEN;
  while (len - at >= 8)
    {
      guint32 be;
      memcpy (&be, data + at, 4);
      gsize n = GUINT32_FROM_BE (be);
      *left = len - at - 8;
      /* the data, then a 4-byte CRC */
      if (n > *left || *left - n < 4)
        {
          *need = n;
          return FALSE;
        }
      if (memcmp (data + at + 4, "IEND", 4) == 0)
        break;
      *has_iccp = *has_iccp || memcmp (data + at + 4, "iCCP", 4) == 0;
      at += 12 + n;
    }
  return TRUE;
}

LmImage *
lm_png_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
             GError **error)
{
  gsize need = 0, left = 0;
  gboolean has_iccp = FALSE;
  if (len >= PNG_SIGNATURE_LEN && !chunks_fit (data, len, &need, &left, &has_iccp))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path,
                         _("cannot decode PNG: the file is truncated: a chunk declares %lu bytes and "
                           "%lu are left"),
                         (unsigned long) need, (unsigned long) left);
      return NULL;
    }
  PngState *s = g_new0 (PngState, 1);
  s->data = data, s->len = len;
  s->has_iccp = has_iccp;
  s->png = png_create_read_struct (PNG_LIBPNG_VER_STRING, s, on_png_error, on_png_warning);
  s->info = s->png ? png_create_info_struct (s->png) : NULL;
  if (s->info == NULL)
    {
      png_state_free (s, TRUE);
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to decode PNG"));
      return NULL;
    }
  if (setjmp (png_jmpbuf (s->png)))
    {
      if (s->load_error != NULL)
        g_propagate_error (error, g_steal_pointer (&s->load_error)); /* it names the file */
      else
        lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode PNG: %s"), s->message);
      png_state_free (s, TRUE);
      return NULL;
    }

  png_set_read_fn (s->png, s, read_from_memory);
  accept_profiles_as_they_are (s->png);
#ifdef PNG_SET_USER_LIMITS_SUPPORTED
  /* Whatever limits this system's libpng was built with. */
  png_set_chunk_malloc_max (s->png, CHUNK_INFLATE_MAX);
  png_set_chunk_cache_max (s->png, 1000);
  /* libpng's own default refuses sides above 1,000,000 pixels with a message of its own;
   * Lumen's size and memory checks (image.c, pixel-budget.c) bound what is accepted. */
  png_set_user_limits (s->png, 0x7fffffff, 0x7fffffff);
#endif
  png_set_keep_unknown_chunks (s->png, PNG_HANDLE_CHUNK_NEVER, TEXT_CHUNKS, sizeof TEXT_CHUNKS / 5);
  png_set_read_user_chunk_fn (s->png, s, on_chunk);
  png_read_info (s->png, s->info);

  png_uint_32 width = png_get_image_width (s->png, s->info);
  png_uint_32 height = png_get_image_height (s->png, s->info);
  int color = png_get_color_type (s->png, s->info);
  int depth = png_get_bit_depth (s->png, s->info);
  gboolean has_alpha = (color & PNG_COLOR_MASK_ALPHA) || png_get_valid (s->png, s->info, PNG_INFO_tRNS);
  gboolean gray = !(color & PNG_COLOR_MASK_COLOR) && !has_alpha;
  /* A palette's entries are 8-bit whatever the index's depth. */
  gboolean wide = depth == 16 && color != PNG_COLOR_TYPE_PALETTE;
  LmFormat format = wide ? (gray ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16) : (gray ? LM_FORMAT_GRAY8 : LM_FORMAT_RGBA8);

  if (wide && G_BYTE_ORDER == G_LITTLE_ENDIAN)
    png_set_swap (s->png);
  if (color == PNG_COLOR_TYPE_PALETTE)
    png_set_palette_to_rgb (s->png);
  if (!(color & PNG_COLOR_MASK_COLOR) && depth < 8)
    png_set_expand_gray_1_2_4_to_8 (s->png);
  if (png_get_valid (s->png, s->info, PNG_INFO_tRNS))
    png_set_tRNS_to_alpha (s->png);
  if (!gray && !(color & PNG_COLOR_MASK_COLOR))
    png_set_gray_to_rgb (s->png);
  if (!gray && !has_alpha)
    png_set_filler (s->png, wide ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling (s->png);

  /* Refuse forged dimensions before anything is allocated for them: png_read_update_info
   * allocates libpng's row buffers (4.4 GB for a 637-byte file declaring 1,107,296,272 × 12). */
  s->image = lm_io_image_new (format, width, height, allocator, path, &s->load_error);
  if (s->image == NULL)
    png_longjmp (s->png, 1);
  png_read_update_info (s->png, s->info);
  s->rows = g_new (png_bytep, height);
  for (png_uint_32 y = 0; y < height; y++)
    s->rows[y] = lm_image_row (s->image, y);
  png_read_image (s->png, s->rows);
  png_read_end (s->png, s->info);
  read_metadata (s);
  s->image->source_bit_depth = depth;

  if (has_alpha)
    {
      gboolean opaque = TRUE;
      for (png_uint_32 y = 0; y < height && opaque; y++)
        for (png_uint_32 x = 0; x < width && opaque; x++)
          opaque = wide ? ((const guint16 *) s->rows[y])[4 * x + 3] == 65535 : s->rows[y][4 * x + 3] == 255;
      s->image->opaque = opaque;
    }

  LmImage *image = g_steal_pointer (&s->image);
  png_state_free (s, TRUE);
  return lm_io_orient_upright (image, path, error);
}

gboolean
lm_png_save (const LmImage *image, LmAtomicFile *file, int level, GError **error)
{
  const char *path = lm_atomic_file_path (file);
  FILE *stream = lm_atomic_file_stream (file);
  PngState *s = g_new0 (PngState, 1);
  s->png = png_create_write_struct (PNG_LIBPNG_VER_STRING, s, on_png_error, on_png_warning);
  s->info = s->png ? png_create_info_struct (s->png) : NULL;
  if (s->info == NULL)
    {
      png_state_free (s, FALSE);
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to encode PNG"));
      return FALSE;
    }

  if (setjmp (png_jmpbuf (s->png)))
    {
      if (ferror (stream))
        lm_set_write_error (error, path, errno ? errno : EIO);
      else
        lm_set_file_error (error, LM_ERROR_IO, path, _("cannot encode PNG: %s"), s->message);
      png_state_free (s, FALSE);
      return FALSE;
    }

  png_init_io (s->png, stream);
  accept_profiles_as_they_are (s->png);
  gboolean wide = lm_format_depth (image->format) == 16;
  guint channels = lm_format_channels (image->format) == 1 ? 1 : image->opaque ? 3 : 4;
  int color_type = channels == 1 ? PNG_COLOR_TYPE_GRAY : channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA;
  png_set_IHDR (s->png, s->info, image->width, image->height, wide ? 16 : 8, color_type, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (image->icc_profile)
    png_set_iCCP (s->png, s->info, "ICC profile", PNG_COMPRESSION_TYPE_BASE,
                  g_bytes_get_data (image->icc_profile, NULL),
                  (png_uint_32) g_bytes_get_size (image->icc_profile));
  s->exif = lm_exif_for_export (image->exif, image->width, image->height);
  if (s->exif && g_bytes_get_size (s->exif) > LM_EXIF_HEADER_LEN)
    png_set_eXIf_1 (s->png, s->info, (png_uint_32) (g_bytes_get_size (s->exif) - LM_EXIF_HEADER_LEN),
                    (png_bytep) g_bytes_get_data (s->exif, NULL) + LM_EXIF_HEADER_LEN);
  lm_png_set_xmp (s->png, s->info, image);
  /* libpng writes the signature and every chunk before the image data; the image data and
   * IEND are ours (png-deflate.c), as nothing of ours belongs after the image data. */
  png_write_info (s->png, s->info);
  png_state_free (s, FALSE);

  int write_errno = 0;
  GError *encode_error = NULL;
  if (lm_png_write_image_data (stream, image, channels, level, &write_errno, &encode_error)
      && lm_png_write_end_chunk (stream))
    return TRUE;
  if (encode_error != NULL)
    {
      lm_set_file_error (error, encode_error->code, path, _("cannot encode PNG: %s"), encode_error->message);
      g_error_free (encode_error);
    }
  else
    lm_set_write_error (error, path, write_errno ? write_errno : errno ? errno : EIO);
  return FALSE;
}

static gboolean
sniff_png (const guint8 *h, gsize n)
{
  return n >= 8 && memcmp (h, "\x89PNG\r\n\x1a\n", 8) == 0;
}

static gboolean
save_png (const LmImage *image, LmAtomicFile *file, const LmSaveOptions *options, GError **error)
{
  return lm_png_save (image, file, options->png_level, error);
}

static const char *const png_suffixes[] = { ".png", NULL };

const LmFileFormat lm_file_format_png = {
  .type = LM_FILE_PNG,
  .name = "PNG",
  .suffixes = png_suffixes,
  .sniff = sniff_png,
  .load = lm_png_load,
  .save = save_png,
};
