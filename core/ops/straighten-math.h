/* Straighten: parameters, the output size and the bicubic sampling, shared by straighten.c
 * and kernels/straighten.cu.
 *
 * The image turns by ANGLE degrees about its centre ((w-1)/2, (h-1)/2), counter-clockwise
 * for a positive angle, as OpenCV's getRotationMatrix2D; each output pixel is the source
 * sampled at its inverse image with OpenCV's INTER_CUBIC kernel (a = -0.75), neighbours
 * beyond the edge replicating it. The output is the largest upright rectangle inside the
 * turned image, centred, so no corner shows what was outside the photo.
 *
 * Both backends get the same float cosine and sine from the host (lm_straighten_map), then
 * run the same float operations in the same order: the results agree bit for bit where the
 * compilers keep to IEEE single precision (no FMA contraction on either side). */
#pragma once

#include <math.h>

#include "param-decl.h"
#include "pixel-math.h"
#include "tile-math.h"

#define LM_STRAIGHTEN_ANGLE_MAX 45.0f

/* angle: degrees, positive counter-clockwise. */
#define LM_STRAIGHTEN_PARAMS(P)                                                                    \
  P (FLOAT, angle, N_("Angle (degrees, counter-clockwise)"), -LM_STRAIGHTEN_ANGLE_MAX,             \
     LM_STRAIGHTEN_ANGLE_MAX, 0, 0.1, "°")

typedef struct {
  LM_STRAIGHTEN_PARAMS (LM_PARAM_FIELD)
  LmTileFrame tile; /* not a parameter: the tile a tiled render computes (tile-math.h) */
} LmStraightenParams;

/* The largest axis-aligned rectangle of maximum area inside a W × H rectangle turned by
 * ANGLE degrees, centred on it, as real sides *RW × *RH. Two cases: when the short side is
 * short enough (S ≤ 2 sin a cos a L), two corners touch the long side and two the mid-line
 * (the rectangle is bounded by the short side alone: sides S/2 / sin a and S/2 / cos a);
 * otherwise all four corners touch the four sides, which solves
 *   rw cos a + rh sin a = W,  rw sin a + rh cos a = H
 * as rw = (W cos a - H sin a) / cos 2a, rh = (H cos a - W sin a) / cos 2a. */
LM_INLINE void
lm_straighten_rect (double angle_deg, double w, double h, double *rw, double *rh)
{
  double a = fabs (angle_deg) * (3.14159265358979323846 / 180.0);
  double s = sin (a), c = cos (a);
  int wide = w >= h;
  double longer = wide ? w : h, shorter = wide ? h : w;
  if (s == 0.0)
    *rw = w, *rh = h;
  else if (shorter <= 2.0 * s * c * longer || fabs (s - c) < 1e-10)
    {
      double half = 0.5 * shorter;
      *rw = wide ? half / s : half / c;
      *rh = wide ? half / c : half / s;
    }
  else
    {
      double cos2a = c * c - s * s;
      *rw = (w * c - h * s) / cos2a;
      *rh = (h * c - w * s) / cos2a;
    }
}

/* The output size: the rectangle's whole pixels (rounding can only shrink it, so it stays
 * inside; 1e-6 forgives the last bit of a side that is a whole number in exact arithmetic),
 * at least 1 × 1. */
LM_INLINE void
lm_straighten_size (const LmStraightenParams *p, unsigned w, unsigned h, unsigned *ow, unsigned *oh)
{
  double rw, rh;
  lm_straighten_rect (p->angle, w, h, &rw, &rh);
  double fw = floor (rw + 1e-6), fh = floor (rh + 1e-6);
  *ow = fw < 1.0 ? 1u : fw > (double) w ? w : (unsigned) fw;
  *oh = fh < 1.0 ? 1u : fh > (double) h ? h : (unsigned) fh;
}

/* From output pixel (i, j) to the source: with dx = i - hx, dy = j - hy (hx, hy the
 * output's centre), the source point is (cx + (c dx - s dy), cy + (s dx + c dy)): the
 * inverse rotation about the source's centre (cx, cy). */
typedef struct {
  float cx, cy, hx, hy;
  float c, s;
} LmStraightenMap;

/* The input a sampler reads: the whole image's size W × H (what neighbours beyond the edge
 * replicate), and the piece of it that is there, TW × TH at (OX, OY) (all of it untiled). */
typedef struct {
  int w, h;
  int ox, oy, tw, th;
} LmStraightenSource;

