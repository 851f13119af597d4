/* 16-bit files: the project's 16-bit rounding (lm_quantize_u16) and its 8-bit twin, exact
 * round trips of 16-bit PNG and TIFF (colour, alpha, gray) whose low bytes all vary, EXIF
 * orientation on a 16-bit TIFF, and a 16-bit image written as JPEG being its rounded 8-bit
 * twin's JPEG. OpenCV reads the same files back in tests/cli/test_cli_depth16.py, which
 * catches a byte order that a round trip through Lumen alone would cancel out. Float TIFFs
 * (16-bit halves, floats and doubles, written here by libtiff in every layout Lumen reads)
 * load as the values written, in RGBA_F32. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <tiffio.h>

#include "config.h"
#if LUMEN_HAVE_OPENEXR
#include <half.h> /* Imath's conversion, an oracle of the halves' */
#endif

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

/* The value of the half H by its definition, in double arithmetic: (−1)^s × 2^(e−15) × 1.m,
 * or 2^−14 × 0.m for subnormals (e = 0); e = 31 is an infinity or a NaN. */
static double
half_by_definition (guint16 h)
{
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double v = exponent == 31 ? (mantissa ? NAN : INFINITY)
             : exponent == 0 ? ldexp (mantissa, -24)
                             : ldexp (1024 + mantissa, exponent - 25);
  return sign ? -v : v;
}

typedef struct {
  const char *name;
  guint16 bits, spp, compression, predictor, planar;
  guint32 rows_per_strip; /* 0: tiles of 16 × 16 */
  gboolean big_endian;
  guint16 orientation;
} FloatTiff;

/* Sample I of a test file: the awkward values first (signed zero, a float subnormal, the
 * largest float and half, infinities, NaN), then a spread of both signs and many scales. */
static double
float_value (guint i)
{
  static const double awkward[] = { 0.0, -0.0, 1.0, 0.1, -2.5, 65504.0, 6e-8, 1e-40, 3.4e38, -1e-30 };
  if (i < G_N_ELEMENTS (awkward))
    return awkward[i];
  if (i == 10 || i == 11)
    return i == 10 ? INFINITY : -INFINITY;
  if (i == 12)
    return NAN;
  guint32 h = (i * 2654435761u) >> 7;
  return ldexp ((double) (h % 100003) - 50001.0, (int) (h % 41) - 30) * (1.0 + 1e-12 * (h % 7));
}

/* The sample stored for value I at BITS, and what Lumen must read from it (EXPECT). */
static void
stored_sample (guint i, guint bits, guint8 *out, float *expect)
{
  double v = float_value (i);
  if (bits == 16)
    {
      guint16 h = (guint16) (i * 40503u); /* every pattern class: subnormals, infinities, NaNs */
      memcpy (out, &h, 2);
      *expect = (float) half_by_definition (h);
    }
  else if (bits == 32)
    {
      float f = (float) v;
      memcpy (out, &f, 4);
      *expect = f;
    }
  else
    {
      memcpy (out, &v, 8);
      *expect = (float) v; /* the double rounded to the nearest float, as C rounds */
    }
}

static gboolean
same_float (float a, float b)
{
  return (isnan (a) && isnan (b)) || memcmp (&a, &b, sizeof a) == 0;
}

/* A W × H float TIFF as T says, sample (x, y, c) being value (y · W + x) · SPP + c; EXPECT
 * gets what Lumen must read from each. */
