/* Reading and writing files: lossless round trips, JPEG closeness, Radiance precision, atomic
 * saves that leave nothing behind on failure, errors that name the file, EXIF exposure times
 * of the shared HDR stacks, EXIF orientation on load and export (and XMP's where EXIF states
 * none), and EXIF kept in TIFF. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include <jpeglib.h>
#include <tiffio.h>
#include <libexif/exif-data.h>

#include "core/error.h"
#include "core/io/exif.h"
#include "core/io/io.h"
#include "core/io/orientation.h"
#include "test-util.h"

static char *
tmp_path (const char *name)
{
  return g_build_filename (lm_test_tmp_dir (), name, NULL);
}

static void
save_ok (const LmImage *image, const char *path, int quality)
{
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  options.quality = quality;
  GError *error = NULL;
  gboolean ok = lm_io_save (image, path, &options, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
}

static LmImage *
load_ok (const char *path)
{
  GError *error = NULL;
  LmImage *image = lm_io_load (path, lm_allocator_host (), &error);
  g_assert_no_error (error);
  g_assert_nonnull (image);
  return image;
}

/* No temporary file of an atomic save is left in DIR. */
static void
assert_no_temporaries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  LM_TEST_RETURN_IF_FAILED ();
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      if (strstr (name, ".lumen-tmp-") != NULL)
        g_test_message ("left behind: %s/%s", dir, name);
      g_assert_null (strstr (name, ".lumen-tmp-"));
    }
}

/* The error is LUMEN_ERROR and its message names the file (by its base name at least). */
static void
assert_error_names_file (const GError *error, const char *path)
{
  g_assert_nonnull (error);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_true (error->domain == LUMEN_ERROR);
  g_autofree char *base = g_path_get_basename (path);
  if (strstr (error->message, base) == NULL)
    g_test_message ("'%s' does not name %s", error->message, base);
  g_assert_nonnull (strstr (error->message, base));
}

/* ---- lossless round trips ---------------------------------------------------------- */

/* Lossless formats give back every byte, for three kinds of image with every byte value in
 * play: opaque RGBA, RGBA with alpha (including a fully transparent pixel, which still
 * carries its colour), and GRAY8. */
typedef enum { KIND_OPAQUE, KIND_ALPHA, KIND_GRAY } Kind;
static const char *const kind_names[] = { "opaque", "alpha", "gray" };

typedef struct {
  const char *ext;
  Kind kind;
} RoundTrip;

static void
test_lossless_round_trip (gconstpointer data)
{
  const RoundTrip *rt = data;
  g_autoptr (LmImage) src = NULL;
  switch (rt->kind)
    {
    case KIND_OPAQUE:
      src = lm_test_random_rgba (37, 23, 1, FALSE);
      break;
    case KIND_ALPHA:
      src = lm_test_random_rgba (37, 23, 2, TRUE);
      lm_test_pixel (src, 0, 0)[3] = 0;
      lm_test_pixel (src, 1, 0)[3] = 255;
      break;
    case KIND_GRAY:
      src = lm_test_random_gray (37, 23, 3);
      break;
    }
  g_autofree char *name = g_strdup_printf ("lossless-%s.%s", kind_names[rt->kind], rt->ext);
  g_autofree char *path = tmp_path (name);
  save_ok (src, path, 92);
  assert_no_temporaries (lm_test_tmp_dir ());
  g_autoptr (LmImage) back = load_ok (path);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpint (back->opaque, ==, rt->kind != KIND_ALPHA);

  if (rt->kind == KIND_ALPHA && back->format == LM_FORMAT_RGBA8 && back->width == src->width
      && back->height == src->height)
    /* Say what went wrong in words for the first two differing pixels (e.g. colours that
     * came back multiplied by alpha). */
    for (guint y = 0, shown = 0; y < src->height && shown < 2; y++)
      for (guint x = 0; x < src->width && shown < 2; x++)
        {
          const guint8 *a = lm_test_pixel (src, x, y), *b = lm_test_pixel (back, x, y);
          if (memcmp (a, b, 4) != 0 && ++shown)
            g_test_message ("(%u, %u): saved (%u, %u, %u, %u), read (%u, %u, %u, %u)", x, y, a[0],
                            a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
        }
  if (rt->kind != KIND_GRAY || back->format == LM_FORMAT_GRAY8)
    {
      lm_test_assert_same_pixels (back, src);
      return;
    }
  /* A gray image read back as colour: the values must still be exact, R = G = B, opaque. */
  g_test_message ("%s: GRAY8 came back as %s", rt->ext, lm_format_name (back->format));
  g_assert_true (back->format == LM_FORMAT_RGBA8);
  g_assert_cmpuint (back->width, ==, src->width);
  g_assert_cmpuint (back->height, ==, src->height);
  LM_TEST_RETURN_IF_FAILED ();
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *p = lm_test_pixel (back, x, y);
        guint8 v = *lm_test_pixel (src, x, y);
        g_assert_cmpuint (p[0], ==, v);
        g_assert_cmpuint (p[1], ==, v);
        g_assert_cmpuint (p[2], ==, v);
        g_assert_cmpuint (p[3], ==, 255);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* PNG keeps one channel as one channel. */
static void
test_png_gray_stays_gray (void)
{
  g_autoptr (LmImage) gray = lm_test_random_gray (5, 4, 9);
  g_autofree char *path = tmp_path ("gray-format.png");
  save_ok (gray, path, 92);
  g_autoptr (LmImage) back = load_ok (path);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpstr (lm_format_name (back->format), ==, "gray8");
}

/* ---- JPEG -------------------------------------------------------------------------- */

/* A smooth picture with a different ramp in each channel, so that swapped channels or a
 * flipped image cannot pass: R = 4x, G = 5y, B = 40 + x + y (x < 64, y < 48). */
static LmImage *
smooth_rgba (void)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA8, 64, 48, 0xAB);
  for (guint y = 0; y < 48; y++)
    for (guint x = 0; x < 64; x++)
      {
        guint8 *p = lm_test_pixel (image, x, y);
        p[0] = 4 * x, p[1] = 5 * y, p[2] = 40 + x + y, p[3] = 255;
      }
  return image;
}

