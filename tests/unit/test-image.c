/* LmImage: layout arithmetic, size limits, reference counting, metadata, orientation. */
#include <string.h>

#include "core/error.h"
#include "core/image.h"
#include "core/io/orientation.h"
#include "core/pixel-budget.h"
#include "test-util.h"

/* Bytes per pixel and channels, as image.h documents them. */
static void
test_format_sizes (void)
{
  g_assert_cmpuint (lm_format_bytes_per_pixel (LM_FORMAT_GRAY8), ==, 1);
  g_assert_cmpuint (lm_format_bytes_per_pixel (LM_FORMAT_RGBA8), ==, 4);
  g_assert_cmpuint (lm_format_bytes_per_pixel (LM_FORMAT_RGBA_F32), ==, 16);
  g_assert_cmpuint (lm_format_channels (LM_FORMAT_GRAY8), ==, 1);
  g_assert_cmpuint (lm_format_channels (LM_FORMAT_RGBA8), ==, 4);
  g_assert_cmpuint (lm_format_channels (LM_FORMAT_RGBA_F32), ==, 4);
}

/* Known strides, worked out by hand: the row's bytes rounded up to the next multiple of 64. */
static void
test_layout_known_strides (void)
{
  static const struct {
    LmFormat format;
    guint width, height;
    gsize stride, size;
  } cases[] = {
    { LM_FORMAT_GRAY8, 1, 1, 64, 64 },           /* 1 B → 64 */
    { LM_FORMAT_GRAY8, 64, 3, 64, 192 },         /* exactly one line: no padding */
    { LM_FORMAT_GRAY8, 65, 2, 128, 256 },        /* 65 B → 128 */
    { LM_FORMAT_RGBA8, 16, 1, 64, 64 },          /* 16 · 4 = 64 */
    { LM_FORMAT_RGBA8, 17, 5, 128, 640 },        /* 68 B → 128; 128 · 5 */
    { LM_FORMAT_RGBA8, 1000, 2, 4032, 8064 },    /* 4000 B → 63 · 64 = 4032 */
    { LM_FORMAT_RGBA_F32, 5, 7, 128, 896 },      /* 80 B → 128; 128 · 7 */
    { LM_FORMAT_RGBA_F32, 4, 1, 64, 64 },        /* 64 B exactly */
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = NULL;
      gsize stride = 0, size = 0;
      g_assert_true (lm_image_layout (cases[i].format, cases[i].width, cases[i].height, &stride,
                                      &size, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (stride, ==, cases[i].stride);
      g_assert_cmpuint (size, ==, cases[i].size);
    }
}

/* For many widths: stride is a multiple of LM_ROW_ALIGN, holds a row, and wastes less than
 * one alignment unit; size is stride × height. */
static void
test_layout_alignment (void)
{
  const LmFormat formats[] = { LM_FORMAT_GRAY8, LM_FORMAT_RGBA8, LM_FORMAT_RGBA_F32 };
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint width = 1; width <= 300; width++)
      {
        gsize stride = 0, size = 0, bpp = lm_format_bytes_per_pixel (formats[f]);
        g_assert_true (lm_image_layout (formats[f], width, 3, &stride, &size, NULL));
        g_assert_cmpuint (stride % LM_ROW_ALIGN, ==, 0);
        g_assert_cmpuint (stride, >=, width * bpp);
        g_assert_cmpuint (stride, <, width * bpp + LM_ROW_ALIGN);
        g_assert_cmpuint (size, ==, stride * 3);
        LM_TEST_RETURN_IF_FAILED ();
      }

  /* Rows past 65535 pixels: 70000 · 16 = 1120000 B → 1120000 (17500 · 64); 100000 · 4 B. */
  gsize stride = 0;
  g_assert_true (lm_image_layout (LM_FORMAT_RGBA_F32, 70000, 1, &stride, NULL, NULL));
  g_assert_cmpuint (stride, ==, 1120000);
  g_assert_true (lm_image_layout (LM_FORMAT_RGBA8, 100000, 3, &stride, NULL, NULL));
  g_assert_cmpuint (stride, ==, 400000);
  /* And a strip one pixel wide: one 64-byte row a pixel. */
  gsize size = 0;
  g_assert_true (lm_image_layout (LM_FORMAT_GRAY8, 1, 70000, &stride, &size, NULL));
  g_assert_cmpuint (stride, ==, 64);
  g_assert_cmpuint (size, ==, (gsize) 64 * 70000);
}

static void
assert_layout_rejected (LmFormat format, guint width, guint height, int code)
{
  GError *error = NULL;
  gsize stride = 12345, size = 67890;
  g_assert_false (lm_image_layout (format, width, height, &stride, &size, &error));
  g_assert_error (error, LUMEN_ERROR, code);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_nonnull (error->message);
  g_assert_cmpstr (error->message, !=, "");
  g_clear_error (&error);

  /* lm_image_new refuses the same shape with the same error, before allocating. */
  LmImage *image = lm_image_new (format, width, height, lm_allocator_host (), &error);
  g_assert_null (image);
  g_assert_error (error, LUMEN_ERROR, code);
  g_clear_error (&error);
}

static void
test_layout_limits (void)
{
  /* No pixels. */
  assert_layout_rejected (LM_FORMAT_RGBA8, 0, 10, LM_ERROR_INVALID);
  assert_layout_rejected (LM_FORMAT_RGBA8, 10, 0, LM_ERROR_INVALID);
  assert_layout_rejected (LM_FORMAT_GRAY8, 0, 0, LM_ERROR_INVALID);

  /* One side over the limit (2^31 − 1), or a strip of more than 2^30 pixels. */
  assert_layout_rejected (LM_FORMAT_GRAY8, LM_IMAGE_MAX_SIDE + 1, 1, LM_ERROR_TOO_LARGE);
  assert_layout_rejected (LM_FORMAT_GRAY8, 1, LM_IMAGE_MAX_SIDE + 1, LM_ERROR_TOO_LARGE);
  assert_layout_rejected (LM_FORMAT_GRAY8, 1, (1u << 30) + 1, LM_ERROR_TOO_LARGE);
  assert_layout_rejected (LM_FORMAT_RGBA8, G_MAXUINT, 1, LM_ERROR_TOO_LARGE);
  assert_layout_rejected (LM_FORMAT_RGBA8, G_MAXUINT, G_MAXUINT, LM_ERROR_TOO_LARGE);

  /* Both sides legal but more than 2^30 pixels: 32768 · 32769 = 2^30 + 32768. */
  assert_layout_rejected (LM_FORMAT_GRAY8, 32768, 32769, LM_ERROR_TOO_LARGE);
  assert_layout_rejected (LM_FORMAT_RGBA8, 65535, 65535, LM_ERROR_TOO_LARGE);

  /* Exactly 2^30 pixels (32768²) is the limit itself, accepted where the memory budget allows
   * it: 32768 · 4 = 131072 B a row. */
  lm_pixel_budget_set (LM_IMAGE_MAX_PIXELS);
  gsize stride = 0, size = 0;
  g_assert_true (lm_image_layout (LM_FORMAT_RGBA8, 32768, 32768, &stride, &size, NULL));
  g_assert_cmpuint (stride, ==, 131072);
  g_assert_cmpuint (size, ==, (gsize) 131072 * 32768);
  lm_pixel_budget_set (0);
}

/* The memory budget refuses what the format limits allow, naming both sizes; 0 returns to
 * the machine's, which never exceeds the format limit. */
static void
test_pixel_budget (void)
{
  lm_pixel_budget_set (1000000);
  g_assert_cmpuint (lm_pixel_budget (), ==, 1000000);
  g_assert_true (lm_image_layout (LM_FORMAT_RGBA8, 1000, 1000, NULL, NULL, NULL));
  GError *error = NULL;
  g_assert_false (lm_image_layout (LM_FORMAT_RGBA8, 1000, 1001, NULL, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "1000×1001"));
  g_assert_nonnull (strstr (error->message, "1.0 megapixels"));
  g_clear_error (&error);
  lm_pixel_budget_set (0);
  g_assert_cmpuint (lm_pixel_budget (), >, 0);
  g_assert_cmpuint (lm_pixel_budget (), <=, LM_IMAGE_MAX_PIXELS);

  static const struct {
    const char *text;
    guint64 pixels;
  } forms[] = { { "250000000", 250000000 }, { "250M", 250000000 }, { "1.5G", 1500000000 }, { "0.5m", 500000 } };
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      guint64 pixels = 0;
      g_assert_true (lm_pixel_budget_parse (forms[i].text, &pixels));
      g_assert_cmpuint (pixels, ==, forms[i].pixels);
    }
  const char *bad[] = { "", "lots", "-5", "0", "nan", "inf", "12X", "1e400", NULL };
  for (guint i = 0; bad[i]; i++)
    {
      guint64 pixels = 7;
      g_assert_false (lm_pixel_budget_parse (bad[i], &pixels));
      g_assert_cmpuint (pixels, ==, 7);
    }
}

