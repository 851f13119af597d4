/* Grayscale: parameters and per-pixel math, shared by gray.c and kernels/gray.cu. */
#pragma once

#include "param-decl.h"
#include "pixel-math.h"

typedef enum {
  LM_GRAY_LUMINOSITY, /* the luminances of the photo's primaries: BT.709's for sRGB */
  LM_GRAY_BT601,      /* 0.299, 0.587, 0.114 */
  LM_GRAY_AVERAGE,    /* (R + G + B) / 3 */
  LM_GRAY_MIX,        /* the user's red, green and blue weights */
} LmGrayMode;

typedef struct {
  float r, g, b;
} LmGrayWeights;

/* mode: an LmGrayMode; amount: 0 keeps the colour, 1 is fully gray; red, green, blue: the
 * weights of LM_GRAY_MIX, used as given (not normalised). */
#define LM_GRAY_PARAMS(P)                                                                          \
  P (ENUM, mode, N_("Mode"), 0, 3, LM_GRAY_LUMINOSITY, 1, NULL, .values = lm_gray_modes)          \
  P (FLOAT, amount, N_("Amount"), 0, 1, 1, 0.01, NULL)                                             \
  P (FLOAT, red, N_("Red"), -2, 2, 0.30, 0.01, NULL, .when = "mode=mix")                           \
  P (FLOAT, green, N_("Green"), -2, 2, 0.59, 0.01, NULL, .when = "mode=mix")                       \
  P (FLOAT, blue, N_("Blue"), -2, 2, 0.11, 0.01, NULL, .when = "mode=mix")

typedef struct {
  LM_GRAY_PARAMS (LM_PARAM_FIELD)
  /* Not a parameter: the luminances of the photo's own primaries, which "luminosity" weighs
   * with, from the render's commit (gray.c). All 0 for sRGB, and in every pipeline the user
   * edits: BT.709's constants then, the same bytes as before profiles were read. */
  LmGrayWeights luminosity;
} LmGrayParams;

LM_INLINE LmGrayWeights
lm_gray_weights (const LmGrayParams *p)
{
  LmGrayWeights w;
  switch (p->mode)
    {
    case LM_GRAY_BT601:
      w.r = LM_BT601_R, w.g = LM_BT601_G, w.b = LM_BT601_B;
      break;
    case LM_GRAY_AVERAGE:
      w.r = w.g = w.b = 1.0f / 3.0f;
      break;
    case LM_GRAY_MIX:
      w.r = p->red, w.g = p->green, w.b = p->blue;
      break;
    default:
      if (p->luminosity.r != 0.0f || p->luminosity.g != 0.0f || p->luminosity.b != 0.0f)
        w = p->luminosity;
      else
        w.r = LM_BT709_R, w.g = LM_BT709_G, w.b = LM_BT709_B;
      break;
    }
  return w;
}

/* Fully gray output with no alpha to keep is stored as one channel. */
LM_INLINE int
lm_gray_stores_one_channel (const LmGrayParams *p, int opaque)
{
  return p->amount >= 1.0f && opaque;
}

LM_INLINE float
lm_gray_value (float r, float g, float b, LmGrayWeights w)
{
  return lm_weighted_sum (r, g, b, w.r, w.g, w.b);
}

/* One RGBA pixel to its gray value. */
LM_INLINE uint8_t
lm_gray_of_rgba (uint32_t p, LmGrayWeights w)
{
  return lm_quantize_u8 (lm_gray_value (lm_px_channel (p, 0), lm_px_channel (p, 1),
                                        lm_px_channel (p, 2), w));
}

/* One RGBA pixel to RGBA: each colour channel blended towards the gray value. */
LM_INLINE uint32_t
lm_gray_rgba (uint32_t p, LmGrayWeights w, float amount)
{
  float r = lm_px_channel (p, 0), g = lm_px_channel (p, 1), b = lm_px_channel (p, 2);
  /* Blend towards the gray the user sees at amount 1: clipped, as mix weights can overshoot. */
  float y = lm_quantize_clamp (lm_gray_value (r, g, b, w));
  return lm_px_pack (lm_quantize_u8 (lm_blend (r, y, amount)), lm_quantize_u8 (lm_blend (g, y, amount)),
                     lm_quantize_u8 (lm_blend (b, y, amount)), p);
}

/* 16-bit sources: the same math on the 0..255 scale (lm_u16_value), rounded to 16 bits. */
LM_INLINE uint16_t
lm_gray_of_rgba16 (uint64_t p, LmGrayWeights w)
{
  return lm_quantize_u16 (lm_gray_value (lm_px16_channel (p, 0), lm_px16_channel (p, 1),
                                         lm_px16_channel (p, 2), w));
}

LM_INLINE uint64_t
lm_gray_rgba16 (uint64_t p, LmGrayWeights w, float amount)
{
  float r = lm_px16_channel (p, 0), g = lm_px16_channel (p, 1), b = lm_px16_channel (p, 2);
  float y = lm_quantize_clamp (lm_gray_value (r, g, b, w));
  return lm_px16_pack (lm_quantize_u16 (lm_blend (r, y, amount)), lm_quantize_u16 (lm_blend (g, y, amount)),
                       lm_quantize_u16 (lm_blend (b, y, amount)), p);
}

LM_INLINE uint16_t
lm_gray_gray16 (uint16_t in, LmGrayWeights w, float amount)
{
  float v = lm_u16_value (in);
  return lm_quantize_u16 (lm_blend (v, lm_quantize_clamp (lm_gray_value (v, v, v, w)), amount));
}