static double
mean_abs_diff (const LmImage *a, const LmImage *b, guint channels)
{
  g_assert_cmpuint (a->width, ==, b->width);
  g_assert_cmpuint (a->height, ==, b->height);
  guint ca = lm_format_channels (a->format), cb = lm_format_channels (b->format);
  double sum = 0.0;
  for (guint y = 0; y < a->height; y++)
    for (guint x = 0; x < a->width; x++)
      for (guint c = 0; c < channels; c++)
        sum += ABS ((int) lm_test_pixel (a, x, y)[c * (ca > 1)] - (int) lm_test_pixel (b, x, y)[c * (cb > 1)]);
  return sum / ((double) a->width * a->height * channels);
}

/* Quality 95 keeps a smooth picture within about one level on average; quality 10 is
 * visibly worse and smaller (so the option is honoured). Alpha is dropped: loads opaque. */
static void
test_jpeg_round_trip (void)
{
  g_autoptr (LmImage) src = smooth_rgba ();
  g_autofree char *path95 = tmp_path ("smooth95.jpg");
  g_autofree char *path10 = tmp_path ("smooth10.jpg");
  save_ok (src, path95, 95);
  save_ok (src, path10, 10);

  g_autoptr (LmImage) back95 = load_ok (path95);
  LM_TEST_RETURN_IF_FAILED ();
  g_autoptr (LmImage) back10 = load_ok (path10);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpstr (lm_format_name (back95->format), ==, "rgba8");
  g_assert_true (back95->opaque);
  for (guint y = 0; y < back95->height; y++)
    for (guint x = 0; x < back95->width; x++)
      {
        g_assert_cmpuint (lm_test_pixel (back95, x, y)[3], ==, 255);
        LM_TEST_RETURN_IF_FAILED ();
      }

  double err95 = mean_abs_diff (back95, src, 3), err10 = mean_abs_diff (back10, src, 3);
  g_test_message ("mean |d|: %.3f at quality 95, %.3f at quality 10", err95, err10);
  g_assert_cmpfloat (err95, <, 1.5);
  g_assert_cmpfloat (err10, >, err95);

  GStatBuf st95, st10;
  g_assert_cmpint (g_stat (path95, &st95), ==, 0);
  g_assert_cmpint (g_stat (path10, &st10), ==, 0);
  g_assert_cmpint (st10.st_size, <, st95.st_size);

  /* A corner check by hand, to rule out a flip: (63, 47) is R 252, G 235, B 150. */
  const guint8 *corner = lm_test_pixel (back95, 63, 47);
  g_assert_cmpint (ABS (corner[0] - 252), <=, 6);
  g_assert_cmpint (ABS (corner[1] - 235), <=, 6);
  g_assert_cmpint (ABS (corner[2] - 150), <=, 6);

  /* GRAY8 is written as a one-channel JPEG and read back as GRAY8. */
  g_autoptr (LmImage) gray = lm_test_image_new (LM_FORMAT_GRAY8, 64, 48, 0xAB);
  for (guint y = 0; y < 48; y++)
    for (guint x = 0; x < 64; x++)
      *lm_test_pixel (gray, x, y) = 2 * x + y;
  g_autofree char *gpath = tmp_path ("smooth-gray.jpg");
  save_ok (gray, gpath, 95);
  g_autoptr (LmImage) gback = load_ok (gpath);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpstr (lm_format_name (gback->format), ==, "gray8");
  g_assert_cmpfloat (mean_abs_diff (gback, gray, 1), <, 1.5);
}

/* ---- Radiance ---------------------------------------------------------------------- */

/* RGBE keeps 8 bits of mantissa under a shared exponent: each channel within 1 % of the
 * pixel's largest channel (one step is at most 1/128 of it). */
static void
radiance_round_trip (guint width, guint height)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA_F32, width, height, 0xAB);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        float *p = (float *) lm_test_pixel (src, x, y);
        /* From 1e-3 to about 1e4 over the image, in three different ratios. */
        float v = 1e-3f * powf (10.0f, 7.0f * (float) (y * width + x) / (float) (width * height));
        p[0] = v, p[1] = 0.5f * v, p[2] = 0.3f * v, p[3] = 1.0f;
      }
  float *black = (float *) lm_test_pixel (src, 0, 0);
  black[0] = black[1] = black[2] = 0.0f;
  float *red = (float *) lm_test_pixel (src, 1, 0);
  red[0] = 5.0f, red[1] = 0.0f, red[2] = 1.0f;

  g_autofree char *name = g_strdup_printf ("radiance-%ux%u.hdr", width, height);
  g_autofree char *path = tmp_path (name);
  save_ok (src, path, 92);
  g_autoptr (LmImage) back = load_ok (path);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpstr (lm_format_name (back->format), ==, "rgba-f32");
  g_assert_cmpuint (back->width, ==, width);
  g_assert_cmpuint (back->height, ==, height);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        const float *a = (const float *) lm_test_pixel (src, x, y);
        const float *b = (const float *) lm_test_pixel (back, x, y);
        float max = MAX (a[0], MAX (a[1], a[2]));
        for (int c = 0; c < 3; c++)
          {
            if (fabsf (a[c] - b[c]) > 0.01f * max)
              g_test_message ("(%u, %u) channel %d: %g became %g", x, y, c, a[c], b[c]);
            g_assert_cmpfloat (fabsf (a[c] - b[c]), <=, 0.01f * max);
          }
        g_assert_cmpfloat (b[3], ==, 1.0f);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

static void
test_radiance_round_trip (void)
{
  radiance_round_trip (16, 5); /* run-length encoded scanlines (8 ≤ width < 32768) */
  radiance_round_trip (5, 3);  /* flat scanlines */
}

/* 8-bit to .hdr and float to .png are refused before a file is made. */
static void
test_save_format_mismatch (void)
{
  g_autoptr (LmImage) rgba = lm_test_random_rgba (4, 4, 1, FALSE);
  g_autoptr (LmImage) hdr = lm_test_image_new (LM_FORMAT_RGBA_F32, 4, 4, 0);
  g_autofree char *hdr_path = tmp_path ("mismatch.hdr");
  g_autofree char *png_path = tmp_path ("mismatch.png");
  g_autofree char *xyz_path = tmp_path ("unknown.xyz");
  GError *error = NULL;

  g_assert_false (lm_io_save (rgba, hdr_path, NULL, &error));
  assert_error_names_file (error, hdr_path);
  g_clear_error (&error);
  g_assert_false (g_file_test (hdr_path, G_FILE_TEST_EXISTS));

  g_assert_false (lm_io_save (hdr, png_path, NULL, &error));
  assert_error_names_file (error, png_path);
  g_clear_error (&error);
  g_assert_false (g_file_test (png_path, G_FILE_TEST_EXISTS));

  g_assert_false (lm_io_save (rgba, xyz_path, NULL, &error));
  assert_error_names_file (error, xyz_path);
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (g_file_test (xyz_path, G_FILE_TEST_EXISTS));
  assert_no_temporaries (lm_test_tmp_dir ());
}

