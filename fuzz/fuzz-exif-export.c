/* What an export does with the source's EXIF: the TIFF writer's EXIF and GPS sub-IFDs
 * (core/io/tiff-exif.c), PNG's eXIf and JPEG's APP1 (each through lm_exif_for_export). A block
 * never makes a writer fail, and each file written loads again. Slower than fuzz-exif (three
 * files written and read per input), so apart from it. The input is an EXIF block, as for
 * fuzz-exif. */
#include <string.h>

#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  GError *error = NULL;
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, 3, 2, lm_allocator_host (), &error);
  LM_FUZZ_CHECK (image != NULL, "a 3x2 image: %s", error->message);
  for (guint y = 0; y < 2; y++)
    memset (lm_image_row (image, y), 0x80, 12);
  image->exif = g_bytes_new (data, size);
  static const char *const names[] = { "exif.tif", "exif.png", "exif.jpg" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (lm_fuzz_tmpdir (), names[i], NULL);
      LM_FUZZ_CHECK (lm_io_save (image, path, NULL, &error), "writing %s with the EXIF: %s", names[i],
                     error->message);
      LmImage *back = lm_io_load (path, lm_fuzz_allocator (), &error);
      LM_FUZZ_CHECK (back != NULL, "%s written with the EXIF does not load: %s", names[i], error->message);
      LM_FUZZ_CHECK (back->width == 3 && back->height == 2, "%s written 3x2 reads %ux%u", names[i],
                     back->width, back->height);
      lm_image_unref (back);
    }
  lm_image_unref (image);
  return 0;
}
