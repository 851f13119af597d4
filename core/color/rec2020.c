/* BT.2020's RGB profiles with lcms2 (rec2020.h). */
#include "rec2020.h"

#include <lcms2.h>

#include "icc-bytes.h"

static gboolean
set_text (cmsHPROFILE h, cmsTagSignature tag, const char *text)
{
  cmsMLU *mlu = cmsMLUalloc (NULL, 1);
  gboolean ok = mlu != NULL && cmsMLUsetASCII (mlu, "en", "US", text) && cmsWriteTag (h, tag, mlu);
  if (mlu != NULL)
    cmsMLUfree (mlu);
  return ok;
}

/* BT.2020's primaries and white with CURVE on each channel, serialized; NULL where lcms2
 * fails (out of memory). */
static GBytes *
build (cmsToneCurve *curve, const char *description)
{
  const cmsCIExyY white = { LM_REC2020_WHITE_X, LM_REC2020_WHITE_Y, 1.0 };
  const cmsCIExyYTRIPLE primaries = {
    { LM_REC2020_RED_X, LM_REC2020_RED_Y, 1.0 },
    { LM_REC2020_GREEN_X, LM_REC2020_GREEN_Y, 1.0 },
    { LM_REC2020_BLUE_X, LM_REC2020_BLUE_Y, 1.0 },
  };
  if (curve == NULL)
    return NULL;
  cmsToneCurve *curves[3] = { curve, curve, curve };
  /* Version 4: the colorants adapted to D50 by Bradford, and a 'chad' tag saying so, which
   * lm_color_profile_new and the EXR writer undo to find the primaries. */
  cmsHPROFILE h = cmsCreateRGBProfile (&white, &primaries, curves);
  cmsFreeToneCurve (curve);
  /* BT.2020's first publication, 2012-08. */
  GBytes *bytes = h != NULL && set_text (h, cmsSigProfileDescriptionTag, description)
                      && set_text (h, cmsSigCopyrightTag, "No copyright, use freely")
                    ? lm_icc_profile_bytes (h, 2012, 8, 23)
                    : NULL;
  if (h != NULL)
    cmsCloseProfile (h);
  return bytes;
}

/* IEC 61966-2-1's curve as ICC's parametric type 4, as lcms2's own sRGB has it. */
static cmsToneCurve *
srgb_curve (void)
{
  const cmsFloat64Number p[5] = { 2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045 };
  return cmsBuildParametricToneCurve (NULL, 4, p);
}

GBytes *
lm_color_rec2020_linear_icc (void)
{
  static GBytes *icc;
  if (g_once_init_enter (&icc))
    {
      GBytes *bytes = build (cmsBuildGamma (NULL, 1.0), "Rec. 2020 linear");
      /* Built from constants: only a broken library fails here. */
      g_assert (bytes != NULL);
      g_once_init_leave (&icc, bytes);
    }
  return g_bytes_ref (icc);
}

GBytes *
lm_color_rec2020_display_icc (void)
{
  static GBytes *icc;
  if (g_once_init_enter (&icc))
    {
      GBytes *bytes = build (srgb_curve (), "Rec. 2020 with the sRGB curve");
      g_assert (bytes != NULL);
      g_once_init_leave (&icc, bytes);
    }
  return g_bytes_ref (icc);
}

static LmColorProfile *
profile_of (GBytes *icc)
{
  g_autofree char *note = NULL;
  LmColorProfile *profile = lm_color_profile_new (icc, &note);
  g_bytes_unref (icc);
  /* Our own profile, read back: a note would mean it was taken as sRGB. */
  g_assert (note == NULL);
  return profile;
}

LmColorProfile *
lm_color_profile_new_rec2020_linear (void)
{
  return profile_of (lm_color_rec2020_linear_icc ());
}

LmColorProfile *
lm_color_profile_new_rec2020_display (void)
{
  return profile_of (lm_color_rec2020_display_icc ());
}