/* Host side: the map for a source of W × H and its output of OW × OH. */
LM_INLINE LmStraightenMap
lm_straighten_map (const LmStraightenParams *p, unsigned w, unsigned h, unsigned ow, unsigned oh)
{
  double a = (double) p->angle * (3.14159265358979323846 / 180.0);
  LmStraightenMap m;
  m.cx = 0.5f * (float) (w - 1), m.cy = 0.5f * (float) (h - 1);
  m.hx = 0.5f * (float) (ow - 1), m.hy = 0.5f * (float) (oh - 1);
  m.c = (float) cos (a), m.s = (float) sin (a);
  return m;
}

/* The output pixel's indices as floats (FI = (float) i): a signed conversion vectorizes,
 * and every side (at most 2^31 - 1) gives the same float either way. */
LM_INLINE float
lm_straighten_src_xf (const LmStraightenMap *m, float fi, float fj)
{
  float dx = fi - m->hx, dy = fj - m->hy;
  return m->cx + (m->c * dx - m->s * dy);
}

LM_INLINE float
lm_straighten_src_yf (const LmStraightenMap *m, float fi, float fj)
{
  float dx = fi - m->hx, dy = fj - m->hy;
  return m->cy + (m->s * dx + m->c * dy);
}

LM_INLINE float
lm_straighten_src_x (const LmStraightenMap *m, unsigned i, unsigned j)
{
  return lm_straighten_src_xf (m, (float) i, (float) j);
}

LM_INLINE float
lm_straighten_src_y (const LmStraightenMap *m, unsigned i, unsigned j)
{
  return lm_straighten_src_yf (m, (float) i, (float) j);
}

/* OpenCV's interpolateCubic (imgproc/src/imgwarp.cpp), a = -0.75: the weights of the four
 * neighbours at offsets -1, 0, 1, 2 for a point T (0 ≤ T < 1) past the second; they sum to 1. */
LM_INLINE void
lm_cubic_weights_each (float t, float *k0, float *k1, float *k2, float *k3)
{
  const float a = -0.75f;
  *k0 = ((a * (t + 1.0f) - 5.0f * a) * (t + 1.0f) + 8.0f * a) * (t + 1.0f) - 4.0f * a;
  *k1 = ((a + 2.0f) * t - (a + 3.0f)) * t * t + 1.0f;
  *k2 = ((a + 2.0f) * (1.0f - t) - (a + 3.0f)) * (1.0f - t) * (1.0f - t) + 1.0f;
  *k3 = 1.0f - *k0 - *k1 - *k2;
}

/* The same as an array (the CPU's row loop takes the four apart: a local array kept GCC
 * from vectorizing it). */
LM_INLINE void
lm_cubic_weights (float t, float k[4])
{
  lm_cubic_weights_each (t, &k[0], &k[1], &k[2], &k[3]);
}

