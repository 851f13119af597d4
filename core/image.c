#include "image.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <glib/gi18n.h>

#include "error.h"
#include "pixel-budget.h"
#include "raw-info.h"

/* Whole images are mapped on their own, 2 MiB aligned and in transparent huge pages where the
 * kernel lends them (madvise mode): the first write to a fresh 24 MP output then takes a dozen
 * page faults instead of thousands, which is what a first run in lumen-cli spent most of its
 * time on (bench/RESULTS.md, "The first run"). Smaller blocks come from malloc. */
#define HUGE_PAGE ((gsize) 2 << 20)
/* Under AddressSanitizer every block comes from malloc, which it watches. */
#ifdef __SANITIZE_ADDRESS__
#define MAPPED_MIN G_MAXSIZE
#else
#define MAPPED_MIN ((gsize) 8 << 20)
#endif

/* The mapped blocks and their lengths, for free: few (whole images), so a table under a lock. */
static GMutex mapped_lock;
static GHashTable *mapped_blocks;

static gpointer
mapped_alloc (gsize size)
{
  gsize length = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  /* Mapped one huge page longer, then trimmed to a 2 MiB boundary. */
  guint8 *raw = mmap (NULL, length + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    return NULL;
  guint8 *base = (guint8 *) (((guintptr) raw + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1));
  if (base > raw)
    munmap (raw, base - raw);
  if (base + length < raw + length + HUGE_PAGE)
    munmap (base + length, raw + length + HUGE_PAGE - (base + length));
#ifdef MADV_HUGEPAGE
  madvise (base, length, MADV_HUGEPAGE);
#endif
  g_mutex_lock (&mapped_lock);
  if (mapped_blocks == NULL)
    mapped_blocks = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (mapped_blocks, base, GSIZE_TO_POINTER (length));
  g_mutex_unlock (&mapped_lock);
  return base;
}

/* Unmaps MEM when it is a mapped block. */
static gboolean
mapped_free (gpointer mem)
{
  gpointer length = NULL;
  g_mutex_lock (&mapped_lock);
  gboolean mapped = mapped_blocks != NULL && g_hash_table_steal_extended (mapped_blocks, mem, NULL, &length);
  g_mutex_unlock (&mapped_lock);
  if (mapped)
    munmap (mem, GPOINTER_TO_SIZE (length));
  return mapped;
}

static gpointer
host_alloc (const LmAllocator *self, gsize size, GError **error)
{
  void *mem = NULL;
  if (size >= MAPPED_MIN && (mem = mapped_alloc (size)) != NULL)
    return mem;
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
  if (mem != NULL && ((guintptr) mem & (HUGE_PAGE - 1)) == 0 && mapped_free (mem))
    return;
  free (mem);
}

/* Where the kernel has no MADV_POPULATE_WRITE (before Linux 5.14) it answers EINVAL, and a
 * write to each page does the same. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define PAGE ((gsize) 4096)

/* Populates [P, P + N) (whole pages); FALSE where the kernel cannot (*MISSING set where it
 * has no MADV_POPULATE_WRITE) or has no memory for it now. */
static gboolean
populate (guint8 *p, gsize n, gint *missing)
{
  if (g_atomic_int_get (missing))
    return FALSE;
  if (madvise (p, (n + PAGE - 1) & ~(PAGE - 1), MADV_POPULATE_WRITE) == 0)
    return TRUE;
  if (errno == EINVAL)
    g_atomic_int_set (missing, 1);
  return FALSE;
}

gsize
lm_image_prefault (LmImage *image, const gint *stop)
{
  g_return_val_if_fail (image->allocator->memory == LM_MEMORY_HOST, 0);
  static gint populate_missing;
  /* Both allocators return whole pages (host_alloc); whatever precedes a block that does not
   * start on one is not ours to write. */
  guint8 *start = (guint8 *) (((guintptr) image->data + PAGE - 1) & ~(guintptr) (PAGE - 1));
  guint8 *end = image->data + image->capacity;
  guint8 *p = start;
  /* A huge page at a time, so that STOP is heard within one. */
  while (p < end && (stop == NULL || !g_atomic_int_get (stop)))
    {
      gsize n = MIN ((gsize) (end - p), HUGE_PAGE - ((guintptr) p & (HUGE_PAGE - 1)));
      if (!populate (p, n, &populate_missing))
        {
          if (!g_atomic_int_get (&populate_missing))
            break; /* no memory for it now: the operation's own faults will say so */
          for (gsize i = 0; i < n; i += PAGE)
            ((volatile guint8 *) p)[i] = 0;
        }
      p += n;
    }
  return p - start;
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
  return format == LM_FORMAT_GRAY8 || format == LM_FORMAT_GRAY16 || format == LM_FORMAT_GRAY_F32
             || format == LM_FORMAT_CFA16
           ? 1
           : 4;
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
    case LM_FORMAT_CFA16:
      return 16;
    case LM_FORMAT_RGBA_F32:
    case LM_FORMAT_GRAY_F32:
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
    case LM_FORMAT_CFA16:
      return 2;
    case LM_FORMAT_RGBA8:
    case LM_FORMAT_RGBE8:
    case LM_FORMAT_GRAY_F32:
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
    case LM_FORMAT_GRAY_F32:
      return "gray-f32";
    case LM_FORMAT_CFA16:
      return "cfa16";
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
  g_clear_pointer (&image->notes, g_ptr_array_unref);
  g_clear_pointer (&image->raw, lm_raw_info_unref);
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

LmImage *
lm_image_cut (const LmImage *image, guint x, guint y, guint w, guint h, const LmAllocator *allocator,
              GError **error)
{
  g_return_val_if_fail ((guint64) x + w <= image->width && (guint64) y + h <= image->height, NULL);
  LmImage *part = lm_image_new (image->format, w, h, allocator, error);
  if (part == NULL)
    return NULL;
  gsize bpp = lm_format_bytes_per_pixel (image->format);
  for (guint r = 0; r < h; r++)
    memcpy (lm_image_row (part, r), lm_image_row (image, y + r) + bpp * x, bpp * w);
  part->opaque = image->opaque;
  return part;
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

void
lm_image_add_note (LmImage *image, const char *format, ...)
{
  g_return_if_fail (image != NULL);
  if (image->notes == NULL)
    image->notes = g_ptr_array_new_with_free_func (g_free);
  va_list args;
  va_start (args, format);
  g_ptr_array_add (image->notes, g_strdup_vprintf (format, args));
  va_end (args);
}

char *
lm_image_notes_text (const LmImage *image)
{
  if (image->notes == NULL || image->notes->len == 0)
    return NULL;
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < image->notes->len; i++)
    {
      if (i > 0)
        g_string_append (text, "; ");
      g_string_append (text, image->notes->pdata[i]);
    }
  return g_string_free (text, FALSE);
}
