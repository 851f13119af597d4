/* What Lumen reads from ICC profiles, held against published figures rather than lcms2's own
 * output: Adobe RGB (1998)'s and ProPhoto RGB's primaries and whites from their
 * specifications, Adobe RGB's gamma 563/256; sRGB profiles taken as sRGB and nothing else;
 * unusable profiles falling back to sRGB with a note. Then the operations that use them
 * (luminosity, exposure, white balance), and the conversion to sRGB at 16 bits against the
 * colorimetry written out here. The profiles come from colord's packaged set. */
#include <math.h>
#include <string.h>
#include <lcms2.h>

#include "core/color/convert.h"
#include "core/color/profile.h"
#include "core/edit/commit.h"
#include "core/edit/pipeline.h"
#include "core/ops/ops.h"
#include "core/ops/wb.h"
#include "test-util.h"

#define COLORD "/usr/share/color/icc/colord/"
#define ADOBE_GAMMA (563.0 / 256.0)

/* Adobe RGB (1998) Color Image Encoding, 4.3.4.1: linear RGB → XYZ (D65). */
static const double adobe_m[3][3] = {
  { 0.57667, 0.18556, 0.18823 },
  { 0.29734, 0.62736, 0.07529 },
  { 0.02703, 0.07069, 0.99134 },
};
/* ProPhoto RGB (ROMM RGB, ISO 22028-2): the luminances of its primaries; white D50. */
static const double prophoto_y[3] = { 0.2880402, 0.7118741, 0.0000857 };
/* sRGB (IEC 61966-2-1) XYZ → linear RGB. */
static const double srgb_inv[3][3] = {
  { 3.2404542, -1.5371385, -0.4985314 },
  { -0.9692660, 1.8760108, 0.0415560 },
  { 0.0556434, -0.2040259, 1.0572252 },
};

/* The profile file NAME of colord's set, or NULL and the test skipped. */
static GBytes *
colord_icc (const char *name)
{
  g_autofree char *path = g_build_filename (COLORD, name, NULL);
  gchar *data = NULL;
  gsize len = 0;
  if (!g_file_get_contents (path, &data, &len, NULL))
    {
      g_test_skip ("colord-data's ICC profiles are not installed (apt-get install colord-data)");
      return NULL;
    }
  return g_bytes_new_take (data, len);
}

static LmColorProfile *
colord_profile (const char *name)
{
  g_autoptr (GBytes) icc = colord_icc (name);
  if (icc == NULL)
    return NULL;
  g_autofree char *note = NULL;
  LmColorProfile *p = lm_color_profile_new (icc, &note);
  g_assert_null (note);
  return p;
}

static void
test_srgb (void)
{
  g_autoptr (LmColorProfile) none = lm_color_profile_new (NULL, NULL);
  g_assert_true (lm_color_profile_is_srgb (none));
  double w[3];
  lm_color_profile_luminance (none, w);
  g_assert_cmpfloat (w[0], ==, 0.2126);
  g_assert_cmpfloat (w[1], ==, 0.7152);
  g_assert_cmpfloat (w[2], ==, 0.0722);

  /* A profile that describes sRGB is sRGB, whoever wrote it; BT.709's primaries with
   * BT.709's camera curve are not. */
  g_autoptr (LmColorProfile) srgb = colord_profile ("sRGB.icc");
  if (srgb == NULL)
    return;
  g_assert_true (lm_color_profile_is_srgb (srgb));
  g_assert_nonnull (strstr (lm_color_profile_description (srgb), "sRGB"));
  g_autoptr (LmColorProfile) rec709 = colord_profile ("Rec709.icc");
  g_assert_false (lm_color_profile_is_srgb (rec709));
  lm_color_profile_luminance (rec709, w);
  g_assert_cmpfloat_with_epsilon (w[0], 0.2126, 1e-3);
  g_assert_cmpfloat_with_epsilon (w[1], 0.7152, 1e-3);
}

