/* Thumbnail PNGs through libpng's own API: its simplified one reads no text chunks. */
#include "thumbnail-png.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <png.h>

#include "../error.h"

/* A tEXt value: a URI of a long path, a MIME type, a number; what a writer puts beyond this
 * is not ours to keep in memory. */
#define TEXT_CHUNK_MAX (64 * 1024)

typedef struct {
  png_structp png;
  png_infop info;
  const guint8 *data;
  gsize len, at;
  char message[256];
  LmImage *image;
  png_bytep *rows;
} ThumbRead;

static void
on_error (png_structp png, png_const_charp message)
{
  ThumbRead *s = png_get_error_ptr (png);
  g_strlcpy (s->message, message, sizeof s->message);
  png_longjmp (png, 1);
}

static void
on_warning (png_structp png, png_const_charp message)
{
}

static void
read_from_memory (png_structp png, png_bytep out, png_size_t n)
{
  ThumbRead *s = png_get_io_ptr (png);
  if (n > s->len - s->at)
    png_error (png, _("the file is truncated"));
  memcpy (out, s->data + s->at, n);
  s->at += n;
}

static void
thumb_read_free (ThumbRead *s)
{
  png_destroy_read_struct (&s->png, &s->info, NULL);
  g_clear_pointer (&s->image, lm_image_unref);
  g_free (s->rows);
  g_free (s);
}

static GHashTable *
text_of (ThumbRead *s)
{
  GHashTable *text = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  png_textp chunks = NULL;
  int n = png_get_text (s->png, s->info, &chunks, NULL);
  for (int i = 0; i < n; i++)
    {
      const char *value = chunks[i].text ? chunks[i].text : "";
      gsize value_len = chunks[i].compression == PNG_ITXT_COMPRESSION_NONE
                            || chunks[i].compression == PNG_ITXT_COMPRESSION_zTXt
                          ? chunks[i].itxt_length
                          : chunks[i].text_length;
      /* tEXt and zTXt are Latin-1; iTXt is UTF-8 and is taken only when it is. */
      char *utf8 = chunks[i].compression >= PNG_ITXT_COMPRESSION_NONE
                     ? (g_utf8_validate (value, value_len, NULL) ? g_strndup (value, value_len) : NULL)
                     : g_convert (value, value_len, "UTF-8", "ISO-8859-1", NULL, NULL, NULL);
      char *key = g_convert (chunks[i].key, -1, "UTF-8", "ISO-8859-1", NULL, NULL, NULL);
      if (utf8 != NULL && key != NULL && !g_hash_table_contains (text, key))
        g_hash_table_insert (text, g_steal_pointer (&key), g_steal_pointer (&utf8));
      g_free (utf8);
      g_free (key);
    }
  return text;
}

/* Whether every chunk's declared length fits in the bytes left: libpng allocates a text
 * chunk's declared length before it reads it (a 326-byte file declaring an iTXt of 1.9 GB
 * took as much), whatever the chunk bound says. */
static gboolean
chunks_fit (const guint8 *data, gsize len)
{
  gsize at = 8;
  while (len - at >= 12)
    {
      guint32 be;
      memcpy (&be, data + at, 4);
      gsize n = GUINT32_FROM_BE (be);
      if (n > len - at - 12)
        return FALSE;
      if (memcmp (data + at + 4, "IEND", 4) == 0)
        return TRUE;
      at += 12 + n;
    }
  return at == len;
}

