/* Local contrast (clarity): the fast local Laplacian filter (Paris, Hasinoff, Kautz 2011;
 * Aubry et al. 2014) on log2 luminance, shared by localcontrast.c and kernels/localcontrast.cu.
 *
 * The filter raises (amount > 0) or lowers the differences smaller than RANGE EV around each
 * pixel's local level and leaves larger ones, edges, as they are: no halo by construction.
 *   1. ℓ = log2 (max (Y, 2⁻¹⁶)), Y the linear luminance (the photo's primaries' weights).
 *   2. L = 1 + ⌈log2 radius⌉ levels; Gaussian pyramid G of ℓ (reduce: (1 4 6 4 1)/16 both
 *      ways, border reflect-101, even samples kept; sizes ⌈n/2⌉).
 *   3. For each γ_k = k·Δγ (Δγ = range/4, a grid anchored at 0 EV): R = r_γk (ℓ), its Laplacian
 *      pyramid Lap_l = R_l − expand (R_l+1), and O_l += w_k (G_l)·Lap_l, w_k the linear
 *      interpolation weight of γ_k at G_l (only the two γ_k around G_l weigh).
 *   4. O_L−1 = G_L−1; ℓ' = O_0 + expand (O_1 + expand (…)).
 *   5. RGB · 2^(ℓ' − ℓ) in linear light (hue and saturation kept; alpha untouched).
 * Only the γ_k within the image's range of ℓ are computed; the others would add exact zeros,
 * so a tile, a preview and the export agree.
 *
 * Every step is a fixed sequence of IEEE single operations (no FMA, one summation order); log2
 * and exp2 are exp2-math.h's polynomials rather than libm's or CUDA's, so scene light
 * (RGBA_F32) gives the same bits on both backends. 8- and 16-bit sources are decoded and encoded with
 * the sRGB curve's powf, where libm and CUDA may differ by an ulp: within 1 level there. A
 * display profile other than sRGB gives its primaries' luminances (commit) but is decoded
 * with sRGB's curve: the kernels have no per-profile curve yet. */
#pragma once

#include <math.h>
#include <stddef.h>

#include "param-decl.h"
#include "pixel-math.h"
#include "blur-math.h" /* lm_reflect101 */
#include "exp2-math.h"
#include "srgb-math.h"

#define LM_LOCALCONTRAST_LEVELS_MAX 11
#define LM_LOCALCONTRAST_LOG_FLOOR (-16.0f)

/* amount: the slope of details below RANGE (1 + amount); range: σ_r, the largest difference
 * that counts as detail; radius: the coarsest scale that counts as local. */
#define LM_LOCALCONTRAST_PARAMS(P)                                                                 \
  P (FLOAT, amount, N_("Clarity"), -1, 1, 0.3, 0.01, NULL)                                         \
  P (FLOAT, range, N_("Detail range"), 0.25, 4, 1, 0.01, "EV")                                     \
  P (FLOAT, radius, N_("Radius"), 8, 512, 64, 1, "px", .in_pixels = 1)

typedef struct {
  LM_LOCALCONTRAST_PARAMS (LM_PARAM_FIELD)
  /* Not a parameter: the luminances of the photo's primaries, from the render's commit
   * (localcontrast.c). All 0 (every pipeline the user edits, and sRGB): BT.709's. */
  float luminance[3];
} LmLocalcontrastParams;

/* The pyramid's levels for RADIUS: 1 + ⌈log2 radius⌉, at most LM_LOCALCONTRAST_LEVELS_MAX. */
LM_INLINE int
lm_lc_levels (float radius)
{
  int levels = 1;
  while (levels < LM_LOCALCONTRAST_LEVELS_MAX && (float) (1 << (levels - 1)) < radius)
    levels++;
  return levels;
}

/* Planes of a pyramid, one float buffer: level l is W[l] × H[l] floats (rows of W[l]) at
 * OFFSET[l]. */
typedef struct {
  int levels;
  int w[LM_LOCALCONTRAST_LEVELS_MAX], h[LM_LOCALCONTRAST_LEVELS_MAX];
  size_t offset[LM_LOCALCONTRAST_LEVELS_MAX];
  size_t total; /* floats */
} LmLcPyramid;

