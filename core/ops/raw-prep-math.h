/* The raw development's first steps on each sensor site, shared by the CPU reference
 * (core/raw/prep.c) and the kernels (kernels/raw-prep.cu): black subtraction, scaling to the
 * white level, the white balance multipliers and the highlights. GLib-free, for gcc and nvcc;
 * both compile it without FMA contraction and divide in IEEE single, so the two give the same
 * bits.
 *
 * A site of colour c, sensor value v and black b becomes (v − b) / (white[c] − b) × mul[c]:
 * 0 at black, mul[c] at its white level, so that 1.0 is green's white after the balance.
 * Values below black stay negative (the noise around black keeps its mean). A site is
 * clipped when v reaches its colour's white level.
 *
 * Highlights:
 * - CLIP: every value limited to CLIP, where the first channel clips (the least multiplier),
 *   so that clipped areas turn neutral white instead of magenta (dcraw's -H 0).
 * - RECONSTRUCT: each clipped site from the opposed colours around it. Its reference is the
 *   mean of the other two colours' means over its 3 × 3 (each value limited to its colour's
 *   clip level), and the site becomes max (value, reference × ratio[c]), where ratio[c] is
 *   the mean of value / reference over the unclipped, bright sites of colour c beside a
 *   clipped one (a global pre-pass: the colour of the objects that clip, measured at their
 *   edges). Where every colour of the 3 × 3 is clipped nothing is known of the hue: the site
 *   becomes neutral at CLIP_MAX, the level where the last channel clips. The pre-pass sums
 *   in 64-bit fixed point, so its result does not depend on the order of the additions. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "cfa-math.h"

typedef enum { LM_RAW_HIGHLIGHTS_CLIP = 0, LM_RAW_HIGHLIGHTS_RECONSTRUCT = 1 } LmRawHighlights;

/* The black table's largest period (LM_RAW_BLACK_MAX in core/raw-info.h). */
#define LM_RAW_PREP_BLACK_MAX 16

/* Everything the per-site step reads, by value at launch (about 1.2 KB). */
typedef struct {
  LmCfa cfa;
  int black_w, black_h;                                          /* 1 .. LM_RAW_PREP_BLACK_MAX */
  float black[LM_RAW_PREP_BLACK_MAX][LM_RAW_PREP_BLACK_MAX];     /* site (x, y): [y % h][x % w] */
  float white[4]; /* per colour index, above every black */
  float mul[4];   /* white balance per colour index, green 1 */
  float clip;     /* the least multiplier of the colours present: where the first channel clips */
  float clip_max; /* the greatest: where the last one clips */
  int highlights; /* LmRawHighlights */
} LmRawPrep;

/* The pre-pass's sums: ratio[c] summed as value × 2²⁴ (each ratio limited to
 * LM_RAW_RATIO_MAX, so that 2³⁰ sites cannot overflow), and how many sites gave one. */
typedef struct {
  long long sum[3];
  long long count[3];
} LmRawRatioSums;

#define LM_RAW_RATIO_ONE 16777216.0
#define LM_RAW_RATIO_MAX 16.0f
/* A site counts towards the ratio of its colour from this fraction of its clip level. */
#define LM_RAW_RATIO_FLOOR 0.25f

LM_INLINE float
lm_raw_sensor (const unsigned char *data, size_t stride, int x, int y)
{
  return (float) ((const uint16_t *) (data + (size_t) y * stride))[x];
}

LM_INLINE float
lm_raw_black (const LmRawPrep *p, int x, int y)
{
  return p->black[y % p->black_h][x % p->black_w];
}

/* Sensor value V of colour C over black B, scaled and balanced. */
LM_INLINE float
lm_raw_scale (const LmRawPrep *p, float v, int c, float b)
{
  return (v - b) / (p->white[c] - b) * p->mul[c];
}

/* Site (X, Y) of the CFA image DATA: its colour as the demosaic sees it (0..2) in *COLOR,
 * whether it is clipped in *CLIPPED, and its balanced value. */
