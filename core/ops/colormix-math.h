/* Colour mixer: hue, saturation and lightness of eight colour bands, its parameters and pixel part,
 * shared by colormix.c and the fused point pass (point-math.h, kernels/point.cu).
 *
 * The pixel is taken to Oklab (Ottosson 2020) through linear light (the sRGB curve; the photo's own
 * primaries when commit gives them, colormix.c) and read as lightness L, chroma C and hue h.
 * Oklab's hue is perceptually even (blue does not drift to purple as in CIELab) and has no
 * discontinuity at black or white as HSL's has. Eight bands are centred on the hues of the colours
 * they are named after (sRGB's red 29°, orange 53°, yellow 110°, green 142°, aqua (cyan) 195°, blue
 * 264°, purple 294°, magenta 328°: LM_COLORMIX_CENTRE); between two neighbouring centres a hue
 * takes a smoothstep blend of the two bands' values, so a band reaches its neighbours' centres and
 * no further, the weights sum to one (the same edit on all bands is a global one) and the result is
 * C¹ along the hue circle. A neutral guard, smoothstep between chroma LM_COLORMIX_NEUTRAL_LO and
 * LM_COLORMIX_NEUTRAL_HI, leaves greys (and the noise of dark neutrals) alone. With the blended hue
 * shift Δh, saturation s and lightness l, all times the guard: h' = h + Δh, C' = C · max (0, 1 +
 * s), L' = L · (1 + l / 2), then back to RGB.
 *
 * Both backends must give the same bits, and glibc's and CUDA's cbrtf, powf, atan2f and sincosf
 * differ in their last bits: every function here is built from IEEE's correctly rounded +, −, ×, ÷
 * and sqrt (with core/ops/exp2-math.h's log2 and exp2), compiled without FMA contraction on either
 * side, as the sigmoid's are. They are accurate to a few units in the last place, far inside one
 * 16-bit level. A pixel that no band moves keeps its values exactly. */
#pragma once

#include <math.h>

#include "exp2-math.h"
#include "param-decl.h"
#include "pixel-math.h"

#define LM_COLORMIX_BANDS 8
#define LM_COLORMIX_HUE_MAX 30.0f

