/* BT.2020's profiles (core/color/rec2020.h) against ITU-R BT.2020 itself: its RGB → XYZ
 * matrix derived here from the published primaries and white, then known colours through
 * lcms2 (RGB to its XYZ, D50 by Bradford as ICC wants it) and through LmColorProfile (the
 * adaptation undone: D65 again), for the linear profile and the one with sRGB's curve. */
#include <math.h>
#include <string.h>
#include <lcms2.h>

#include "core/color/rec2020.h"
#include "test-util.h"

/* BT.2020, Table 3: primaries and white, CIE 1931 xy (written out here, not taken from the
 * header under test). */
static const double xy[4][2] = { { 0.708, 0.292 }, { 0.170, 0.797 }, { 0.131, 0.046 }, { 0.3127, 0.3290 } };

static void
invert (const double m[3][3], double out[3][3])
{
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      {
        int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
        out[r][c] = (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) / det;
      }
}

static void
mul (const double a[3][3], const double b[3][3], double out[3][3])
{
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      out[r][c] = a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c];
}

static void
apply (const double m[3][3], const double v[3], double out[3])
{
  for (int r = 0; r < 3; r++)
    out[r] = m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2];
}

/* SMPTE RP 177's derivation: the primaries' XYZ (Y = 1) scaled so that RGB 1, 1, 1 is the
 * white at Y = 1. For BT.2020 it gives 0.6370, 0.1446, 0.1689 / 0.2627, 0.6780, 0.0593 /
 * 0, 0.0281, 1.0610 (BT.2087, BT.2100's luminance weights 0.2627, 0.6780, 0.0593). */
static void
rec2020_to_xyz (double m[3][3])
{
  double p[3][3], inv[3][3], w[3], s[3];
  for (int c = 0; c < 3; c++)
    {
      p[0][c] = xy[c][0] / xy[c][1];
      p[1][c] = 1.0;
      p[2][c] = (1.0 - xy[c][0] - xy[c][1]) / xy[c][1];
    }
  w[0] = xy[3][0] / xy[3][1], w[1] = 1.0, w[2] = (1.0 - xy[3][0] - xy[3][1]) / xy[3][1];
  invert (p, inv);
  apply (inv, w, s);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      m[r][c] = p[r][c] * s[c];
}

/* Bradford's adaptation from BT.2020's white to ICC's D50 (lcms2's cmsD50_XYZ). */
static void
bradford_to_d50 (double m[3][3])
{
  static const double b[3][3] = { { 0.8951, 0.2664, -0.1614 }, { -0.7502, 1.7135, 0.0367 }, { 0.0389, -0.0685, 1.0296 } };
  const double src[3] = { xy[3][0] / xy[3][1], 1.0, (1.0 - xy[3][0] - xy[3][1]) / xy[3][1] };
  const double dst[3] = { 0.9642, 1.0, 0.8249 };
  double cs[3], cd[3], binv[3][3], scale[3][3] = { { 0 } }, t[3][3];
  apply (b, src, cs);
  apply (b, dst, cd);
  for (int i = 0; i < 3; i++)
    scale[i][i] = cd[i] / cs[i];
  invert (b, binv);
  mul (scale, b, t);
  mul (binv, t, m);
}