LM_INLINE float
lm_raw_site (const LmRawPrep *p, const unsigned char *data, size_t stride, int x, int y, int *color,
             int *clipped)
{
  int c = lm_cfa_site (&p->cfa, x, y);
  float v = lm_raw_sensor (data, stride, x, y);
  *color = c == LM_CFA_G2 ? LM_CFA_G : c;
  *clipped = v >= p->white[c];
  return lm_raw_scale (p, v, c, lm_raw_black (p, x, y));
}

LM_INLINE float
lm_raw_clip (const LmRawPrep *p, float v)
{
  return v < p->clip ? v : p->clip;
}

/* What the 3 × 3 around a site holds of each colour (0..2). */
typedef struct {
  float sum[3];
  int n[3];
  int clipped[3];
} LmRawAround;

/* The 3 × 3 around (X, Y) inside the W × H image, each value limited to its colour's clip
 * level (a clipped neighbour says "at least this"). */
LM_INLINE void
lm_raw_around (const LmRawPrep *p, const unsigned char *data, size_t stride, int w, int h, int x, int y,
               LmRawAround *a)
{
  for (int k = 0; k < 3; k++)
    a->sum[k] = 0.0f, a->n[k] = 0, a->clipped[k] = 0;
  int y0 = y > 0 ? y - 1 : 0, y1 = y + 1 < h ? y + 1 : h - 1;
  int x0 = x > 0 ? x - 1 : 0, x1 = x + 1 < w ? x + 1 : w - 1;
  for (int j = y0; j <= y1; j++)
    for (int i = x0; i <= x1; i++)
      {
        int c, clipped;
        float v = lm_raw_site (p, data, stride, i, j, &c, &clipped);
        float limit = p->mul[lm_cfa_site (&p->cfa, i, j)];
        a->sum[c] += v < limit ? v : limit;
        a->n[c] += 1;
        a->clipped[c] |= clipped;
      }
}

/* The mean of the means of the colours other than C around a site; FALLBACK where the
 * 3 × 3 holds neither. */
LM_INLINE float
lm_raw_reference (const LmRawAround *a, int c, float fallback)
{
  float sum = 0.0f;
  int n = 0;
  for (int k = 0; k < 3; k++)
    if (k != c && a->n[k] > 0)
      {
        sum += a->sum[k] / (float) a->n[k];
        n++;
      }
  return n > 0 ? sum / (float) n : fallback;
}

/* Whether the 5 × 5 around (X, Y) holds a clipped site of colour C: (X, Y) is at the edge
 * of a clipped area of its own colour (Bayer's nearest red to a red is two sites away). */
LM_INLINE int
lm_raw_near_clipped (const LmRawPrep *p, const unsigned char *data, size_t stride, int w, int h, int x, int y,
                     int c)
{
  int y0 = y > 1 ? y - 2 : 0, y1 = y + 2 < h ? y + 2 : h - 1;
  int x0 = x > 1 ? x - 2 : 0, x1 = x + 2 < w ? x + 2 : w - 1;
  for (int j = y0; j <= y1; j++)
    for (int i = x0; i <= x1; i++)
      {
        int k = lm_cfa_site (&p->cfa, i, j);
        if ((k == LM_CFA_G2 ? LM_CFA_G : k) == c && lm_raw_sensor (data, stride, i, j) >= p->white[k])
          return 1;
      }
  return 0;
}

/* The pre-pass at site (X, Y): 1 with its colour in *COLOR and its ratio in 2⁻²⁴ units in
 * *TERM when the site counts (unclipped, bright, beside a clipped site of its colour, with
 * no clipped neighbour of the other colours to spoil its reference); 0 otherwise. */
