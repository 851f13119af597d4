/* A photo's pyramid (pyramid.h), made on the CPU by the render worker's thread. */
#include "pyramid.h"
#include "../raw-info.h"

#include <stdlib.h>


#define MAX_LEVELS 17 /* 65535 halved 16 times is 1 */

struct _LmPyramid {
  LmImage *levels[MAX_LEVELS];
  guint n;
  gpointer memo;
  GDestroyNotify memo_destroy;
};

guint64
lm_pyramid_threshold (void)
{
  const char *env = g_getenv ("LUMEN_VIEW_PYRAMID_ABOVE");
  if (env != NULL && *env != '\0')
    {
      char *end = NULL;
      guint64 v = g_ascii_strtoull (env, &end, 10);
      if (end != env && *end == '\0')
        return v;
    }
  return LM_PYRAMID_ABOVE_PIXELS;
}

gboolean
lm_pyramid_wanted (const LmImage *source)
{
  /* A raw's sensor data cannot be averaged into levels: it is developed whole. */
  return source != NULL && source->format != LM_FORMAT_RGBA_F32 && !lm_image_is_raw (source)
         && (guint64) source->width * source->height > lm_pyramid_threshold ()
         && MAX (source->width, source->height) > LM_PYRAMID_TOP_SIDE;
}

/* One channel's rounded mean of the N (1, 2 or 4) samples summed in SUM. */
static inline guint
rounded_mean (guint sum, guint n)
{
  return (sum + n / 2) / n;
}

void
lm_pyramid_halve_cpu (const LmImage *src, LmImage *dst)
{
  g_return_if_fail (src->format == dst->format && src->format != LM_FORMAT_RGBA_F32
                    && dst->width == (src->width + 1) / 2 && dst->height == (src->height + 1) / 2);
  guint ch = lm_format_channels (src->format);
  gboolean deep = lm_format_depth (src->format) == 16;
  /* Integers, not lm_shrink_cpu's weighted floats: a level of a 600 MP photo in about a
   * second on two cores instead of fifteen, and the mean exact. */
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < dst->height; j++)
    {
      guint y0 = 2 * j, y1 = MIN (2 * j + 1, src->height - 1);
      guint ny = y1 > y0 ? 2 : 1;
      const guint8 *r0 = lm_image_row (src, y0), *r1 = lm_image_row (src, y1);
      guint8 *out = lm_image_row (dst, j);
      guint i = 0;
      if (!deep && ny == 2) /* the common case, without a branch per sample */
        for (; i < src->width / 2; i++)
          for (guint c = 0; c < ch; c++)
            {
              gsize a = (gsize) 2 * i * ch + c;
              out[(gsize) i * ch + c] = (guint8) ((r0[a] + r0[a + ch] + r1[a] + r1[a + ch] + 2u) >> 2);
            }
      for (; i < dst->width; i++)
        {
          guint x0 = 2 * i, x1 = MIN (2 * i + 1, src->width - 1);
          guint n = ny * (x1 > x0 ? 2 : 1);
          for (guint c = 0; c < ch; c++)
            {
              gsize a = (gsize) x0 * ch + c, b = (gsize) x1 * ch + c;
              if (deep)
                {
                  const guint16 *p0 = (const guint16 *) r0, *p1 = (const guint16 *) r1;
                  guint sum = p0[a] + (x1 > x0 ? p0[b] : 0u) + (ny == 2 ? p1[a] + (x1 > x0 ? p1[b] : 0u) : 0u);
                  ((guint16 *) out)[(gsize) i * ch + c] = (guint16) rounded_mean (sum, n);
                }
              else
                {
                  guint sum = r0[a] + (x1 > x0 ? r0[b] : 0u) + (ny == 2 ? r1[a] + (x1 > x0 ? r1[b] : 0u) : 0u);
                  out[(gsize) i * ch + c] = (guint8) rounded_mean (sum, n);
                }
            }
        }
    }
  dst->opaque = src->opaque;
}

LmPyramid *
lm_pyramid_new (LmImage *source, const LmAllocator *allocator, GError **error)
{
  g_return_val_if_fail (source != NULL && source->format != LM_FORMAT_RGBA_F32, NULL);
  LmPyramid *p = g_new0 (LmPyramid, 1);
  p->levels[0] = lm_image_ref (source);
  p->n = 1;
  while (p->n < MAX_LEVELS)
    {
      const LmImage *prev = p->levels[p->n - 1];
      if (MAX (prev->width, prev->height) <= LM_PYRAMID_TOP_SIDE)
        break;
      /* Each level from the one before: a quarter of its pixels to read, not the source's. */
      LmImage *next = lm_image_new (source->format, (prev->width + 1) / 2, (prev->height + 1) / 2,
                                    allocator, error);
      if (next == NULL)
        {
          lm_pyramid_free (p);
          return NULL;
        }
      lm_pyramid_halve_cpu (prev, next);
      p->levels[p->n++] = next;
    }
  return p;
}

void
lm_pyramid_free (LmPyramid *p)
{
  if (p == NULL)
    return;
  lm_pyramid_set_memo (p, NULL, NULL);
  for (guint k = 0; k < p->n; k++)
    lm_image_unref (p->levels[k]);
  g_free (p);
}

void
lm_pyramid_set_memo (LmPyramid *p, gpointer memo, GDestroyNotify destroy)
{
  if (p->memo != NULL && p->memo_destroy != NULL)
    p->memo_destroy (p->memo);
  p->memo = memo;
  p->memo_destroy = destroy;
}

gpointer
lm_pyramid_get_memo (const LmPyramid *p)
{
  return p->memo;
}

guint
lm_pyramid_n_levels (const LmPyramid *p)
{
  return p->n;
}

LmImage *
lm_pyramid_level (const LmPyramid *p, guint k)
{
  g_return_val_if_fail (k < p->n, NULL);
  return p->levels[k];
}

double
lm_pyramid_factor (const LmPyramid *p, guint k)
{
  return (double) p->levels[0]->width / p->levels[k]->width;
}

gsize
lm_pyramid_bytes (const LmPyramid *p)
{
  gsize bytes = 0;
  for (guint k = 1; k < p->n; k++)
    bytes += lm_image_size_bytes (p->levels[k]);
  return bytes;
}

guint
lm_pyramid_pick (const LmPyramid *p, double scale)
{
  guint k = 0;
  /* A hair of tolerance: a view at exactly half the size takes level 1, not level 0. */
  while (k + 1 < p->n && 1.0 / lm_pyramid_factor (p, k + 1) >= scale * (1.0 - 1e-9))
    k++;
  return k;
}

guint
lm_pyramid_pick_within (const LmPyramid *p, guint64 max_pixels)
{
  for (guint k = 0; k < p->n; k++)
    if ((guint64) p->levels[k]->width * p->levels[k]->height <= max_pixels)
      return k;
  return p->n - 1;
}