/* An allocator that counts, so that the test sees when the pixels are freed. */
typedef struct {
  guint allocs, frees;
  gsize last_size;
} Counts;

static gpointer
counting_alloc (const LmAllocator *self, gsize size, GError **error)
{
  Counts *c = self->user_data;
  c->allocs++;
  c->last_size = size;
  return g_malloc (size);
}

static void
counting_free (const LmAllocator *self, gpointer mem)
{
  Counts *c = self->user_data;
  c->frees++;
  g_free (mem);
}

static void
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
}

static void
test_new_and_refcount (void)
{
  Counts counts = { 0 };
  const LmAllocator allocator = {
    .name = "counting",
    .memory = LM_MEMORY_HOST,
    .alloc = counting_alloc,
    .free = counting_free,
    .user_data = &counts,
  };

  GError *error = NULL;
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, 17, 5, &allocator, &error);
  g_assert_no_error (error);
  g_assert_nonnull (image);
  g_assert_cmpuint (image->width, ==, 17);
  g_assert_cmpuint (image->height, ==, 5);
  g_assert_cmpuint (image->stride, ==, 128); /* 68 B → 128 */
  g_assert_true (image->format == LM_FORMAT_RGBA8);
  g_assert_true (image->opaque);
  g_assert_true (image->allocator == &allocator);
  g_assert_null (image->exif);
  g_assert_null (image->icc_profile);
  g_assert_cmpuint (lm_image_size_bytes (image), ==, 640);
  g_assert_cmpuint (counts.allocs, ==, 1);
  g_assert_cmpuint (counts.last_size, ==, 640);
  /* The whole buffer is writable (ASan / valgrind would catch an overrun here). */
  memset (image->data, 0x5A, lm_image_size_bytes (image));
  g_assert_true (lm_image_row (image, 4) == image->data + 4 * 128);

  /* Metadata travels with the image and is released with it. */
  gboolean exif_freed = FALSE;
  image->exif = g_bytes_new_with_free_func ("Exif", 4, set_flag, &exif_freed);

  g_assert_true (lm_image_ref (image) == image);
  lm_image_unref (image);
  g_assert_cmpuint (counts.frees, ==, 0); /* one reference left */
  g_assert_false (exif_freed);
  lm_image_unref (image);
  g_assert_cmpuint (counts.frees, ==, 1);
  g_assert_true (exif_freed);

  lm_image_unref (NULL); /* a no-op, as g_free (NULL) is */
}

