/* Conversion to sRGB with lcms2 (convert.h). */
#include "convert.h"

#include <string.h>
#include <glib/gi18n.h>
#include <lcms2.h>

#include "../error.h"
#include "icc-bytes.h"

GBytes *
lm_color_srgb_icc (void)
{
  static GBytes *srgb;
  if (g_once_init_enter (&srgb))
    {
      cmsHPROFILE h = cmsCreate_sRGBProfile ();
      /* IEC 61966-2-1's date. */
      GBytes *bytes = lm_icc_profile_bytes (h, 1999, 10, 18);
      if (h != NULL)
        cmsCloseProfile (h);
      /* lcms2 builds its sRGB from constants: only a broken library fails here. */
      g_assert (bytes != NULL);
      g_once_init_leave (&srgb, bytes);
    }
  return g_bytes_ref (srgb);
}

/* Gray pixels stay gray: a neutral's value through the transform (its green; red and blue
 * come out within a level of it), as a table over every level of the depth. */
static void
gray_table (cmsHTRANSFORM t, gboolean wide, guint16 *table, guint n)
{
  if (wide)
    {
      g_autofree guint16 *ramp = g_new (guint16, 3 * n);
      for (guint i = 0; i < n; i++)
        ramp[3 * i] = ramp[3 * i + 1] = ramp[3 * i + 2] = (guint16) i;
      cmsDoTransform (t, ramp, ramp, n);
      for (guint i = 0; i < n; i++)
        table[i] = ramp[3 * i + 1];
      return;
    }
  guint8 ramp[3 * 256];
  for (guint i = 0; i < n; i++)
    ramp[3 * i] = ramp[3 * i + 1] = ramp[3 * i + 2] = (guint8) i;
  cmsDoTransform (t, ramp, ramp, n);
  for (guint i = 0; i < n; i++)
    table[i] = ramp[3 * i + 1];
}

static void
convert_gray (cmsHTRANSFORM t, const LmImage *src, LmImage *dst)
{
  gboolean wide = src->format == LM_FORMAT_GRAY16;
  guint n = wide ? 65536 : 256;
  g_autofree guint16 *table = g_new (guint16, n);
  gray_table (t, wide, table, n);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      if (wide)
        for (guint x = 0; x < src->width; x++)
          ((guint16 *) out)[x] = table[((const guint16 *) in)[x]];
      else
        for (guint x = 0; x < src->width; x++)
          out[x] = (guint8) table[in[x]];
    }
}

/* The transform from IMAGE's profile to sRGB, or NULL and ERROR. */
static cmsHTRANSFORM
transform_to_srgb (const LmImage *image, GError **error)
{
  gsize len = 0;
  const void *data = g_bytes_get_data (image->icc_profile, &len);
  cmsHPROFILE from = len > 0 && len <= G_MAXUINT32 ? cmsOpenProfileFromMem (data, (cmsUInt32Number) len) : NULL;
  if (from == NULL || cmsGetColorSpace (from) != cmsSigRgbData)
    {
      if (from)
        cmsCloseProfile (from);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                   _("cannot convert to sRGB: the photo's ICC profile is not a usable RGB profile"));
      return NULL;
    }
  cmsHPROFILE to = cmsCreate_sRGBProfile ();
  gboolean gray = lm_format_channels (image->format) == 1;
  gboolean wide = lm_format_depth (image->format) == 16;
  cmsUInt32Number type = gray ? (wide ? TYPE_RGB_16 : TYPE_RGB_8) : (wide ? TYPE_RGBA_16 : TYPE_RGBA_8);
  /* No cache: rows are converted on several threads at once. lcms2 optimises a 16-bit
   * transform into a 3-D table, which missed dark saturated ProPhoto and Adobe RGB colours by
   * up to 28 8-bit levels; unoptimised, each pixel goes through the profiles' curves and
   * matrices in float, within 0.01 level of a double-precision transform, for about five
   * times the time. 8-bit transforms stay optimised: lcms2's matrix-shaper path for them is
   * within 0.7 level. */
  cmsUInt32Number flags = cmsFLAGS_NOCACHE | (gray ? 0 : cmsFLAGS_COPY_ALPHA) | (wide ? cmsFLAGS_NOOPTIMIZE : 0);
  cmsHTRANSFORM t = cmsCreateTransform (from, type, to, type, INTENT_PERCEPTUAL, flags);
  cmsCloseProfile (from);
  cmsCloseProfile (to);
  if (t == NULL)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                 _("cannot convert to sRGB: lcms2 cannot transform from the photo's ICC profile"));
  return t;
}

LmImage *
lm_color_convert_to_srgb (const LmImage *image, GError **error)
{
  g_return_val_if_fail (image->allocator->memory == LM_MEMORY_HOST, NULL);
  g_return_val_if_fail (image->format == LM_FORMAT_RGBA8 || image->format == LM_FORMAT_RGBA16
                        || image->format == LM_FORMAT_GRAY8 || image->format == LM_FORMAT_GRAY16, NULL);

  cmsHTRANSFORM t = NULL;
  if (image->icc_profile != NULL && (t = transform_to_srgb (image, error)) == NULL)
    return NULL;
  g_autoptr (LmImage) out = lm_image_new (image->format, image->width, image->height, lm_allocator_host (), error);
  if (out == NULL)
    {
      if (t)
        cmsDeleteTransform (t);
      return NULL;
    }
  gsize row_bytes = (gsize) image->width * lm_format_bytes_per_pixel (image->format);
  if (t == NULL)
    for (guint y = 0; y < image->height; y++)
      memcpy (lm_image_row (out, y), lm_image_row (image, y), row_bytes);
  else if (lm_format_channels (image->format) == 1)
    convert_gray (t, image, out);
  else
    {
#pragma omp parallel for schedule(static)
      for (guint y = 0; y < image->height; y++)
        cmsDoTransform (t, lm_image_row (image, y), lm_image_row (out, y), image->width);
    }
  if (t)
    cmsDeleteTransform (t);

  out->opaque = image->opaque;
  out->source_bit_depth = image->source_bit_depth;
  lm_image_copy_metadata (out, image);
  g_clear_pointer (&out->icc_profile, g_bytes_unref);
  out->icc_profile = lm_color_srgb_icc ();
  return g_steal_pointer (&out);
}
