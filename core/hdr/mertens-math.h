/* Mertens, Kautz & Van Reeth (2007) exposure fusion, as OpenCV's MergeMertens: the quality
 * measures of one pixel and the taps of the Gaussian and Laplacian pyramids (OpenCV's
 * pyrDown and pyrUp), shared by the CPU reference (mertens.c) and the CUDA kernels. Values
 * are the 8-bit ones divided by 255. */
#pragma once

#include <math.h>

#include "../ops/pixel-math.h"
/* lm_reflect101: OpenCV's BORDER_REFLECT_101 (…, 2, 1 | 0, 1, 2, … | n−2, n−3, …), the one
 * border rule of blur and fusion (one definition, so that nvcc can see both), also for the
 * one- and two-pixel rows at the top of a pyramid. */
#include "../ops/blur-math.h"

/* The depth of OpenCV's buildPyramid in MergeMertens: log2 of the shorter side, plus one, each
 * level ((w + 1) / 2) × ((h + 1) / 2). Its float expression, so that the CPU and the CUDA
 * backend build the same levels. */
LM_INLINE int
lm_mertens_levels (unsigned w, unsigned h)
{
  return (int) (logf ((float) (w < h ? w : h)) / logf (2.0f)) + 1;
}

/* The luma whose Laplacian measures contrast: BT.601 on R, G, B (OpenCV's float RGB2GRAY
 * on the channels in R, G, B order). */
LM_INLINE float
lm_mertens_luma (float r, float g, float b)
{
  return r * LM_BT601_R + g * LM_BT601_G + b * LM_BT601_B;
}

/* Contrast: |Laplacian| of the luma, OpenCV's 3×3 kernel (0 1 0, 1 −4 1, 0 1 0), its taps
 * added in the kernel's row order as filter2D adds them: on nearly flat areas the result is
 * a rounding residue, and the same residue keeps the weights OpenCV's. */
LM_INLINE float
lm_mertens_contrast (float up, float left, float centre, float right, float down)
{
  return fabsf ((((up + left) + centre * -4.0f) + right) + down);
}

/* Saturation: √(Σ (channel − mean)²), which is OpenCV's; the paper's standard deviation is
 * this over √3, a factor that the per-pixel normalisation cancels. The mean is taken as
 * OpenCV takes it (the sum times the float nearest ⅓): on a gray pixel the few ulps left
 * over are the whole saturation, and where every exposure of a pixel is gray (clipped
 * white, say) they decide the weights. */
LM_INLINE float
lm_mertens_saturation (float r, float g, float b)
{
  float mean = (r + g + b) * (1.0f / 3.0f);
  float dr = r - mean, dg = g - mean, db = b - mean;
  return sqrtf (dr * dr + dg * dg + db * db);
}

/* Well-exposedness of one channel: exp(−(v − ½)² / (2σ²)), σ = 0.2, i.e. (v − ½)² · −12.5. */
LM_INLINE float
lm_mertens_exposedness (float v)
{
  float d = v - 0.5f;
  return expf (d * d * -12.5f);
}

/* X^E; the exponents are 1 by default, and x¹ = x exactly (as OpenCV's pow gives it), without
 * the cost of powf. */
LM_INLINE float
lm_mertens_pow (float x, float e)
{
  return e == 1.0f ? x : powf (x, e);
}

/* A pixel's weight: the measures raised to their exponents, multiplied; OpenCV's 1e-12
 * keeps the normalisation defined where every exposure scores 0. */
LM_INLINE float
lm_mertens_weight (float contrast, float saturation, float exposedness, float wc, float ws, float we)
{
  return lm_mertens_pow (contrast, wc) * lm_mertens_pow (saturation, ws) * lm_mertens_pow (exposedness, we)
         + 1e-12f;
}

/* pyrDown's 5 taps (1 4 6 4 1) on A..E centred on C; after both directions the sum is
 * scaled by 1/256. */
LM_INLINE float
lm_pyr_down_taps (float a, float b, float c, float d, float e)
{
  return (a + e) + 4.0f * (b + d) + 6.0f * c;
}

/* pyrUp: the same kernel on the image with zeros between its pixels, reflected at the
 * borders of the doubled size. An even output sees three pixels (1 6 1, centred on B), an
 * odd one two (4 4); after both directions the sum is scaled by 1/64. */
LM_INLINE float
lm_pyr_up_even (float a, float b, float c)
{
  return a + 6.0f * b + c;
}

LM_INLINE float
lm_pyr_up_odd (float b, float c)
{
  return 4.0f * (b + c);
}

/* The source index that the pyrUp taps of output 2J reach to on each side (J−1 and J+1,
 * reflected at the borders of the doubled size 2N). */
LM_INLINE int
lm_pyr_up_neighbour (int j, int side, int n)
{
  return lm_reflect101 (2 * j + 2 * side, 2 * n) / 2;
}