/* Per band, in hue order: its hue shift (degrees), its saturation and its lightness (−1..1). */
#define LM_COLORMIX_PARAMS(P)                                                                      \
  P (FLOAT, red_hue, N_("Red hue"), -LM_COLORMIX_HUE_MAX, LM_COLORMIX_HUE_MAX, 0, 0.1, "°")        \
  P (FLOAT, red_sat, N_("Red saturation"), -1, 1, 0, 0.01, NULL)                                   \
  P (FLOAT, red_light, N_("Red lightness"), -1, 1, 0, 0.01, NULL)                                  \
  P (FLOAT, orange_hue, N_("Orange hue"), -LM_COLORMIX_HUE_MAX, LM_COLORMIX_HUE_MAX, 0, 0.1, "°")  \
  P (FLOAT, orange_sat, N_("Orange saturation"), -1, 1, 0, 0.01, NULL)                             \
  P (FLOAT, orange_light, N_("Orange lightness"), -1, 1, 0, 0.01, NULL)                            \
  P (FLOAT, yellow_hue, N_("Yellow hue"), -LM_COLORMIX_HUE_MAX, LM_COLORMIX_HUE_MAX, 0, 0.1, "°")  \
  P (FLOAT, yellow_sat, N_("Yellow saturation"), -1, 1, 0, 0.01, NULL)                             \
  P (FLOAT, yellow_light, N_("Yellow lightness"), -1, 1, 0, 0.01, NULL)                            \
  P (FLOAT, green_hue, N_("Green hue"), -LM_COLORMIX_HUE_MAX, LM_COLORMIX_HUE_MAX, 0, 0.1, "°")    \
  P (FLOAT, green_sat, N_("Green saturation"), -1, 1, 0, 0.01, NULL)                               \
  P (FLOAT, green_light, N_("Green lightness"), -1, 1, 0, 0.01, NULL)                              \
  P (FLOAT, aqua_hue, N_("Aqua hue"), -LM_COLORMIX_HUE_MAX, LM_COLORMIX_HUE_MAX, 0, 0.1, "°")      \
  P (FLOAT, aqua_sat, N_("Aqua saturation"), -1, 1, 0, 0.01, NULL)                                 \
  P (FLOAT, aqua_light, N_("Aqua lightness"), -1, 1, 0, 0.01, NULL)                                \
  P (FLOAT, blue_hue, N_("Blue hue"), -LM_COLORMIX_HUE_MAX, LM_COLORMIX_HUE_MAX, 0, 0.1, "°")      \
  P (FLOAT, blue_sat, N_("Blue saturation"), -1, 1, 0, 0.01, NULL)                                 \
  P (FLOAT, blue_light, N_("Blue lightness"), -1, 1, 0, 0.01, NULL)                                \
  P (FLOAT, purple_hue, N_("Purple hue"), -LM_COLORMIX_HUE_MAX, LM_COLORMIX_HUE_MAX, 0, 0.1, "°")  \
  P (FLOAT, purple_sat, N_("Purple saturation"), -1, 1, 0, 0.01, NULL)                             \
  P (FLOAT, purple_light, N_("Purple lightness"), -1, 1, 0, 0.01, NULL)                            \
  P (FLOAT, magenta_hue, N_("Magenta hue"), -LM_COLORMIX_HUE_MAX, LM_COLORMIX_HUE_MAX, 0, 0.1, "°") \
  P (FLOAT, magenta_sat, N_("Magenta saturation"), -1, 1, 0, 0.01, NULL)                           \
  P (FLOAT, magenta_light, N_("Magenta lightness"), -1, 1, 0, 0.01, NULL)

typedef struct {
  float m[3][3];
} LmColormixMatrix;

typedef struct {
  LM_COLORMIX_PARAMS (LM_PARAM_FIELD)
  /* Not a parameter: the photo's linear RGB to Oklab's LMS, from the render's commit
   * (colormix.c). All zero (every pipeline the user edits, and sRGB photos): Oklab's own
   * matrix from linear sRGB. */
  LmColormixMatrix rgb_to_lms;
} LmColormixParams;

/* The band centres, Oklab hue in degrees, increasing; the last band blends into the first
 * across 360°. */
#define LM_COLORMIX_CENTRE(k)                                                                      \
  ((k) == 0   ? 25.0f                                                                              \
   : (k) == 1 ? 55.0f                                                                              \
   : (k) == 2 ? 105.0f                                                                             \
   : (k) == 3 ? 145.0f                                                                             \
   : (k) == 4 ? 195.0f                                                                             \
   : (k) == 5 ? 260.0f                                                                             \
   : (k) == 6 ? 295.0f                                                                             \
              : 330.0f)

/* Chroma below LO is left as it is; the edits reach their full strength at HI. LO is far above
 * the chroma that float rounding gives a grey (about 1e-7), so greys stay exactly, and well
 * below what one 8-bit step off grey gives (about 0.002). */
#define LM_COLORMIX_NEUTRAL_LO 1e-4f
#define LM_COLORMIX_NEUTRAL_HI 0.04f

/* The pixel part's parameters, prepared on the host (colormix.c). */
typedef struct {
  float to_lms[3][3];   /* linear RGB → LMS */
  float from_lms[3][3]; /* its inverse */
  float hue[LM_COLORMIX_BANDS];   /* hue shift, radians */
  float sat[LM_COLORMIX_BANDS];   /* chroma gain − 1 */
  float light[LM_COLORMIX_BANDS]; /* lightness gain − 1: half the parameter */
} LmColormixPixel;

/* The sRGB curve (srgb-math.h's, extended by symmetry below 0) with powers from log2 and exp2.
 * Arguments above 2^64 saturate (lm_tm_exp2's range): no photo's value comes near. */
