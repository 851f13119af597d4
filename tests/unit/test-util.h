/* Helpers shared by the unit tests. */
#pragma once

#include <math.h>
#include <glib.h>

#include "core/edit/pipeline.h"
#include "core/image.h"
#include "core/ops/op.h"

/* The unit tests make assertions non-fatal (g_test_set_nonfatal_assertions in each main), so
 * that a test exposing a bug is reported as "not ok" and the others still run. Loops over
 * pixels use this to stop at the first failure instead of reporting every pixel. */
#define LM_TEST_RETURN_IF_FAILED(...)                                                          \
  G_STMT_START                                                                                 \
  {                                                                                            \
    if (g_test_failed ())                                                                      \
      return __VA_ARGS__;                                                                      \
  }                                                                                            \
  G_STMT_END

/* A host image of FORMAT, every byte set to POISON, so that an unwritten pixel shows. */
LmImage *lm_test_image_new (LmFormat format, guint width, guint height, guint8 poison);

/* A host RGBA8 image from WIDTH × HEIGHT pixels given as R, G, B, A bytes. */
LmImage *lm_test_rgba_from (guint width, guint height, const guint8 *pixels);

/* A host GRAY8 image from WIDTH × HEIGHT bytes. */
LmImage *lm_test_gray_from (guint width, guint height, const guint8 *pixels);

/* The folder of the shared test data (LUMEN_TEST_DATA), failing the test when it is absent. */
const char *lm_test_data_dir (void);

/* A fresh temporary folder, removed with its contents at exit. */
const char *lm_test_tmp_dir (void);

/* Removes PATH and all it holds; links are removed, not followed. The fuzz harnesses' too
 * (fuzz/meson.build links this file). */
void lm_test_remove_tree (const char *path);
/* Whether a thread of this process is named NAME (Linux keeps 15 bytes of it). */
gboolean lm_test_thread_named (const char *name);

/* The bytes of pixel (X, Y). */
static inline guint8 *
lm_test_pixel (const LmImage *image, guint x, guint y)
{
  return lm_image_row (image, y) + (gsize) x * lm_format_bytes_per_pixel (image->format);
}

/* A host RGBA8 image of WIDTH × HEIGHT filled with reproducible pseudo-random bytes (alpha
 * 255 unless WITH_ALPHA), so that tests need no stored fixtures. Padding bytes are poison. */
LmImage *lm_test_random_rgba (guint width, guint height, guint32 seed, gboolean with_alpha);

/* The same for GRAY8. */
LmImage *lm_test_random_gray (guint width, guint height, guint32 seed);

/* Runs OP's CPU reference on SRC through its registration (output_format, output_size, run_cpu), twice,
 * into destinations poisoned with two different bytes, and fails the test unless both runs
 * succeed and agree on every pixel: a pixel the operation did not write keeps its poison and
 * shows as a difference. Returns the first result (opaque copied from SRC, as the backend
 * does). */
LmImage *lm_test_run_op (const LmOpInfo *op, const void *params, const LmImage *src);

/* The shared data's photo NAME (LUMEN_TEST_DATA/photos/NAME) in host memory, as it loads. */
LmImage *lm_test_load_photo (const char *name);

/* The WIDTH × HEIGHT part of SRC at (X, Y), which must lie inside it, in a new host image. */
LmImage *lm_test_crop (const LmImage *src, guint x, guint y, guint width, guint height);

/* SRC (8-bit) as 16 bits whose low bytes are not the high ones (v · 257 moved by a pattern
 * of x and y), so that a render that drops them, or goes through 8 bits, differs. */
LmImage *lm_test_deepen (const LmImage *src);

/* Enables PIPELINE's stage of the operation named OP and, NAME not NULL, sets its parameter
 * NAME from the text VALUE as a sidecar or a flag gives it; fails the test where OP has no
 * such parameter or refuses VALUE. */
void lm_test_set_param (LmPipeline *pipeline, const char *op, const char *name, const char *value);

/* Fails the test unless A and B have the same shape and the same pixels (padding ignored). */
void lm_test_assert_same_pixels (const LmImage *a, const LmImage *b);

/* Writes LEN bytes to a new file NAME under lm_test_tmp_dir () and returns its path. */
char *lm_test_write_tmp (const char *name, const void *data, gsize len);

/* BT.601 luma of an 8-bit colour, written out here rather than taken from the code under
 * test: (0.299 R + 0.587 G) + 0.114 B in single precision, rounded half up. */
static inline guint8
lm_test_luma601 (guint8 r, guint8 g, guint8 b)
{
  float y = (0.299f * (float) r + 0.587f * (float) g) + 0.114f * (float) b;
  return (guint8) (int) (y + 0.5f);
}

/* The sRGB curve (IEC 61966-2-1) in double, written out here rather than taken from the code
 * under test: an encoded V (0..1) in linear light, and back. */
static inline double
lm_test_srgb_decode (double v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

static inline double
lm_test_srgb_encode (double l)
{
  return l <= 0.0031308 ? l * 12.92 : 1.055 * pow (l, 1.0 / 2.4) - 0.055;
}
