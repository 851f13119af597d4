/* The view's pixel, shared by core/ops/view.c and kernels/view.cu: the resampling of
 * lm_view_pixel (core/ops/compare-math.h) for sources of 8 or 16 bits per channel, then,
 * where the photo's profile differs from the monitor's, the view transform's 3-D LUT
 * (core/ops/lut3d-math.h). Built without FMA contraction on both sides. */
#pragma once

#include "compare-math.h"
#include "lut3d-math.h"

/* The source as the view reads it: CHANNELS (1: gray, 4: RGBA) of DEPTH bits (8 or 16),
 * WIDTH × HEIGHT pixels every STRIDE bytes. */
typedef struct {
  const uint8_t *data;
  size_t stride;
  int width, height;
  int channels;
  int depth;
} LmViewSource;

LM_INLINE float
lm_view_sample (const LmViewSource *s, const uint8_t *row, int x, int c)
{
  int k = x * s->channels + (s->channels == 1 ? 0 : c);
  return s->depth == 16 ? (float) ((const uint16_t *) row)[k] : (float) row[k];
}

/* The view pixel (I, J) of RECT on the 0..255 scale, before rounding: the weighted average
 * of the source pixels it covers (in the same operations as lm_view_pixel, so that 8-bit
 * views keep their bytes); 16-bit values are divided by 257 once averaged. */
LM_INLINE void
lm_view_average (const LmViewSource *s, const LmViewRect *rect, int i, int j, float avg[3])
{
  double sx = rect->rw / rect->out_w, sy = rect->rh / rect->out_h;
  int x0, x1, y0, y1;
  float wx0, wx1, wy0, wy1;
  lm_view_span (rect->ry, sy, j, s->height, &y0, &y1, &wy0, &wy1);
  lm_view_span (rect->rx, sx, i, s->width, &x0, &x1, &wx0, &wx1);
  float acc[3] = { 0.0f, 0.0f, 0.0f }, wsum_x = 0.0f, wsum_y = 0.0f;
  for (int y = y0; y <= y1; y++)
    {
      float wy = y == y0 ? wy0 : (y == y1 ? wy1 : 1.0f);
      const uint8_t *row = s->data + (size_t) y * s->stride;
      float line[3] = { 0.0f, 0.0f, 0.0f };
      wsum_x = 0.0f;
      for (int x = x0; x <= x1; x++)
        {
          float wx = x == x0 ? wx0 : (x == x1 ? wx1 : 1.0f);
          for (int c = 0; c < 3; c++)
            line[c] = line[c] + wx * lm_view_sample (s, row, x, c);
          wsum_x = wsum_x + wx;
        }
      for (int c = 0; c < 3; c++)
        acc[c] = acc[c] + wy * line[c];
      wsum_y = wsum_y + wy;
    }
  float norm = wsum_x * wsum_y;
  for (int c = 0; c < 3; c++)
    avg[c] = s->depth == 16 ? (acc[c] / norm) / 257.0f : acc[c] / norm;
}

/* A colour on the 0..255 scale as the screen gets it, R, G, B in 8 bits: rounded as it is
 * without a LUT (identical to the view before colour management), else through it with
 * 16 bits of input, as many as a 16-bit source or a shrinking view's average has. */
LM_INLINE void
lm_view_seen (const LmLut3d *lut, const float v[3], uint8_t out[3])
{
  if (lut == NULL)
    {
      for (int c = 0; c < 3; c++)
        out[c] = lm_quantize_u8 (v[c]);
      return;
    }
  uint16_t o[3];
  lm_lut3d_sample (lut, lm_quantize_u16 (v[0]), lm_quantize_u16 (v[1]), lm_quantize_u16 (v[2]), o);
  for (int c = 0; c < 3; c++)
    out[c] = lm_u16_to_u8 (o[c]);
}

/* One view pixel in cairo's RGB24. */
LM_INLINE uint32_t
lm_view_pixel_seen (const LmViewSource *s, const LmViewRect *rect, const LmLut3d *lut, int i, int j)
{
  float avg[3];
  uint8_t rgb[3];
  lm_view_average (s, rect, i, j, avg);
  lm_view_seen (lut, avg, rgb);
  return lm_cairo_rgb24 (rgb[0], rgb[1], rgb[2]);
}

/* Source pixel (X, Y) as seen on screen, packed as LM_FORMAT_RGBA8's words (R in the low
 * byte): what the "as seen" histogram counts. The same operations as a view at 100 %. */
LM_INLINE uint32_t
lm_view_source_seen (const LmViewSource *s, const LmLut3d *lut, int x, int y)
{
  const uint8_t *row = s->data + (size_t) y * s->stride;
  float v[3];
  for (int c = 0; c < 3; c++)
    {
      float a = 1.0f * (1.0f * lm_view_sample (s, row, x, c));
      v[c] = s->depth == 16 ? (a / 1.0f) / 257.0f : a / 1.0f;
    }
  uint8_t rgb[3];
  lm_view_seen (lut, v, rgb);
  return lm_px_pack (rgb[0], rgb[1], rgb[2], 0u);
}
