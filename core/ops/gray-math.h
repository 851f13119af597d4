/* Grayscale: parameters and per-pixel math, shared by gray.c and kernels/gray.cu. */
#pragma once

#include "pixel-math.h"

typedef enum {
  LM_GRAY_LUMINOSITY, /* BT.709 weights */
  LM_GRAY_BT601,      /* 0.299, 0.587, 0.114 */
  LM_GRAY_AVERAGE,    /* (R + G + B) / 3 */
  LM_GRAY_MIX,        /* the user's red, green and blue weights */
} LmGrayMode;

typedef struct {
  int mode;    /* LmGrayMode */
  float amount; /* 0 keeps the colour, 1 is fully gray */
  float red, green, blue; /* weights of LM_GRAY_MIX, used as given (not normalised) */
} LmGrayParams;

typedef struct {
  float r, g, b;
} LmGrayWeights;

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

/* One RGBA pixel to RGBA: each colour channel blended towards the gray value. */
LM_INLINE void
lm_gray_rgba (const uint8_t in[4], uint8_t out[4], LmGrayWeights w, float amount)
{
  float y = lm_gray_value (in[0], in[1], in[2], w);
  out[0] = lm_quantize_u8 (lm_blend (in[0], y, amount));
  out[1] = lm_quantize_u8 (lm_blend (in[1], y, amount));
  out[2] = lm_quantize_u8 (lm_blend (in[2], y, amount));
  out[3] = in[3];
}
