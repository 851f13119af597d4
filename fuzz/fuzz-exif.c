/* EXIF blocks (core/io/exif.c through libexif): orientation, the export's cleaning, the JPEG
 * markers Lumen inserts (core/io/jpeg-markers.c, with the input as an ICC profile too, read
 * back by libjpeg and kept where lcms2 reads it), and the exposure time read from a file's EXIF. The input is an EXIF
 * block as it travels on an LmImage: APP1's payload, "Exif\0\0" and a TIFF structure
 * (libexif also finds one in a JPEG stream). Also the shot the lens correction reads from it
 * (core/io/exif-shot.c). The writers' side is fuzz-exif-export.c. */
#include <math.h>
#include <string.h>
#include <lcms2.h>

#include "fuzz-util.h"
#include "core/io/exif.h"
#include "core/io/exif-shot.h"
#include "core/io/jpeg-markers.h"

/* libjpeg's APP2 chunks hold a profile of at most 255 × 65519 bytes. */
#define ICC_MAX ((gsize) 255 * (65533 - 14))
#define EXIF_HEADER "Exif\0\0"

static GBytes *
tiny_jpeg (void)
{
  static GBytes *jpeg;
  if (jpeg != NULL)
    return jpeg;
  GError *error = NULL;
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, 8, 8, lm_allocator_host (), &error);
  LM_FUZZ_CHECK (image != NULL, "an 8×8 image: %s", error->message);
  for (guint y = 0; y < 8; y++)
    memset (lm_image_row (image, y), (int) (y * 30), 32);
  g_autofree char *path = g_build_filename (lm_fuzz_tmpdir (), "tiny.jpg", NULL);
  LM_FUZZ_CHECK (lm_io_save (image, path, NULL, &error), "%s", error->message);
  lm_image_unref (image);
  char *contents;
  gsize len;
  LM_FUZZ_CHECK (g_file_get_contents (path, &contents, &len, &error), "%s", error->message);
  jpeg = g_bytes_new_take (contents, len);
  return jpeg;
}

/* The block in the markers of a JPEG: libjpeg reads back what we inserted. */
static void
check_markers (GBytes *block, GBytes *exif)
{
  gsize jpeg_len;
  const guint8 *jpeg = g_bytes_get_data (tiny_jpeg (), &jpeg_len);
  GBytes *with = lm_jpeg_insert_metadata (jpeg, jpeg_len, exif, block);
  GError *error = NULL;
  LmImage *image = lm_io_load_from_memory ("fuzz-markers.jpg", g_bytes_get_data (with, NULL),
                                           g_bytes_get_size (with), lm_fuzz_allocator (), &error);
  LM_FUZZ_CHECK (image != NULL, "a JPEG with inserted markers does not load: %s", error->message);
  gsize n = g_bytes_get_size (block);
  /* Kept where lcms2 reads it, as the loader keeps profiles; otherwise left out with a note. */
  cmsHPROFILE h = n > 0 && n <= ICC_MAX ? cmsOpenProfileFromMem (g_bytes_get_data (block, NULL), (cmsUInt32Number) n)
                                        : NULL;
  if (h != NULL)
    LM_FUZZ_CHECK (image->icc_profile != NULL && g_bytes_equal (image->icc_profile, block),
                   "the ICC profile of %zu bytes inserted is not the one read back (%zu bytes)", n,
                   image->icc_profile ? g_bytes_get_size (image->icc_profile) : 0);
  else if (n > 0 && n <= ICC_MAX)
    LM_FUZZ_CHECK (image->icc_profile == NULL && image->notes != NULL,
                   "a profile lcms2 cannot read was kept, or left out without a note");
  if (h != NULL)
    cmsCloseProfile (h);
  gsize exif_len = exif ? g_bytes_get_size (exif) : 0;
  if (exif_len > 6 && exif_len <= 65533 && memcmp (g_bytes_get_data (exif, NULL), EXIF_HEADER, 6) == 0)
    LM_FUZZ_CHECK (image->exif != NULL && g_bytes_equal (image->exif, exif),
                   "the EXIF block of %zu bytes inserted is not the one read back", exif_len);
  lm_image_unref (image);
  g_bytes_unref (with);
}

/* From a file, as an HDR stack's exposures are read: libexif finds the block in a JPEG's
 * APP1 segment, so a block is wrapped in one (an input that is a JPEG is taken as it is). */
static void
check_exposure_time (const uint8_t *data, size_t size)
{
  const char *path;
  if (size >= 2 && data[0] == 0xff && data[1] == 0xd8)
    path = lm_fuzz_memfd_path (data, size);
  else
    {
      gsize n = MIN (size, 65533);
      g_autofree guint8 *jpeg = g_malloc (n + 8);
      memcpy (jpeg, "\xff\xd8\xff\xe1", 4);
      jpeg[4] = (guint8) ((n + 2) >> 8);
      jpeg[5] = (guint8) (n + 2);
      memcpy (jpeg + 6, data, n);
      memcpy (jpeg + 6 + n, "\xff\xd9", 2);
      path = lm_fuzz_memfd_path (jpeg, n + 8);
    }
  double seconds = 0.0;
  GError *error = NULL;
  if (lm_exif_exposure_time (path, &seconds, &error))
    LM_FUZZ_CHECK (seconds > 0.0 && isfinite (seconds), "an exposure time of %g s", seconds);
  else
    {
      lm_fuzz_check_failure ("lm_exif_exposure_time", error, path);
      g_error_free (error);
    }
}

/* A NUL-terminated UTF-8 name within FIELD's SIZE bytes. */
static gboolean
is_name (const char *field, gsize size)
{
  return memchr (field, '\0', size) != NULL && g_utf8_validate (field, -1, NULL);
}

/* Camera, lens, focal length and aperture as the lens correction reads them: names that are
 * names, numbers finite and not negative. */
static void
check_shot (GBytes *block)
{
  LmImage image = { .exif = block };
  LmShotInfo shot;
  lm_shot_info_from_image (&image, &shot);
  LM_FUZZ_CHECK (is_name (shot.make, sizeof shot.make) && is_name (shot.model, sizeof shot.model)
                   && is_name (shot.lens, sizeof shot.lens),
                 "a camera or lens name that is not NUL-terminated UTF-8");
  float numbers[] = { shot.focal_mm, shot.f_number, shot.focal35_mm, shot.distance_m };
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    LM_FUZZ_CHECK (isfinite (numbers[i]) && numbers[i] >= 0.0f, "a shot's number %u is %g", i, numbers[i]);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  GBytes *block = g_bytes_new (data, size);

  int orientation = lm_exif_orientation (block);
  LM_FUZZ_CHECK (orientation >= 1 && orientation <= 8, "orientation %d", orientation);
  GBytes *exported = lm_exif_for_export (block, 17, 9);
  if (exported != NULL)
    LM_FUZZ_CHECK (lm_exif_orientation (exported) == 1, "orientation %d after the export's cleaning",
                   lm_exif_orientation (exported));

  check_markers (block, exported ? exported : block);
  check_exposure_time (data, size);
  check_shot (block);

  if (exported != NULL)
    g_bytes_unref (exported);
  g_bytes_unref (block);
  return 0;
}