static void
test_adobe (void)
{
  g_autoptr (LmColorProfile) p = colord_profile ("AdobeRGB1998.icc");
  if (p == NULL)
    return;
  g_assert_false (lm_color_profile_is_srgb (p));
  /* The profile's colorants are D50-adapted; with 'chad' undone they are the
   * specification's, under D65. */
  double m[3][3], w[3], white[3];
  lm_color_profile_rgb_to_xyz (p, m);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      g_assert_cmpfloat_with_epsilon (m[r][c], adobe_m[r][c], 1e-3);
  lm_color_profile_luminance (p, w);
  g_assert_cmpfloat_with_epsilon (w[0], 0.2974, 3e-4);
  g_assert_cmpfloat_with_epsilon (w[1], 0.6274, 3e-4);
  g_assert_cmpfloat_with_epsilon (w[2], 0.0753, 3e-4);
  lm_color_profile_white (p, white);
  g_assert_cmpfloat_with_epsilon (white[0], 0.95047, 2e-3);
  g_assert_cmpfloat_with_epsilon (white[1], 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (white[2], 1.08883, 2e-3);
  for (int c = 0; c < 3; c++)
    for (int i = 0; i <= 16; i++)
      {
        double v = i / 16.0;
        double l = lm_color_profile_to_linear (p, c, v);
        g_assert_cmpfloat_with_epsilon (l, pow (v, ADOBE_GAMMA), 1e-6);
        g_assert_cmpfloat_with_epsilon (lm_color_profile_from_linear (p, c, l), v, 1e-5);
        /* Beyond 0..1 as sRGB's curve is extended: odd below 0, the formula above 1. */
        g_assert_cmpfloat_with_epsilon (lm_color_profile_to_linear (p, c, -v), -l, 1e-6);
      }
  g_assert_cmpfloat_with_epsilon (lm_color_profile_to_linear (p, 0, 1.5), pow (1.5, ADOBE_GAMMA), 1e-5);
  float table[256];
  lm_color_profile_linear_table (p, 1, table, 256);
  g_assert_cmpfloat_with_epsilon (table[128], pow (128 / 255.0, ADOBE_GAMMA), 1e-6);
  g_assert_cmpfloat (table[255], ==, 1.0f);
}

static void
test_prophoto (void)
{
  g_autoptr (LmColorProfile) p = colord_profile ("ProPhotoRGB.icc");
  if (p == NULL)
    return;
  g_assert_false (lm_color_profile_is_srgb (p));
  double w[3], white[3];
  lm_color_profile_luminance (p, w);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat_with_epsilon (w[c], prophoto_y[c], 3e-4);
  lm_color_profile_white (p, white);
  g_assert_cmpfloat_with_epsilon (white[0], 0.9642, 1e-3);
  g_assert_cmpfloat_with_epsilon (white[2], 0.8249, 1e-3);
}

static void
expect_fallback (GBytes *icc)
{
  g_autofree char *note = NULL;
  g_autoptr (LmColorProfile) p = lm_color_profile_new (icc, &note);
  g_assert_true (lm_color_profile_is_srgb (p));
  g_assert_nonnull (note);
  g_assert_nonnull (strstr (note, "sRGB"));
}

static void
test_unusable (void)
{
  g_autoptr (GBytes) junk = g_bytes_new_static ("not a profile at all", 20);
  expect_fallback (junk);

  cmsToneCurve *gamma = cmsBuildGamma (NULL, 2.2);
  cmsHPROFILE gray = cmsCreateGrayProfile (cmsD50_xyY (), gamma);
  cmsFreeToneCurve (gamma);
  cmsUInt32Number len = 0;
  g_assert_true (cmsSaveProfileToMem (gray, NULL, &len));
  void *data = g_malloc (len);
  g_assert_true (cmsSaveProfileToMem (gray, data, &len));
  cmsCloseProfile (gray);
  g_autoptr (GBytes) gray_icc = g_bytes_new_take (data, len);
  expect_fallback (gray_icc);
}

/* sRGB (or no profile) leaves a pipeline's bytes as they were: the same renders as before
 * profiles were read. */
static void
test_pipeline_srgb_untouched (void)
{
  LmPipeline plain, colored;
  lm_pipeline_init (&plain);
  lm_pipeline_init (&colored);
  g_autoptr (LmColorProfile) srgb = colord_profile ("sRGB.icc");
  if (srgb == NULL)
    return;
  lm_pipeline_set_color (&colored, srgb);
  g_assert_true (memcmp (&plain, &colored, sizeof plain) == 0);
  g_autoptr (LmColorProfile) adobe = colord_profile ("AdobeRGB1998.icc");
  lm_pipeline_set_color (&colored, adobe);
  g_assert_false (memcmp (&plain, &colored, sizeof plain) == 0);
  lm_pipeline_set_color (&colored, NULL);
  g_assert_true (memcmp (&plain, &colored, sizeof plain) == 0);
}

/* V's exact value must round to OUT, unless it lies too near a half to tell. */
static void
assert_rounds_to (double v, guint8 out)
{
  double clamped = CLAMP (v, 0.0, 255.0);
  if (fabs (clamped - floor (clamped) - 0.5) < 1e-3)
    g_assert_cmpfloat (fabs (clamped - out), <=, 0.5 + 1e-3);
  else
    g_assert_cmpint (out, ==, (int) floor (clamped + 0.5));
}

static void
test_exposure_adobe (void)
{
  g_autoptr (LmColorProfile) adobe = colord_profile ("AdobeRGB1998.icc");
  if (adobe == NULL)
    return;
  guint8 ramp[256 * 4];
  for (int i = 0; i < 256; i++)
    ramp[4 * i] = (guint8) i, ramp[4 * i + 1] = (guint8) (255 - i), ramp[4 * i + 2] = (guint8) (i / 2),
    ramp[4 * i + 3] = 255;
  g_autoptr (LmImage) src = lm_test_rgba_from (256, 1, ramp);
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  lm_pipeline_stage (&pipeline, LM_OP_EXPOSURE)->params.exposure.ev = 1.0f;
  lm_pipeline_set_color (&pipeline, adobe);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_exposure_op, lm_pipeline_stage (&pipeline, LM_OP_EXPOSURE)->params.bytes, src);
  for (int i = 0; i < 256; i++)
    for (int c = 0; c < 3; c++)
      {
        /* +1 EV doubles the light decoded with Adobe RGB's gamma, not sRGB's curve. */
        double v = ramp[4 * i + c] / 255.0;
        assert_rounds_to (255.0 * pow (2.0 * pow (v, ADOBE_GAMMA), 1.0 / ADOBE_GAMMA), lm_test_pixel (out, i, 0)[c]);
        LM_TEST_RETURN_IF_FAILED ();
      }
  /* 50 goes to 68.5 (sRGB's curve would give 71.4). */
  g_assert_cmpint (lm_test_pixel (out, 50, 0)[0], ==, 69);
}