/* ---- failed saves ------------------------------------------------------------------ */

static void
test_save_missing_folder (void)
{
  g_autofree char *dir = tmp_path ("no-such-folder");
  g_autofree char *path = g_build_filename (dir, "out.png", NULL);
  g_autoptr (LmImage) image = lm_test_random_rgba (8, 8, 5, FALSE);
  GError *error = NULL;
  g_assert_false (lm_io_save (image, path, NULL, &error));
  assert_error_names_file (error, path);
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_IO);
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));

  /* lm_io_check_output says the same before any work is done. */
  g_assert_false (lm_io_check_output (path, &error));
  assert_error_names_file (error, path);
  g_clear_error (&error);
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}

static void
test_check_output (void)
{
  GError *error = NULL;
  g_autofree char *ok_path = tmp_path ("check-ok.png");
  g_assert_true (lm_io_check_output (ok_path, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (ok_path, G_FILE_TEST_EXISTS)); /* the probe is removed */

  g_autofree char *dir_path = tmp_path ("a-folder.png");
  g_assert_cmpint (g_mkdir (dir_path, 0755), ==, 0);
  g_assert_false (lm_io_check_output (dir_path, &error));
  assert_error_names_file (error, dir_path);
  g_clear_error (&error);

  g_autofree char *bad_ext = tmp_path ("picture.gifx");
  g_assert_false (lm_io_check_output (bad_ext, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
  assert_no_temporaries (lm_test_tmp_dir ());
}

/* Saving over an existing file replaces it whole, and the new file gets the mode a plain
 * creat () would give (0666 less the umask), not the 0600 of the temporary file. */
static void
test_save_replaces_existing (void)
{
  g_autoptr (LmImage) first = lm_test_random_rgba (40, 30, 1, FALSE);
  g_autoptr (LmImage) second = lm_test_random_rgba (7, 5, 2, TRUE);
  g_autofree char *path = tmp_path ("replaced.png");
  save_ok (first, path, 92);
  save_ok (second, path, 92);
  g_autoptr (LmImage) back = load_ok (path);
  LM_TEST_RETURN_IF_FAILED ();
  lm_test_assert_same_pixels (back, second);

  mode_t mask = umask (022);
  umask (mask);
  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0666 & ~mask);
  assert_no_temporaries (lm_test_tmp_dir ());
}

/* A save that fails half-way (here: the file size limit, EFBIG, after the temporary file was
 * created) reports an error naming the file, removes its temporary file and leaves an
 * existing file of that name as it was. */
static void
test_failed_save_leaves_nothing (void)
{
  g_autofree char *dir = tmp_path ("fsize");
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_autoptr (LmImage) noise = lm_test_random_rgba (256, 256, 77, FALSE);
  g_autoptr (LmImage) hdr = lm_test_image_new (LM_FORMAT_RGBA_F32, 256, 256, 0);
  for (guint y = 0; y < 256; y++)
    for (guint x = 0; x < 256; x++)
      {
        float *p = (float *) lm_test_pixel (hdr, x, y);
        const guint8 *n = lm_test_pixel (noise, x, y);
        p[0] = n[0] * 0.37f, p[1] = n[1] * 1.9f, p[2] = n[2] * 0.011f, p[3] = 1.0f;
      }

  struct rlimit saved;
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  void (*saved_handler) (int) = signal (SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 4096; /* noise does not compress: every format needs far more */
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);

  const char *names[] = { "noise.png", "noise.jpg", "noise.tif", "noise.hdr", "keep.png" };
  gboolean saved_ok[G_N_ELEMENTS (names)];
  GError *errors[G_N_ELEMENTS (names)] = { NULL };
  g_autofree char *keep = g_build_filename (dir, "keep.png", NULL);
  g_assert_true (g_file_set_contents (keep, "old contents", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      const LmImage *image = g_str_has_suffix (names[i], ".hdr") ? hdr : noise;
      saved_ok[i] = lm_io_save (image, path, NULL, &errors[i]);
    }

  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, saved_handler);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      if (saved_ok[i])
        g_test_message ("%s saved despite the 4 KiB limit", names[i]);
      g_assert_false (saved_ok[i]);
      assert_error_names_file (errors[i], path);
      g_clear_error (&errors[i]);
      if (!g_str_equal (names[i], "keep.png"))
        g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (keep, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "old contents");
  assert_no_temporaries (dir);
}

/* ---- loading what is not an image -------------------------------------------------- */

static void
assert_load_fails (const char *path, LmErrorCode code)
{
  GError *error = NULL;
  LmImage *image = lm_io_load (path, lm_allocator_host (), &error);
  if (image != NULL)
    g_test_message ("%s loaded as %ux%u", path, image->width, image->height);
  g_assert_null (image);
  g_clear_pointer (&image, lm_image_unref);
  assert_error_names_file (error, path);
  LM_TEST_RETURN_IF_FAILED ();
  if (error->code != (int) code)
    g_test_message ("%s: '%s'", path, error->message);
  g_assert_cmpint (error->code, ==, code);
  g_clear_error (&error);
}

static void
test_load_bad_files (void)
{
  g_autofree char *empty = lm_test_write_tmp ("empty.jpg", "", 0);
  assert_load_fails (empty, LM_ERROR_FORMAT);

  /* The first half of a real JPEG: the header is fine, the pixel data ends early. */
  g_autofree char *real = g_build_filename (lm_test_data_dir (), "hdr", "forest", "exposure01.jpg", NULL);
  g_autofree char *bytes = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (real, &bytes, &len, NULL));
  g_autofree char *half = lm_test_write_tmp ("half.jpg", bytes, len / 2);
  assert_load_fails (half, LM_ERROR_FORMAT);

  /* Only the first 300 bytes: not even a whole header. */
  g_autofree char *head = lm_test_write_tmp ("head-only.jpg", bytes, 300);
  assert_load_fails (head, LM_ERROR_FORMAT);

  const char text[] = "This is a shopping list, not a picture.\nmilk\nbread\n";
  g_autofree char *notes = lm_test_write_tmp ("notes.png", text, sizeof text - 1);
  assert_load_fails (notes, LM_ERROR_FORMAT);

  guint8 garbage[1000];
  for (guint i = 0; i < sizeof garbage; i++)
    garbage[i] = (guint8) (i * 7 + 3) | 0x80;
  g_autofree char *bin = lm_test_write_tmp ("garbage.jpg", garbage, sizeof garbage);
  assert_load_fails (bin, LM_ERROR_FORMAT);

  g_autofree char *folder = tmp_path ("folder.jpg");
  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  assert_load_fails (folder, LM_ERROR_IO);

  g_autofree char *missing = tmp_path ("missing-photo.jpg");
  assert_load_fails (missing, LM_ERROR_IO);
}

/* A PNG cut in half is damaged too, not a picture with a gray bottom. */
static void
test_load_truncated_png (void)
{
  g_autoptr (LmImage) noise = lm_test_random_rgba (64, 64, 5, FALSE);
  g_autofree char *whole = tmp_path ("whole.png");
  save_ok (noise, whole, 92);
  g_autofree char *bytes = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (whole, &bytes, &len, NULL));
  g_autofree char *half = lm_test_write_tmp ("half.png", bytes, len / 2);
  assert_load_fails (half, LM_ERROR_FORMAT);
}

