/* Radiance RGBE: the per-pixel conversion (core/ops/rgbe-math.h) against hand-derived
 * answers and against stb_image_write's own conversion, and the run-length encoded writer
 * (core/io/radiance.c) read back through stb_image's loader, on runs, noise and the widths
 * where readers switch between run-length encoded and flat scanlines. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/ops/rgbe-math.h"
#include "core/io/rgbe.h"
#include "core/io/io.h"
#include "test-util.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
/* The loader's code is in stb-oracle.c; the writer's, static, here. */
#include <stb_image.h>
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

static guint32
rgbe (guint r, guint g, guint b, guint e)
{
  return r | g << 8 | b << 16 | e << 24;
}

static void
test_known_answers (void)
{
  /* 1 = 0.5 · 2^1: mantissa 0.5 · 256, exponent 1 + 128. */
  g_assert_cmphex (lm_rgbe_encode (1.0f, 1.0f, 1.0f), ==, rgbe (128, 128, 128, 129));
  g_assert_cmphex (lm_rgbe_encode (1.0f, 0.5f, 0.25f), ==, rgbe (128, 64, 32, 129));
  g_assert_cmphex (lm_rgbe_encode (0.0f, 0.0f, 0.0f), ==, 0);
  g_assert_cmphex (lm_rgbe_encode (1e-33f, 1e-33f, 0.0f), ==, 0);
  /* No sign, no NaN: those channels are 0, the others keep their values. */
  g_assert_cmphex (lm_rgbe_encode (NAN, 1.0f, -1.0f), ==, rgbe (0, 128, 0, 129));
  g_assert_cmphex (lm_rgbe_encode (-4.0f, -NAN, -INFINITY), ==, 0);
  /* 2 - 2^-23 = (1 - 2^-24) · 2^1: scale 128, so 256 - 2^-16, truncated to 255. */
  float below2 = nextafterf (2.0f, 0.0f);
  g_assert_cmphex (lm_rgbe_encode (below2, below2, below2), ==, rgbe (255, 255, 255, 129));
  /* 2^-107 ≤ 1e-32 < 2^-106: 1e-32 = m · 2^-106 with m in [0.5, 1), exponent -106 + 128. */
  guint32 tiny = lm_rgbe_encode (1e-32f, 0.0f, 0.0f);
  g_assert_cmpuint (tiny >> 24, ==, 22);
  g_assert_cmpuint (tiny & 0xff, >=, 128);
  /* Beyond what RGBE holds (255 · 2^119): saturated, not wrapped to black. */
  g_assert_cmphex (lm_rgbe_encode (FLT_MAX, 0.0f, 0.0f), ==, rgbe (255, 0, 0, 255));
  g_assert_cmphex (lm_rgbe_encode (INFINITY, INFINITY, 1.0f), ==, rgbe (255, 255, 0, 255));
  g_assert_cmphex (lm_rgbe_encode (0x1p127f, 0x1p126f, 0.0f), ==, rgbe (255, 128, 0, 255));
  g_assert_cmphex (lm_rgbe_encode (0x1.FEp126f, 0x1p126f, 0.0f), ==, rgbe (255, 128, 0, 255));
}

typedef struct {
  GByteArray *bytes;
} Sink;

static void
collect (void *context, void *data, int size)
{
  g_byte_array_append (((Sink *) context)->bytes, data, size);
}

/* Where the pixels of a Radiance file start: after its ASCII header's resolution line. */
static const guint8 *
after_header (const guint8 *file, gsize len, guint width, guint height)
{
  g_autofree char *res = g_strdup_printf ("-Y %u +X %u\n", height, width);
  const char *at = g_strstr_len ((const char *) file, MIN (len, 512), res);
  g_assert_nonnull (at);
  return at ? (const guint8 *) at + strlen (res) : file + len;
}

/* The pixels of stb's flat output (width < 8). */
static const guint8 *
stb_pixels (GByteArray *file, guint width, guint height)
{
  const guint8 *at = after_header (file->data, file->len, width, height);
  g_assert_cmpuint ((gsize) (file->data + file->len - at), ==, 4 * (gsize) width * height);
  return at;
}

/* stb_image_write as the oracle of the conversion, on values over the whole range it
 * encodes (2^-100 .. 2^100, all three channels independent). */
