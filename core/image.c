#include "image.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "error.h"
#include "io/pixel-budget.h"

static gpointer
host_alloc (const LmAllocator *self, gsize size, GError **error)
{
  void *mem = NULL;
  int err = posix_memalign (&mem, 4096, size ? size : 1);
  if (err != 0)
    {
      g_autofree char *human = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                   _("not enough memory for %s of pixels"), human);
      return NULL;
    }
  return mem;
}

static void
host_free (const LmAllocator *self, gpointer mem)
{
  free (mem);
}

const LmAllocator *
lm_allocator_host (void)
{
  static const LmAllocator host = {
    .name = "host",
    .memory = LM_MEMORY_HOST,
    .alloc = host_alloc,
    .free = host_free,
  };
  return &host;
}

guint
lm_format_channels (LmFormat format)
{
  return format == LM_FORMAT_GRAY8 || format == LM_FORMAT_GRAY16 ? 1 : 4;
}

guint
lm_format_depth (LmFormat format)
{
  switch (format)
    {
    case LM_FORMAT_GRAY8:
    case LM_FORMAT_RGBA8:
    case LM_FORMAT_RGBE8:
      return 8;
    case LM_FORMAT_GRAY16:
    case LM_FORMAT_RGBA16:
      return 16;
    case LM_FORMAT_RGBA_F32:
      return 32;
    }
  g_return_val_if_reached (8);
}

LmFormat
lm_format_gray_of (LmFormat format)
{
  switch (format)
    {
    case LM_FORMAT_RGBA8:
      return LM_FORMAT_GRAY8;
    case LM_FORMAT_RGBA16:
      return LM_FORMAT_GRAY16;
    default:
      return format;
    }
}

LmFormat
lm_format_rgba_of (LmFormat format)
{
  switch (format)
    {
    case LM_FORMAT_GRAY8:
      return LM_FORMAT_RGBA8;
    case LM_FORMAT_GRAY16:
      return LM_FORMAT_RGBA16;
    default:
      return format;
    }
}

gsize
lm_format_bytes_per_pixel (LmFormat format)
{
  switch (format)
    {
    case LM_FORMAT_GRAY8:
      return 1;
    case LM_FORMAT_GRAY16:
      return 2;
    case LM_FORMAT_RGBA8:
    case LM_FORMAT_RGBE8:
      return 4;
    case LM_FORMAT_RGBA16:
      return 8;
    case LM_FORMAT_RGBA_F32:
      return 16;
    }
  g_return_val_if_reached (0);
}

const char *
lm_format_name (LmFormat format)
{
  switch (format)
    {
    case LM_FORMAT_GRAY8:
      return "gray8";
    case LM_FORMAT_RGBA8:
      return "rgba8";
    case LM_FORMAT_RGBA_F32:
      return "rgba-f32";
    case LM_FORMAT_RGBE8:
      return "rgbe8";
    case LM_FORMAT_RGBA16:
      return "rgba16";
    case LM_FORMAT_GRAY16:
      return "gray16";
    }
  return "unknown";
}

gboolean
lm_image_layout (LmFormat format, guint width, guint height, gsize *stride_out,
                 gsize *size_out, GError **error)
{
  if (width == 0 || height == 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("an image of %u×%u pixels has no pixels"), width, height);
      return FALSE;
    }
  if (width > LM_IMAGE_MAX_SIDE || height > LM_IMAGE_MAX_SIDE
      || (guint64) width * height > LM_IMAGE_MAX_PIXELS)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE,
                   _("%u×%u pixels (%.1f megapixels) is larger than Lumen accepts: at most %.1f "
                     "megapixels and %u pixels a side"),
                   width, height, (double) width * height / 1e6, LM_IMAGE_MAX_PIXELS / 1e6,
                   LM_IMAGE_MAX_SIDE);
      return FALSE;
    }
  if (!lm_pixel_budget_check (width, height, error))
    return FALSE;

  gsize row, stride, size;
  if (!g_size_checked_mul (&row, width, lm_format_bytes_per_pixel (format))
      || !g_size_checked_add (&stride, row, LM_ROW_ALIGN - 1)
      || !g_size_checked_mul (&size, stride & ~(gsize) (LM_ROW_ALIGN - 1), height))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE,
                   _("%u×%u pixels overflows the size arithmetic"), width, height);
      return FALSE;
    }
  if (stride_out)
    *stride_out = stride & ~(gsize) (LM_ROW_ALIGN - 1);
  if (size_out)
    *size_out = size;
  return TRUE;
}

LmImage *
lm_image_new (LmFormat format, guint width, guint height, const LmAllocator *allocator,
              GError **error)
{
  g_return_val_if_fail (allocator != NULL, NULL);

  gsize stride, size;
  if (!lm_image_layout (format, width, height, &stride, &size, error))
    return NULL;

  guint8 *data = allocator->alloc (allocator, size, error);
  if (data == NULL)
    return NULL;

  LmImage *image = g_new0 (LmImage, 1);
  image->width = width;
  image->height = height;
  image->stride = stride;
  image->format = format;
  image->opaque = TRUE;
  image->source_bit_depth = 8;
  image->data = data;
  image->allocator = allocator;
  image->ref_count = 1;
  image->capacity = size;
  return image;
}

gboolean
lm_image_reshape (LmImage *image, LmFormat format, guint width, guint height)
{
  gsize stride, size;
  if (g_atomic_int_get (&image->ref_count) != 1
      || !lm_image_layout (format, width, height, &stride, &size, NULL) || size > image->capacity)
    return FALSE;
  image->format = format;
  image->width = width;
  image->height = height;
  image->stride = stride;
  return TRUE;
}

LmImage *
lm_image_ref (LmImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);
  g_atomic_int_inc (&image->ref_count);
  return image;
}

void
lm_image_unref (LmImage *image)
{
  if (image == NULL || !g_atomic_int_dec_and_test (&image->ref_count))
    return;
  image->allocator->free (image->allocator, image->data);
  g_clear_pointer (&image->icc_profile, g_bytes_unref);
  g_clear_pointer (&image->exif, g_bytes_unref);
  g_clear_pointer (&image->xmp, g_bytes_unref);
  g_clear_pointer (&image->iptc, g_bytes_unref);
  g_free (image);
}

gsize
lm_image_size_bytes (const LmImage *image)
{
  return image->stride * image->height;
}

gboolean
lm_image_same_shape (const LmImage *a, const LmImage *b)
{
  return a->width == b->width && a->height == b->height && a->format == b->format;
}

void
lm_image_copy_metadata (LmImage *dst, const LmImage *src)
{
  if (dst == src)
    return;
  g_clear_pointer (&dst->icc_profile, g_bytes_unref);
  g_clear_pointer (&dst->exif, g_bytes_unref);
  g_clear_pointer (&dst->xmp, g_bytes_unref);
  g_clear_pointer (&dst->iptc, g_bytes_unref);
  if (src->icc_profile)
    dst->icc_profile = g_bytes_ref (src->icc_profile);
  if (src->exif)
    dst->exif = g_bytes_ref (src->exif);
  if (src->xmp)
    dst->xmp = g_bytes_ref (src->xmp);
  if (src->iptc)
    dst->iptc = g_bytes_ref (src->iptc);
}
