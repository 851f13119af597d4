/* Noise reduction: parameters and the arithmetic that denoise.c and kernels/denoise.cu share,
 * so that the two backends make the same bits (only +, −, ×, ÷ in a fixed order; no FMA).
 *
 * The method: an undecimated à-trous wavelet (B3 spline, LM_DENOISE_LEVELS levels) of each
 * channel of an orthonormal opponent space (Y luma, U and V chroma), each detail coefficient w
 * multiplied by a local empirical Wiener gain
 *   g = max (detail, 1 − (k·σ_j)² / E),  E the 7×7 mean of the band's w²,
 * σ_j = G_j·σ the band's noise level for white noise of σ, k the channel's strength. σ is the
 * `noise` parameter, or when that is 0 an estimate made on the image (lm_denoise_flat_last,
 * lm_denoise_median_sigma).
 * Orthonormal so that i.i.d. noise of σ per RGB channel stays i.i.d. of σ in Y, U and V.
 * Values are on the 0..255 scale; scene light (RGBA_F32) goes through T = 255·sRGB encoding
 * first, which makes photon noise nearly constant, and back through T⁻¹. */
#pragma once

#include "param-decl.h"
#include "pixel-math.h"
#include "srgb-math.h"

#define LM_DENOISE_LEVELS 5
/* The reach of the whole transform on each side: the B3 taps of every level, Σ 2^{j+1} =
 * 62, and the 7×7 window's 3 of the coarsest. */
#define LM_DENOISE_HALO 65
/* The estimate's flatness window (9×9) and the first two levels it reads. */
#define LM_DENOISE_EST_BOX 4
/* The estimate's joint histogram: the flatness e in LM_DENOISE_E_BINS bins of a quarter
 * octave from 2^-8 up (bin 0: below), |w₀| in LM_DENOISE_W_BINS bins of 1/LM_DENOISE_W_SCALE
 * level (the last: above). Integers, so that any order of counting gives the same. */
#define LM_DENOISE_E_BINS 128
#define LM_DENOISE_W_BINS 2048
#define LM_DENOISE_W_SCALE 32.0f
#define LM_DENOISE_HIST_SIZE (LM_DENOISE_E_BINS * LM_DENOISE_W_BINS)
/* The flattest fraction of the counted pixels that the estimate reads, and the coarse RGB
 * range they must lie in (clipped noise is smaller than the noise). */
#define LM_DENOISE_FLAT_FRACTION 0.1
#define LM_DENOISE_CLIP_LO 4.0f
#define LM_DENOISE_CLIP_HI 251.0f

#define LM_DENOISE_PARAMS(P)                                                                       \
  P (FLOAT, luma, N_("Luminance"), 0, 3, 1.2, 0.01, NULL)                                          \
  P (FLOAT, luma_detail, N_("Luminance detail"), 0, 1, 0, 0.01, NULL)                              \
  P (FLOAT, chroma, N_("Colour"), 0, 3, 1.5, 0.01, NULL)                                           \
  P (FLOAT, chroma_detail, N_("Colour detail"), 0, 1, 0, 0.01, NULL)                              \
  P (FLOAT, noise, N_("Noise level"), 0, 64, 0, 0.1, NULL)

typedef struct {
  LM_DENOISE_PARAMS (LM_PARAM_FIELD)
  /* Not parameters: σ of the whole input when a tiled render measured it in a first pass
   * (SIGMA_KNOWN set), so that every tile shrinks by the same σ as one piece does. */
  float sigma_est;
  int sigma_known;
} LmDenoiseParams;

/* The σ a run uses: the parameter where it is set, else the whole input's where it is known;
 * negative: to be estimated on the input. */
LM_INLINE float
lm_denoise_fixed_sigma (const LmDenoiseParams *p)
{
  if (p->noise > 0.0f)
    return p->noise;
  return p->sigma_known ? p->sigma_est : -1.0f;
}

/* The white-noise gain of band J of this transform in 2-D: the ℓ² norm of band J's impulse
 * response (tests/unit/test-denoise.c recomputes them from a delta). */
LM_INLINE float
lm_denoise_band_gain (int j)
{
  switch (j)
    {
    case 0: return 0.8908f;
    case 1: return 0.2007f;
    case 2: return 0.0855f;
    case 3: return 0.0412f;
    default: return 0.0204f;
    }
}

/* The B3 spline's taps at offsets −2, −1, 0, +1, +2 (times the level's step 2^j). */
#define LM_DENOISE_B3_0 0.0625f
#define LM_DENOISE_B3_1 0.25f
#define LM_DENOISE_B3_2 0.375f

/* One B3 sum of the five samples at offsets −2 … +2 steps, in that order. */
LM_INLINE float
lm_denoise_b3 (float a, float b, float c, float d, float e)
{
  float s = LM_DENOISE_B3_0 * a;
  s = s + LM_DENOISE_B3_1 * b;
  s = s + LM_DENOISE_B3_2 * c;
  s = s + LM_DENOISE_B3_1 * d;
  s = s + LM_DENOISE_B3_0 * e;
  return s;
}

