/* Packing RGBA rows to RGB and back, eight pixels a step as byte shuffles: each step writes
 * (packing) or reads (unpacking) 32 bytes of RGB of which only 24 are its own, hence the
 * slack. */
#include "rgb-rows.h"

#include <string.h>

#include "simd.h"

LM_SIMD_CLONES void
lm_rgba_row_to_rgb (const guint8 *restrict in, guint8 *restrict out, gsize width)
{
  gsize x = 0;
  for (; x + 8 <= width; x += 8)
    {
      LmU8x32 q;
      memcpy (&q, in + 4 * x, sizeof q);
      q = __builtin_shufflevector (q, q, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25, 26,
                                   28, 29, 30, 31, 31, 31, 31, 31, 31, 31, 31);
      memcpy (out + 3 * x, &q, sizeof q);
    }
  for (; x < width; x++)
    memcpy (out + 3 * x, in + 4 * x, 3);
}

LM_SIMD_CLONES void
lm_rgb_row_to_rgba (const guint8 *restrict in, guint8 *restrict out, gsize width)
{
  const LmU8x32 opaque = { 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
                           255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255 };
  gsize x = 0;
  for (; x + 8 <= width; x += 8)
    {
      LmU8x32 q;
      memcpy (&q, in + 3 * x, sizeof q);
      q = __builtin_shufflevector (q, opaque, 0, 1, 2, 32, 3, 4, 5, 32, 6, 7, 8, 32, 9, 10, 11, 32, 12, 13, 14, 32, 15,
                                   16, 17, 32, 18, 19, 20, 32, 21, 22, 23, 32);
      memcpy (out + 4 * x, &q, sizeof q);
    }
  for (; x < width; x++)
    {
      memcpy (out + 4 * x, in + 3 * x, 3);
      out[4 * x + 3] = 255;
    }
}