static void
test_same_shape (void)
{
  g_autoptr (LmImage) a = lm_test_image_new (LM_FORMAT_RGBA8, 4, 3, 0);
  g_autoptr (LmImage) b = lm_test_image_new (LM_FORMAT_RGBA8, 4, 3, 1);
  g_autoptr (LmImage) c = lm_test_image_new (LM_FORMAT_GRAY8, 4, 3, 0);
  g_autoptr (LmImage) d = lm_test_image_new (LM_FORMAT_RGBA8, 3, 4, 0);
  g_assert_true (lm_image_same_shape (a, b));
  g_assert_false (lm_image_same_shape (a, c));
  g_assert_false (lm_image_same_shape (a, d));
}

/* A reshape stays within the bytes the allocator gave (the counting allocator sees no other
 * allocation), refuses what does not fit and an image someone else holds, and leaves the
 * image as it was when it refuses. 40×7 RGBA8: stride 192, 1344 bytes. */
static void
test_reshape (void)
{
  Counts counts = { 0 };
  const LmAllocator allocator = {
    .name = "counting", .memory = LM_MEMORY_HOST, .alloc = counting_alloc, .free = counting_free,
    .user_data = &counts,
  };
  GError *error = NULL;
  g_autoptr (LmImage) image = lm_image_new (LM_FORMAT_RGBA8, 40, 7, &allocator, &error);
  g_assert_no_error (error);
  guint8 *data = image->data;
  image->exif = g_bytes_new_static ("Exif", 4);

  /* Gray: 64-byte rows, 448 bytes. */
  g_assert_true (lm_image_reshape (image, LM_FORMAT_GRAY8, 40, 7));
  g_assert_true (image->format == LM_FORMAT_GRAY8);
  g_assert_cmpuint (image->stride, ==, 64);
  g_assert_cmpuint (lm_image_size_bytes (image), ==, 448);
  g_assert_true (image->data == data);
  g_assert_nonnull (image->exif);
  /* Back to RGBA: the bytes are still there. */
  g_assert_true (lm_image_reshape (image, LM_FORMAT_RGBA8, 40, 7));
  g_assert_cmpuint (image->stride, ==, 192);
  /* Float RGBA needs 640-byte rows: too many; nothing changes. */
  g_assert_false (lm_image_reshape (image, LM_FORMAT_RGBA_F32, 40, 7));
  g_assert_true (image->format == LM_FORMAT_RGBA8);
  g_assert_cmpuint (image->width, ==, 40);
  g_assert_cmpuint (image->stride, ==, 192);
  /* Another size within the bytes, and an empty one. */
  g_assert_true (lm_image_reshape (image, LM_FORMAT_GRAY8, 100, 10)); /* 128 × 10 = 1280 */
  g_assert_false (lm_image_reshape (image, LM_FORMAT_GRAY8, 130, 11)); /* 192 × 11 = 2112 */
  g_assert_false (lm_image_reshape (image, LM_FORMAT_GRAY8, 0, 7));
  g_assert_cmpuint (image->width, ==, 100);
  /* Held elsewhere too: its holder may still read it as it is. */
  g_autoptr (LmImage) other = lm_image_ref (image);
  g_assert_false (lm_image_reshape (image, LM_FORMAT_RGBA8, 40, 7));
  g_assert_true (image->format == LM_FORMAT_GRAY8);
  g_assert_cmpuint (counts.allocs, ==, 1);
  g_assert_cmpuint (counts.frees, ==, 0);
}