LM_INLINE int
lm_raw_ratio_term (const LmRawPrep *p, const unsigned char *data, size_t stride, int w, int h, int x, int y,
                   int *color, long long *term)
{
  int c, clipped;
  float v = lm_raw_site (p, data, stride, x, y, &c, &clipped);
  *color = c;
  if (clipped || !(v >= LM_RAW_RATIO_FLOOR * p->mul[lm_cfa_site (&p->cfa, x, y)]))
    return 0;
  LmRawAround a;
  lm_raw_around (p, data, stride, w, h, x, y, &a);
  for (int k = 0; k < 3; k++)
    if (k != c && a.clipped[k])
      return 0;
  float ref = lm_raw_reference (&a, c, 0.0f);
  if (!(ref > 0.0f) || !lm_raw_near_clipped (p, data, stride, w, h, x, y, c))
    return 0;
  float ratio = v / ref;
  ratio = ratio < LM_RAW_RATIO_MAX ? ratio : LM_RAW_RATIO_MAX;
  *term = (long long) ((double) ratio * LM_RAW_RATIO_ONE);
  return 1;
}

/* The ratio of colour C from the pre-pass's sums; 1 where no site gave one. */
LM_INLINE float
lm_raw_ratio (const LmRawRatioSums *s, int c)
{
  return s->count[c] > 0 ? (float) ((double) s->sum[c] / LM_RAW_RATIO_ONE / (double) s->count[c]) : 1.0f;
}

/* The output of site (X, Y) (the module comment says what each mode does); RATIO: the
 * pre-pass's ratios, read with RECONSTRUCT only. */
LM_INLINE float
lm_raw_prep_site (const LmRawPrep *p, const unsigned char *data, size_t stride, int w, int h, int x, int y,
                  const float ratio[3])
{
  int c, clipped;
  float v = lm_raw_site (p, data, stride, x, y, &c, &clipped);
  if (p->highlights != LM_RAW_HIGHLIGHTS_RECONSTRUCT)
    return lm_raw_clip (p, v);
  if (!clipped)
    return v;
  LmRawAround a;
  lm_raw_around (p, data, stride, w, h, x, y, &a);
  int all = 1;
  for (int k = 0; k < 3; k++)
    all &= a.n[k] == 0 || a.clipped[k];
  float estimate = all ? p->clip_max : lm_raw_reference (&a, c, v) * ratio[c];
  return v > estimate ? v : estimate;
}

/* A pixel of demosaic-free data (LM_RAW_LINEAR: camera RGB; LM_RAW_MONO: one channel, N 1,
 * read with green's white level and multiplier) at black B: V[0..N-1] sensor values in, OUT[0..2] balanced camera RGB. CLIP as on a CFA;
 * RECONSTRUCT raises the clipped channels of a pixel to the mean of its unclipped ones (the
 * camera's demosaic left no neighbourhood to measure a hue in, and the mean removes the
 * magenta cast without inventing one), or to CLIP_MAX where all three are clipped. */
LM_INLINE void
lm_raw_prep_pixel (const LmRawPrep *p, const float *v, int n, float b, float out[3])
{
  if (n == 1)
    {
      float g = lm_raw_scale (p, v[0], LM_CFA_G, b);
      g = g < p->mul[LM_CFA_G] ? g : p->mul[LM_CFA_G];
      out[0] = out[1] = out[2] = g;
      return;
    }
  int clipped[3], n_clipped = 0;
  float sum = 0.0f;
  for (int c = 0; c < 3; c++)
    {
      out[c] = lm_raw_scale (p, v[c], c, b);
      clipped[c] = v[c] >= p->white[c];
      n_clipped += clipped[c];
      if (!clipped[c])
        sum += out[c];
    }
  if (p->highlights != LM_RAW_HIGHLIGHTS_RECONSTRUCT)
    {
      for (int c = 0; c < 3; c++)
        out[c] = lm_raw_clip (p, out[c]);
      return;
    }
  if (n_clipped == 0)
    return;
  float estimate = n_clipped == 3 ? p->clip_max : sum / (float) (3 - n_clipped);
  for (int c = 0; c < 3; c++)
    if (clipped[c] && out[c] < estimate)
      out[c] = estimate;
}
