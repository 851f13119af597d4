/* Lumen's Radiance reader (core/io/radiance-read.c): valid files written by lm_io_save read
 * back bit for bit as stb_image read them (stb as the oracle), and damaged files, truncated
 * at every offset of the header and many of the pixel data, with runs of 0, runs past the
 * row, literals past the file, a wrong scanline width, forged sizes, a missing resolution
 * line or a bad magic, refused with a message that names the file and the cause. stb's
 * loader looped for ever on a truncated run-length encoded file: an alarm turns such a hang
 * into a failure within seconds. */
#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "core/io/io-private.h"
#include "core/io/io.h"
#include "test-util.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
/* The loader's code: tests/unit/stb-oracle.c. */
#include <stb_image.h>
#pragma GCC diagnostic pop

#define NAME "damaged.hdr"

/* WIDTH × HEIGHT radiance with runs of one colour (long enough for run-length runs), black
 * stretches and noise over a wide range, reproducible from SEED. */
static LmImage *
test_radiance (guint width, guint height, guint32 seed)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA_F32, width, height, 0xff);
  GRand *rand = g_rand_new_with_seed (seed);
  for (guint y = 0; y < height; y++)
    {
      float *px = (float *) lm_image_row (image, y);
      for (guint x = 0; x < width;)
        {
          guint kind = g_rand_int_range (rand, 0, 3), len = g_rand_int_range (rand, 1, 200);
          float v = ldexpf ((float) g_rand_double (rand), g_rand_int_range (rand, -40, 40));
          for (guint i = 0; i < len && x < width; i++, x++)
            for (int c = 0; c < 3; c++)
              px[4 * x + c] = kind == 0   ? ldexpf ((float) g_rand_double (rand), g_rand_int_range (rand, -60, 60))
                              : kind == 1 ? v * (float) (c + 1)
                                          : 0.0f;
        }
    }
  g_rand_free (rand);
  return image;
}

/* The bytes of a .hdr that lm_io_save writes for a WIDTH × HEIGHT test image. */
static GBytes *
saved_file (guint width, guint height)
{
  g_autoptr (LmImage) radiance = test_radiance (width, height, width * 31 + height);
  g_autofree char *name = g_strdup_printf ("valid-%ux%u.hdr", width, height);
  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (lm_io_save (radiance, path, NULL, &error));
  g_assert_no_error (error);
  char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* Where the pixel data of FILE starts: after the resolution line. */
static gsize
data_offset (GBytes *file)
{
  gsize len;
  const char *data = g_bytes_get_data (file, &len);
  const char *res = g_strstr_len (data, len, "\n-Y ");
  g_assert_nonnull (res);
  const char *end = memchr (res + 1, '\n', len - (res + 1 - data));
  g_assert_nonnull (end);
  return end + 1 - data;
}

static void
test_matches_stb (gconstpointer size)
{
  const guint *wh = size;
  g_autoptr (GBytes) file = saved_file (wh[0], wh[1]);
  gsize len;
  const guint8 *data = g_bytes_get_data (file, &len);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) image = lm_io_load_from_memory ("valid.hdr", data, len, lm_allocator_host (), &error);
  g_assert_no_error (error);
  g_assert_nonnull (image);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpint (image->format, ==, LM_FORMAT_RGBA_F32);
  g_assert_cmpuint (image->width, ==, wh[0]);
  g_assert_cmpuint (image->height, ==, wh[1]);

  int w = 0, h = 0, n = 0;
  float *want = stbi_loadf_from_memory (data, (int) len, &w, &h, &n, 4);
  g_assert_nonnull (want);
  g_assert_cmpint (w, ==, wh[0]);
  g_assert_cmpint (h, ==, wh[1]);
  LM_TEST_RETURN_IF_FAILED ();
  for (guint y = 0; y < wh[1]; y++)
    {
      const float *got = (const float *) lm_image_row (image, y);
      if (memcmp (got, want + 4 * (gsize) y * w, 16 * (gsize) w) != 0)
        {
          g_test_message ("%u×%u: row %u differs from stb's", wh[0], wh[1], y);
          g_test_fail ();
          break;
        }
    }
  stbi_image_free (want);
}

/* Refused, not crashed nor hung: no image, a LUMEN_ERROR naming the file first, and, where
 * CAUSE is given, the cause in words. DATA is copied to a buffer of exactly LEN bytes so
 * that the sanitizer sees any read past it. */
