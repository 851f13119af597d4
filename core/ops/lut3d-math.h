/* The view transform's lookup tables and their sampling, in integers: the CPU (gcc) and the
 * view kernels (nvcc) compile this one header, and integer arithmetic gives the same bytes on
 * both without any floating-point contract to keep.
 *
 * Three steps, as colour-management engines build display transforms: a 1-D input shaper per
 * channel (the photo's tone curve: its encoded values to linear light), a 3-D LUT sampled
 * tetrahedrally (linear light of the photo's primaries to that of the monitor's: for
 * matrix-shaper profiles a 3 × 3 matrix, which tetrahedral interpolation reproduces exactly
 * however coarse the grid), and a 1-D output shaper per channel (the monitor's tone curve,
 * inverted). Without shapers the 3-D LUT would interpolate across the tone curves' bends and
 * the gamut's edge: 19 levels off on Adobe RGB → sRGB at 33³ nodes. Where a profile is not a
 * matrix-shaper, its shaper is the identity and the 3-D LUT carries the whole transform. */
#pragma once

#include <stdint.h>

#include "pixel-math.h"

/* Linear values (shaped inputs, nodes, the output shaper's input) are in 1/2^27ths: fine
 * enough that a pure power curve's shadows (Adobe RGB's) keep their levels. */
#define LM_LUT3D_SHIFT 27
#define LM_LUT3D_ONE (1 << LM_LUT3D_SHIFT)
#define LM_LUT3D_COARSE_SHIFT (LM_LUT3D_SHIFT - 16)
#define LM_LUT3D_MAX_N 129u
/* The nodes' limits: fifteen times the range either way (within 32 bits). Nodes are not clamped to 0..1: out
 * of gamut they go on smoothly (ProPhoto's green on an sRGB monitor asks for a red of −9.5),
 * so that a cell across the gamut's edge interpolates what the exact transform gives; only
 * the output shaper's input is clamped. */
#define LM_LUT3D_NODE_LIMIT 15.0
#define LM_LUT3D_SHAPER_IN 65536u      /* entries per channel: one per 16-bit input */
/* Per channel: every linear value below 2^16 (1/2048: where a pure power curve such as Adobe
 * RGB's rises too steeply to interpolate), then every 2^11th up to 2^27 inclusive. */
#define LM_LUT3D_SHAPER_FINE 65536u
#define LM_LUT3D_SHAPER_OUT (LM_LUT3D_SHAPER_FINE + 65536u + 1u)

/* DATA holds, one after the other: the input shapers (3 × LM_LUT3D_SHAPER_IN linear values,
 * red's first), the N³ nodes of R, G, B (blue varying fastest: node (r, g, b) at
 * ((r·N + g)·N + b)·3; node k of an axis stands for the linear input k / (N − 1)), and the
 * output shapers (3 × LM_LUT3D_SHAPER_OUT values on 0..65535: the linear values 0 .. 2^16 − 1,
 * then 0, 2^11, … 2^27). */
typedef struct {
  const int32_t *data; /* host or device memory, as the caller samples it */
  uint32_t n;          /* 2 .. LM_LUT3D_MAX_N */
} LmLut3d;

/* Entries of DATA for N nodes per axis. */
LM_INLINE uint64_t
lm_lut3d_entries (uint32_t n)
{
  return 3u * LM_LUT3D_SHAPER_IN + (uint64_t) n * n * n * 3u + 3u * LM_LUT3D_SHAPER_OUT;
}

/* Where linear V (0..ONE) falls on an axis of N nodes: the lower node and the fraction
 * towards the next in 1/2^27ths (all of it on the last node, so that the upper one exists). */
LM_INLINE void
lm_lut3d_locate (int32_t v, uint32_t n, uint32_t *node, uint32_t *frac)
{
  uint32_t c = v < 0 ? 0u : (v > LM_LUT3D_ONE ? (uint32_t) LM_LUT3D_ONE : (uint32_t) v);
  uint64_t p = (uint64_t) c * (n - 1u);
  uint32_t k = (uint32_t) (p >> LM_LUT3D_SHIFT), f = (uint32_t) (p & (LM_LUT3D_ONE - 1));
  if (k >= n - 1u)
    k = n - 2u, f = LM_LUT3D_ONE;
  *node = k;
  *frac = f;
}

/* SUM / 2^27 rounded half away from zero (C's division truncates alike on both compilers). */
LM_INLINE int64_t
lm_lut3d_round (int64_t sum)
{
  return sum >= 0 ? (sum + LM_LUT3D_ONE / 2) / LM_LUT3D_ONE : -((-sum + LM_LUT3D_ONE / 2) / LM_LUT3D_ONE);
}