/* ---- EXIF -------------------------------------------------------------------------- */

/* ExposureTime of every JPEG of the corpus's HDR stacks equals the seconds their
 * exposures.txt lists (relative 1e-6: the file rounds 1/30 to 0.033333333). */
static void
test_exif_exposure_time (void)
{
  g_autofree char *root = g_build_filename (lm_test_data_dir (), "hdr", NULL);
  g_autoptr (GDir) stacks = g_dir_open (root, 0, NULL);
  g_assert_nonnull (stacks);
  guint checked = 0;
  for (const char *stack; (stack = g_dir_read_name (stacks)) != NULL;)
    {
      g_autofree char *dir = g_build_filename (root, stack, NULL);
      g_autofree char *list = g_build_filename (dir, "exposures.txt", NULL);
      g_autofree char *text = NULL;
      if (!g_file_get_contents (list, &text, NULL, NULL))
        continue;
      g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_auto (GStrv) fields = g_strsplit_set (g_strstrip (lines[i]), " \t", 2);
          if (fields[0] == NULL || fields[0][0] == '\0' || fields[0][0] == '#')
            continue;
          g_assert_nonnull (fields[1]);
          if (!g_str_has_suffix (fields[0], ".jpg"))
            continue; /* PNG stacks carry no EXIF */
          double want = g_ascii_strtod (fields[1], NULL);
          g_autofree char *path = g_build_filename (dir, fields[0], NULL);
          double got = -1.0;
          GError *error = NULL;
          g_assert_true (lm_exif_exposure_time (path, &got, &error));
          g_assert_no_error (error);
          if (fabs (got - want) > 1e-6 * want)
            g_test_message ("%s: EXIF %.9g s, exposures.txt %.9g s", path, got, want);
          g_assert_cmpfloat (fabs (got - want), <=, 1e-6 * want);
          checked++;
        }
    }
  g_assert_cmpuint (checked, >=, 5);

  /* A file without EXIF: an error naming it. */
  g_autoptr (LmImage) image = lm_test_random_rgba (4, 4, 1, FALSE);
  g_autofree char *png = tmp_path ("no-exif.png");
  save_ok (image, png, 92);
  double seconds = -1.0;
  GError *error = NULL;
  g_assert_false (lm_exif_exposure_time (png, &seconds, &error));
  assert_error_names_file (error, png);
  g_clear_error (&error);
}

/* An APP1 payload ("Exif\0\0" + TIFF) made with libexif: Orientation in IFD 0 (omitted when
 * 0), PixelX/YDimension when WIDTH is non-zero, and a fake thumbnail when asked. */
static GBytes *
make_exif (int orientation, ExifByteOrder order, guint width, guint height, gboolean thumbnail)
{
  ExifData *ed = exif_data_new ();
  exif_data_set_data_type (ed, EXIF_DATA_TYPE_COMPRESSED);
  exif_data_set_byte_order (ed, order);
  if (orientation != 0)
    {
      ExifEntry *e = exif_entry_new ();
      exif_content_add_entry (ed->ifd[EXIF_IFD_0], e);
      exif_entry_initialize (e, EXIF_TAG_ORIENTATION);
      exif_set_short (e->data, order, (ExifShort) orientation);
      exif_entry_unref (e);
    }
  if (width != 0)
    {
      const ExifTag tags[] = { EXIF_TAG_PIXEL_X_DIMENSION, EXIF_TAG_PIXEL_Y_DIMENSION };
      const guint values[] = { width, height };
      for (int i = 0; i < 2; i++)
        {
          ExifEntry *e = exif_entry_new ();
          exif_content_add_entry (ed->ifd[EXIF_IFD_EXIF], e);
          exif_entry_initialize (e, tags[i]);
          if (e->format == EXIF_FORMAT_LONG)
            exif_set_long (e->data, order, values[i]);
          else
            exif_set_short (e->data, order, (ExifShort) values[i]);
          exif_entry_unref (e);
        }
    }
  if (thumbnail)
    {
      static const guint8 fake_jpeg[] = { 0xFF, 0xD8, 0xFF, 0xDB, 1, 2, 3, 4, 5, 0xFF, 0xD9 };
      ed->data = malloc (sizeof fake_jpeg);
      memcpy (ed->data, fake_jpeg, sizeof fake_jpeg);
      ed->size = sizeof fake_jpeg;
    }
  unsigned char *buf = NULL;
  unsigned int len = 0;
  exif_data_save_data (ed, &buf, &len);
  exif_data_unref (ed);
  g_assert_nonnull (buf);
  g_assert_cmpmem (buf, 6, "Exif\0\0", 6);
  GBytes *bytes = g_bytes_new (buf, len);
  free (buf);
  return bytes;
}

/* The value of a SHORT or LONG tag in BLOCK, or -1 when absent. */
static long
exif_tag_value (GBytes *block, ExifIfd ifd, ExifTag tag)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (block, &len);
  ExifData *ed = exif_data_new_from_data (data, (unsigned int) len);
  g_assert_nonnull (ed);
  long value = -1;
  ExifEntry *e = exif_content_get_entry (ed->ifd[ifd], tag);
  if (e != NULL && e->format == EXIF_FORMAT_SHORT)
    value = exif_get_short (e->data, exif_data_get_byte_order (ed));
  else if (e != NULL && e->format == EXIF_FORMAT_LONG)
    value = (long) exif_get_long (e->data, exif_data_get_byte_order (ed));
  exif_data_unref (ed);
  return value;
}