static void
test_copy_metadata (void)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA8, 2, 2, 0);
  g_autoptr (LmImage) dst = lm_test_image_new (LM_FORMAT_GRAY8, 3, 3, 0);
  gboolean old_icc_freed = FALSE, old_exif_freed = FALSE;

  src->icc_profile = g_bytes_new_static ("ICC!", 4);
  src->exif = g_bytes_new_static ("Exif\0\0MM", 8);
  dst->icc_profile = g_bytes_new_with_free_func ("old-icc", 7, set_flag, &old_icc_freed);
  dst->exif = g_bytes_new_with_free_func ("old-exif", 8, set_flag, &old_exif_freed);

  lm_image_copy_metadata (dst, src);
  /* DST shares SRC's blocks and released its own. */
  g_assert_true (dst->icc_profile == src->icc_profile);
  g_assert_true (dst->exif == src->exif);
  g_assert_true (old_icc_freed);
  g_assert_true (old_exif_freed);

  /* Dropping SRC's blocks must not pull them from under DST (DST holds references). */
  g_clear_pointer (&src->icc_profile, g_bytes_unref);
  g_clear_pointer (&src->exif, g_bytes_unref);
  gsize len = 0;
  g_assert_cmpmem (g_bytes_get_data (dst->icc_profile, &len), len, "ICC!", 4);

  /* A source without metadata clears the destination's. */
  lm_image_copy_metadata (dst, src);
  g_assert_null (dst->icc_profile);
  g_assert_null (dst->exif);

  /* Copying onto itself keeps the blocks alive. */
  gboolean self_freed = FALSE;
  dst->exif = g_bytes_new_with_free_func ("self", 4, set_flag, &self_freed);
  lm_image_copy_metadata (dst, dst);
  g_assert_false (self_freed);
  g_assert_nonnull (dst->exif);
  g_assert_cmpmem (g_bytes_get_data (dst->exif, &len), len, "self", 4);
}

