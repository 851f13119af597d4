/* A camera raw's embedded preview through LibRaw (thumbnail-source.h): the JPEG (or bitmap)
 * the camera wrote beside the sensor data, read without unpacking the sensor data. */
#include "thumbnail-source.h"

#include <string.h>
#include <glib/gi18n.h>
#include <libraw.h>

#include "../error.h"
#include "../pixel-budget.h"
#include "../io/jpeg-scaled.h"
#include "../io/orientation.h"
#include "../io/raw-compat.h"
#include "../io/raw-sniff.h"

/* EXIF's orientation of dcraw's flip code, as raw-meta.c reads it. */
static int
orientation_of_flip (int flip)
{
  static const int exif[8] = { 1, 2, 4, 3, 5, 8, 6, 7 };
  return flip >= 0 && flip < 8 ? exif[flip] : 1;
}

static LmImage *
bitmap_image (const libraw_processed_image_t *bitmap, const char *path, GError **error)
{
  if (bitmap->bits != 8 || (bitmap->colors != 3 && bitmap->colors != 1)
      || (gsize) bitmap->width * bitmap->height * bitmap->colors > bitmap->data_size)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path, _("its embedded preview has a layout Lumen does not read"));
      return NULL;
    }
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, bitmap->width, bitmap->height, lm_allocator_host (), error);
  if (image == NULL)
    return NULL;
  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *in = bitmap->data + (gsize) y * bitmap->width * bitmap->colors;
      guint8 *out = lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++, in += bitmap->colors)
        {
          out[4 * x] = in[0];
          out[4 * x + 1] = in[bitmap->colors == 3 ? 1 : 0];
          out[4 * x + 2] = in[bitmap->colors == 3 ? 2 : 0];
          out[4 * x + 3] = 255;
        }
    }
  image->opaque = TRUE;
  return image;
}

/* A development at half size by LibRaw itself (camera white balance, sRGB, 8 bits): for raws
 * without a preview large enough (many DNGs). LibRaw turns it by the raw's flip. */
static LmImage *
develop_small (libraw_data_t *lr, const char *path, GError **error)
{
  LM_RAW_PARAMS (lr).max_raw_memory_mb = (unsigned) MIN (lm_pixel_budget () * 8 / (1024 * 1024) + 1, 2048);
  lr->params.half_size = 1;
  lr->params.use_camera_wb = 1;
  lr->params.output_bps = 8;
  int rc = libraw_unpack (lr);
  if (rc == LIBRAW_SUCCESS)
    rc = libraw_dcraw_process (lr);
  libraw_processed_image_t *image = rc == LIBRAW_SUCCESS ? libraw_dcraw_make_mem_image (lr, &rc) : NULL;
  if (image == NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("it has no embedded preview, and LibRaw cannot develop it (%s)"),
                         libraw_strerror (rc));
      return NULL;
    }
  LmImage *result = bitmap_image (image, path, error);
  libraw_dcraw_clear_mem (image);
  return result;
}

/* The preview LibRaw gives, upright; NULL (ERROR set) when it has none. */
static LmImage *
preview_of (libraw_data_t *lr, const char *path, int size, GError **error)
{
  int rc = libraw_unpack_thumb (lr);
  libraw_processed_image_t *thumb = rc == LIBRAW_SUCCESS ? libraw_dcraw_make_mem_thumb (lr, &rc) : NULL;
  if (thumb == NULL)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path, _("it has no embedded preview LibRaw can read (%s)"),
                         libraw_strerror (rc));
      return NULL;
    }
  g_autoptr (LmImage) stored = NULL;
  if (thumb->type == LIBRAW_IMAGE_JPEG)
    stored = lm_jpeg_load_scaled (path, thumb->data, thumb->data_size, 2 * (guint) size, error);
  else
    stored = bitmap_image (thumb, path, error);
  libraw_dcraw_clear_mem (thumb);
  /* A JPEG preview may carry its own orientation, already applied; LibRaw's flip is the raw's. */
  return stored ? lm_io_orient_by (g_steal_pointer (&stored), orientation_of_flip (lr->sizes.flip), path, error)
                : NULL;
}

LmImage *
lm_thumbnail_raw_preview (const char *path, const guint8 *data, gsize len, int size, GError **error)
{
  /* LibRaw 0.20 follows damaged IFD offsets out of the buffer: checked first, as raw.c does. */
  if (lm_raw_ifds_damaged (data, len))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is damaged (its TIFF directories do not hold together)"));
      return NULL;
    }
  libraw_data_t *lr = libraw_init (LM_RAW_INIT_FLAGS);
  if (lr == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to decode it"));
      return NULL;
    }
  int rc = libraw_open_buffer (lr, LM_RAW_BUFFER (data), len);
  if (rc != LIBRAW_SUCCESS)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is not a camera raw file LibRaw %s can read"),
                         libraw_version ());
      libraw_close (lr);
      return NULL;
    }
  GError *no_preview = NULL;
  LmImage *result = preview_of (lr, path, size, &no_preview);
  if (result == NULL || MAX (result->width, result->height) < (guint) size)
    {
      /* Too small or none: LibRaw's own development, else the small preview as it is. */
      LmImage *developed = develop_small (lr, path, result ? NULL : error);
      if (developed != NULL)
        {
          g_clear_pointer (&result, lm_image_unref);
          result = developed;
        }
    }
  g_clear_error (&no_preview);
  libraw_close (lr);
  return result;
}
