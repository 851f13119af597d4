/* 16-bit files: the project's 16-bit rounding (lm_quantize_u16) and its 8-bit twin, exact
 * round trips of 16-bit PNG and TIFF (colour, alpha, gray) whose low bytes all vary, EXIF
 * orientation on a 16-bit TIFF, and a 16-bit image written as JPEG being its rounded 8-bit
 * twin's JPEG. OpenCV reads the same files back in tests/cli/test_cli_depth16.py, which
 * catches a byte order that a round trip through Lumen alone would cancel out. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <tiffio.h>

#include "core/io/depth.h"
#include "core/io/io.h"
#include "core/ops/pixel-math.h"
#include "test-util.h"

static char *
tmp_path (const char *name)
{
  return g_build_filename (lm_test_tmp_dir (), name, NULL);
}

/* A 16-bit image whose every sample differs from its neighbours in the low byte too
 * (a multiplicative hash), so that a path dropping to 8 bits shows. */
static LmImage *
random_16 (LmFormat format, guint width, guint height, gboolean with_alpha)
{
  g_autoptr (GError) error = NULL;
  LmImage *image = lm_image_new (format, width, height, lm_allocator_host (), &error);
  g_assert_no_error (error);
  guint ch = lm_format_channels (format);
  for (guint y = 0; y < height; y++)
    {
      guint16 *row = (guint16 *) lm_image_row (image, y);
      for (guint i = 0; i < width * ch; i++)
        row[i] = (guint16) (((y * 7919u + i) * 2654435761u) >> 16);
      if (ch == 4 && !with_alpha)
        for (guint x = 0; x < width; x++)
          row[4 * x + 3] = 65535;
    }
  image->opaque = ch == 1 || !with_alpha;
  return image;
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

static void
save_ok (const LmImage *image, const char *path)
{
  GError *error = NULL;
  g_assert_true (lm_io_save (image, path, NULL, &error));
  g_assert_no_error (error);
}

static void
test_quantize_u16 (void)
{
  /* Every 16-bit value survives the trip to the 0..255 scale and back. */
  for (guint v = 0; v < 65536; v++)
    if (lm_quantize_u16 ((float) v / 257.0f) != v)
      {
        g_test_message ("v = %u gives %u", v, lm_quantize_u16 ((float) v / 257.0f));
        g_test_fail ();
        return;
      }
  /* An 8-bit value is its byte repeated; the ends clamp; NaN is 0 as for 8 bits. */
  for (guint v = 0; v < 256; v++)
    g_assert_cmpuint (lm_quantize_u16 ((float) v), ==, v * 257u);
  g_assert_cmpuint (lm_quantize_u16 (-3.0f), ==, 0);
  g_assert_cmpuint (lm_quantize_u16 (255.2f), ==, 65535);
  g_assert_cmpuint (lm_quantize_u16 (1e30f), ==, 65535);
  g_assert_cmpuint (lm_quantize_u16 (NAN), ==, 0);
}

/* lm_image_to_depth8 is round (v / 257) for every v: the integer (v + 128) / 257 (no v is a
 * tie: 257 is odd), and it takes v·257 back to v. */
static void
test_depth8_rounding (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) all = lm_image_new (LM_FORMAT_GRAY16, 256, 256, lm_allocator_host (), &error);
  g_assert_no_error (error);
  for (guint v = 0; v < 65536; v++)
    ((guint16 *) lm_image_row (all, v / 256))[v % 256] = (guint16) v;
  g_autoptr (LmImage) narrow = lm_image_to_depth8 (all, &error);
  g_assert_no_error (error);
  g_assert_cmpint (narrow->format, ==, LM_FORMAT_GRAY8);
  for (guint v = 0; v < 65536; v++)
    {
      guint got = lm_image_row (narrow, v / 256)[v % 256];
      if (got != (v + 128) / 257 || got != lm_quantize_u8 ((float) v / 257.0f))
        {
          g_test_message ("v = %u gives %u, not %u", v, got, (v + 128) / 257);
          g_test_fail ();
          return;
        }
    }
  g_assert_cmpuint (lm_image_row (narrow, 0)[0], ==, 0);
  g_assert_cmpuint (lm_image_row (narrow, 255)[255], ==, 255);
}

typedef struct {
  const char *ext;
  LmFormat format;
  gboolean alpha;
} RoundTrip;