gboolean
lm_thumbnail_png_read (const guint8 *data, gsize len, gboolean pixels, GHashTable **text, LmImage **image,
                       GError **error)
{
  g_return_val_if_fail (!pixels || image != NULL, FALSE);
  if (len < 8 || png_sig_cmp (data, 0, 8) != 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("it is not a PNG file"));
      return FALSE;
    }
  if (!chunks_fit (data, len))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("damaged PNG (a chunk is longer than the file)"));
      return FALSE;
    }
  ThumbRead *s = g_new0 (ThumbRead, 1);
  s->data = data, s->len = len;
  s->png = png_create_read_struct (PNG_LIBPNG_VER_STRING, s, on_error, on_warning);
  s->info = s->png ? png_create_info_struct (s->png) : NULL;
  if (s->info == NULL)
    {
      thumb_read_free (s);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to read a PNG"));
      return FALSE;
    }
  if (setjmp (png_jmpbuf (s->png)))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("damaged PNG (%s)"), s->message);
      thumb_read_free (s);
      return FALSE;
    }
  png_set_read_fn (s->png, s, read_from_memory);
  png_set_user_limits (s->png, LM_THUMBNAIL_PNG_SIDE_MAX, LM_THUMBNAIL_PNG_SIDE_MAX);
  /* Ancillary chunks (text, profiles) and what they inflate to; the pixel data is read
   * row by row, not through this bound. */
  png_set_chunk_malloc_max (s->png, (png_alloc_size_t) 1 << 20);
  png_set_chunk_cache_max (s->png, 64);
  png_set_keep_unknown_chunks (s->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
  png_read_info (s->png, s->info);
  /* Text longer than any key's value has no business in a thumbnail: refused, not kept. */
  png_textp chunks = NULL;
  int n = png_get_text (s->png, s->info, &chunks, NULL);
  for (int i = 0; i < n; i++)
    if (chunks[i].text_length > TEXT_CHUNK_MAX || chunks[i].itxt_length > TEXT_CHUNK_MAX)
      png_error (s->png, _("a text chunk is too long"));
  if (text != NULL)
    *text = text_of (s);

  if (pixels)
    {
      png_uint_32 width = png_get_image_width (s->png, s->info);
      png_uint_32 height = png_get_image_height (s->png, s->info);
      int color = png_get_color_type (s->png, s->info);
      png_set_strip_16 (s->png);
      png_set_packing (s->png);
      if (color == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb (s->png);
      if (!(color & PNG_COLOR_MASK_COLOR))
        {
          png_set_expand_gray_1_2_4_to_8 (s->png);
          png_set_gray_to_rgb (s->png);
        }
      if (png_get_valid (s->png, s->info, PNG_INFO_tRNS))
        png_set_tRNS_to_alpha (s->png);
      else if (!(color & PNG_COLOR_MASK_ALPHA))
        png_set_filler (s->png, 0xFF, PNG_FILLER_AFTER);
      png_set_interlace_handling (s->png);
      png_read_update_info (s->png, s->info);
      if (png_get_rowbytes (s->png, s->info) != (gsize) width * 4)
        png_error (s->png, _("unexpected pixel layout"));
      GError *local = NULL;
      s->image = lm_image_new (LM_FORMAT_RGBA8, width, height, lm_allocator_host (), &local);
      if (s->image == NULL)
        {
          g_strlcpy (s->message, local->message, sizeof s->message);
          g_error_free (local);
          png_longjmp (s->png, 1);
        }
      s->rows = g_new (png_bytep, height);
      for (png_uint_32 y = 0; y < height; y++)
        s->rows[y] = lm_image_row (s->image, y);
      png_read_image (s->png, s->rows);
      s->image->opaque = !(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid (s->png, s->info, PNG_INFO_tRNS);
      *image = g_steal_pointer (&s->image);
    }
  thumb_read_free (s);
  return TRUE;
}

typedef struct {
  png_structp png;
  png_infop info;
  char message[256];
  int errsv;
  int fd;
} ThumbWrite;

static void
on_write_error (png_structp png, png_const_charp message)
{
  ThumbWrite *s = png_get_error_ptr (png);
  g_strlcpy (s->message, message, sizeof s->message);
  png_longjmp (png, 1);
}

static void
write_to_fd (png_structp png, png_bytep data, png_size_t n)
{
  ThumbWrite *s = png_get_io_ptr (png);
  while (n > 0)
    {
      ssize_t w = write (s->fd, data, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        {
          s->errsv = w < 0 ? errno : EIO;
          png_error (png, g_strerror (s->errsv));
        }
      data += w, n -= (gsize) w;
    }
}

static void
flush_nothing (png_structp png)
{
}

gboolean
lm_thumbnail_png_write (int fd, const LmImage *image, const char *const *keys, const char *const *values, guint n,
                        GError **error)
{
  g_return_val_if_fail (image->format == LM_FORMAT_RGBA8 && image->allocator->memory == LM_MEMORY_HOST, FALSE);
  ThumbWrite *s = g_new0 (ThumbWrite, 1);
  g_autofree png_text *text = g_new0 (png_text, n);
  s->png = png_create_write_struct (PNG_LIBPNG_VER_STRING, s, on_write_error, on_warning);
  s->info = s->png ? png_create_info_struct (s->png) : NULL;
  if (s->info == NULL || setjmp (png_jmpbuf (s->png)))
    {
      if (s->errsv)
        g_set_error (error, LUMEN_ERROR, lm_error_code_from_errno (s->errsv), "%s", g_strerror (s->errsv));
      else
        g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("cannot encode PNG: %s"),
                     s->info ? s->message : g_strerror (ENOMEM));
      png_destroy_write_struct (&s->png, &s->info);
      g_free (s);
      return FALSE;
    }
  s->fd = fd;
  png_set_write_fn (s->png, s, write_to_fd, flush_nothing);
  /* Level 3: a 256-pixel thumbnail in about a millisecond, a tenth larger than level 6. */
  png_set_compression_level (s->png, 3);
  gboolean opaque = image->opaque;
  for (guint y = 0; y < image->height && opaque; y++)
    for (guint x = 0; x < image->width && opaque; x++)
      opaque = lm_image_row (image, y)[4 * x + 3] == 255;
  png_set_IHDR (s->png, s->info, image->width, image->height, 8,
                opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  for (guint i = 0; i < n; i++)
    {
      /* tEXt is Latin-1: a value beyond ASCII (a message naming a file) goes in iTXt. */
      gboolean ascii = g_str_is_ascii (values[i]);
      text[i].compression = ascii ? PNG_TEXT_COMPRESSION_NONE : PNG_ITXT_COMPRESSION_NONE;
      text[i].key = (png_charp) keys[i];
      text[i].text = (png_charp) values[i];
      text[i].text_length = ascii ? strlen (values[i]) : 0;
      text[i].itxt_length = ascii ? 0 : strlen (values[i]);
      text[i].lang = (png_charp) "";
      text[i].lang_key = (png_charp) "";
    }
  png_set_text (s->png, s->info, text, (int) n);
  png_write_info (s->png, s->info);
  if (opaque)
    png_set_filler (s->png, 0, PNG_FILLER_AFTER);
  for (guint y = 0; y < image->height; y++)
    png_write_row (s->png, lm_image_row (image, y));
  png_write_end (s->png, s->info);
  png_destroy_write_struct (&s->png, &s->info);
  g_free (s);
  return TRUE;
}