/* lm_image_orient on a 3×2 image whose pixels are the letters
 *     a b c
 *     d e f
 * The expected pictures come from the EXIF definition of each value ("row 0 is the visual
 * …, column 0 is the visual …"), worked out on paper. */
static void
test_orient_all_eight (void)
{
  static const struct {
    int orientation;
    guint width, height;
    const char *pixels;
  } cases[] = {
    { 1, 3, 2, "abc" "def" },
    { 2, 3, 2, "cba" "fed" },      /* row 0 top, column 0 right: mirrored */
    { 3, 3, 2, "fed" "cba" },      /* row 0 bottom, column 0 right: 180° */
    { 4, 3, 2, "def" "abc" },      /* row 0 bottom, column 0 left: upside-down mirror */
    { 5, 2, 3, "ad" "be" "cf" },   /* row 0 left, column 0 top: transposed */
    { 6, 2, 3, "da" "eb" "fc" },   /* row 0 right, column 0 top: turn 90° clockwise */
    { 7, 2, 3, "fc" "eb" "da" },   /* row 0 right, column 0 bottom: transversed */
    { 8, 2, 3, "cf" "be" "ad" },   /* row 0 left, column 0 bottom: turn 90° anticlockwise */
  };
  const guint8 letters[] = "abcdef";

  /* Once per format: the copy must move whole pixels of 1, 4 and 16 bytes. */
  const LmFormat formats[] = { LM_FORMAT_GRAY8, LM_FORMAT_RGBA8, LM_FORMAT_RGBA_F32 };
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      gsize bpp = lm_format_bytes_per_pixel (formats[f]);
      g_autoptr (LmImage) src = lm_test_image_new (formats[f], 3, 2, 0xAB);
      for (guint i = 0; i < 6; i++)
        memset (lm_test_pixel (src, i % 3, i / 3), letters[i], bpp);
      src->opaque = FALSE;
      src->exif = g_bytes_new_static ("Exif\0\0", 6);

      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          GError *error = NULL;
          g_autoptr (LmImage) out = lm_image_orient (src, cases[c].orientation, &error);
          g_assert_no_error (error);
          g_assert_nonnull (out);
          g_assert_cmpuint (out->width, ==, cases[c].width);
          g_assert_cmpuint (out->height, ==, cases[c].height);
          g_assert_true (out->format == formats[f]);
          g_assert_false (out->opaque);
          g_assert_true (out->exif == src->exif);
          LM_TEST_RETURN_IF_FAILED ();
          for (guint y = 0; y < out->height; y++)
            for (guint x = 0; x < out->width; x++)
              for (gsize b = 0; b < bpp; b++)
                {
                  char want = cases[c].pixels[y * out->width + x];
                  if (lm_test_pixel (out, x, y)[b] != (guint8) want)
                    g_test_message ("orientation %d, %s, pixel (%u, %u)", cases[c].orientation,
                                    lm_format_name (formats[f]), x, y);
                  g_assert_cmpint (lm_test_pixel (out, x, y)[b], ==, want);
                  LM_TEST_RETURN_IF_FAILED ();
                }
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/image/format-sizes", test_format_sizes);
  g_test_add_func ("/image/layout/known-strides", test_layout_known_strides);
  g_test_add_func ("/image/layout/alignment", test_layout_alignment);
  g_test_add_func ("/image/layout/limits", test_layout_limits);
  g_test_add_func ("/image/pixel-budget", test_pixel_budget);
  g_test_add_func ("/image/new-and-refcount", test_new_and_refcount);
  g_test_add_func ("/image/same-shape", test_same_shape);
  g_test_add_func ("/image/reshape", test_reshape);
  g_test_add_func ("/image/copy-metadata", test_copy_metadata);
  g_test_add_func ("/image/orient/all-eight", test_orient_all_eight);
  return g_test_run ();
}