static void
test_gray_adobe (void)
{
  g_autoptr (LmColorProfile) adobe = colord_profile ("AdobeRGB1998.icc");
  if (adobe == NULL)
    return;
  g_autoptr (LmImage) src = lm_test_random_rgba (64, 16, 7, FALSE);
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  lm_pipeline_set_color (&pipeline, adobe);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_gray_op, lm_pipeline_stage (&pipeline, LM_OP_GRAY)->params.bytes, src);
  g_assert_cmpint (out->format, ==, LM_FORMAT_GRAY8);
  guint differs_from_709 = 0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *p = lm_test_pixel (src, x, y);
        double adobe_y = adobe_m[1][0] * p[0] + adobe_m[1][1] * p[1] + adobe_m[1][2] * p[2];
        double bt709 = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
        guint8 got = *lm_test_pixel (out, x, y);
        /* The specification's weights and the profile's (s15.16, through 'chad') differ by
         * 10⁻⁴: a level at most, only where the value lies that near a half. */
        g_assert_cmpfloat (fabs (adobe_y - got), <, 0.55);
        differs_from_709 += got != (guint8) floor (bt709 + 0.5);
        LM_TEST_RETURN_IF_FAILED ();
      }
  g_assert_cmpuint (differs_from_709, >, src->width * src->height / 4);
}

/* White balance in Adobe RGB: the picker's temperature and tint, with the gains they make in
 * that profile, turn the patch neutral in its own linear light. */
