/* The sRGB transfer function (IEC 61966-2-1): for operations defined in linear light (exposure,
 * white balance) on the file's encoded values, and for colour management's sRGB profile. Both
 * directions are extended to values outside 0..1 by symmetry about 0 and the same curve above
 * 1, so that values an earlier operation pushed out of range go on meaning something. */
#pragma once

#include <math.h>

#include "pixel-math.h"

/* The curve in one precision: T, the suffix F of its literals (f, or nothing for double), T's
 * fabs and pow. One text for both precisions, each computing in its own: the per-pixel
 * operations' float pair must keep their bits on both backends, colour management's double
 * pair its accuracy. */
#define LM_SRGB_CURVE(T, F, FABS, POW, to_linear, to_encoded)                                     \
  LM_INLINE T to_linear (T v)                                                                     \
  {                                                                                               \
    T a = FABS (v);                                                                               \
    T l = a <= 0.04045##F ? a / 12.92##F : POW ((a + 0.055##F) / 1.055##F, 2.4##F);               \
    return v < 0.0##F ? -l : l;                                                                   \
  }                                                                                               \
  LM_INLINE T to_encoded (T l)                                                                    \
  {                                                                                               \
    T a = FABS (l);                                                                               \
    T v = a <= 0.0031308##F ? a * 12.92##F : 1.055##F * POW (a, 1.0##F / 2.4##F) - 0.055##F;      \
    return l < 0.0##F ? -v : v;                                                                   \
  }

/* Encoded (0..1) to linear light, and linear light to encoded: lm_srgb_to_linear and
 * lm_linear_to_srgb in float, for the operations; the same with _d in double, for the
 * profiles (core/color/profile.c). */
LM_SRGB_CURVE (float, f, fabsf, powf, lm_srgb_to_linear, lm_linear_to_srgb)
LM_SRGB_CURVE (double, , fabs, pow, lm_srgb_to_linear_d, lm_linear_to_srgb_d)
