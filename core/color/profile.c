/* A photo's RGB read from its ICC profile with lcms2 (profile.h says what is kept). */
#include "profile.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <lcms2.h>

#include "../ops/srgb-math.h"

struct _LmColorProfile {
  gint ref_count;
  gboolean srgb;
  char *description;
  double rgb_to_xyz[3][3];
  double xyz_to_rgb[3][3];
  /* Each channel's curve and its inverse; NULL for sRGB, whose curve is computed exactly. */
  cmsToneCurve *decode[3];
  cmsToneCurve *encode[3];
};

/* IEC 61966-2-1's matrix (D65), as the sRGB code paths use it. */
static const double srgb_rgb_to_xyz[3][3] = {
  { 0.4124564, 0.3575761, 0.1804375 },
  { 0.2126729, 0.7151522, 0.0721750 },
  { 0.0193339, 0.1191920, 0.9503041 },
};
static const double srgb_xyz_to_rgb[3][3] = {
  { 3.2404542, -1.5371385, -0.4985314 },
  { -0.9692660, 1.8760108, 0.0415560 },
  { 0.0556434, -0.2040259, 1.0572252 },
};

static gboolean
invert3 (const double m[3][3], double out[3][3])
{
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
               - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (!(fabs (det) > 1e-12) || !isfinite (det))
    return FALSE;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      {
        /* The cofactor of (c, r), transposed: the adjugate. */
        int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
        out[r][c] = (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) / det;
      }
  return TRUE;
}

static LmColorProfile *
profile_alloc (void)
{
  LmColorProfile *p = g_new0 (LmColorProfile, 1);
  p->ref_count = 1;
  return p;
}

static void
make_srgb (LmColorProfile *p)
{
  p->srgb = TRUE;
  g_free (p->description);
  p->description = g_strdup ("sRGB");
  memcpy (p->rgb_to_xyz, srgb_rgb_to_xyz, sizeof p->rgb_to_xyz);
  memcpy (p->xyz_to_rgb, srgb_xyz_to_rgb, sizeof p->xyz_to_rgb);
  for (int c = 0; c < 3; c++)
    {
      g_clear_pointer (&p->decode[c], cmsFreeToneCurve);
      g_clear_pointer (&p->encode[c], cmsFreeToneCurve);
    }
}

LmColorProfile *
lm_color_profile_new_srgb (void)
{
  LmColorProfile *p = profile_alloc ();
  make_srgb (p);
  return p;
}

/* The colorants under the profile's own white. ICC stores them adapted to D50; version 4
 * profiles say how in 'chad', version 2 ones imply Bradford from 'wtpt' (which lcms2
 * applies). Undoing that is what gives Adobe RGB its published luminances (0.2974, 0.6274,
 * 0.0753) rather than the D50-adapted ones (0.3111, 0.6257, 0.0632). */
