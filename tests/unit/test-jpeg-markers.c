/* EXIF and ICC put into a JPEG that an encoder wrote without them (core/io/jpeg-markers.c, for
 * nvJPEG's files): read back through Lumen's own JPEG loader (libjpeg), they must be the
 * bytes put in, in the place libjpeg's writer uses, and the image must be untouched. */
#include <string.h>
#include <lcms2.h>

#include "core/io/io.h"
#include "core/io/jpeg-markers.h"
#include "test-util.h"

/* A plain JPEG (libjpeg's writer, no metadata: JFIF's APP0 only). */
static GBytes *
plain_jpeg (void)
{
  g_autoptr (LmImage) image = lm_test_random_rgba (96, 64, 7, FALSE);
  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), "plain.jpg", NULL);
  LmSaveOptions options = { .quality = 92 };
  g_assert_true (lm_io_save (image, path, &options, NULL));
  char *data;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* A real camera's EXIF block, as the loader keeps it. */
static GBytes *
camera_exif (void)
{
  g_autofree char *dir = g_build_filename (lm_test_data_dir (), "hdr", "forest", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  const char *name;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".jpg"))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_autoptr (LmImage) image = lm_io_load (path, lm_allocator_host (), NULL);
        if (image && image->exif)
          return g_bytes_ref (image->exif);
      }
  g_assert_not_reached ();
  return NULL;
}

static GBytes *
noise (gsize len, guint32 seed)
{
  guint8 *data = g_malloc (len);
  GRand *rand = g_rand_new_with_seed (seed);
  for (gsize i = 0; i < len; i++)
    data[i] = (guint8) g_rand_int (rand);
  g_rand_free (rand);
  return g_bytes_new_take (data, len);
}

/* LEN bytes that lcms2 reads as a profile (the loader keeps no other): sRGB's, then noise past
 * its tags, as a large profile's tables would be, the header's size saying LEN. */
static GBytes *
profile_of_size (gsize len, guint32 seed)
{
  cmsHPROFILE srgb = cmsCreate_sRGBProfile ();
  cmsUInt32Number n = 0;
  g_assert_true (cmsSaveProfileToMem (srgb, NULL, &n));
  g_assert_cmpuint (n, <, len);
  g_autoptr (GBytes) tail = noise (len, seed);
  guint8 *data = g_memdup2 (g_bytes_get_data (tail, NULL), len);
  g_assert_true (cmsSaveProfileToMem (srgb, data, &n));
  cmsCloseProfile (srgb);
  guint32 be = GUINT32_TO_BE ((guint32) len);
  memcpy (data, &be, 4);
  return g_bytes_new_take (data, len);
}

static LmImage *
load (GBytes *jpeg)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (jpeg, &len);
  LmImage *image = lm_io_load_from_memory ("test.jpg", data, len, lm_allocator_host (), NULL);
  g_assert_nonnull (image);
  return image;
}

static void
test_read_back (void)
{
  g_autoptr (GBytes) plain = plain_jpeg ();
  g_autoptr (GBytes) exif = camera_exif ();
  /* Three APP2 chunks: a profile larger than two segments hold. */
  g_autoptr (GBytes) icc = profile_of_size (150000, 1);
  gsize len;
  const guint8 *data = g_bytes_get_data (plain, &len);
  g_autoptr (GBytes) with = lm_jpeg_insert_metadata (data, len, exif, icc);
  g_autoptr (LmImage) before = load (plain);
  g_autoptr (LmImage) after = load (with);
  g_assert_null (before->exif);
  g_assert_null (before->icc_profile);
  g_assert_nonnull (after->exif);
  g_assert_true (g_bytes_equal (after->exif, exif));
  g_assert_nonnull (after->icc_profile);
  g_assert_true (g_bytes_equal (after->icc_profile, icc));
  lm_test_assert_same_pixels (before, after);

  /* SOI, JFIF's APP0 as it was, then EXIF's APP1 and the profile's first APP2. */
  const guint8 *w = g_bytes_get_data (with, NULL);
  gsize app0 = 4 + ((gsize) data[4] << 8 | data[5]);
  g_assert_cmpint (data[3], ==, 0xe0);
  g_assert_cmpmem (w, app0, data, app0);
  g_assert_cmpint (w[app0], ==, 0xff);
  g_assert_cmpint (w[app0 + 1], ==, 0xe1);
  gsize app1 = app0 + 2 + ((gsize) w[app0 + 2] << 8 | w[app0 + 3]);
  g_assert_cmpint (w[app1 + 1], ==, 0xe2);
  g_assert_cmpmem (w + app1 + 4, 12, "ICC_PROFILE", 12);
  g_assert_cmpint (w[app1 + 4 + 12], ==, 1);
  g_assert_cmpint (w[app1 + 4 + 13], ==, 3);
}

static void
test_left_out (void)
{
  g_autoptr (GBytes) plain = plain_jpeg ();
  gsize len;
  const guint8 *data = g_bytes_get_data (plain, &len);
  /* Nothing to add, an EXIF block no segment holds, a file that is not a JPEG: as given. */
  g_autoptr (GBytes) none = lm_jpeg_insert_metadata (data, len, NULL, NULL);
  g_assert_true (g_bytes_equal (none, plain));
  g_autoptr (GBytes) huge = noise (70000, 2);
  g_autoptr (GBytes) too_big = lm_jpeg_insert_metadata (data, len, huge, NULL);
  g_assert_true (g_bytes_equal (too_big, plain));
  g_autoptr (GBytes) icc = profile_of_size (4000, 3);
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  g_autoptr (GBytes) not_jpeg = lm_jpeg_insert_metadata (png, sizeof png, NULL, icc);
  g_assert_cmpmem (g_bytes_get_data (not_jpeg, NULL), g_bytes_get_size (not_jpeg), png, sizeof png);
  /* With the profile only, it reads back and the EXIF stays absent. */
  g_autoptr (GBytes) with_icc = lm_jpeg_insert_metadata (data, len, huge, icc);
  g_autoptr (LmImage) image = load (with_icc);
  g_assert_null (image->exif);
  g_assert_true (image->icc_profile && g_bytes_equal (image->icc_profile, icc));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/jpeg-markers/read-back", test_read_back);
  g_test_add_func ("/jpeg-markers/left-out", test_left_out);
  return g_test_run ();
}