static void
test_exif_orientation_of_block (void)
{
  for (int o = 1; o <= 8; o++)
    {
      g_autoptr (GBytes) intel = make_exif (o, EXIF_BYTE_ORDER_INTEL, 0, 0, FALSE);
      g_autoptr (GBytes) motorola = make_exif (o, EXIF_BYTE_ORDER_MOTOROLA, 0, 0, FALSE);
      g_assert_cmpint (lm_exif_orientation (intel), ==, o);
      g_assert_cmpint (lm_exif_orientation (motorola), ==, o);
    }
  /* Absent, out of range, unreadable: 1. */
  g_autoptr (GBytes) none = make_exif (0, EXIF_BYTE_ORDER_INTEL, 0, 0, FALSE);
  g_autoptr (GBytes) nine = make_exif (9, EXIF_BYTE_ORDER_INTEL, 0, 0, FALSE);
  g_autoptr (GBytes) junk = g_bytes_new_static ("Exif\0\0this is not TIFF at all", 29);
  g_assert_cmpint (lm_exif_orientation (NULL), ==, 1);
  g_assert_cmpint (lm_exif_orientation (none), ==, 1);
  g_assert_cmpint (lm_exif_orientation (nine), ==, 1);
  g_assert_cmpint (lm_exif_orientation (junk), ==, 1);
}

/* Export: Orientation becomes 1, the pixel dimensions become the exported ones, the
 * thumbnail (which shows the unedited photo) is gone; both byte orders. */
static void
test_exif_for_export (void)
{
  const ExifByteOrder orders[] = { EXIF_BYTE_ORDER_INTEL, EXIF_BYTE_ORDER_MOTOROLA };
  for (guint i = 0; i < G_N_ELEMENTS (orders); i++)
    {
      g_autoptr (GBytes) block = make_exif (6, orders[i], 4000, 3000, TRUE);
      g_assert_cmpint (lm_exif_orientation (block), ==, 6);
      g_assert_cmpint (exif_tag_value (block, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION), ==, 4000);

      g_autoptr (GBytes) out = lm_exif_for_export (block, 320, 240);
      g_assert_nonnull (out);
      LM_TEST_RETURN_IF_FAILED ();
      gsize len = 0;
      const guint8 *data = g_bytes_get_data (out, &len);
      g_assert_cmpuint (len, >, 6);
      g_assert_cmpmem (data, 6, "Exif\0\0", 6);
      g_assert_cmpint (lm_exif_orientation (out), ==, 1);
      g_assert_cmpint (exif_tag_value (out, EXIF_IFD_0, EXIF_TAG_ORIENTATION), ==, 1);
      g_assert_cmpint (exif_tag_value (out, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION), ==, 320);
      g_assert_cmpint (exif_tag_value (out, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION), ==, 240);

      ExifData *ed = exif_data_new_from_data (data, (unsigned int) len);
      g_assert_nonnull (ed);
      LM_TEST_RETURN_IF_FAILED ();
      g_assert_cmpuint (ed->size, ==, 0);
      g_assert_null (ed->data);
      exif_data_unref (ed);
    }
  g_assert_null (lm_exif_for_export (NULL, 10, 10));
  g_autoptr (GBytes) junk = g_bytes_new_static ("not exif", 8);
  g_assert_null (lm_exif_for_export (junk, 10, 10));
}

/* A 32×16 picture, mid gray, with a coloured 8×8 block in each corner (whole JPEG blocks,
 * so the colours survive compression): top-left red, top-right green, bottom-left blue,
 * bottom-right white. */
enum { TL, TR, BL, BR };
static const guint8 corner_colour[4][3] = {
  { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 255, 255, 255 },
};

static LmImage *
corners_image (void)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA8, 32, 16, 0xAB);
  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < 32; x++)
      {
        guint8 *p = lm_test_pixel (image, x, y);
        int corner = -1;
        if (y < 8 && x < 8)
          corner = TL;
        else if (y < 8 && x >= 24)
          corner = TR;
        else if (y >= 8 && x < 8)
          corner = BL;
        else if (y >= 8 && x >= 24)
          corner = BR;
        if (corner >= 0)
          memcpy (p, corner_colour[corner], 3);
        else
          memset (p, 128, 3);
        p[3] = 255;
      }
  return image;
}

/* Writes IMAGE as a baseline JPEG (quality 100, no chroma subsampling) with APP1 = EXIF,
 * through libjpeg directly, as a camera would. */
static void
write_jpeg_with_exif (const char *path, const LmImage *image, GBytes *exif)
{
  FILE *f = fopen (path, "wb");
  g_assert_nonnull (f);
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr jerr;
  cinfo.err = jpeg_std_error (&jerr);
  jpeg_create_compress (&cinfo);
  jpeg_stdio_dest (&cinfo, f);
  cinfo.image_width = image->width;
  cinfo.image_height = image->height;
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults (&cinfo);
  jpeg_set_quality (&cinfo, 100, TRUE);
  cinfo.comp_info[0].h_samp_factor = cinfo.comp_info[0].v_samp_factor = 1;
  jpeg_start_compress (&cinfo, TRUE);
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (exif, &len);
  jpeg_write_marker (&cinfo, JPEG_APP0 + 1, data, (unsigned int) len);
  guint8 *rgb = g_new (guint8, image->width * 3);
  for (guint y = 0; y < image->height; y++)
    {
      for (guint x = 0; x < image->width; x++)
        memcpy (rgb + 3 * x, lm_test_pixel (image, x, y), 3);
      JSAMPROW row = rgb;
      jpeg_write_scanlines (&cinfo, &row, 1);
    }
  jpeg_finish_compress (&cinfo);
  jpeg_destroy_compress (&cinfo);
  g_free (rgb);
  g_assert_cmpint (fclose (f), ==, 0);
}

/* Which stored corner each displayed corner shows, per orientation (from the EXIF
 * definitions, as in test-image's letters):
 *   1: as stored            2: mirrored (TL↔TR, BL↔BR)     3: turned 180° (TL↔BR, TR↔BL)
 *   4: upside down (TL↔BL)  5: transposed (TR↔BL)          6: turn 90° clockwise: the stored
 *   top-left goes to the top-right, top-right to bottom-right, bottom-right to bottom-left
 *   7: transversed (TL↔BR)  8: turn 90° anticlockwise: stored top-right goes top-left, … */