LM_INLINE int
lm_clamp_index (int v, int n)
{
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* The column (row) of S's piece that a tap at whole-image column X (row Y) reads: clamped to
 * the whole image (the edge repeats), then to the piece S holds. */
LM_INLINE int
lm_straighten_tap_x (const LmStraightenSource *s, int x)
{
  return lm_clamp_index (lm_clamp_index (x, s->w) - s->ox, s->tw);
}

LM_INLINE int
lm_straighten_tap_y (const LmStraightenSource *s, int y)
{
  return lm_clamp_index (lm_clamp_index (y, s->h) - s->oy, s->th);
}

/* Where the 4 × 4 neighbourhood of (SX, SY) starts (indices clamped to the whole image, in
 * the piece of it that S holds, in XI, YI) and its weights. A tile's source rectangle covers
 * every tap of its pixels; the second clamp only keeps a wrong one from reading outside. */
LM_INLINE void
lm_cubic_taps (float sx, float sy, const LmStraightenSource *s, int xi[4], int yi[4], float kx[4], float ky[4])
{
  float fx = floorf (sx), fy = floorf (sy);
  lm_cubic_weights (sx - fx, kx);
  lm_cubic_weights (sy - fy, ky);
  int x0 = (int) fx - 1, y0 = (int) fy - 1;
  for (int i = 0; i < 4; i++)
    {
      xi[i] = lm_straighten_tap_x (s, x0 + i);
      yi[i] = lm_straighten_tap_y (s, y0 + i);
    }
}

/* Each row's four neighbours weighted by KX, then the four rows by KY, in this order. */
LM_INLINE float
lm_cubic_sum (const float v[4], const float k[4])
{
  return ((k[0] * v[0] + k[1] * v[1]) + k[2] * v[2]) + k[3] * v[3];
}

/* An RGBA8 source sampled at (SX, SY), every channel (alpha too). */
LM_INLINE uint32_t
lm_straighten_rgba (const uint8_t *src, size_t stride, const LmStraightenSource *s, float sx, float sy)
{
  int xi[4], yi[4];
  float kx[4], ky[4];
  lm_cubic_taps (sx, sy, s, xi, yi, kx, ky);
  float rows[4][4]; /* [channel][row] */
  for (int j = 0; j < 4; j++)
    {
      const uint32_t *row = (const uint32_t *) (src + (size_t) yi[j] * stride);
      uint32_t p[4] = { row[xi[0]], row[xi[1]], row[xi[2]], row[xi[3]] };
      for (int c = 0; c < 4; c++)
        {
          float v[4] = { lm_px_channel (p[0], c), lm_px_channel (p[1], c), lm_px_channel (p[2], c),
                         lm_px_channel (p[3], c) };
          rows[c][j] = lm_cubic_sum (v, kx);
        }
    }
  uint8_t out[4];
  for (int c = 0; c < 4; c++)
    out[c] = lm_quantize_u8 (lm_cubic_sum (rows[c], ky));
  return (uint32_t) out[0] | (uint32_t) out[1] << 8 | (uint32_t) out[2] << 16 | (uint32_t) out[3] << 24;
}

/* A GRAY8 source sampled at (SX, SY). */
LM_INLINE uint8_t
lm_straighten_gray (const uint8_t *src, size_t stride, const LmStraightenSource *s, float sx, float sy)
{
  int xi[4], yi[4];
  float kx[4], ky[4];
  lm_cubic_taps (sx, sy, s, xi, yi, kx, ky);
  float rows[4];
  for (int j = 0; j < 4; j++)
    {
      const uint8_t *row = src + (size_t) yi[j] * stride;
      float v[4] = { (float) row[xi[0]], (float) row[xi[1]], (float) row[xi[2]], (float) row[xi[3]] };
      rows[j] = lm_cubic_sum (v, kx);
    }
  return lm_quantize_u8 (lm_cubic_sum (rows, ky));
}

/* A 16-bit source (CH = 4: RGBA16, 1: GRAY16) sampled at (SX, SY) into OUT, every channel:
 * the same taps on the 0..255 scale (lm_u16_value), rounded to 16 bits. */
LM_INLINE void
lm_straighten16 (const uint8_t *src, size_t stride, const LmStraightenSource *s, int ch, float sx, float sy,
                 uint16_t *out)
{
  int xi[4], yi[4];
  float kx[4], ky[4];
  lm_cubic_taps (sx, sy, s, xi, yi, kx, ky);
  for (int c = 0; c < ch; c++)
    {
      float rows[4];
      for (int j = 0; j < 4; j++)
        {
          const uint16_t *row = (const uint16_t *) (src + (size_t) yi[j] * stride);
          float v[4] = { lm_u16_value (row[xi[0] * ch + c]), lm_u16_value (row[xi[1] * ch + c]),
                         lm_u16_value (row[xi[2] * ch + c]), lm_u16_value (row[xi[3] * ch + c]) };
          rows[j] = lm_cubic_sum (v, kx);
        }
      out[c] = lm_quantize_u16 (lm_cubic_sum (rows, ky));
    }
}

/* Host side: for P on an input of W × H (the whole image, or P's tile's input) and an output
 * of OW × OH: the map of the whole image, the input as a sampler reads it, and where the
 * output's pixel (0, 0) lies in the whole output (*OUT_X, *OUT_Y). */
LM_INLINE LmStraightenMap
lm_straighten_setup (const LmStraightenParams *p, unsigned w, unsigned h, unsigned ow, unsigned oh,
                     LmStraightenSource *s, unsigned *out_x, unsigned *out_y)
{
  s->ox = 0, s->oy = 0, s->tw = (int) w, s->th = (int) h;
  *out_x = 0, *out_y = 0;
  if (lm_tile_frame_active (&p->tile))
    {
      s->ox = (int) p->tile.in_x, s->oy = (int) p->tile.in_y;
      *out_x = p->tile.out_x, *out_y = p->tile.out_y;
      w = p->tile.full_w, h = p->tile.full_h;
      lm_straighten_size (p, w, h, &ow, &oh);
    }
  s->w = (int) w, s->h = (int) h;
  return lm_straighten_map (p, w, h, ow, oh);
}
