/* Sharpen: an unsharp mask on luminance, shared by sharpen.c and kernels/sharpen.cu.
 *
 * On the display-referred values (0..255 scale; 16-bit / 257), after the display transform:
 * on linear light the mask's bright halos come out several times stronger than its dark ones.
 *   1. Y = (l_R·R + l_G·G) + l_B·B, l the luminances of the photo's primaries (a gray image:
 *      its value);
 *   2. B = the Gaussian of Y with blur's kernel (lm_blur_radius, lm_blur_weights), border
 *      reflect-101, a direct separable convolution: along the rows, then down the columns, each
 *      sum w₀·c + Σ_j w_j·(left_j + right_j) for j = 1…r in that order;
 *   3. D = Y − B, softly thresholded: D' = sign(D)·max(|D| − threshold, 0), so that detail
 *      grows from zero above the threshold instead of jumping in (GIMP's hard threshold steps);
 *   4. R, G and B each + amount·D' (alpha as it is), then the format's one rounding.
 * Adding the same ΔY to each channel keeps the colour's differences; scaling by Y'/Y would
 * blow up noise near black.
 *
 * Only +, −, × in a fixed order: the CPU (-ffp-contract=off) and the kernels (--fmad=false)
 * give the same bits.
 *
 * Halo on a straight step edge of height h: the largest overshoot is at the first pixel past
 * the edge, amount·max(0, h·(1 − w₀)/2 − threshold), w₀ the centre tap (0.399 at radius 1:
 * 0.30·h), and the undershoot on the other side mirrors it. Nothing anywhere leaves the range
 * h of its neighbourhood by more than amount·max(0, h·(1 − w₀²) − threshold), reached by a lone
 * pixel (0.84·h at radius 1). test-sharpen.c holds the operation to both. */
#pragma once

#include "blur-math.h"
#include "param-decl.h"
#include "pixel-math.h"

#define LM_SHARPEN_RADIUS_MAX 10.0f

/* radius: the Gaussian's σ in pixels; amount: the detail's gain; threshold: detail below this
 * many levels (0..255 scale) is left alone, above it is reduced by it. */
#define LM_SHARPEN_PARAMS(P)                                                                       \
  P (FLOAT, amount, N_("Amount"), 0, 5, 0.5, 0.01, NULL)                                           \
  P (FLOAT, radius, N_("Radius (σ)"), 0.3, LM_SHARPEN_RADIUS_MAX, 1.0, 0.1, "px", .in_pixels = 1) \
  P (FLOAT, threshold, N_("Threshold"), 0, 32, 1, 0.1, NULL)

typedef struct {
  float r, g, b;
} LmSharpenLuma;

typedef struct {
  LM_SHARPEN_PARAMS (LM_PARAM_FIELD)
  /* Not a parameter: the luminances of the photo's primaries, from the render's commit
   * (sharpen.c). All 0 for sRGB and in every pipeline the user edits: BT.709's then. */
  LmSharpenLuma luma;
} LmSharpenParams;

/* The weights Y is made with. */
LM_INLINE LmSharpenLuma
lm_sharpen_luma (const LmSharpenParams *p)
{
  if (p->luma.r != 0.0f || p->luma.g != 0.0f || p->luma.b != 0.0f)
    return p->luma;
  LmSharpenLuma l = { LM_BT709_R, LM_BT709_G, LM_BT709_B };
  return l;
}

/* Host side. Taps on each side for the parameters (0 where a shrunk preview's σ leaves no neighbour:
 * the operation then leaves the image as it is). */
static inline int
lm_sharpen_radius (const LmSharpenParams *p)
{
  return lm_blur_radius (p->radius);
}

/* Whether the operation changes anything: otherwise its output is a copy of its input. */
static inline int
lm_sharpen_active (const LmSharpenParams *p)
{
  return p->amount > 0.0f && lm_sharpen_radius (p) > 0;
}

/* Step 3: the detail D = Y − B past the threshold T, towards zero by T. */
LM_INLINE float
lm_sharpen_detail (float y, float blurred, float t)
{
  float d = y - blurred;
  return d > t ? d - t : d < -t ? d + t : 0.0f;
}

/* Step 4, one channel. */
LM_INLINE float
lm_sharpen_channel (float v, float amount, float detail)
{
  return v + amount * detail;
}
