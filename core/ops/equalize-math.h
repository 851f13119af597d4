/* Histogram equalization: parameters, the lookup table and per-pixel math, shared by
 * equalize.c and kernels/equalize.cu. */
#pragma once

#include <math.h>

#include "pixel-math.h"

typedef enum {
  LM_EQUALIZE_LUMA, /* equalize BT.601 Y, keep chroma: every channel moves by Y's change */
  LM_EQUALIZE_RGB,  /* each channel on its own histogram (shifts colours) */
} LmEqualizeMode;

typedef struct {
  int mode;     /* LmEqualizeMode */
  float amount; /* 0 keeps the image, 1 is fully equalized */
} LmEqualizeParams;

#define LM_HIST_BINS 256

/* The lookup table of OpenCV's equalizeHist, step for step (first non-empty bin maps to 0,
 * float scale 255 / (total - that bin), round half to even), so that an 8-bit gray image
 * equalizes to the same bits. A one-valued image maps to itself. */
LM_INLINE void
lm_equalize_lut (const uint32_t hist[LM_HIST_BINS], uint64_t total, uint8_t lut[LM_HIST_BINS])
{
  int first = 0;
  while (first < LM_HIST_BINS - 1 && hist[first] == 0)
    first++;
  if ((uint64_t) hist[first] == total)
    {
      for (int i = 0; i < LM_HIST_BINS; i++)
        lut[i] = (uint8_t) i;
      return;
    }
  float scale = 255.0f / (float) (int64_t) (total - hist[first]);
  int64_t sum = 0;
  for (int i = 0; i <= first; i++)
    lut[i] = 0;
  for (int i = first + 1; i < LM_HIST_BINS; i++)
    {
      sum += hist[i];
      float v = rintf ((float) sum * scale);
      lut[i] = (uint8_t) (v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v));
    }
}

/* A channel C mapped to LUT_C, blended by AMOUNT. */
LM_INLINE uint8_t
lm_equalize_channel (uint8_t c, uint8_t lut_c, float amount)
{
  return amount >= 1.0f ? lut_c : lm_quantize_u8 (lm_blend (c, lut_c, amount));
}

/* Luma mode moves R, G and B by the same amount, which keeps Cb and Cr (they are
 * differences from Y): this is the move of a pixel whose 8-bit luma is Y. */
LM_INLINE float
lm_equalize_luma_shift (uint8_t y, uint8_t lut_y, float amount)
{
  float shift = (float) ((int) lut_y - (int) y);
  return amount >= 1.0f ? shift : amount * shift;
}

LM_INLINE uint32_t
lm_equalize_shift_rgba (uint32_t p, float shift)
{
  return lm_px_pack (lm_quantize_u8 (lm_px_channel (p, 0) + shift),
                     lm_quantize_u8 (lm_px_channel (p, 1) + shift),
                     lm_quantize_u8 (lm_px_channel (p, 2) + shift), p);
}