LM_INLINE void
lm_lc_pyramid (int width, int height, int levels, LmLcPyramid *p)
{
  size_t at = 0;
  p->levels = levels;
  for (int l = 0; l < levels; l++)
    {
      p->w[l] = l == 0 ? width : (p->w[l - 1] + 1) / 2;
      p->h[l] = l == 0 ? height : (p->h[l - 1] + 1) / 2;
      p->offset[l] = at;
      at += (size_t) p->w[l] * (size_t) p->h[l];
    }
  p->total = at;
}

/* The linear luminance's log: ℓ of step 1 (an infinite Y, which scene light may hold, gives
 * 128: lm_tm_log2 reads the float's bits). */
LM_INLINE float
lm_lc_log_luma (float y)
{
  y = y > 0.0000152587890625f ? y : 0.0000152587890625f; /* 2⁻¹⁶; NaN too */
  return lm_tm_log2 (y);
}

/* The spacing of the γ samples. */
LM_INLINE float
lm_lc_step (const LmLocalcontrastParams *p)
{
  return p->range * 0.25f;
}

/* The remapping around γ (step 3): t = (i − γ)/σ; γ + σ·(t + a·t·(1 − |t|)²) for |t| ≤ 1, else
 * i. Polynomial, C¹, monotone for |a| < 3, the identity for a = 0. */
LM_INLINE float
lm_lc_remap (float i, float gamma, float sigma, float amount)
{
  float t = (i - gamma) / sigma;
  float at = fabsf (t);
  if (amount == 0.0f || !(at <= 1.0f))
    return i;
  float u = 1.0f - at;
  return gamma + sigma * (t + amount * t * (u * u));
}

/* The weight of sample K (γ_k = K·STEP) at the level value G: 1 − frac for the sample at or
 * below G, frac for the one above, 0 for the rest. */
LM_INLINE float
lm_lc_weight (float g, int k, float step)
{
  float q = g / step;
  float k0 = floorf (q);
  float frac = q - k0;
  float kf = (float) k;
  if (kf == k0)
    return 1.0f - frac;
  if (kf == k0 + 1.0f)
    return frac;
  return 0.0f;
}

/* Reduce (step 2) at coarse pixel (X, Y) of the level P (W × H): (1 4 6 4 1)/16 along rows,
 * then the rows' sums down the column, reflect-101 at the borders. */
LM_INLINE float
lm_lc_reduce_at (const float *p, int w, int h, int x, int y)
{
  const float f[5] = { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f };
  int cols[5];
  for (int a = 0; a < 5; a++)
    cols[a] = lm_reflect101 (2 * x + a - 2, w);
  float acc = 0.0f;
  for (int b = 0; b < 5; b++)
    {
      const float *row = p + (size_t) lm_reflect101 (2 * y + b - 2, h) * (size_t) w;
      float r = 0.0f;
      for (int a = 0; a < 5; a++)
        r = r + f[a] * row[cols[a]];
      acc = acc + f[b] * r;
    }
  return acc;
}

/* The coarse samples and weights that expand reads for fine coordinate X (coarse size N):
 * even X = 2i: i − 1, i, i + 1 by (1 6 1)/8 (reflect-101); odd X = 2i + 1: i, i + 1 by ½ each
 * (i + 1 clamped: an even-sized level's last pixel lies past its coarse level's last sample).
 * Returns the count. */
LM_INLINE int
lm_lc_expand_taps (int x, int n, int idx[3], float wt[3])
{
  int i = x >> 1;
  if ((x & 1) == 0)
    {
      idx[0] = lm_reflect101 (i - 1, n), idx[1] = i, idx[2] = lm_reflect101 (i + 1, n);
      wt[0] = 0.125f, wt[1] = 0.75f, wt[2] = 0.125f;
      return 3;
    }
  idx[0] = i, idx[1] = i + 1 < n ? i + 1 : n - 1;
  wt[0] = 0.5f, wt[1] = 0.5f;
  return 2;
}

/* Expand (zero insertion and the same filter, ×4) of the coarse level C (CW × CH) at fine
 * pixel (X, Y): along rows, then down the column. */
