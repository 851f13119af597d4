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
  /* The profile must describe the pixels as decoded: an export embeds it with them. A gray
   * file read as RGB (a gray JPEG) or a CMYK one decoded to RGB has no profile that does. */
  gboolean gray = lm_format_channels (image->format) == 1;
  cmsColorSpaceSignature want = gray ? cmsSigGrayData : cmsSigRgbData;
  if (space != want)
    {
      const char *why = space == cmsSigGrayData  ? _("its ICC profile describes gray data, and the pixels are read as RGB")
                        : space == cmsSigRgbData ? _("its ICC profile describes RGB data, and the pixels are gray")
                        : gray ? _("its ICC profile describes neither RGB nor gray data, and the pixels are gray")
                               : _("its ICC profile describes neither RGB nor gray data, and the pixels are read as RGB");
      lm_io_note_profile_unused (image, why);
      return;
    }
  g_clear_pointer (&image->icc_profile, g_bytes_unref);
  image->icc_profile = g_bytes_new (icc, len);
}