/* The opponent transform M and its inverse Mᵀ. */
#define LM_DENOISE_INV_SQRT3 0.577350269f
#define LM_DENOISE_INV_SQRT2 0.707106781f
#define LM_DENOISE_INV_SQRT6 0.408248290f

LM_INLINE void
lm_denoise_to_yuv (float r, float g, float b, float *y, float *u, float *v)
{
  *y = ((r + g) + b) * LM_DENOISE_INV_SQRT3;
  *u = (r - b) * LM_DENOISE_INV_SQRT2;
  *v = ((r + b) - (g + g)) * LM_DENOISE_INV_SQRT6;
}

LM_INLINE void
lm_denoise_to_rgb (float y, float u, float v, float *r, float *g, float *b)
{
  float ys = y * LM_DENOISE_INV_SQRT3, us = u * LM_DENOISE_INV_SQRT2, vs = v * LM_DENOISE_INV_SQRT6;
  *r = (ys + us) + vs;
  *g = ys - (vs + vs);
  *b = (ys - us) + vs;
}

/* Scene light to the 0..255 scale the method works on, and back. */
LM_INLINE float
lm_denoise_scene_in (float x)
{
  return 255.0f * lm_linear_to_srgb (x);
}

LM_INLINE float
lm_denoise_scene_out (float v)
{
  return lm_srgb_to_linear (v / 255.0f);
}

/* The Wiener gain of a coefficient whose window's mean energy is E, for the band's threshold
 * S2 = (k·σ_j)² and the detail floor D. E ≤ S2 (a flat window: E = 0) gives D, no division. */
LM_INLINE float
lm_denoise_gain (float e, float s2, float d)
{
  if (!(e > s2))
    return d;
  float g = 1.0f - s2 / e;
  return g > d ? g : d;
}

/* (k·σ_j)² for strength K and noise SIGMA at level J. */
LM_INLINE float
lm_denoise_threshold (float k, float sigma, int j)
{
  float s = k * (sigma * lm_denoise_band_gain (j));
  return s * s;
}

/* The histogram bin of a flatness E ≥ 0: its float exponent and two top mantissa bits, so a
 * quarter octave each from 2^-8 (bin 1) up, bin 0 below; exact on both backends. */
LM_INLINE int
lm_denoise_e_bin (float e)
{
  if (!(e >= 0.00390625f))
    return 0;
  union {
    float f;
    uint32_t u;
  } bits;
  bits.f = e;
  int b = (int) (bits.u >> 21) - (119 << 2) + 1;
  return b < LM_DENOISE_E_BINS ? b : LM_DENOISE_E_BINS - 1;
}

LM_INLINE int
lm_denoise_w_bin (float w)
{
  float a = (w < 0.0f ? -w : w) * LM_DENOISE_W_SCALE;
  return a < (float) (LM_DENOISE_W_BINS - 1) ? (int) a : LM_DENOISE_W_BINS - 1;
}

/* Whether a coarse pixel (its c₂ in R, G, B) is unclipped enough to count. */
LM_INLINE int
lm_denoise_counts (float r, float g, float b)
{
  return r >= LM_DENOISE_CLIP_LO && r <= LM_DENOISE_CLIP_HI && g >= LM_DENOISE_CLIP_LO && g <= LM_DENOISE_CLIP_HI
         && b >= LM_DENOISE_CLIP_LO && b <= LM_DENOISE_CLIP_HI;
}

/* The estimate from the joint histogram (e bin major) in two steps that both backends share.
 * First: of E_TOTALS (the counts of each e bin), the last bin of the flattest
 * LM_DENOISE_FLAT_FRACTION (that bin counted whole), and in *SELECTED the pixels up to it. */
LM_INLINE int
lm_denoise_flat_last (const uint64_t *e_totals, uint64_t *selected)
{
  uint64_t total = 0;
  for (int b = 0; b < LM_DENOISE_E_BINS; b++)
    total += e_totals[b];
  double want = LM_DENOISE_FLAT_FRACTION * (double) total;
  uint64_t sel = 0;
  int last = 0;
  while (last < LM_DENOISE_E_BINS - 1 && (double) (sel + e_totals[last]) < want)
    sel += e_totals[last++];
  *selected = sel + e_totals[last];
  return last;
}

/* Then σ: the median of |w₀| from W_COUNTS (the |w₀| bins summed over the e bins up to the
 * last, SELECTED in all), interpolated within its bin, over the MAD's 0.6745 and band 0's
 * gain. In double, whose +, −, ×, ÷ are the same IEEE operations on both sides. 0 when
 * nothing was counted. */
LM_INLINE double
lm_denoise_median_sigma (const uint64_t *w_counts, uint64_t selected)
{
  double half = 0.5 * (double) selected;
  uint64_t cum = 0;
  for (int w = 0; w < LM_DENOISE_W_BINS; w++)
    {
      uint64_t n = w_counts[w];
      if (n > 0 && (double) (cum + n) >= half)
        {
          double med = ((double) w + (half - (double) cum) / (double) n) / (double) LM_DENOISE_W_SCALE;
          return med / 0.6745 / (double) lm_denoise_band_gain (0);
        }
      cum += n;
    }
  return 0.0;
}
