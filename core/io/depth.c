#include "depth.h"

#include "../ops/pixel-math.h"

/* What lm_quantize_u8 (v / 257.0f) gives, for every v, as a table: the conversion is then a
 * lookup, and the division's rounding is the convention's by construction. */
static const guint8 *
u16_to_u8_table (void)
{
  static guint8 table[65536];
  static gsize done = 0;
  if (g_once_init_enter (&done))
    {
      for (guint v = 0; v < 65536; v++)
        table[v] = lm_quantize_u8 ((float) v / 257.0f);
      g_once_init_leave (&done, 1);
    }
  return table;
}

LmImage *
lm_image_to_depth8 (const LmImage *src, GError **error)
{
  if (lm_format_depth (src->format) != 16)
    return lm_image_ref ((LmImage *) src);
  LmFormat format = lm_format_channels (src->format) == 1 ? LM_FORMAT_GRAY8 : LM_FORMAT_RGBA8;
  LmImage *dst = lm_image_new (format, src->width, src->height, lm_allocator_host (), error);
  if (dst == NULL)
    return NULL;
  const guint8 *table = u16_to_u8_table ();
  gsize n = (gsize) src->width * lm_format_channels (src->format);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint16 *in = (const guint16 *) lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      for (gsize i = 0; i < n; i++)
        out[i] = table[in[i]];
    }
  dst->opaque = src->opaque;
  dst->source_bit_depth = src->source_bit_depth;
  lm_image_copy_metadata (dst, src);
  return dst;
}

LmImage *
lm_image_to_depth16 (const LmImage *src, const LmAllocator *allocator, GError **error)
{
  if (src->format != LM_FORMAT_RGBA8 && src->format != LM_FORMAT_GRAY8)
    return lm_image_ref ((LmImage *) src);
  LmFormat format = src->format == LM_FORMAT_GRAY8 ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16;
  LmImage *dst = lm_image_new (format, src->width, src->height, allocator ? allocator : lm_allocator_host (), error);
  if (dst == NULL)
    return NULL;
  gsize n = (gsize) src->width * lm_format_channels (src->format);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint16 *out = (guint16 *) lm_image_row (dst, y);
      for (gsize i = 0; i < n; i++)
        out[i] = (guint16) (in[i] * 257u);
    }
  dst->opaque = src->opaque;
  /* Still the file's 8 bits: what is said of the source stays true of it. */
  dst->source_bit_depth = src->source_bit_depth;
  lm_image_copy_metadata (dst, src);
  return dst;
}
