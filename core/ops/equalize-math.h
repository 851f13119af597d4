/* Histogram equalization: parameters, the lookup table and per-pixel math, shared by
 * equalize.c and kernels/equalize.cu. */
#pragma once

#include <math.h>

#include "param-decl.h"
#include "pixel-math.h"

typedef enum {
  LM_EQUALIZE_LUMA, /* equalize BT.601 Y, keep chroma: every channel moves by Y's change */
  LM_EQUALIZE_RGB,  /* each channel on its own histogram (shifts colours) */
} LmEqualizeMode;

/* mode: an LmEqualizeMode; amount: 0 keeps the image, 1 is fully equalized. */
#define LM_EQUALIZE_PARAMS(P)                                                                      \
  P (ENUM, mode, N_("Mode"), 0, 1, LM_EQUALIZE_LUMA, 1, NULL, .values = lm_equalize_modes)        \
  P (FLOAT, amount, N_("Amount"), 0, 1, 1, 0.01, NULL)

typedef struct {
  LM_EQUALIZE_PARAMS (LM_PARAM_FIELD)
  /* Not parameters (no sidecar key, no flag): where a render goes tile by tile
   * (core/render/tiled.c), the histogram of the whole input, summed over the tiles in a first
   * pass: LM_HIST_N_CHANNELS × 256 bins (8-bit sources) or × LM_HIST16_BINS (16-bit), in host
   * memory, and the pixels counted. NULL: the input's own histogram. */
  const uint32_t *bins;
  uint64_t total;
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

/* 16-bit sources: 65536 bins (LM_HIST16_BINS), and a table of Lumen's own, since OpenCV has
 * no 16-bit equalizeHist. It is the 8-bit formula in integers:
 *   lut[v] = round_half_up (65535 · (cdf[v] − cdf[first]) / (N − cdf[first])),
 * 0 up to the first non-empty bin, the identity on a one-valued image. Exact in 64 bits
 * (65535 · N < 2⁴⁷), so both backends build it bit for bit, entry by entry. Where OpenCV's
 * 8-bit table rounds 255 · f in float with halves to even, this one rounds 65535 · f exactly
 * with halves up: on an image of 8-bit values (v · 257) the two agree to the 8-bit step
 * except where 255 · f lies within float rounding of a half. */
#define LM_HIST16_BINS 65536

LM_INLINE uint16_t
lm_equalize16_entry (uint64_t cdf, uint64_t cdf_first, uint64_t total)
{
  if (cdf <= cdf_first)
    return 0;
  uint64_t num = 65535ull * (cdf - cdf_first), den = total - cdf_first;
  return (uint16_t) ((2 * num + den) / (2 * den));
}

LM_INLINE void
lm_equalize_lut16 (const uint32_t *hist, uint64_t total, uint16_t *lut)
{
  int first = 0;
  while (first < LM_HIST16_BINS - 1 && hist[first] == 0)
    first++;
  if ((uint64_t) hist[first] == total)
    {
      for (int i = 0; i < LM_HIST16_BINS; i++)
        lut[i] = (uint16_t) i;
      return;
    }
  uint64_t cdf = 0;
  for (int i = 0; i < LM_HIST16_BINS; i++)
    {
      cdf += hist[i];
      lut[i] = i <= first ? 0 : lm_equalize16_entry (cdf, hist[first], total);
    }
}

LM_INLINE uint16_t
lm_equalize_channel16 (uint16_t c, uint16_t lut_c, float amount)
{
  return amount >= 1.0f ? lut_c : lm_quantize_u16 (lm_blend (lm_u16_value (c), lm_u16_value (lut_c), amount));
}

/* Luma mode's move on the 0..255 scale, as lm_equalize_luma_shift. */
LM_INLINE float
lm_equalize_luma_shift16 (uint16_t y, uint16_t lut_y, float amount)
{
  float shift = (float) ((int) lut_y - (int) y) / 257.0f;
  return amount >= 1.0f ? shift : amount * shift;
}

LM_INLINE uint64_t
lm_equalize_shift_rgba16 (uint64_t p, float shift)
{
  return lm_px16_pack (lm_quantize_u16 (lm_px16_channel (p, 0) + shift),
                       lm_quantize_u16 (lm_px16_channel (p, 1) + shift),
                       lm_quantize_u16 (lm_px16_channel (p, 2) + shift), p);
}