static const int shows[9][4] = {
  /* displayed:  TL  TR  BL  BR */
  [1] = { TL, TR, BL, BR },
  [2] = { TR, TL, BR, BL },
  [3] = { BR, BL, TR, TL },
  [4] = { BL, BR, TL, TR },
  [5] = { TL, BL, TR, BR },
  [6] = { BL, TL, BR, TR },
  [7] = { BR, TR, BL, TL },
  [8] = { TR, BR, TL, BL },
};

static void
assert_corners (const LmImage *image, int orientation)
{
  const guint w = image->width, h = image->height;
  const guint at[4][2] = { { 3, 3 }, { w - 4, 3 }, { 3, h - 4 }, { w - 4, h - 4 } };
  for (int d = 0; d < 4; d++)
    {
      const guint8 *p = lm_test_pixel (image, at[d][0], at[d][1]);
      const guint8 *want = corner_colour[shows[orientation][d]];
      for (int c = 0; c < 3; c++)
        {
          if (ABS (p[c] - want[c]) > 8)
            g_test_message ("orientation %d, displayed corner %d: (%u, %u, %u)", orientation, d,
                            p[0], p[1], p[2]);
          g_assert_cmpint (ABS (p[c] - want[c]), <=, 8);
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
}

/* Loading applies the orientation: sides swap for 5..8 and each corner lands where the
 * rotation puts it. Saving the upright result writes Orientation 1, so it reads back the
 * same way round (no second turn). */
static void
test_exif_orientation_on_load (void)
{
  g_autoptr (LmImage) stored = corners_image ();
  for (int o = 1; o <= 8; o++)
    {
      ExifByteOrder order = o % 2 ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL;
      g_autoptr (GBytes) exif = make_exif (o, order, 32, 16, FALSE);
      g_autofree char *name = g_strdup_printf ("orientation-%d.jpg", o);
      g_autofree char *path = tmp_path (name);
      write_jpeg_with_exif (path, stored, exif);

      g_autoptr (LmImage) loaded = load_ok (path);
      LM_TEST_RETURN_IF_FAILED ();
      gboolean swap = o >= 5;
      g_assert_cmpuint (loaded->width, ==, swap ? 16 : 32);
      g_assert_cmpuint (loaded->height, ==, swap ? 32 : 16);
      assert_corners (loaded, o);
      g_assert_nonnull (loaded->exif);
      g_assert_cmpint (lm_exif_orientation (loaded->exif), ==, o);

      g_autofree char *again_name = g_strdup_printf ("orientation-%d-exported.jpg", o);
      g_autofree char *again = tmp_path (again_name);
      save_ok (loaded, again, 95);
      g_autoptr (LmImage) reloaded = load_ok (again);
      LM_TEST_RETURN_IF_FAILED ();
      g_assert_cmpuint (reloaded->width, ==, loaded->width);
      g_assert_cmpuint (reloaded->height, ==, loaded->height);
      assert_corners (reloaded, o);
      g_assert_nonnull (reloaded->exif);
      g_assert_cmpint (lm_exif_orientation (reloaded->exif), ==, 1);
      /* The exported dimensions are the upright ones. */
      g_assert_cmpint (exif_tag_value (reloaded->exif, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION),
                       ==, loaded->width);
      g_assert_cmpint (exif_tag_value (reloaded->exif, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION),
                       ==, loaded->height);
    }
}

/* Which orientation a file's metadata gives: EXIF's where its block states one, else XMP's
 * tiff:Orientation (under whatever prefix binds the namespace, attribute or element), else 1;
 * a packet that is not well-formed, a value out of range or another namespace's says nothing. */
static void
test_orientation_exif_then_xmp (void)
{
#define XMP(description) \
  "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">" \
  description "</rdf:RDF></x:xmpmeta>"
#define TIFF_NS "\"http://ns.adobe.com/tiff/1.0/\""
  static const struct {
    int exif; /* 0: a block without Orientation; -1: no block */
    const char *xmp;
    int want;
  } cases[] = {
    { 6, NULL, 6 },
    { -1, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=" TIFF_NS " tiff:Orientation=\"8\"/>"), 8 },
    { 0, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=" TIFF_NS "><tiff:Orientation> 3 </tiff:Orientation>"
              "</rdf:Description>"), 3 },
    { -1, XMP ("<rdf:Description rdf:about=\"\" xmlns:t=" TIFF_NS " t:Orientation=\"7\"/>"), 7 },
    { 1, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=" TIFF_NS " tiff:Orientation=\"6\"/>"), 1 },
    { 3, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=" TIFF_NS " tiff:Orientation=\"6\"/>"), 3 },
    { 9, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=" TIFF_NS " tiff:Orientation=\"5\"/>"), 5 },
    { -1, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=" TIFF_NS " tiff:Orientation=\"9\"/>"), 1 },
    { -1, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=" TIFF_NS " tiff:Orientation=\"6x\"/>"), 1 },
    { -1, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=\"http://example.com/\" tiff:Orientation=\"6\"/>"), 1 },
    { -1, XMP ("<rdf:Description rdf:about=\"\" xmlns:tiff=" TIFF_NS " tiff:Orientation=\"6\">"), 1 },
  };
#undef XMP
#undef TIFF_NS
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (LmImage) image = lm_image_new (LM_FORMAT_RGBA8, 4, 2, lm_allocator_host (), NULL);
      if (cases[i].exif >= 0)
        image->exif = make_exif (cases[i].exif, EXIF_BYTE_ORDER_INTEL, 4, 2, FALSE);
      if (cases[i].xmp)
        image->xmp = g_bytes_new_static (cases[i].xmp, strlen (cases[i].xmp));
      if (lm_io_orientation (image) != cases[i].want)
        g_test_message ("case %u: EXIF %d, XMP %s", i, cases[i].exif, cases[i].xmp);
      g_assert_cmpint (lm_io_orientation (image), ==, cases[i].want);
    }
}

/* ---- EXIF in TIFF ------------------------------------------------------------------ */

/* The text of an ASCII entry as the file stores it, up to its first NUL; NULL when absent. */
static char *
entry_text (ExifData *ed, ExifIfd ifd, ExifTag tag)
{
  ExifEntry *e = exif_content_get_entry (ed->ifd[ifd], tag);
  if (e == NULL || e->format != EXIF_FORMAT_ASCII)
    return NULL;
  return g_strndup ((const char *) e->data, e->size);
}

