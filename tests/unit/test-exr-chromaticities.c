/* The scene-referred EXR's header: radiance tagged with linear Rec. 2020 (core/color/rec2020.h)
 * is written with OpenEXR's chromaticities attribute holding BT.2020's primaries and white,
 * read back by OpenEXR's own reader; sRGB's profile gives Rec. 709's; radiance without a
 * profile, or with one that is no RGB matrix-shaper, says nothing (readers take Rec. 709). */
#include <math.h>
#include <string.h>

#include "config.h"
#include "core/color/convert.h"
#include "core/color/rec2020.h"
#include "core/io/io.h"
#include "test-util.h"

#if LUMEN_HAVE_OPENEXR
#include <openexr.h>

/* BT.2020 Table 3 and BT.709 Table 1 (red, green, blue, white; x then y), written out here. */
static const float bt2020[8] = { 0.708f, 0.292f, 0.170f, 0.797f, 0.131f, 0.046f, 0.3127f, 0.3290f };
static const float bt709[8] = { 0.640f, 0.330f, 0.300f, 0.600f, 0.150f, 0.060f, 0.3127f, 0.3290f };

static char *
save (GBytes *icc, const char *name)
{
  g_autoptr (LmImage) image = lm_test_image_new (LM_FORMAT_RGBA_F32, 5, 3, 0);
  for (guint y = 0; y < image->height; y++)
    {
      float *row = (float *) lm_image_row (image, y);
      for (guint i = 0; i < 4 * image->width; i++)
        row[i] = i % 4 == 3 ? 1.0f : 0.01f * (float) (i + y);
    }
  image->opaque = TRUE;
  image->icc_profile = icc ? g_bytes_ref (icc) : NULL;
  char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  GError *e = NULL;
  g_assert_true (lm_io_save (image, path, &options, &e));
  g_assert_no_error (e);
  return path;
}

/* The file's chromaticities through OpenEXR's reader; FALSE when it has none. */
static gboolean
read_chromaticities (const char *path, float out[8])
{
  exr_context_t ctx = NULL;
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  g_assert_cmpint (exr_start_read (&ctx, path, &init), ==, EXR_ERR_SUCCESS);
  exr_attr_chromaticities_t c;
  exr_result_t rv = exr_attr_get_chromaticities (ctx, 0, "chromaticities", &c);
  exr_finish (&ctx);
  if (rv == EXR_ERR_NO_ATTR_BY_NAME)
    return FALSE;
  g_assert_cmpint (rv, ==, EXR_ERR_SUCCESS);
  const float v[8] = { c.red_x, c.red_y, c.green_x, c.green_y, c.blue_x, c.blue_y, c.white_x, c.white_y };
  memcpy (out, v, sizeof v);
  return TRUE;
}

static void
check (const char *path, const float want[8])
{
  float got[8];
  g_assert_true (read_chromaticities (path, got));
  for (int i = 0; i < 8; i++)
    g_assert_cmpfloat (fabsf (got[i] - want[i]), <, 5e-5f); /* 4 decimals */
}

static void
test_rec2020 (void)
{
  g_autoptr (GBytes) icc = lm_color_rec2020_linear_icc ();
  g_autofree char *path = save (icc, "rec2020.exr");
  check (path, bt2020);
  /* The pixels are as before: the attribute is all that changed. */
  g_autoptr (LmImage) back = lm_io_load (path, lm_allocator_host (), NULL);
  g_assert_nonnull (back);
  g_assert_cmpfloat (fabsf (((const float *) lm_image_row (back, 2))[5] - 0.07f), <, 1e-4f);
}

static void
test_srgb (void)
{
  g_autoptr (GBytes) icc = lm_color_srgb_icc ();
  g_autofree char *path = save (icc, "srgb.exr");
  check (path, bt709);
}

static void
test_none (void)
{
  float got[8];
  g_autofree char *untagged = save (NULL, "untagged.exr");
  g_assert_false (read_chromaticities (untagged, got));
  /* Bytes that are no ICC profile: the file is written all the same, without the attribute. */
  g_autoptr (GBytes) junk = g_bytes_new_static ("not a profile at all, nor long enough", 37);
  g_autofree char *damaged = save (junk, "damaged.exr");
  g_assert_false (read_chromaticities (damaged, got));
}
#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
#if LUMEN_HAVE_OPENEXR
  g_test_add_func ("/exr/chromaticities/rec2020", test_rec2020);
  g_test_add_func ("/exr/chromaticities/srgb", test_srgb);
  g_test_add_func ("/exr/chromaticities/none", test_none);
#endif
  return g_test_run ();
}