static void
assert_refused (const void *data, gsize len, const char *cause)
{
  g_autofree guint8 *copy = g_memdup2 (data, len);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) image = lm_radiance_load (NAME, copy, len, lm_allocator_host (), &error);
  g_assert_null (image);
  g_assert_nonnull (error);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_true (error->domain == LUMEN_ERROR);
  g_assert_true (g_str_has_prefix (error->message, NAME ": "));
  if (cause != NULL && strstr (error->message, cause) == NULL)
    {
      g_test_message ("%zu bytes: “%s”, want “%s”", len, error->message, cause);
      g_test_fail ();
    }
}

/* Every cut through the header and the first rows, then a spread through the rest. */
static void
test_truncated (gconstpointer size)
{
  const guint *wh = size;
  g_autoptr (GBytes) file = saved_file (wh[0], wh[1]);
  gsize len, start = data_offset (file);
  const guint8 *data = g_bytes_get_data (file, &len);
  for (gsize cut = 0; cut < len && !g_test_failed (); cut += cut < start + 600 ? 1 : 37)
    assert_refused (data, cut, cut >= start ? "truncated" : NULL);
  assert_refused (data, len - 1, "truncated");
}

static const char HEADER[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n";

/* A file of HEADER, then RESOLUTION, then the LEN bytes of PIXELS. */
static GByteArray *
hand_made (const char *resolution, const guint8 *pixels, gsize len)
{
  GByteArray *file = g_byte_array_new ();
  g_byte_array_append (file, (const guint8 *) HEADER, strlen (HEADER));
  g_byte_array_append (file, (const guint8 *) resolution, strlen (resolution));
  g_byte_array_append (file, pixels, len);
  return file;
}

static void
assert_refused_rows (const char *resolution, const guint8 *pixels, gsize len, const char *cause)
{
  g_autoptr (GByteArray) file = hand_made (resolution, pixels, len);
  assert_refused (file->data, file->len, cause);
}

/* One valid 8-pixel run-length encoded row: each channel a run of 8. */
#define GOOD_ROW 2, 2, 0, 8, 136, 128, 136, 64, 136, 32, 136, 130

static void
test_hand_made_valid (void)
{
  const guint8 rows[] = { GOOD_ROW, GOOD_ROW };
  g_autoptr (GByteArray) file = hand_made ("-Y 2 +X 8\n", rows, sizeof rows);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) image = lm_radiance_load (NAME, file->data, file->len, lm_allocator_host (), &error);
  g_assert_no_error (error);
  g_assert_nonnull (image);
  LM_TEST_RETURN_IF_FAILED ();
  /* 128 · 2^(130 - 136) = 2, then 1 and 0.5; alpha 1. */
  const float *px = (const float *) lm_image_row (image, 1) + 4 * 7;
  g_assert_cmpfloat (px[0], ==, 2.0f);
  g_assert_cmpfloat (px[1], ==, 1.0f);
  g_assert_cmpfloat (px[2], ==, 0.5f);
  g_assert_cmpfloat (px[3], ==, 1.0f);
}

static void
test_zero_run (void)
{
  /* The case: a count of 0, then the end of the file (stb read 0s for ever). */
  const guint8 end[] = { GOOD_ROW, 2, 2, 0, 8, 136, 1, 136, 1, 136, 1, 0, 0 };
  assert_refused_rows ("-Y 2 +X 8\n", end, sizeof end, "run of 0 bytes at row 2 of 2");
  const guint8 mid[] = { 2, 2, 0, 8, 136, 128, 4, 1, 2, 3, 4, 0, 4, 1, 2, 3, 4, 136, 1, 136, 130 };
  assert_refused_rows ("-Y 1 +X 8\n", mid, sizeof mid, "run of 0 bytes at row 1 of 1");
}

static void
test_run_past_row (void)
{
  const guint8 run[] = { 2, 2, 0, 8, 128 + 9, 1, 136, 1, 136, 1, 136, 130 };
  assert_refused_rows ("-Y 1 +X 8\n", run, sizeof run, "run of 9 pixels at row 1 of 1");
  const guint8 literal[] = { 2, 2, 0, 8, 5, 1, 2, 3, 4, 5, 4, 1, 2, 3, 4, 136, 1, 136, 1, 136, 130 };
  assert_refused_rows ("-Y 1 +X 8\n", literal, sizeof literal, "run of 4 pixels at row 1 of 1, where 3");
}

static void
test_literal_past_file (void)
{
  /* Long enough for the size check (12 bytes a row at least); the last literal is not. */
  const guint8 pixels[] = { GOOD_ROW, 2, 2, 0, 8, 136, 1, 136, 1, 136, 1, 8, 1, 2, 3 };
  g_autoptr (GByteArray) file = hand_made ("-Y 2 +X 8\n", pixels, sizeof pixels);
  assert_refused (file->data, file->len, "truncated at row 2 of 2");
}