/* The TIFF's EXIF (or GPS) sub-IFD made current; FALSE when the IFD 0 has no pointer to it. */
static gboolean
tiff_read_sub_ifd (TIFF *tif, ttag_t pointer_tag)
{
  guint64 offset = 0;
  if (!TIFFGetField (tif, pointer_tag, &offset) || offset == 0)
    return FALSE;
  return pointer_tag == TIFFTAG_GPSIFD ? TIFFReadGPSDirectory (tif, offset)
                                       : TIFFReadEXIFDirectory (tif, offset);
}

/* A camera JPEG exported to TIFF: the TIFF's IFD 0 and EXIF sub-IFD, read with libtiff, hold
 * the values libexif reads from the JPEG; Orientation is 1 and PixelXDimension the new width. */
static void
test_tiff_keeps_exif (void)
{
  g_autofree char *src = g_build_filename (lm_test_data_dir (), "photos", "forest-path.jpg", NULL);
  ExifData *ed = exif_data_new_from_file (src);
  g_assert_nonnull (ed);
  LM_TEST_RETURN_IF_FAILED ();
  ExifByteOrder order = exif_data_get_byte_order (ed);
  g_autofree char *make = entry_text (ed, EXIF_IFD_0, EXIF_TAG_MAKE);
  g_autofree char *model = entry_text (ed, EXIF_IFD_0, EXIF_TAG_MODEL);
  g_autofree char *taken = entry_text (ed, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL);
  ExifContent *exif_ifd = ed->ifd[EXIF_IFD_EXIF];
  ExifEntry *exposure_entry = exif_content_get_entry (exif_ifd, EXIF_TAG_EXPOSURE_TIME);
  ExifEntry *iso_entry = exif_content_get_entry (exif_ifd, EXIF_TAG_ISO_SPEED_RATINGS);
  g_assert_nonnull (make);
  g_assert_nonnull (model);
  g_assert_nonnull (taken);
  g_assert_nonnull (exposure_entry);
  g_assert_nonnull (iso_entry);
  LM_TEST_RETURN_IF_FAILED (exif_data_unref (ed));
  ExifRational r = exif_get_rational (exposure_entry->data, order);
  double exposure = (double) r.numerator / r.denominator;
  guint16 iso = exif_get_short (iso_entry->data, order);
  exif_data_unref (ed);

  g_autoptr (LmImage) image = load_ok (src);
  g_autofree char *out = tmp_path ("camera.tif");
  save_ok (image, out, 0);

  TIFF *tif = TIFFOpen (out, "r");
  g_assert_nonnull (tif);
  LM_TEST_RETURN_IF_FAILED ();
  char *got_make = NULL, *got_model = NULL, *got_taken = NULL;
  guint16 orientation = 0, iso_count = 0, *got_iso = NULL;
  float got_exposure = 0;
  guint32 got_width = 0;
  g_assert_true (TIFFGetField (tif, TIFFTAG_MAKE, &got_make));
  g_assert_cmpstr (got_make, ==, make);
  g_assert_true (TIFFGetField (tif, TIFFTAG_MODEL, &got_model));
  g_assert_cmpstr (got_model, ==, model);
  g_assert_true (TIFFGetField (tif, TIFFTAG_ORIENTATION, &orientation));
  g_assert_cmpint (orientation, ==, ORIENTATION_TOPLEFT);
  g_assert_true (tiff_read_sub_ifd (tif, TIFFTAG_EXIFIFD));
  LM_TEST_RETURN_IF_FAILED (TIFFClose (tif));
  /* libtiff keeps EXIF rationals as float: 1/15 comes back within float precision. */
  g_assert_true (TIFFGetField (tif, EXIFTAG_EXPOSURETIME, &got_exposure));
  g_test_message ("ExposureTime: JPEG %u/%u = %.9g s, TIFF %.9g s", r.numerator, r.denominator,
                  exposure, got_exposure);
  g_assert_cmpfloat_with_epsilon (got_exposure, exposure, exposure * 1e-6);
  g_assert_true (TIFFGetField (tif, EXIFTAG_DATETIMEORIGINAL, &got_taken));
  g_assert_cmpstr (got_taken, ==, taken);
  g_assert_true (TIFFGetField (tif, EXIFTAG_ISOSPEEDRATINGS, &iso_count, &got_iso));
  g_assert_cmpint (iso_count, ==, 1);
  if (iso_count == 1)
    g_assert_cmpint (got_iso[0], ==, iso);
  g_assert_true (TIFFGetField (tif, EXIFTAG_PIXELXDIMENSION, &got_width));
  g_assert_cmpint (got_width, ==, image->width);
  TIFFClose (tif);
}

static void
add_entry (ExifData *ed, ExifIfd ifd, ExifTag tag, ExifFormat format, guint n, const void *data)
{
  ExifEntry *e = exif_entry_new ();
  e->tag = tag;
  e->format = format;
  e->components = n;
  e->size = exif_format_get_size (format) * n;
  e->data = malloc (e->size); /* freed by libexif's default allocator, with free () */
  memcpy (e->data, data, e->size);
  exif_content_add_entry (ed->ifd[ifd], e);
  exif_entry_unref (e);
}

static void
add_rationals (ExifData *ed, ExifIfd ifd, ExifTag tag, guint n, const ExifRational *values)
{
  guint8 data[8 * 4];
  g_assert_cmpuint (n, <=, 4);
  for (guint i = 0; i < n; i++)
    exif_set_rational (data + 8 * i, exif_data_get_byte_order (ed), values[i]);
  add_entry (ed, ifd, tag, EXIF_FORMAT_RATIONAL, n, data);
}

static void
add_text (ExifData *ed, ExifIfd ifd, ExifTag tag, const char *text)
{
  add_entry (ed, ifd, tag, EXIF_FORMAT_ASCII, (guint) strlen (text) + 1, text);
}

/* GPS goes to a GPS sub-IFD; entries libtiff cannot take (a zero denominator) or that do not
 * belong in a TIFF (MakerNote, IFD 0's YCbCrPositioning) are left out without failing the
 * export, in both byte orders; the pixels survive the extra directories. */
