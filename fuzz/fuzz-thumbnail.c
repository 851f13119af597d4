/* What a thumbnail reads that no other loader does: PNGs of the shared cache, written by any
 * program (core/library/thumbnail-png.c: text chunks, then pixels), and a JPEG's embedded
 * EXIF preview found by its frame header and libexif, then decoded by libjpeg-turbo's scaled
 * IDCT (thumbnail-source.c, core/io/jpeg.c's lm_jpeg_load_scaled). The first byte picks the
 * path (even: PNG, odd: JPEG) and, for the JPEG, the thumbnail size. */
#include "fuzz-util.h"

#include "core/library/thumbnail-png.h"
#include "core/library/thumbnail-source.h"
#include "core/io/jpeg-scaled.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  if (size < 2)
    return 0;
  guint8 pick = data[0];
  data++, size--;
  if ((pick & 1) == 0)
    {
      GHashTable *text = NULL;
      LmImage *image = NULL;
      GError *error = NULL;
      gboolean ok = lm_thumbnail_png_read (data, size, TRUE, &text, &image, &error);
      g_assert (ok == (error == NULL));
      g_assert (!ok || (image != NULL && image->format == LM_FORMAT_RGBA8
                        && image->width <= LM_THUMBNAIL_PNG_SIDE_MAX && image->height <= LM_THUMBNAIL_PNG_SIDE_MAX));
      if (ok)
        {
          GHashTableIter it;
          gpointer key, value;
          g_hash_table_iter_init (&it, text);
          while (g_hash_table_iter_next (&it, &key, &value))
            g_assert (g_utf8_validate (key, -1, NULL) && g_utf8_validate (value, -1, NULL));
        }
      g_clear_pointer (&text, g_hash_table_unref);
      g_clear_pointer (&image, lm_image_unref);
      g_clear_error (&error);
      return 0;
    }
  int thumb_size = 32 << ((pick >> 1) & 3); /* 32, 64, 128, 256 */
  LmImage *preview = lm_thumbnail_jpeg_preview (data, size, thumb_size);
  g_assert (preview == NULL || (preview->format == LM_FORMAT_RGBA8 && MAX (preview->width, preview->height) >= (guint) thumb_size));
  g_clear_pointer (&preview, lm_image_unref);
  GError *error = NULL;
  LmImage *scaled = lm_jpeg_load_scaled ("fuzz.jpg", data, size, (guint) thumb_size, &error);
  g_assert ((scaled == NULL) == (error != NULL));
  g_clear_pointer (&scaled, lm_image_unref);
  g_clear_error (&error);
  return 0;
}
