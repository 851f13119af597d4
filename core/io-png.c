/* PNG export through libpng directly: unlike gdk-pixbuf's saver it writes 8-bit gray
 * images as gray, and it carries EXIF (eXIf) as well as the ICC profile (iCCP). */
#include <errno.h>
#include <setjmp.h>
#include <string.h>
#include <png.h>
#include <glib/gi18n.h>

#include "exif.h"
#include "io-private.h"

#define EXIF_HEADER_LEN 6

typedef struct {
  png_structp png;
  png_infop info;
  char message[256];
  GBytes *exif;
} PngSave;

static void
on_png_error (png_structp png, png_const_charp message)
{
  PngSave *s = png_get_error_ptr (png);
  g_strlcpy (s->message, message, sizeof s->message);
  png_longjmp (png, 1);
}

static void
on_png_warning (png_structp png, png_const_charp message)
{
}

gboolean
lm_png_save (const LmImage *image, LmAtomicFile *file, GError **error)
{
  const char *path = lm_atomic_file_path (file);
  FILE *stream = lm_atomic_file_stream (file);
  PngSave *s = g_new0 (PngSave, 1);
  s->png = png_create_write_struct (PNG_LIBPNG_VER_STRING, s, on_png_error, on_png_warning);
  s->info = s->png ? png_create_info_struct (s->png) : NULL;
  if (s->info == NULL)
    {
      png_destroy_write_struct (&s->png, NULL);
      g_free (s);
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to encode PNG"));
      return FALSE;
    }

  if (setjmp (png_jmpbuf (s->png)))
    {
      if (ferror (stream))
        lm_set_write_error (error, path, errno ? errno : EIO);
      else
        lm_set_file_error (error, LM_ERROR_IO, path, _("cannot encode PNG: %s"), s->message);
      png_destroy_write_struct (&s->png, &s->info);
      g_clear_pointer (&s->exif, g_bytes_unref);
      g_free (s);
      return FALSE;
    }

  png_init_io (s->png, stream);
  /* Carry the source's profile as it is, even the slightly off sRGB profiles that libpng
   * knows and would otherwise refuse. */
#ifdef PNG_SKIP_sRGB_CHECK_PROFILE
  png_set_option (s->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
#endif
  png_set_benign_errors (s->png, 1);
  int color_type = image->format == LM_FORMAT_GRAY8 ? PNG_COLOR_TYPE_GRAY
                   : image->opaque                  ? PNG_COLOR_TYPE_RGB
                                                    : PNG_COLOR_TYPE_RGB_ALPHA;
  png_set_IHDR (s->png, s->info, image->width, image->height, 8, color_type, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (image->icc_profile)
    png_set_iCCP (s->png, s->info, "ICC profile", PNG_COMPRESSION_TYPE_BASE,
                  g_bytes_get_data (image->icc_profile, NULL),
                  (png_uint_32) g_bytes_get_size (image->icc_profile));
  s->exif = lm_exif_for_export (image->exif, image->width, image->height);
  if (s->exif && g_bytes_get_size (s->exif) > EXIF_HEADER_LEN)
    png_set_eXIf_1 (s->png, s->info, (png_uint_32) (g_bytes_get_size (s->exif) - EXIF_HEADER_LEN),
                    (png_bytep) g_bytes_get_data (s->exif, NULL) + EXIF_HEADER_LEN);
  png_write_info (s->png, s->info);
  if (color_type == PNG_COLOR_TYPE_RGB)
    png_set_filler (s->png, 0, PNG_FILLER_AFTER); /* drops the opaque alpha byte */

  for (guint y = 0; y < image->height; y++)
    png_write_row (s->png, lm_image_row (image, y));
  png_write_end (s->png, s->info);

  png_destroy_write_struct (&s->png, &s->info);
  g_clear_pointer (&s->exif, g_bytes_unref);
  g_free (s);
  return TRUE;
}
