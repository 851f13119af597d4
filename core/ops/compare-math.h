/* Diff of two 8-bit or two 16-bit images and the view resampler: per-pixel math shared by compare.c,
 * view.c and their kernels (kernels/diff.cu, kernels/view.cu). */
#pragma once

#include <math.h>

#include "pixel-math.h"

/* Exact integer sums, so that both backends report the same figures. */
typedef struct {
  uint64_t samples;   /* colour samples compared (alpha is not compared) */
  uint64_t pixels;
  uint64_t differing; /* pixels with any colour sample differing */
  uint64_t sum_abs;   /* Σ|Δ|, in the images' units (u8 or u16) */
  uint64_t sum_sq;    /* Σ|Δ|²: below 2⁶⁴ up to 4·10⁹ samples of 16 bits */
  uint32_t max_abs;
  uint32_t depth;     /* 8 or 16 (0 counts as 8); set on the host, the kernel leaves it */
} LmDiffSums;

/* The heatmap's colour of a non-zero difference V (8-bit steps × gain): dark red → red →
 * yellow → white as V grows; packed RGBA. */
LM_INLINE uint32_t
lm_heat_rgba_of (float v)
{
  v = v < 255.0f ? v : 255.0f;
  float t = 64.0f + v * (191.0f / 255.0f); /* the least difference still shows */
  uint8_t r = lm_quantize_u8 (t * 3.0f);
  uint8_t g = lm_quantize_u8 ((t - 85.0f) * 3.0f);
  uint8_t b = lm_quantize_u8 ((t - 170.0f) * 3.0f);
  return lm_px_pack (r, g, b, 0xff000000u);
}

/* The heatmap of a difference D (0..255) at GAIN: transparent where there is none. */
LM_INLINE uint32_t
lm_heat_rgba (uint32_t d, float gain)
{
  return d == 0 ? 0 : lm_heat_rgba_of ((float) d * gain);
}

/* The same for a 16-bit difference D (0..65535), measured in 8-bit steps (D / 257), so that a
 * gain means the same at both depths; a difference of one u16 still shows. */
LM_INLINE uint32_t
lm_heat_rgba16 (uint32_t d, float gain)
{
  return d == 0 ? 0 : lm_heat_rgba_of ((float) d / 257.0f * gain);
}

LM_INLINE uint32_t
lm_heat_rgba_depth (uint32_t d, int deep, float gain)
{
  return deep ? lm_heat_rgba16 (d, gain) : lm_heat_rgba (d, gain);
}

/* Sample I of a row of 8-bit (DEEP false) or 16-bit samples. */
LM_INLINE uint32_t
lm_diff_sample (const uint8_t *row, int deep, size_t i)
{
  return deep ? ((const uint16_t *) row)[i] : row[i];
}

/* The view: the region (rx, ry, rw, rh) of the image shown at out_w × out_h. Shrinking
 * averages the covered area exactly (partly covered pixels weigh by their share);
 * enlarging shows each image pixel as a block (nearest), as pixel peeping wants. */
typedef struct {
  double rx, ry, rw, rh; /* in image pixels */
  int out_w, out_h;
} LmViewRect;

/* Cairo's RGB24: a native-endian 32-bit 0x00RRGGBB word per pixel. */
LM_INLINE uint32_t
lm_cairo_rgb24 (uint8_t r, uint8_t g, uint8_t b)
{
  return (uint32_t) r << 16 | (uint32_t) g << 8 | (uint32_t) b;
}

/* The span [*first, *last] of source pixels that output pixel I covers along one axis, and
 * the share of the first and last (the pixels between count fully). SCALE = source pixels
 * per output pixel (> 1 when shrinking). */
LM_INLINE void
lm_view_span (double origin, double scale, int i, int n, int *first, int *last, float *w_first,
              float *w_last)
{
  double a = origin + scale * i, b = a + scale;
  if (scale <= 1.0)
    {
      int p = (int) floor (a + 0.5 * scale);
      p = p < 0 ? 0 : (p >= n ? n - 1 : p);
      *first = *last = p;
      *w_first = *w_last = 1.0f;
      return;
    }
  int f = (int) floor (a), l = (int) ceil (b) - 1;
  *w_first = (float) ((f + 1) - a);
  *w_last = (float) (b - l);
  if (f == l)
    *w_first = *w_last = (float) (b - a);
  if (f < 0)
    f = 0, *w_first = 1.0f;
  if (l >= n)
    l = n - 1, *w_last = 1.0f;
  *first = f;
  *last = l;
}

/* One view pixel (I, J): the weighted average of the image pixels it covers, in cairo RGB24.
 * SRC holds WIDTH × HEIGHT pixels of BPP bytes (1: gray, 4: RGBA) every STRIDE bytes. */
LM_INLINE uint32_t
lm_view_pixel (const uint8_t *src, size_t stride, int bpp, int width, int height,
               const LmViewRect *rect, int i, int j)
{
  double sx = rect->rw / rect->out_w, sy = rect->rh / rect->out_h;
  int x0, x1, y0, y1;
  float wx0, wx1, wy0, wy1;
  lm_view_span (rect->ry, sy, j, height, &y0, &y1, &wy0, &wy1);
  lm_view_span (rect->rx, sx, i, width, &x0, &x1, &wx0, &wx1);
  float acc[3] = { 0.0f, 0.0f, 0.0f }, wsum_x = 0.0f, wsum_y = 0.0f;
  for (int y = y0; y <= y1; y++)
    {
      float wy = y == y0 ? wy0 : (y == y1 ? wy1 : 1.0f);
      const uint8_t *row = src + (size_t) y * stride;
      float line[3] = { 0.0f, 0.0f, 0.0f };
      wsum_x = 0.0f;
      for (int x = x0; x <= x1; x++)
        {
          float wx = x == x0 ? wx0 : (x == x1 ? wx1 : 1.0f);
          const uint8_t *p = row + x * bpp;
          for (int c = 0; c < 3; c++)
            line[c] = line[c] + wx * (float) p[bpp == 1 ? 0 : c];
          wsum_x = wsum_x + wx;
        }
      for (int c = 0; c < 3; c++)
        acc[c] = acc[c] + wy * line[c];
      wsum_y = wsum_y + wy;
    }
  float norm = wsum_x * wsum_y;
  return lm_cairo_rgb24 (lm_quantize_u8 (acc[0] / norm), lm_quantize_u8 (acc[1] / norm),
                         lm_quantize_u8 (acc[2] / norm));
}