/* One channel's output shaper at linear V: read below 2^16, interpolated between its entries
 * every 2^11 above. */
LM_INLINE uint16_t
lm_lut3d_shape_out (const int32_t *shaper, int64_t v)
{
  int32_t x = v < 0 ? 0 : (v > LM_LUT3D_ONE ? LM_LUT3D_ONE : (int32_t) v);
  if (x < (int32_t) LM_LUT3D_SHAPER_FINE)
    return (uint16_t) shaper[x];
  const int32_t *coarse = shaper + LM_LUT3D_SHAPER_FINE;
  const int32_t step = 1 << LM_LUT3D_COARSE_SHIFT;
  int32_t i = x / step, f = x % step;
  if (i >= 65536)
    return (uint16_t) coarse[65536];
  int32_t a = coarse[i], b = coarse[i + 1];
  return (uint16_t) (a + ((b - a) * f + (b >= a ? step / 2 : -step / 2)) / step);
}

/* R, G, B (0..65535, encoded as the photo is) through the three steps into OUT (0..65535,
 * encoded for the monitor). The tetrahedron of the cube around the shaped input that
 * contains it, its four corners weighted by the sorted fractions (≥ 0, adding up to 2^27). */
LM_INLINE void
lm_lut3d_sample (const LmLut3d *lut, uint32_t r, uint32_t g, uint32_t b, uint16_t out[3])
{
  const int32_t *shaper_in = lut->data;
  uint32_t n = lut->n, ir, ig, ib, fr, fg, fb;
  lm_lut3d_locate (shaper_in[r & 0xffffu], n, &ir, &fr);
  lm_lut3d_locate (shaper_in[LM_LUT3D_SHAPER_IN + (g & 0xffffu)], n, &ig, &fg);
  lm_lut3d_locate (shaper_in[2u * LM_LUT3D_SHAPER_IN + (b & 0xffffu)], n, &ib, &fb);
  const int32_t *nodes = shaper_in + 3u * LM_LUT3D_SHAPER_IN;
  const int32_t *shaper_out = nodes + (size_t) n * n * n * 3u;
  const uint32_t dr = n * n * 3u, dg = n * 3u, db = 3u;
  const int32_t *c0 = nodes + ((size_t) (ir * n + ig) * n + ib) * 3u;
  const int32_t *c3 = c0 + dr + dg + db;
  const int32_t *c1, *c2;
  uint32_t w0, w1, w2, w3;
  const uint32_t one = LM_LUT3D_ONE;
  if (fr >= fg)
    {
      if (fg >= fb) /* r ≥ g ≥ b */
        c1 = c0 + dr, c2 = c0 + dr + dg, w0 = one - fr, w1 = fr - fg, w2 = fg - fb, w3 = fb;
      else if (fr >= fb) /* r ≥ b > g */
        c1 = c0 + dr, c2 = c0 + dr + db, w0 = one - fr, w1 = fr - fb, w2 = fb - fg, w3 = fg;
      else /* b > r ≥ g */
        c1 = c0 + db, c2 = c0 + dr + db, w0 = one - fb, w1 = fb - fr, w2 = fr - fg, w3 = fg;
    }
  else
    {
      if (fr >= fb) /* g > r ≥ b */
        c1 = c0 + dg, c2 = c0 + dr + dg, w0 = one - fg, w1 = fg - fr, w2 = fr - fb, w3 = fb;
      else if (fg >= fb) /* g ≥ b > r */
        c1 = c0 + dg, c2 = c0 + dg + db, w0 = one - fg, w1 = fg - fb, w2 = fb - fr, w3 = fr;
      else /* b > g > r */
        c1 = c0 + db, c2 = c0 + dg + db, w0 = one - fb, w1 = fb - fg, w2 = fg - fr, w3 = fr;
    }
  for (int c = 0; c < 3; c++)
    {
      int64_t sum = (int64_t) w0 * c0[c] + (int64_t) w1 * c1[c] + (int64_t) w2 * c2[c]
                    + (int64_t) w3 * c3[c];
      out[c] = lm_lut3d_shape_out (shaper_out + (size_t) c * LM_LUT3D_SHAPER_OUT, lm_lut3d_round (sum));
    }
}

/* A 16-bit value (0..65535) on the 8-bit scale, rounded half up: V / 257. */
LM_INLINE uint8_t
lm_u16_to_u8 (uint32_t v)
{
  return (uint8_t) ((v + 128u) / 257u);
}