LM_INLINE float
lm_lc_expand_at (const float *c, int cw, int ch, int x, int y)
{
  int ix[3], iy[3];
  float wx[3], wy[3];
  int nx = lm_lc_expand_taps (x, cw, ix, wx);
  int ny = lm_lc_expand_taps (y, ch, iy, wy);
  float acc = 0.0f;
  for (int b = 0; b < ny; b++)
    {
      const float *row = c + (size_t) iy[b] * (size_t) cw;
      float r = 0.0f;
      for (int a = 0; a < nx; a++)
        r = r + wx[a] * row[ix[a]];
      acc = acc + wy[b] * r;
    }
  return acc;
}

/* Step 1 for one pixel of linear R, G, B, with the luminances W (all 0: BT.709's). */
LM_INLINE float
lm_lc_log_rgb (float r, float g, float b, const float w[3])
{
  float wr = w[0], wg = w[1], wb = w[2];
  if (wr == 0.0f && wg == 0.0f && wb == 0.0f)
    wr = LM_BT709_R, wg = LM_BT709_G, wb = LM_BT709_B;
  return lm_lc_log_luma (wr * r + wg * g + wb * b);
}

/* An encoded value V (0..255 scale) of an 8- or 16-bit source in linear light, and back. */
LM_INLINE float
lm_lc_decode (float v)
{
  return lm_srgb_to_linear (v / 255.0f);
}

LM_INLINE float
lm_lc_encode (float l)
{
  return 255.0f * lm_linear_to_srgb (l);
}

/* A sample of channel C of pixel X of ROW (DEPTH bytes a sample: 1, 2, or 4 for floats; CH
 * channels) in linear light: the sRGB curve's for 8 and 16 bits, as it is for floats. */
LM_INLINE float
lm_lc_load (const void *row, int x, int depth, int ch, int c)
{
  size_t i = (size_t) x * (size_t) ch + (size_t) c;
  if (depth == 4)
    return ((const float *) row)[i];
  if (depth == 2)
    return lm_lc_decode (lm_u16_value (((const uint16_t *) row)[i]));
  return lm_lc_decode ((float) ((const uint8_t *) row)[i]);
}

/* ℓ (step 1) of pixel X of ROW; a gray pixel's value is its luminance. */
LM_INLINE float
lm_lc_pixel_log (const void *row, int x, int depth, int ch, const float w[3])
{
  if (ch == 1)
    return lm_lc_log_luma (lm_lc_load (row, x, depth, 1, 0));
  return lm_lc_log_rgb (lm_lc_load (row, x, depth, ch, 0), lm_lc_load (row, x, depth, ch, 1),
                        lm_lc_load (row, x, depth, ch, 2), w);
}

/* Step 5 for pixel X: SRC's colour channels times GAIN in linear light into DST (of SRC's
 * format), alpha copied. */
LM_INLINE void
lm_lc_pixel_apply (const void *src, void *dst, int x, int depth, int ch, float gain)
{
  int colours = ch == 1 ? 1 : 3;
  for (int c = 0; c < ch; c++)
    {
      size_t i = (size_t) x * (size_t) ch + (size_t) c;
      if (c >= colours)
        {
          if (depth == 4)
            ((float *) dst)[i] = ((const float *) src)[i];
          else if (depth == 2)
            ((uint16_t *) dst)[i] = ((const uint16_t *) src)[i];
          else
            ((uint8_t *) dst)[i] = ((const uint8_t *) src)[i];
          continue;
        }
      float l = lm_lc_load (src, x, depth, ch, c) * gain;
      if (depth == 4)
        ((float *) dst)[i] = l;
      else if (depth == 2)
        ((uint16_t *) dst)[i] = lm_quantize_u16 (lm_lc_encode (l));
      else
        ((uint8_t *) dst)[i] = lm_quantize_u8 (lm_lc_encode (l));
    }
}

/* One coefficient of step 3 at level L < levels − 1: the Laplacian of R at (X, Y) (R_l at
 * R, its next level at RC, CW × CH), weighted by sample K at G (the level's value of ℓ's
 * pyramid) and added to O; nothing where the weight is 0. */
LM_INLINE void
lm_lc_accumulate_at (const float *r, int w, const float *rc, int cw, int ch, const float *g, float *o, int x,
                     int y, int k, float step)
{
  size_t i = (size_t) y * (size_t) w + (size_t) x;
  float weight = lm_lc_weight (g[i], k, step);
  if (weight == 0.0f)
    return;
  float lap = r[i] - lm_lc_expand_at (rc, cw, ch, x, y);
  o[i] = o[i] + weight * lap;
}