LM_INLINE float
lm_colormix_pow (float x, float y)
{
  return lm_tm_exp2 (y * lm_tm_log2 (x));
}

LM_INLINE float
lm_colormix_decode (float v)
{
  float a = fabsf (v);
  float l = a <= 0.04045f ? a / 12.92f : lm_colormix_pow ((a + 0.055f) / 1.055f, 2.4f);
  return v < 0.0f ? -l : l;
}

LM_INLINE float
lm_colormix_encode (float l)
{
  float a = fabsf (l);
  float v = a <= 0.0031308f ? a * 12.92f : 1.055f * lm_colormix_pow (a, 1.0f / 2.4f) - 0.055f;
  return l < 0.0f ? -v : v;
}

/* The real cube root: 2^(log2 |x| / 3) refined by one Newton step (to the float's rounding).
 * Below 1e-30 (a denormal's log2 would be wrong) 0: its cube root is under 1e-10. */
LM_INLINE float
lm_colormix_cbrt (float x)
{
  float a = fabsf (x);
  if (!(a >= 1e-30f))
    return 0.0f;
  float y = lm_tm_exp2 (lm_tm_log2 (a) / 3.0f);
  y = y - (y - a / (y * y)) / 3.0f;
  return x < 0.0f ? -y : y;
}

/* The angle of (X, Y) in degrees, 0 ≤ h < 360 (0 for the origin and NaN). The octant's
 * atan (z), 0 ≤ z ≤ 1, is reduced to |z| ≤ tan (π/8) by atan z = π/4 + atan ((z − 1) / (z +
 * 1)); there its odd series to z^17 is within 3e-9 rad. */
LM_INLINE float
lm_colormix_hue (float x, float y)
{
  float ax = fabsf (x), ay = fabsf (y);
  float hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
  if (!(hi > 0.0f))
    return 0.0f;
  float z = lo / hi, base = 0.0f;
  if (z > 0.41421356f)
    {
      z = (z - 1.0f) / (z + 1.0f);
      base = 0.78539816f;
    }
  float z2 = z * z;
  float s = -1.0f / 17.0f;
  s = s * z2 + 1.0f / 15.0f;
  s = s * z2 - 1.0f / 13.0f;
  s = s * z2 + 1.0f / 11.0f;
  s = s * z2 - 1.0f / 9.0f;
  s = s * z2 + 1.0f / 7.0f;
  s = s * z2 - 1.0f / 5.0f;
  s = s * z2 + 1.0f / 3.0f;
  s = s * z2 - 1.0f;
  float t = base - z * s; /* atan of lo / hi, 0..π/4 */
  if (ay > ax)
    t = 1.57079633f - t;
  if (x < 0.0f)
    t = 3.14159265f - t;
  float h = t * 57.2957795f;
  if (y < 0.0f)
    h = 360.0f - h;
  return h < 360.0f ? h : 0.0f;
}

/* Sine and cosine of D, |D| ≤ π/6 (the largest hue shift), by their Taylor series to D^9 and
 * D^10 (within 3e-11 there). */
LM_INLINE void
lm_colormix_sincos (float d, float *sin_d, float *cos_d)
{
  float d2 = d * d;
  float s = 1.0f / 362880.0f;
  s = s * d2 - 1.0f / 5040.0f;
  s = s * d2 + 1.0f / 120.0f;
  s = s * d2 - 1.0f / 6.0f;
  s = s * d2 + 1.0f;
  float c = -1.0f / 3628800.0f;
  c = c * d2 + 1.0f / 40320.0f;
  c = c * d2 - 1.0f / 720.0f;
  c = c * d2 + 1.0f / 24.0f;
  c = c * d2 - 0.5f;
  c = c * d2 + 1.0f;
  *sin_d = d * s, *cos_d = c;
}

LM_INLINE float
lm_colormix_smoothstep (float lo, float hi, float x)
{
  float t = (x - lo) / (hi - lo);
  t = t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f;
  return t * t * (3.0f - 2.0f * t);
}