static void
test_matches_stb (void)
{
  enum { W = 7, H = 30000 };
  GRand *rand = g_rand_new_with_seed (7);
  float *rgb = g_new (float, 3 * W * H);
  for (gsize i = 0; i < 3 * W * H; i++)
    rgb[i] = ldexpf ((float) g_rand_double (rand), g_rand_int_range (rand, -100, 100));
  /* Exact powers of two and their neighbours, where frexp's mantissa turns over, up to
   * 2^126 (from 2^127 on stb's exponent byte wraps; ours saturates). */
  for (gsize i = 0; i < 3 * 227; i += 3)
    {
      float p = ldexpf (1.0f, (int) i / 3 - 100);
      rgb[i] = rgb[i + 1] = rgb[i + 2] = p;
      rgb[3 * 2000 + i] = nextafterf (p, 0.0f);
      rgb[3 * 4000 + i] = nextafterf (p, INFINITY);
    }
  Sink sink = { g_byte_array_new () };
  g_assert_true (stbi_write_hdr_to_func (collect, &sink, W, H, 3, rgb));
  const guint8 *stb = stb_pixels (sink.bytes, W, H);
  guint mismatches = 0;
  for (gsize i = 0; i < (gsize) W * H; i++)
    {
      guint32 ours = lm_rgbe_encode (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
      guint32 theirs = stb[4 * i] | stb[4 * i + 1] << 8 | stb[4 * i + 2] << 16 | (guint32) stb[4 * i + 3] << 24;
      if (ours != theirs && mismatches++ < 5)
        g_test_message ("pixel %zu (%g, %g, %g): ours %08x, stb %08x", i, rgb[3 * i], rgb[3 * i + 1],
                        rgb[3 * i + 2], ours, theirs);
    }
  g_assert_cmpuint (mismatches, ==, 0);
  g_byte_array_unref (sink.bytes);
  g_free (rgb);
  g_rand_free (rand);
}

/* WIDTH × HEIGHT radiance: runs of one colour (short and long, up to whole rows), dark and
 * black stretches, and noise, reproducible from SEED. */
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
          guint kind = g_rand_int_range (rand, 0, 4);
          guint len = kind == 3 && y == 1 ? width : (guint) g_rand_int_range (rand, 1, 300);
          float r = (float) g_rand_double_range (rand, 0, 50), g = (float) g_rand_double (rand),
                b = kind == 2 ? 0.0f : (float) g_rand_double_range (rand, 0, 1e5);
          for (guint i = 0; i < len && x < width; i++, x++)
            {
              gboolean noise = kind == 0;
              px[4 * x + 0] = noise ? (float) g_rand_double_range (rand, 0, 50) : r;
              px[4 * x + 1] = noise ? (float) g_rand_double (rand) : kind == 2 ? 0.0f : g;
              px[4 * x + 2] = noise ? (float) g_rand_double_range (rand, 0, 1e5) : b;
              px[4 * x + 3] = 1.0f;
            }
        }
    }
  g_rand_free (rand);
  return image;
}

static void
round_trip (guint width, guint height, gboolean expect_rle)
{
  g_autoptr (LmImage) radiance = test_radiance (width, height, width);
  g_autoptr (LmImage) encoded = lm_test_image_new (LM_FORMAT_RGBE8, width, height, 0xa5);
  lm_rgbe_encode_cpu (radiance, encoded);
  g_autofree char *name = g_strdup_printf ("rgbe-%u.hdr", width);
  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (lm_rgbe_save (encoded, path, &error));
  g_assert_no_error (error);

  g_autofree guint8 *file = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, (char **) &file, &len, NULL));
  const guint8 *pixels = after_header (file, len, width, height);
  gsize flat = 4 * (gsize) width * height;
  if (expect_rle)
    {
      guint8 marker[4] = { 2, 2, width >> 8, width & 0xff };
      g_assert_cmpmem (pixels, 4, marker, 4);
      g_assert_cmpuint ((gsize) (file + len - pixels), <, flat); /* the runs paid off */
    }
  else
    g_assert_cmpuint ((gsize) (file + len - pixels), ==, flat);

  int w = 0, h = 0, n = 0;
  float *back = stbi_loadf_from_memory (file, (int) len, &w, &h, &n, 3);
  g_assert_nonnull (back);
  g_assert_cmpint (w, ==, width);
  g_assert_cmpint (h, ==, height);
  for (guint y = 0; y < height; y++)
    {
      const guint8 *e = lm_image_row (encoded, y);
      for (guint x = 0; x < width; x++)
        for (int c = 0; c < 3; c++)
          {
            const guint8 *p = e + 4 * x;
            /* Radiance's decoding, as stb does it: mantissa · 2^(E - 136), 0 when E is 0. */
            float want = p[3] ? (float) ldexp ((double) p[c], p[3] - 136) : 0.0f;
            float got = back[3 * ((gsize) y * width + x) + c];
            if (got != want)
              {
                g_test_message ("width %u: pixel (%u, %u) channel %d: %g, want %g", width, x, y, c, got, want);
                g_assert_cmpfloat (got, ==, want);
                stbi_image_free (back);
                return;
              }
          }
    }
  stbi_image_free (back);

  /* `lumen-cli hdr` writes float radiance through lm_io_save: the same bytes as the batch's
   * path (converted elsewhere, written by lm_rgbe_save). */
  g_autofree char *name2 = g_strdup_printf ("float-%u.hdr", width);
  g_autofree char *path2 = g_build_filename (lm_test_tmp_dir (), name2, NULL);
  g_assert_true (lm_io_save (radiance, path2, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *file2 = NULL;
  gsize len2 = 0;
  g_assert_true (g_file_get_contents (path2, &file2, &len2, NULL));
  g_assert_cmpmem (file2, len2, file, len);
}

static void
test_width_7 (void)
{
  round_trip (7, 5, FALSE);
}

static void
test_width_8 (void)
{
  round_trip (8, 5, TRUE);
}

static void
test_width_4000 (void)
{
  round_trip (4000, 6, TRUE);
}

static void
test_width_32767 (void)
{
  round_trip (32767, 3, TRUE);
}

static void
test_width_32768 (void)
{
  round_trip (32768, 3, FALSE);
}

/* A failed write leaves no file behind and names the file. */
static void
test_unwritable (void)
{
  g_autoptr (LmImage) encoded = lm_test_image_new (LM_FORMAT_RGBE8, 8, 2, 0);
  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), "no-such-folder", "x.hdr", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_rgbe_save (encoded, path, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "x.hdr"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/rgbe/known-answers", test_known_answers);
  g_test_add_func ("/rgbe/matches-stb", test_matches_stb);
  g_test_add_func ("/rgbe/rle/width-7-flat", test_width_7);
  g_test_add_func ("/rgbe/rle/width-8", test_width_8);
  g_test_add_func ("/rgbe/rle/width-4000", test_width_4000);
  g_test_add_func ("/rgbe/rle/width-32767", test_width_32767);
  g_test_add_func ("/rgbe/rle/width-32768-flat", test_width_32768);
  g_test_add_func ("/rgbe/unwritable", test_unwritable);
  return g_test_run ();
}
