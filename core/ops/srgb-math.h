/* The sRGB transfer function (IEC 61966-2-1), for operations defined in linear light
 * (exposure, white balance) on the file's encoded values. Both directions are extended to
 * values outside 0..1 by symmetry about 0 and the same curve above 1, so that values an
 * earlier operation pushed out of range go on meaning something. */
#pragma once

#include <math.h>

#include "pixel-math.h"

/* Encoded (0..1) to linear light. */
LM_INLINE float
lm_srgb_to_linear (float v)
{
  float a = fabsf (v);
  float l = a <= 0.04045f ? a / 12.92f : powf ((a + 0.055f) / 1.055f, 2.4f);
  return v < 0.0f ? -l : l;
}

/* Linear light to encoded (0..1). */
LM_INLINE float
lm_linear_to_srgb (float l)
{
  float a = fabsf (l);
  float v = a <= 0.0031308f ? a * 12.92f : 1.055f * powf (a, 1.0f / 2.4f) - 0.055f;
  return l < 0.0f ? -v : v;
}
