#include "icc-input.h"

#include <lcms2.h>
#include <glib/gi18n.h>

void
lm_io_note_profile_unused (LmImage *image, const char *why)
{
  lm_image_add_note (image, _("%s; colours are taken as sRGB"), why);
}

void
lm_io_take_profile (LmImage *image, const void *icc, gsize len)
{
  if (len == 0)
    return;
  cmsHPROFILE h = len <= G_MAXUINT32 ? cmsOpenProfileFromMem (icc, (cmsUInt32Number) len) : NULL;
  if (h == NULL)
    {
      lm_io_note_profile_unused (image, _("its ICC profile cannot be read"));
      return;
    }
  cmsColorSpaceSignature space = cmsGetColorSpace (h);
  cmsCloseProfile (h);
  if (space != cmsSigRgbData && space != cmsSigGrayData)
    {
      lm_io_note_profile_unused (image, _("its ICC profile is not of RGB or gray data (the pixels were decoded "
                                          "to RGB)"));
      return;
    }
  g_clear_pointer (&image->icc_profile, g_bytes_unref);
  image->icc_profile = g_bytes_new (icc, len);
}