static void
test_tiff_exif_gps_and_odd_entries (void)
{
  const ExifByteOrder orders[] = { EXIF_BYTE_ORDER_INTEL, EXIF_BYTE_ORDER_MOTOROLA };
  for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
    {
      ExifData *ed = exif_data_new ();
      exif_data_set_data_type (ed, EXIF_DATA_TYPE_COMPRESSED);
      exif_data_set_byte_order (ed, orders[o]);
      const ExifRational zero_den = { 1, 0 }, f_number = { 28, 10 };
      const ExifRational latitude[3] = { { 48, 1 }, { 51, 1 }, { 2406, 100 } };
      const guint8 version[4] = { 2, 3, 0, 0 }, maker_note[6] = { 'L', 'm', 0, 1, 2, 3 };
      guint8 ycbcr[2];
      exif_set_short (ycbcr, orders[o], 2);
      add_text (ed, EXIF_IFD_0, EXIF_TAG_MAKE, "Lumen test");
      add_entry (ed, EXIF_IFD_0, EXIF_TAG_YCBCR_POSITIONING, EXIF_FORMAT_SHORT, 1, ycbcr);
      add_rationals (ed, EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_TIME, 1, &zero_den);
      add_rationals (ed, EXIF_IFD_EXIF, EXIF_TAG_FNUMBER, 1, &f_number);
      add_entry (ed, EXIF_IFD_EXIF, EXIF_TAG_MAKER_NOTE, EXIF_FORMAT_UNDEFINED, sizeof maker_note,
                 maker_note);
      add_entry (ed, EXIF_IFD_GPS, EXIF_TAG_GPS_VERSION_ID, EXIF_FORMAT_BYTE, 4, version);
      add_text (ed, EXIF_IFD_GPS, EXIF_TAG_GPS_LATITUDE_REF, "N");
      add_rationals (ed, EXIF_IFD_GPS, EXIF_TAG_GPS_LATITUDE, 3, latitude);
      unsigned char *buf = NULL;
      unsigned int len = 0;
      exif_data_save_data (ed, &buf, &len);
      exif_data_unref (ed);
      g_assert_nonnull (buf);

      g_autoptr (LmImage) image = lm_test_random_rgba (37, 23, 7 + o, FALSE);
      image->exif = g_bytes_new (buf, len);
      free (buf);
      g_autofree char *out = tmp_path (o == 0 ? "gps-intel.tif" : "gps-motorola.tif");
      save_ok (image, out, 0);
      g_autoptr (LmImage) back = load_ok (out);
      lm_test_assert_same_pixels (image, back);

      TIFF *tif = TIFFOpen (out, "r");
      g_assert_nonnull (tif);
      LM_TEST_RETURN_IF_FAILED ();
      char *make = NULL, *ref = NULL;
      guint16 positioning = 0, count = 0;
      float got_f = 0, exposure = 0;
      double *got_latitude = NULL;
      guint8 *got_version = NULL, *note = NULL;
      g_assert_true (TIFFGetField (tif, TIFFTAG_MAKE, &make));
      g_assert_cmpstr (make, ==, "Lumen test");
      g_assert_false (TIFFGetField (tif, TIFFTAG_YCBCRPOSITIONING, &positioning));
      g_assert_true (tiff_read_sub_ifd (tif, TIFFTAG_EXIFIFD));
      LM_TEST_RETURN_IF_FAILED (TIFFClose (tif));
      g_assert_true (TIFFGetField (tif, EXIFTAG_FNUMBER, &got_f));
      g_assert_cmpfloat_with_epsilon (got_f, 2.8, 1e-6);
      g_assert_false (TIFFGetField (tif, EXIFTAG_EXPOSURETIME, &exposure));
      g_assert_false (TIFFGetField (tif, EXIFTAG_MAKERNOTE, &count, &note));
      TIFFSetDirectory (tif, 0);
      g_assert_true (tiff_read_sub_ifd (tif, TIFFTAG_GPSIFD));
      LM_TEST_RETURN_IF_FAILED (TIFFClose (tif));
      g_assert_true (TIFFGetField (tif, GPSTAG_VERSIONID, &got_version));
      g_assert_nonnull (got_version);
      if (got_version != NULL)
        g_assert_cmpmem (got_version, 4, version, 4);
      g_assert_true (TIFFGetField (tif, GPSTAG_LATITUDEREF, &ref));
      g_assert_cmpstr (ref, ==, "N");
      g_assert_true (TIFFGetField (tif, GPSTAG_LATITUDE, &got_latitude));
      g_assert_nonnull (got_latitude);
      for (guint i = 0; got_latitude != NULL && i < 3; i++)
        {
          double want = (double) latitude[i].numerator / latitude[i].denominator;
          g_assert_cmpfloat_with_epsilon (got_latitude[i], want, 1e-9);
        }
      TIFFClose (tif);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  static const RoundTrip round_trips[] = {
    { "png", KIND_OPAQUE }, { "png", KIND_ALPHA }, { "png", KIND_GRAY },
    { "tif", KIND_OPAQUE }, { "tif", KIND_ALPHA }, { "tif", KIND_GRAY },
  };
  for (guint i = 0; i < G_N_ELEMENTS (round_trips); i++)
    {
      g_autofree char *name = g_strdup_printf ("/io/%s/round-trip-%s", round_trips[i].ext,
                                               kind_names[round_trips[i].kind]);
      g_test_add_data_func (name, &round_trips[i], test_lossless_round_trip);
    }
  g_test_add_func ("/io/png/gray-stays-gray", test_png_gray_stays_gray);
  g_test_add_func ("/io/jpeg/round-trip", test_jpeg_round_trip);
  g_test_add_func ("/io/radiance/round-trip", test_radiance_round_trip);
  g_test_add_func ("/io/save/format-mismatch", test_save_format_mismatch);
  g_test_add_func ("/io/save/missing-folder", test_save_missing_folder);
  g_test_add_func ("/io/save/check-output", test_check_output);
  g_test_add_func ("/io/save/replaces-existing", test_save_replaces_existing);
  g_test_add_func ("/io/save/failure-leaves-nothing", test_failed_save_leaves_nothing);
  g_test_add_func ("/io/load/bad-files", test_load_bad_files);
  g_test_add_func ("/io/load/truncated-png", test_load_truncated_png);
  g_test_add_func ("/io/exif/exposure-time", test_exif_exposure_time);
  g_test_add_func ("/io/exif/orientation-of-block", test_exif_orientation_of_block);
  g_test_add_func ("/io/exif/for-export", test_exif_for_export);
  g_test_add_func ("/io/exif/orientation-on-load", test_exif_orientation_on_load);
  g_test_add_func ("/io/orientation/exif-then-xmp", test_orientation_exif_then_xmp);
  g_test_add_func ("/io/exif/tiff-keeps-exif", test_tiff_keeps_exif);
  g_test_add_func ("/io/exif/tiff-gps-and-odd-entries", test_tiff_exif_gps_and_odd_entries);
  return g_test_run ();
}