static void
test_round_trip (gconstpointer data)
{
  const RoundTrip *t = data;
  g_autoptr (LmImage) image = random_16 (t->format, 37, 23, t->alpha);
  g_autofree char *name = g_strdup_printf ("rt-%s-%d-%d.%s", lm_format_name (t->format), t->format, t->alpha, t->ext);
  g_autofree char *path = tmp_path (name);
  save_ok (image, path);
  g_autoptr (LmImage) back = load_ok (path);
  g_assert_cmpint (back->format, ==, t->format);
  g_assert_cmpuint (back->source_bit_depth, ==, 16);
  g_assert_cmpint (back->opaque, ==, image->opaque);
  lm_test_assert_same_pixels (image, back);
  g_unlink (path);
}

/* A 16-bit RGB TIFF of 3 × 2 stored with Orientation 6 (turn 90° clockwise to view) loads
 * as 2 × 3, upright: output (x, y) is stored (y, h − 1 − x). */
static void
test_tiff_orientation (void)
{
  g_autofree char *path = tmp_path ("orient16.tif");
  TIFF *tif = TIFFOpen (path, "w");
  g_assert_nonnull (tif);
  TIFFSetField (tif, TIFFTAG_IMAGEWIDTH, 3);
  TIFFSetField (tif, TIFFTAG_IMAGELENGTH, 2);
  TIFFSetField (tif, TIFFTAG_SAMPLESPERPIXEL, 3);
  TIFFSetField (tif, TIFFTAG_BITSPERSAMPLE, 16);
  TIFFSetField (tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
  TIFFSetField (tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField (tif, TIFFTAG_ORIENTATION, ORIENTATION_RIGHTTOP);
  TIFFSetField (tif, TIFFTAG_ROWSPERSTRIP, 2);
  guint16 stored[2][9];
  for (guint y = 0; y < 2; y++)
    {
      for (guint i = 0; i < 9; i++)
        stored[y][i] = (guint16) (0x0101u * (y * 9 + i) + 0x7f + i); /* low bytes differ */
      g_assert_cmpint (TIFFWriteScanline (tif, stored[y], y, 0), >=, 0);
    }
  TIFFClose (tif);

  g_autoptr (LmImage) image = load_ok (path);
  g_assert_cmpint (image->format, ==, LM_FORMAT_RGBA16);
  g_assert_cmpuint (image->width, ==, 2);
  g_assert_cmpuint (image->height, ==, 3);
  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 2; x++)
      {
        const guint16 *px = (const guint16 *) lm_image_row (image, y) + 4 * x;
        guint sx = y, sy = 2 - 1 - x;
        for (guint c = 0; c < 3; c++)
          g_assert_cmpuint (px[c], ==, stored[sy][3 * sx + c]);
        g_assert_cmpuint (px[3], ==, 65535);
      }
  g_unlink (path);
}

static char *
file_contents (const char *path, gsize *len)
{
  char *bytes = NULL;
  g_assert_true (g_file_get_contents (path, &bytes, len, NULL));
  return bytes;
}

/* JPEG is 8-bit: a 16-bit image gives exactly the JPEG of its rounded 8-bit twin. */
static void
test_jpeg_of_16 (void)
{
  g_autoptr (LmImage) image = random_16 (LM_FORMAT_RGBA16, 40, 24, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) twin = lm_image_to_depth8 (image, &error);
  g_assert_no_error (error);
  g_autofree char *a = tmp_path ("from16.jpg"), *b = tmp_path ("from8.jpg");
  save_ok (image, a);
  save_ok (twin, b);
  gsize na, nb;
  g_autofree char *da = file_contents (a, &na), *db = file_contents (b, &nb);
  g_assert_cmpmem (da, na, db, nb);
  g_unlink (a);
  g_unlink (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  static const RoundTrip trips[] = {
    { "png", LM_FORMAT_RGBA16, FALSE }, { "png", LM_FORMAT_RGBA16, TRUE }, { "png", LM_FORMAT_GRAY16, FALSE },
    { "tif", LM_FORMAT_RGBA16, FALSE }, { "tif", LM_FORMAT_RGBA16, TRUE }, { "tif", LM_FORMAT_GRAY16, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (trips); i++)
    {
      g_autofree char *name = g_strdup_printf ("/io16/%s/round-trip-%s", trips[i].ext,
                                               trips[i].format == LM_FORMAT_GRAY16 ? "gray"
                                               : trips[i].alpha                    ? "alpha"
                                                                                   : "opaque");
      g_test_add_data_func (name, &trips[i], test_round_trip);
    }
  g_test_add_func ("/io16/quantize-u16", test_quantize_u16);
  g_test_add_func ("/io16/depth8-rounding", test_depth8_rounding);
  g_test_add_func ("/io16/tiff/orientation", test_tiff_orientation);
  g_test_add_func ("/io16/jpeg-of-16-bit", test_jpeg_of_16);
  return g_test_run ();
}
