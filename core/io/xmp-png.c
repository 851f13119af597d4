#include "xmp-png.h"

#include <string.h>

#include "xmp.h"

void
lm_png_read_xmp (png_structp png, png_infop info, LmImage *image)
{
#ifdef PNG_iTXt_SUPPORTED
  png_textp texts = NULL;
  int n = png_get_text (png, info, &texts, NULL);
  for (int k = 0; k < n && image->xmp == NULL; k++)
    {
      const png_text *t = &texts[k];
      /* iTXt only: a tEXt or zTXt of that key is Latin-1, not the packet's UTF-8. */
      if (t->compression < PNG_ITXT_COMPRESSION_NONE || strcmp (t->key, LM_PNG_XMP_KEY) != 0
          || t->text == NULL || t->itxt_length == 0)
        continue;
      image->xmp = g_bytes_new (t->text, t->itxt_length);
    }
#endif
}

void
lm_png_set_xmp (png_structp png, png_infop info, const LmImage *image)
{
#ifdef PNG_iTXt_SUPPORTED
  g_autoptr (GBytes) xmp = lm_xmp_for_export (image->xmp);
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