LM_INLINE void
lm_colormix_apply3 (const float m[3][3], const float in[3], float out[3])
{
  for (int i = 0; i < 3; i++)
    out[i] = (m[i][0] * in[0] + m[i][1] * in[1]) + m[i][2] * in[2];
}

/* R, G, B (encoded, 0..255, unclipped) through the mixer P. */
LM_INLINE void
lm_colormix_pixel (const LmColormixPixel *p, float *r, float *g, float *b)
{
  float rgb[3] = { lm_colormix_decode (*r / 255.0f), lm_colormix_decode (*g / 255.0f),
                   lm_colormix_decode (*b / 255.0f) };
  float lms[3];
  lm_colormix_apply3 (p->to_lms, rgb, lms);
  for (int i = 0; i < 3; i++)
    lms[i] = lm_colormix_cbrt (lms[i]);
  /* Oklab's second matrix (Ottosson's figures). */
  float L = (0.2104542553f * lms[0] + 0.7936177850f * lms[1]) - 0.0040720468f * lms[2];
  float A = (1.9779984951f * lms[0] - 2.4285922050f * lms[1]) + 0.4505937099f * lms[2];
  float B = (0.0259040371f * lms[0] + 0.7827717662f * lms[1]) - 0.8086757660f * lms[2];
  float chroma = sqrtf (A * A + B * B);
  float guard = lm_colormix_smoothstep (LM_COLORMIX_NEUTRAL_LO, LM_COLORMIX_NEUTRAL_HI, chroma);
  if (!(guard > 0.0f))
    return;
  float h = lm_colormix_hue (A, B);
  /* The two bands around H: K below it, K + 1 (mod 8) above; the last pair wraps past 360°. */
  int k = LM_COLORMIX_BANDS - 1;
  for (int i = 0; i < LM_COLORMIX_BANDS - 1; i++)
    if (h >= LM_COLORMIX_CENTRE (i) && h < LM_COLORMIX_CENTRE (i + 1))
      k = i;
  int k1 = k + 1 < LM_COLORMIX_BANDS ? k + 1 : 0;
  float lo = LM_COLORMIX_CENTRE (k), hi = LM_COLORMIX_CENTRE (k1);
  if (k1 == 0)
    {
      hi = hi + 360.0f;
      h = h < lo ? h + 360.0f : h;
    }
  float w = lm_colormix_smoothstep (lo, hi, h);
  /* v_k + w (v_k1 − v_k): at a centre the band's own value, and equal bands give it exactly. */
  float dh = guard * (p->hue[k] + w * (p->hue[k1] - p->hue[k]));
  float ds = guard * (p->sat[k] + w * (p->sat[k1] - p->sat[k]));
  float dl = guard * (p->light[k] + w * (p->light[k1] - p->light[k]));
  if (dh == 0.0f && ds == 0.0f && dl == 0.0f)
    return;
  float sin_d, cos_d;
  lm_colormix_sincos (dh, &sin_d, &cos_d);
  float gain = 1.0f + ds;
  gain = gain > 0.0f ? gain : 0.0f;
  float A2 = gain * (A * cos_d - B * sin_d);
  float B2 = gain * (A * sin_d + B * cos_d);
  float L2 = L * (1.0f + dl);
  /* Oklab back to LMS (Ottosson's inverse), cubed. */
  float back[3] = { (L2 + 0.3963377774f * A2) + 0.2158037573f * B2,
                    (L2 - 0.1055613458f * A2) - 0.0638541728f * B2,
                    (L2 - 0.0894841775f * A2) - 1.2914855480f * B2 };
  for (int i = 0; i < 3; i++)
    back[i] = back[i] * back[i] * back[i];
  lm_colormix_apply3 (p->from_lms, back, rgb);
  *r = 255.0f * lm_colormix_encode (rgb[0]);
  *g = 255.0f * lm_colormix_encode (rgb[1]);
  *b = 255.0f * lm_colormix_encode (rgb[2]);
}