static void
test_wrong_width (void)
{
  const guint8 rows[] = { GOOD_ROW, 2, 2, 0, 9, 137, 128, 137, 64, 137, 32, 137, 130 };
  assert_refused_rows ("-Y 2 +X 8\n", rows, sizeof rows, "row 2 of 2 declares a width of 9 pixels, not 8");
}

static void
test_huge (void)
{
  /* The 53-byte file: refused at once, before 2.7 GB are allocated. */
  gint64 start = g_get_monotonic_time ();
  assert_refused_rows ("-Y 13000 +X 13000\n", NULL, 0, "truncated");
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  /* Sides may pass 65,535 (a strip loads); more than 2^30 pixels may not. */
  assert_refused_rows ("-Y 100000 +X 8\n", NULL, 0, "truncated");
  assert_refused_rows ("-Y 100000 +X 20000\n", NULL, 0, "larger than Lumen accepts");
  assert_refused_rows ("-Y 99999999999999999999 +X 8\n", NULL, 0, "larger than Lumen accepts");
  assert_refused_rows ("-Y 0 +X 8\n", NULL, 0, "no pixels");
  /* Flat rows (width 7) need 4 bytes a pixel: 7 × 2 × 4 = 56, one missing. */
  guint8 flat[55];
  memset (flat, 0x80, sizeof flat);
  assert_refused_rows ("-Y 2 +X 7\n", flat, sizeof flat, "truncated");
}

static void
test_bad_header (void)
{
  const guint8 row[] = { GOOD_ROW };
  const char *cases[][2] = {
    { "#?RADIANCF\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n", "not a Radiance HDR file" },
    { "P6\n8 1\n255\n", "not a Radiance HDR file" },
    { "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n", "no blank line" },
    { "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n", "no resolution line" },
    { "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\nhello\n", "no resolution line" },
    { "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y +X 8\n", "no resolution line" },
    { "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n+Y 1 +X 8\n", "“+Y 1 +X 8” is not supported" },
    { "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n+X 8 -Y 1\n", "“+X 8 -Y 1” is not supported" },
    { "#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 8\n", "XYZ" },
    { "#?RADIANCE\nEXPOSURE=2\n\n-Y 1 +X 8\n", "no “FORMAT=32-bit_rle_rgbe” line" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GByteArray) file = g_byte_array_new ();
      g_byte_array_append (file, (const guint8 *) cases[i][0], strlen (cases[i][0]));
      g_byte_array_append (file, row, sizeof row);
      assert_refused (file->data, file->len, cases[i][1]);
    }
}

static void
test_old_style_rle (void)
{
  /* Width 7 is flat; a pixel 1, 1, 1, n is Radiance's old-style run. */
  guint8 flat[28];
  memset (flat, 0x80, sizeof flat);
  memset (flat + 8, 1, 3);
  assert_refused_rows ("-Y 1 +X 7\n", flat, sizeof flat, "old-style run-length encoding (row 1 of 1)");
}

static void
on_alarm (int sig)
{
  (void) sig;
  static const char msg[] = "Bail out! the Radiance reader hung (alarm)\n";
  if (write (STDOUT_FILENO, msg, sizeof msg - 1) < 0)
    _exit (2);
  _exit (1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  /* stb hung on these files; fail in seconds rather than at meson's timeout. */
  signal (SIGALRM, on_alarm);
  alarm (60);
  static const guint sizes[][2] = { { 7, 5 }, { 8, 3 }, { 300, 40 }, { 32767, 2 }, { 32768, 2 } };
  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *valid = g_strdup_printf ("/radiance-read/matches-stb/%ux%u", sizes[i][0], sizes[i][1]);
      g_autofree char *cut = g_strdup_printf ("/radiance-read/truncated/%ux%u", sizes[i][0], sizes[i][1]);
      g_test_add_data_func (valid, sizes[i], test_matches_stb);
      if (sizes[i][0] <= 300)
        g_test_add_data_func (cut, sizes[i], test_truncated);
    }
  g_test_add_func ("/radiance-read/hand-made-valid", test_hand_made_valid);
  g_test_add_func ("/radiance-read/zero-run", test_zero_run);
  g_test_add_func ("/radiance-read/run-past-row", test_run_past_row);
  g_test_add_func ("/radiance-read/literal-past-file", test_literal_past_file);
  g_test_add_func ("/radiance-read/wrong-width", test_wrong_width);
  g_test_add_func ("/radiance-read/huge", test_huge);
  g_test_add_func ("/radiance-read/bad-header", test_bad_header);
  g_test_add_func ("/radiance-read/old-style-rle", test_old_style_rle);
  return g_test_run ();
}