static gboolean
read_matrix (cmsHPROFILE h, double m[3][3])
{
  static const cmsTagSignature colorants[3] = { cmsSigRedColorantTag, cmsSigGreenColorantTag,
                                                cmsSigBlueColorantTag };
  const cmsFloat64Number *chad = cmsReadTag (h, cmsSigChromaticAdaptationTag);
  const cmsCIEXYZ *wtpt = cmsReadTag (h, cmsSigMediaWhitePointTag);
  double undo[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
  if (chad != NULL)
    {
      double a[3][3];
      for (int i = 0; i < 9; i++)
        a[i / 3][i % 3] = chad[i];
      if (!invert3 (a, undo))
        return FALSE;
    }
  for (int c = 0; c < 3; c++)
    {
      const cmsCIEXYZ *xyz = cmsReadTag (h, colorants[c]);
      if (xyz == NULL)
        return FALSE;
      cmsCIEXYZ native = *xyz;
      if (chad != NULL)
        {
          const double v[3] = { xyz->X, xyz->Y, xyz->Z };
          double *n[3] = { &native.X, &native.Y, &native.Z };
          for (int r = 0; r < 3; r++)
            *n[r] = undo[r][0] * v[0] + undo[r][1] * v[1] + undo[r][2] * v[2];
        }
      else if (wtpt != NULL && wtpt->Y > 0.0)
        {
          cmsCIEXYZ white = { wtpt->X / wtpt->Y, 1.0, wtpt->Z / wtpt->Y };
          if (!cmsAdaptToIlluminant (&native, cmsD50_XYZ (), &white, xyz))
            return FALSE;
        }
      m[0][c] = native.X, m[1][c] = native.Y, m[2][c] = native.Z;
    }
  /* White (all channels 1) at Y = 1: the colorants of a well-formed profile sum to it. */
  double y = m[1][0] + m[1][1] + m[1][2];
  if (!(y > 0.0) || !isfinite (y))
    return FALSE;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      m[r][c] /= y;
  return TRUE;
}

static gboolean
read_curves (cmsHPROFILE h, LmColorProfile *p)
{
  static const cmsTagSignature trcs[3] = { cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag };
  for (int c = 0; c < 3; c++)
    {
      const cmsToneCurve *trc = cmsReadTag (h, trcs[c]);
      if (trc == NULL || !cmsIsToneCurveMonotonic (trc))
        return FALSE;
      p->decode[c] = cmsDupToneCurve (trc);
      p->encode[c] = cmsReverseToneCurve (trc);
      if (p->decode[c] == NULL || p->encode[c] == NULL)
        return FALSE;
    }
  return TRUE;
}

/* Whether P, read from a profile, is sRGB: IEC 61966-2-1's primaries and white within the
 * profile's fixed-point precision (s15.16 colorants, adapted and back), and a curve within a
 * quarter of an 8-bit level of sRGB's everywhere. */
static gboolean
describes_srgb (const LmColorProfile *p)
{
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      if (fabs (p->rgb_to_xyz[r][c] - srgb_rgb_to_xyz[r][c]) > 2e-3)
        return FALSE;
  for (int c = 0; c < 3; c++)
    for (int i = 0; i <= 1024; i++)
      {
        double v = i / 1024.0;
        double l = cmsEvalToneCurveFloat (p->decode[c], (cmsFloat32Number) v);
        if (fabs (lm_linear_to_srgb_d (l) - v) > 0.25 / 255.0)
          return FALSE;
      }
  return TRUE;
}

static char *
read_description (cmsHPROFILE h)
{
  char text[256] = "";
  cmsUInt32Number n = cmsGetProfileInfoASCII (h, cmsInfoDescription, "en", "US", text, sizeof text);
  if (n == 0 || text[0] == '\0')
    return g_strdup (_("unnamed ICC profile"));
  return g_utf8_make_valid (text, -1);
}

/* Why H cannot serve, or NULL when it can (P then holds it). */
static char *
read_profile (cmsHPROFILE h, LmColorProfile *p)
{
  if (cmsGetColorSpace (h) != cmsSigRgbData)
    return g_strdup (_("its ICC profile is not an RGB profile"));
  if (!cmsIsMatrixShaper (h) || !read_matrix (h, p->rgb_to_xyz) || !invert3 (p->rgb_to_xyz, p->xyz_to_rgb))
    return g_strdup (_("its ICC profile has no usable primaries"));
  if (!read_curves (h, p))
    return g_strdup (_("its ICC profile has no usable tone curves"));
  return NULL;
}

LmColorProfile *
lm_color_profile_new (GBytes *icc, char **note)
{
  if (note)
    *note = NULL;
  LmColorProfile *p = profile_alloc ();
  if (icc == NULL)
    {
      make_srgb (p);
      return p;
    }

  gsize len = 0;
  const void *data = g_bytes_get_data (icc, &len);
  cmsHPROFILE h = len > 0 && len <= G_MAXUINT32 ? cmsOpenProfileFromMem (data, (cmsUInt32Number) len) : NULL;
  g_autofree char *why = NULL;
  if (h == NULL)
    why = g_strdup (_("its ICC profile cannot be read"));
  else
    {
      why = read_profile (h, p);
      p->description = read_description (h);
      cmsCloseProfile (h);
    }
  if (why != NULL)
    {
      if (note)
        *note = g_strdup_printf (_("%s; colours are taken as sRGB"), why);
      make_srgb (p);
      return p;
    }
  if (describes_srgb (p))
    {
      g_autofree char *description = g_steal_pointer (&p->description);
      make_srgb (p);
      g_free (p->description);
      p->description = g_steal_pointer (&description);
    }
  return p;
}

LmColorProfile *
lm_color_profile_ref (LmColorProfile *profile)
{
  g_atomic_int_inc (&profile->ref_count);
  return profile;
}

void
lm_color_profile_unref (LmColorProfile *profile)
{
  if (profile == NULL || !g_atomic_int_dec_and_test (&profile->ref_count))
    return;
  for (int c = 0; c < 3; c++)
    {
      g_clear_pointer (&profile->decode[c], cmsFreeToneCurve);
      g_clear_pointer (&profile->encode[c], cmsFreeToneCurve);
    }
  g_free (profile->description);
  g_free (profile);
}

gboolean
lm_color_profile_is_srgb (const LmColorProfile *profile)
{
  return profile->srgb;
}

const char *
lm_color_profile_description (const LmColorProfile *profile)
{
  return profile->description;
}

void
lm_color_profile_rgb_to_xyz (const LmColorProfile *profile, double m[3][3])
{
  memcpy (m, profile->rgb_to_xyz, sizeof profile->rgb_to_xyz);
}

void
lm_color_profile_xyz_to_rgb (const LmColorProfile *profile, double m[3][3])
{
  memcpy (m, profile->xyz_to_rgb, sizeof profile->xyz_to_rgb);
}

void
lm_color_profile_white (const LmColorProfile *profile, double xyz[3])
{
  for (int r = 0; r < 3; r++)
    xyz[r] = profile->rgb_to_xyz[r][0] + profile->rgb_to_xyz[r][1] + profile->rgb_to_xyz[r][2];
}

void
lm_color_profile_luminance (const LmColorProfile *profile, double w[3])
{
  if (profile->srgb)
    {
      /* BT.709's rounded weights, as pixel-math.h and every sRGB code path have them. */
      w[0] = 0.2126, w[1] = 0.7152, w[2] = 0.0722;
      return;
    }
  const double *y = profile->rgb_to_xyz[1];
  double sum = y[0] + y[1] + y[2];
  for (int c = 0; c < 3; c++)
    w[c] = y[c] / sum;
}

/* A curve at V, by symmetry below 0 (lcms2 holds a parametric curve at 0 there). */
static double
eval_curve (const cmsToneCurve *curve, double v)
{
  double a = fabs (v);
  double r = cmsEvalToneCurveFloat (curve, (cmsFloat32Number) a);
  return v < 0.0 ? -r : r;
}

double
lm_color_profile_to_linear (const LmColorProfile *profile, int c, double v)
{
  g_return_val_if_fail (c >= 0 && c < 3, v);
  return profile->srgb ? lm_srgb_to_linear_d (v) : eval_curve (profile->decode[c], v);
}

double
lm_color_profile_from_linear (const LmColorProfile *profile, int c, double l)
{
  g_return_val_if_fail (c >= 0 && c < 3, l);
  return profile->srgb ? lm_linear_to_srgb_d (l) : eval_curve (profile->encode[c], l);
}

void
lm_color_profile_linear_table (const LmColorProfile *profile, int c, float *table, guint n)
{
  g_return_if_fail (n >= 2);
  for (guint i = 0; i < n; i++)
    table[i] = (float) lm_color_profile_to_linear (profile, c, (double) i / (n - 1));
}