static void
write_float_tiff (const char *path, const FloatTiff *t, guint w, guint h, float *expect)
{
  TIFF *tif = TIFFOpen (path, t->big_endian ? "wb" : "wl");
  g_assert_nonnull (tif);
  TIFFSetField (tif, TIFFTAG_IMAGEWIDTH, w);
  TIFFSetField (tif, TIFFTAG_IMAGELENGTH, h);
  TIFFSetField (tif, TIFFTAG_SAMPLESPERPIXEL, t->spp);
  TIFFSetField (tif, TIFFTAG_BITSPERSAMPLE, t->bits);
  TIFFSetField (tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP);
  TIFFSetField (tif, TIFFTAG_PHOTOMETRIC, t->spp <= 2 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
  TIFFSetField (tif, TIFFTAG_PLANARCONFIG, t->planar);
  TIFFSetField (tif, TIFFTAG_COMPRESSION, t->compression);
  TIFFSetField (tif, TIFFTAG_ORIENTATION, t->orientation);
  if (t->predictor != PREDICTOR_NONE)
    TIFFSetField (tif, TIFFTAG_PREDICTOR, t->predictor);
  if (t->spp == 2 || t->spp == 4)
    {
      guint16 extra = EXTRASAMPLE_ASSOCALPHA;
      TIFFSetField (tif, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
  gsize sample = t->bits / 8, pixel = sample * t->spp;
  guint32 pw = t->rows_per_strip ? w : 16, ph = t->rows_per_strip ? t->rows_per_strip : 16;
  if (t->rows_per_strip)
    TIFFSetField (tif, TIFFTAG_ROWSPERSTRIP, t->rows_per_strip);
  else
    {
      TIFFSetField (tif, TIFFTAG_TILEWIDTH, pw);
      TIFFSetField (tif, TIFFTAG_TILELENGTH, ph);
    }
  g_autofree guint8 *piece = g_malloc0 (pw * ph * pixel);
  guint32 across = (w + pw - 1) / pw, k = 0;
  for (guint32 y0 = 0; y0 < h; y0 += ph)
    for (guint32 x0 = 0; x0 < w; x0 += pw, k++)
      {
        /* libtiff swaps and predicts in the buffer it is given: a fresh one each time. */
        memset (piece, 0, pw * ph * pixel);
        guint32 rows = MIN (ph, h - y0);
        for (guint32 y = 0; y < rows; y++)
          for (guint32 x = 0; x < pw && x0 + x < w; x++)
            for (guint c = 0; c < t->spp; c++)
              {
                guint i = ((y0 + y) * w + x0 + x) * t->spp + c;
                stored_sample (i, t->bits, piece + (y * pw + x) * pixel + c * sample, &expect[i]);
              }
        tmsize_t bytes = (tmsize_t) (t->rows_per_strip ? rows : ph) * pw * pixel;
        g_assert_cmpint (t->rows_per_strip ? TIFFWriteEncodedStrip (tif, k, piece, bytes)
                                           : TIFFWriteEncodedTile (tif, (y0 / ph) * across + x0 / pw, piece, bytes),
                         >=, 0);
      }
  TIFFClose (tif);
}

static void
test_tiff_float (gconstpointer data)
{
  const FloatTiff *t = data;
  guint w = 37, h = 23;
  g_autofree char *path = tmp_path (t->name);
  g_autofree float *expect = g_new (float, w * h * t->spp);
  write_float_tiff (path, t, w, h, expect);

  g_autoptr (LmImage) image = load_ok (path);
  g_assert_cmpint (image->format, ==, LM_FORMAT_RGBA_F32);
  gboolean turned = t->orientation == ORIENTATION_RIGHTTOP;
  g_assert_cmpuint (image->width, ==, turned ? h : w);
  g_assert_cmpuint (image->height, ==, turned ? w : h);
  g_assert_cmpuint (image->source_bit_depth, ==, t->bits);
  gboolean alpha = t->spp == 2 || t->spp == 4, opaque = TRUE;
  for (guint y = 0; y < image->height; y++)
    for (guint x = 0; x < image->width; x++)
      {
        /* Orientation 6: output (x, y) is stored (y, h − 1 − x). */
        guint sx = turned ? y : x, sy = turned ? h - 1 - x : y;
        const float *px = (const float *) lm_test_pixel (image, x, y);
        const float *want = expect + (sy * w + sx) * t->spp;
        float a = alpha ? want[t->spp - 1] : 1.0f;
        opaque &= a == 1.0f;
        for (guint c = 0; c < 4; c++)
          {
            float v = c == 3 ? a : want[t->spp <= 2 ? 0 : c];
            if (!same_float (px[c], v))
              {
                g_test_message ("%s: pixel (%u, %u) channel %u is %.9g, not %.9g", t->name, x, y, c, px[c], v);
                g_test_fail ();
                return;
              }
          }
      }
  g_assert_cmpint (image->opaque, ==, opaque);
  g_unlink (path);
}

/* Every one of the 65536 halves, in a 256 × 256 gray file: its value by definition, and the
 * float Imath's conversion gives where the build has it. */
static void
test_tiff_every_half (void)
{
  g_autofree char *path = tmp_path ("every-half.tif");
  TIFF *tif = TIFFOpen (path, "w");
  g_assert_nonnull (tif);
  TIFFSetField (tif, TIFFTAG_IMAGEWIDTH, 256);
  TIFFSetField (tif, TIFFTAG_IMAGELENGTH, 256);
  TIFFSetField (tif, TIFFTAG_SAMPLESPERPIXEL, 1);
  TIFFSetField (tif, TIFFTAG_BITSPERSAMPLE, 16);
  TIFFSetField (tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP);
  TIFFSetField (tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
  TIFFSetField (tif, TIFFTAG_ROWSPERSTRIP, 256);
  for (guint y = 0; y < 256; y++)
    {
      guint16 row[256];
      for (guint x = 0; x < 256; x++)
        row[x] = (guint16) (y * 256 + x);
      g_assert_cmpint (TIFFWriteScanline (tif, row, y, 0), >=, 0);
    }
  TIFFClose (tif);

  g_autoptr (LmImage) image = load_ok (path);
  g_assert_cmpint (image->format, ==, LM_FORMAT_RGBA_F32);
  for (guint h = 0; h < 65536; h++)
    {
      const float *px = (const float *) lm_test_pixel (image, h % 256, h / 256);
      float want = (float) half_by_definition ((guint16) h);
#if LUMEN_HAVE_OPENEXR
      float imath = imath_half_to_float ((imath_half_bits_t) h);
      g_assert_true (same_float (want, imath));
#endif
      if (!same_float (px[0], want) || !same_float (px[2], want) || px[3] != 1.0f)
        {
          g_test_message ("half 0x%04x reads as %.9g, not %.9g", h, px[0], want);
          g_test_fail ();
          return;
        }
      /* NaNs keep their payload's top bits and their sign, as Imath's conversion does. */
      guint32 bits;
      memcpy (&bits, px, 4);
      if (isnan (want))
        g_assert_cmphex (bits, ==, (guint32) (h & 0x8000) << 16 | 0x7f800000u | (guint32) (h & 0x3ff) << 13);
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
  static const FloatTiff floats[] = {
    /* name, bits, spp, compression, predictor, planar, rows a strip (0: tiles), big-endian, orientation */
    { "float-rgb-strips.tif", 32, 3, COMPRESSION_LZW, PREDICTOR_FLOATINGPOINT, PLANARCONFIG_CONTIG, 5, FALSE, 1 },
    { "float-rgba-tiles.tif", 32, 4, COMPRESSION_ADOBE_DEFLATE, PREDICTOR_NONE, PLANARCONFIG_CONTIG, 0, TRUE, 1 },
    { "float-gray-one-strip.tif", 32, 1, COMPRESSION_NONE, PREDICTOR_NONE, PLANARCONFIG_CONTIG, 23, TRUE, 1 },
    { "float-gray-planes.tif", 32, 1, COMPRESSION_LZW, PREDICTOR_NONE, PLANARCONFIG_SEPARATE, 4, FALSE, 1 },
    { "half-rgb-strips.tif", 16, 3, COMPRESSION_ADOBE_DEFLATE, PREDICTOR_HORIZONTAL, PLANARCONFIG_CONTIG, 3, TRUE, 1 },
    { "half-gray-alpha.tif", 16, 2, COMPRESSION_NONE, PREDICTOR_NONE, PLANARCONFIG_CONTIG, 23, FALSE, 1 },
    { "double-rgb-tiles.tif", 64, 3, COMPRESSION_LZW, PREDICTOR_FLOATINGPOINT, PLANARCONFIG_CONTIG, 0, FALSE, 1 },
    { "double-gray-alpha.tif", 64, 2, COMPRESSION_NONE, PREDICTOR_NONE, PLANARCONFIG_CONTIG, 7, TRUE, 1 },
    { "float-rgb-turned.tif", 32, 3, COMPRESSION_NONE, PREDICTOR_NONE, PLANARCONFIG_CONTIG, 4, FALSE, 6 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (floats); i++)
    {
      g_autofree char *name = g_strdup_printf ("/io16/tiff/float/%s", floats[i].name);
      g_test_add_data_func (name, &floats[i], test_tiff_float);
    }
  g_test_add_func ("/io16/tiff/float/every-half", test_tiff_every_half);
  g_test_add_func ("/io16/jpeg-of-16-bit", test_jpeg_of_16);
  return g_test_run ();
}