static double
srgb_decode (double v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

static const double colours[][3] = {
  { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 1, 1 }, { 0.18, 0.18, 0.18 }, { 0.5, 0.2, 0.9 },
  { 0.05, 0.7, 0.3 }, { 0.9, 0.6, 0.01 }, { 0, 0, 0 },
};

/* ICC through lcms2 to XYZ: each colour within 2e-4 of the matrix's (s15.16 colorants) after
 * Bradford to D50; ENCODED: the profile's RGB is sRGB-encoded. */
static void
check_lcms (GBytes *icc, gboolean encoded)
{
  double m[3][3], a[3][3], m50[3][3];
  rec2020_to_xyz (m);
  bradford_to_d50 (a);
  mul (a, m, m50);
  gsize len;
  const void *data = g_bytes_get_data (icc, &len);
  cmsHPROFILE h = cmsOpenProfileFromMem (data, (cmsUInt32Number) len);
  g_assert_nonnull (h);
  g_assert_true (cmsIsMatrixShaper (h));
  cmsHPROFILE xyz = cmsCreateXYZProfile ();
  cmsHTRANSFORM t = cmsCreateTransform (h, TYPE_RGB_DBL, xyz, TYPE_XYZ_DBL, INTENT_RELATIVE_COLORIMETRIC,
                                        cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE);
  g_assert_nonnull (t);
  for (guint i = 0; i < G_N_ELEMENTS (colours); i++)
    {
      double rgb[3], lin[3], want[3];
      cmsCIEXYZ got;
      for (int c = 0; c < 3; c++)
        {
          lin[c] = colours[i][c];
          rgb[c] = encoded ? (lin[c] <= 0.0031308 ? lin[c] * 12.92 : 1.055 * pow (lin[c], 1 / 2.4) - 0.055) : lin[c];
        }
      apply (m50, lin, want);
      cmsDoTransform (t, rgb, &got, 1);
      g_assert_cmpfloat (fabs (got.X - want[0]), <=, 2e-4);
      g_assert_cmpfloat (fabs (got.Y - want[1]), <=, 2e-4);
      g_assert_cmpfloat (fabs (got.Z - want[2]), <=, 2e-4);
    }
  cmsDeleteTransform (t);
  cmsCloseProfile (xyz);
  cmsCloseProfile (h);
}

static void
check_profile (LmColorProfile *p, gboolean encoded)
{
  double m[3][3], got[3][3], w[3];
  rec2020_to_xyz (m);
  g_assert_false (lm_color_profile_is_srgb (p));
  lm_color_profile_rgb_to_xyz (p, got);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      g_assert_cmpfloat (fabs (got[r][c] - m[r][c]), <=, 2e-4);
  /* The published figures too (BT.2087), to their four decimals. */
  g_assert_cmpfloat (fabs (m[0][0] - 0.6370), <=, 5e-5);
  g_assert_cmpfloat (fabs (m[1][0] - 0.2627), <=, 5e-5);
  g_assert_cmpfloat (fabs (m[1][1] - 0.6780), <=, 5e-5);
  g_assert_cmpfloat (fabs (m[2][2] - 1.0610), <=, 5e-5);
  lm_color_profile_luminance (p, w);
  g_assert_cmpfloat (fabs (w[0] - 0.2627), <=, 2e-4);
  g_assert_cmpfloat (fabs (w[1] - 0.6780), <=, 2e-4);
  g_assert_cmpfloat (fabs (w[2] - 0.0593), <=, 2e-4);
  for (int i = 0; i <= 20; i++)
    {
      double v = i / 20.0;
      double want = encoded ? srgb_decode (v) : v;
      g_assert_cmpfloat (fabs (lm_color_profile_to_linear (p, 1, v) - want), <=, 1e-4);
    }
}

static void
test_linear (void)
{
  g_autoptr (GBytes) icc = lm_color_rec2020_linear_icc ();
  check_lcms (icc, FALSE);
  g_autoptr (LmColorProfile) p = lm_color_profile_new_rec2020_linear ();
  check_profile (p, FALSE);
  g_assert_cmpstr (lm_color_profile_description (p), ==, "Rec. 2020 linear");
}

static void
test_display (void)
{
  g_autoptr (GBytes) icc = lm_color_rec2020_display_icc ();
  check_lcms (icc, TRUE);
  g_autoptr (LmColorProfile) p = lm_color_profile_new_rec2020_display ();
  check_profile (p, TRUE);
}

/* The same bytes every time (a fixed creation date), and the two profiles differ. */
static void
test_stable_bytes (void)
{
  g_autoptr (GBytes) a = lm_color_rec2020_linear_icc ();
  g_autoptr (GBytes) b = lm_color_rec2020_display_icc ();
  g_assert_false (g_bytes_equal (a, b));
  const guint8 *d = g_bytes_get_data (a, NULL);
  g_assert_cmpuint ((guint) d[24] << 8 | d[25], ==, 2012);
  g_assert_cmpuint (d[8], ==, 4); /* ICC version 4 */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/rec2020/linear", test_linear);
  g_test_add_func ("/rec2020/display", test_display);
  g_test_add_func ("/rec2020/stable-bytes", test_stable_bytes);
  return g_test_run ();
}