static void
test_wb_adobe (void)
{
  g_autoptr (LmColorProfile) adobe = colord_profile ("AdobeRGB1998.icc");
  if (adobe == NULL)
    return;
  const float patch[3] = { 150.0f, 128.0f, 96.0f };
  LmOpContext context;
  lm_op_context_init (&context, adobe);
  LmWbParams p = { .color = context.color };
  g_assert_cmpint (lm_wb_from_gray_in (&context.color, patch[0], patch[1], patch[2], &p.temperature, &p.tint), ==, 1);
  LmWbGains g, srgb_gains;
  lm_wb_gains (&p, &g);
  double l[3];
  for (int c = 0; c < 3; c++)
    l[c] = pow (patch[c] / 255.0, ADOBE_GAMMA) * g.gain[c];
  g_assert_cmpfloat_with_epsilon (l[0] / l[1], 1.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (l[2] / l[1], 1.0, 1e-3);
  /* Normalised with Adobe RGB's luminances, not BT.709's. */
  g_assert_cmpfloat_with_epsilon (adobe_m[1][0] * g.gain[0] + adobe_m[1][1] * g.gain[1] + adobe_m[1][2] * g.gain[2],
                                  1.0, 1e-3);
  /* 6500 K changes nothing in any profile. */
  LmWbParams neutral = { 6500.0f, 0.0f, context.color };
  lm_wb_gains (&neutral, &g);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat_with_epsilon (g.gain[c], 1.0, 1e-6);
  /* And sRGB's gains are not Adobe RGB's. */
  LmWbParams warm = { 3200.0f, 0.0f }, warm_adobe = { 3200.0f, 0.0f, context.color };
  lm_wb_gains (&warm, &srgb_gains);
  lm_wb_gains (&warm_adobe, &g);
  g_assert_cmpfloat (fabs (srgb_gains.gain[2] - g.gain[2]), >, 0.01);
}

static double
srgb_encode (double l)
{
  l = CLAMP (l, 0.0, 1.0);
  return l <= 0.0031308 ? l * 12.92 : 1.055 * pow (l, 1.0 / 2.4) - 0.055;
}

/* 16-bit Adobe RGB to sRGB against the colorimetry: decode with gamma 563/256, to XYZ with
 * the specification's matrix, to sRGB with IEC 61966-2-1's, encode (colours inside sRGB's
 * gamut, which perceptual and colorimetric treat alike). Within half an 8-bit level. */
static void
test_convert_rgba16 (void)
{
  g_autoptr (GBytes) icc = colord_icc ("AdobeRGB1998.icc");
  if (icc == NULL)
    return;
  static const guint16 colours[][4] = {
    { 30000, 20000, 10000, 65535 }, { 12000, 40000, 30000, 1234 }, { 50000, 50000, 50000, 0 },
    { 20000, 25000, 45000, 40000 }, { 65535, 65535, 65535, 65535 }, { 0, 0, 0, 65535 },
  };
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA16, G_N_ELEMENTS (colours), 1, 0x5a);
  memcpy (lm_image_row (src, 0), colours, sizeof colours);
  src->icc_profile = g_bytes_ref (icc);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) out = lm_color_convert_to_srgb (src, &error);
  g_assert_no_error (error);
  g_assert_cmpint (out->format, ==, LM_FORMAT_RGBA16);
  g_autoptr (GBytes) srgb = lm_color_srgb_icc ();
  g_assert_true (g_bytes_equal (out->icc_profile, srgb));
  const guint16 *px = (const guint16 *) lm_image_row (out, 0);
  for (guint i = 0; i < G_N_ELEMENTS (colours); i++)
    {
      double lin[3], xyz[3];
      for (int c = 0; c < 3; c++)
        lin[c] = pow (colours[i][c] / 65535.0, ADOBE_GAMMA);
      for (int r = 0; r < 3; r++)
        xyz[r] = adobe_m[r][0] * lin[0] + adobe_m[r][1] * lin[1] + adobe_m[r][2] * lin[2];
      for (int c = 0; c < 3; c++)
        {
          double want = 65535.0 * srgb_encode (srgb_inv[c][0] * xyz[0] + srgb_inv[c][1] * xyz[1] + srgb_inv[c][2] * xyz[2]);
          g_assert_cmpfloat (fabs (px[4 * i + c] - want), <, 128.0);
        }
      g_assert_cmpuint (px[4 * i + 3], ==, colours[i][3]);
    }
}

/* A gray image stays one channel and gray; an image without a profile is sRGB already. */
static void
test_convert_gray_and_untagged (void)
{
  g_autoptr (GBytes) icc = colord_icc ("AdobeRGB1998.icc");
  if (icc == NULL)
    return;
  guint8 levels[256];
  for (int i = 0; i < 256; i++)
    levels[i] = (guint8) i;
  g_autoptr (LmImage) gray = lm_test_gray_from (256, 1, levels);
  gray->icc_profile = g_bytes_ref (icc);
  g_autoptr (LmImage) out = lm_color_convert_to_srgb (gray, NULL);
  g_assert_cmpint (out->format, ==, LM_FORMAT_GRAY8);
  for (int i = 0; i < 256; i++)
    {
      /* A neutral keeps its luminance: Adobe RGB's gamma decoded, sRGB's curve encoded. */
      double want = 255.0 * srgb_encode (pow (i / 255.0, ADOBE_GAMMA));
      g_assert_cmpfloat (fabs (lm_image_row (out, 0)[i] - want), <=, 1.0);
    }

  g_autoptr (LmImage) plain = lm_test_random_rgba (17, 5, 3, TRUE);
  g_autoptr (LmImage) copy = lm_color_convert_to_srgb (plain, NULL);
  lm_test_assert_same_pixels (plain, copy);
  g_assert_nonnull (copy->icc_profile);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/profile/srgb", test_srgb);
  g_test_add_func ("/profile/adobe-rgb", test_adobe);
  g_test_add_func ("/profile/prophoto-rgb", test_prophoto);
  g_test_add_func ("/profile/unusable", test_unusable);
  g_test_add_func ("/profile/pipeline-srgb-untouched", test_pipeline_srgb_untouched);
  g_test_add_func ("/profile/exposure-adobe-rgb", test_exposure_adobe);
  g_test_add_func ("/profile/gray-luminosity-adobe-rgb", test_gray_adobe);
  g_test_add_func ("/profile/wb-adobe-rgb", test_wb_adobe);
  g_test_add_func ("/convert/rgba16-adobe-rgb", test_convert_rgba16);
  g_test_add_func ("/convert/gray-and-untagged", test_convert_gray_and_untagged);
  return g_test_run ();
}
