#include "xmp-png.h"

#include <string.h>
#include <zlib.h>

#include "xmp.h"

/* The LEN bytes at IN inflated (zlib), at most MAX of them. */
static LmPngXmpRead
inflate_at_most (const guint8 *in, gsize len, gsize max, GBytes **out)
{
  z_stream z = { 0 };
  if (len > G_MAXUINT || inflateInit (&z) != Z_OK)
    return LM_PNG_XMP_DAMAGED;
  z.next_in = (Bytef *) in;
  z.avail_in = (uInt) len;
  g_autoptr (GByteArray) text = g_byte_array_new ();
  guint8 buffer[16384];
  int rc;
  do
    {
      z.next_out = buffer;
      z.avail_out = sizeof buffer;
      rc = inflate (&z, Z_NO_FLUSH);
      gsize got = sizeof buffer - z.avail_out;
      if (text->len + got > max)
        {
          inflateEnd (&z);
          return LM_PNG_XMP_TOO_LARGE;
        }
      g_byte_array_append (text, buffer, (guint) got);
    }
  while (rc == Z_OK);
  inflateEnd (&z);
  if (rc != Z_STREAM_END)
    return LM_PNG_XMP_DAMAGED;
  if (text->len == 0)
    return LM_PNG_XMP_NONE;
  *out = g_byte_array_free_to_bytes (g_steal_pointer (&text));
  return LM_PNG_XMP_READ;
}

/* Past the NUL that ends the field at *AT; FALSE when the data ends first. */
static gboolean
skip_field (const guint8 *data, gsize len, gsize *at)
{
  const guint8 *nul = *at < len ? memchr (data + *at, '\0', len - *at) : NULL;
  if (nul == NULL)
    return FALSE;
  *at = (gsize) (nul - data) + 1;
  return TRUE;
}

LmPngXmpRead
lm_png_xmp_from_itxt (const guint8 *data, gsize len, GBytes **packet)
{
  static const char key[] = LM_PNG_XMP_KEY;
  if (len < sizeof key || memcmp (data, key, sizeof key) != 0)
    return LM_PNG_XMP_NONE;
  gsize at = sizeof key; /* past the keyword's NUL: the compression flag and method */
  if (len - at < 2)
    return LM_PNG_XMP_DAMAGED;
  gboolean compressed = data[at] != 0;
  if (compressed && data[at + 1] != 0) /* zlib's deflate is the only method PNG defines */
    return LM_PNG_XMP_DAMAGED;
  at += 2;
  if (!skip_field (data, len, &at) || !skip_field (data, len, &at)) /* language, translated keyword */
    return LM_PNG_XMP_DAMAGED;
  if (compressed)
    return inflate_at_most (data + at, len - at, LM_PNG_XMP_MAX, packet);
  if (at == len)
    return LM_PNG_XMP_NONE;
  if (len - at > LM_PNG_XMP_MAX)
    return LM_PNG_XMP_TOO_LARGE;
  *packet = g_bytes_new (data + at, len - at);
  return LM_PNG_XMP_READ;
}

void
lm_png_set_xmp (png_structp png, png_infop info, const LmImage *image)
{
#ifdef PNG_iTXt_SUPPORTED
  g_autoptr (GBytes) xmp = lm_xmp_for_export (image->xmp, image->width, image->height);
  if (xmp == NULL)
    return;
  /* libpng takes the text as a C string: lm_xmp_for_export passes no packet holding a NUL. */
  g_autofree char *text = g_strndup (g_bytes_get_data (xmp, NULL), g_bytes_get_size (xmp));
  png_text chunk = {
    .compression = PNG_ITXT_COMPRESSION_NONE,
    .key = (png_charp) LM_PNG_XMP_KEY,
    .text = text,
    .itxt_length = strlen (text),
    .lang = (png_charp) "",
    .lang_key = (png_charp) "",
  };
  png_set_text (png, info, &chunk, 1); /* libpng keeps a copy */
#endif
}
