/* The radiance merge's per-pixel arithmetic, shared by the CPU references (debevec.c and
 * robertson.c, gcc) and the CUDA kernels (kernels/hdr-merge.cu, nvcc), both without FMA
 * contraction: the weighted sums are the same IEEE operations in the same order on both, so
 * the two backends differ only by their expf (and powf for the gamma correction), a few units
 * in the last place. */
#pragma once

#include <math.h>

#include "../ops/pixel-math.h"

/* As in response.h: one table entry per 8-bit level. */
#define LM_HDR_MERGE_LEVELS 256

/* The triangle weight of an 8-bit value (response.h's lm_hdr_triangle_weight): trust
 * mid-tones, distrust the clipped ends. Integer-valued, hence exact on both compilers. */
LM_INLINE float
lm_hdr_triangle (int z)
{
  return z < 128 ? z + 1.0f : 256.0f - z;
}

/* ln f⁻¹ of each level (R, G, B planes of 256) from the response's values, computed on the
 * host by the same logf for both backends. Returns the first level that is not positive (no
 * camera's response), or -1. */
static inline int
lm_debevec_log_table (const float value[3][LM_HDR_MERGE_LEVELS], float log_value[3 * LM_HDR_MERGE_LEVELS])
{
  for (int c = 0; c < 3; c++)
    for (int z = 0; z < LM_HDR_MERGE_LEVELS; z++)
      {
        if (!(value[c][z] > 0.0f))
          return z;
        log_value[c * LM_HDR_MERGE_LEVELS + z] = logf (value[c][z]);
      }
  return -1;
}

/* ln t of an exposure time, as the merge uses it. */
static inline float
lm_hdr_log_time (double seconds)
{
  return (float) log (seconds);
}

/* A sample outside LO..HI bounds the radiance rather than measuring it: 0 says "at most this
 * exposure's first level"; the top levels say "at least about where it clips", as a tone
 * curve's shoulder and a JPEG's ringing put clipped areas there, and as a calibrated response
 * bends up steeply there (the courtyard stack: f⁻¹(254) = 1.6 f⁻¹(245)), so that the noise
 * of a sky at the clip became coloured speckle. Such a sample is left out of every mean
 * (OpenCV's triangle weighs 255 as much as 254, and a light clipped in every exposure came
 * out as the geometric mean of the exposures' clip levels, stops darker than the rim that
 * the shortest one sees). */
#define LM_HDR_MEASURED_LO 1
#define LM_HDR_MEASURED_HI 247

LM_INLINE int
lm_hdr_clipped (int z)
{
  return z < LM_HDR_MEASURED_LO || z > LM_HDR_MEASURED_HI;
}

/* What a channel clipped in every exposure becomes: the brightest radiance it can have, the
 * level where the shortest exposure clips (a light at least as bright as anything that
 * exposure sees), or, where the longest exposure sees it black, the darkest, the level below
 * its first. Each channel's own, as the shortest (longest) exposure's value over its time
 * would be: a light is then the colour the response gives its exposures' white, that of the
 * white areas around it, and a channel clipped in a pixel whose others are not keeps the
 * pixel's hue (one level to the next, as the noise at a clipped sky's edge is). Neither
 * end's own entry of the response serves: Robertson's is the mean exposure of the samples
 * that landed there (16 times the clip level on a lamp), Debevec's is held by a weight of 1
 * against the smoothness term. So the level is one step beyond the last level that measures
 * (HI, and LO at the bottom), by the step below it (0 where the response falls there). In
 * the response's units: ln for Debevec, the values for Robertson. */
typedef struct {
  float bright[3], dark[3];
} LmHdrClipEnds;

/* From a response table (3 planes of 256, ln f⁻¹ when LOGARITHMS, else f⁻¹) and the
 * exposures' times (ln t, or t), computed once on the host for both backends. */
static inline LmHdrClipEnds
lm_hdr_clip_ends (const float *table, const float *time, unsigned n, int logarithms)
{
  float shortest = time[0], longest = time[0];
  for (unsigned i = 1; i < n; i++)
    {
      shortest = time[i] < shortest ? time[i] : shortest;
      longest = time[i] > longest ? time[i] : longest;
    }
  const int top = LM_HDR_MEASURED_HI, bottom = LM_HDR_MEASURED_LO;
  LmHdrClipEnds e;
  for (int c = 0; c < 3; c++)
    {
      const float *f = table + c * LM_HDR_MERGE_LEVELS;
      if (logarithms)
        {
          e.bright[c] = f[top] + fmaxf (f[top] - f[top - 1], 0.0f) - shortest;
          e.dark[c] = f[bottom] - fmaxf (f[bottom + 1] - f[bottom], 0.0f) - longest;
        }
      else
        {
          e.bright[c] = f[top] * fmaxf (f[top] / f[top - 1], 1.0f) / shortest;
          e.dark[c] = f[bottom] / fmaxf (f[bottom + 1] / f[bottom], 1.0f) / longest;
        }
    }
  return e;
}

/* Channel C with no sample in LO..HI: dark where the longest exposure's is below LO, else
 * bright (above HI in every exposure). LONGEST_Z: that sample. */
LM_INLINE float
lm_hdr_clip_value (const LmHdrClipEnds *e, int c, int longest_z)
{
  return longest_z < LM_HDR_MEASURED_LO ? e->dark[c] : e->bright[c];
}

/* Debevec's sums of one pixel. OpenCV's: one weight per exposure, the mean of its channels'
 * triangles, over the exposures where no channel is clipped, so that all three channels come
 * from the same exposures and keep their hue. Where every exposure has a clipped channel
 * (a light's rim, a saturated colour), each channel's own unclipped samples, with their own
 * triangles; a channel with none takes lm_hdr_clip_value. */
typedef struct {
  float sum[3], wsum;
  float own[3], own_w[3];
  int longest_z[3];
} LmDebevecSums;

/* One exposure's pixel P (RGBA8 word; a gray sample repeated in R, G and B) of LOG_TIME, ln t,
 * added to S: ln f⁻¹(z) − ln t per channel. IS_LONGEST: the stack's longest exposure. */
LM_INLINE void
lm_debevec_add (LmDebevecSums *s, const float *log_response, uint32_t p, float log_time, int is_longest)
{
  int z[3] = { (int) (p & 0xffu), (int) ((p >> 8) & 0xffu), (int) ((p >> 16) & 0xffu) };
  float v[3];
  int clipped = 0;
  for (int c = 0; c < 3; c++)
    {
      v[c] = log_response[c * LM_HDR_MERGE_LEVELS + z[c]] - log_time;
      int bound = lm_hdr_clipped (z[c]);
      clipped |= bound;
      if (!bound)
        {
          float w = lm_hdr_triangle (z[c]);
          s->own[c] += w * v[c];
          s->own_w[c] += w;
        }
      if (is_longest)
        s->longest_z[c] = z[c];
    }
  if (clipped)
    return;
  float w = (lm_hdr_triangle (z[0]) + lm_hdr_triangle (z[1]) + lm_hdr_triangle (z[2])) / 3.0f;
  for (int c = 0; c < 3; c++)
    s->sum[c] += w * v[c];
  s->wsum += w;
}

/* The radiance of channel C from the sums. */
LM_INLINE float
lm_debevec_radiance (const LmDebevecSums *s, const LmHdrClipEnds *e, int c)
{
  if (s->wsum > 0.0f)
    return expf (s->sum[c] / s->wsum);
  if (s->own_w[c] > 0.0f)
    return expf (s->own[c] / s->own_w[c]);
  return expf (lm_hdr_clip_value (e, c, s->longest_z[c]));
}

/* The index of the longest of N exposures, from their times (t or ln t); the first of equals. */
LM_INLINE unsigned
lm_hdr_longest (const float *time, unsigned n)
{
  unsigned longest = 0;
  for (unsigned i = 1; i < n; i++)
    if (time[i] > time[longest])
      longest = i;
  return longest;
}

/* A gray sample as the RGBA8 word the merge reads. */
LM_INLINE uint32_t
lm_hdr_gray_word (uint8_t v)
{
  return (uint32_t) v * 0x010101u;
}

/* The normalised gamma correction of one radiance sample: (x / max)^γ · max, negative
 * samples taken as 0. MAX is the largest colour sample of the image, > 0. */
LM_INLINE float
lm_hdr_gamma_correct (float v, float max, float gamma)
{
  return powf ((v > 0.0f ? v : 0.0f) / max, gamma) * max;
}

/* ---- The linear merge of 16-bit exposures (merge-linear.c, hdr-merge.cu) ----
 *
 * Debevec's calibration solves for one value of ln f⁻¹ per level: with 65536 levels and
 * OpenCV's 70 samples the system is under-determined a thousand times over, and a raw
 * converter's 16-bit output is linear (or is meant to be) anyway. So 16-bit exposures are
 * taken as linear data: each channel's radiance is the weighted mean of v / (65535 · t) over
 * the exposures (full scale at 1 s is 1), with a hat weight on the 16-bit value that is 0 for
 * the near-black values (below LO: noise and black level dominate) and the near-clipped ones
 * (above HI: a converter's highlight roll-off). A value v quantized from v' (|v − v'| ≤ ½)
 * then has a relative error ≤ ½ / LO = 0.2 % in every term, hence in the mean. A channel with
 * no exposure in LO..HI takes the longest exposure's value where that one is dark, else the
 * shortest's (clipped throughout: the best lower bound). Weights are whole numbers below
 * 2^24 and the sums run in exposure order with the same single operations on both backends:
 * the two agree bit for bit. */
#define LM_HDR_LINEAR_LO 256
#define LM_HDR_LINEAR_HI (65535 - 2048)

LM_INLINE float
lm_hdr_linear_weight (int v)
{
  if (v < LM_HDR_LINEAR_LO || v > LM_HDR_LINEAR_HI)
    return 0.0f;
  return v < 32768 ? (float) (v - LM_HDR_LINEAR_LO + 1) : (float) (LM_HDR_LINEAR_HI - v + 1);
}

/* 1 / (65535 · t): what a value of an exposure of T seconds is multiplied by, computed once
 * on the host for both backends. */
static inline float
lm_hdr_linear_scale (double seconds)
{
  return (float) (1.0 / (65535.0 * seconds));
}

/* The shortest and the longest of N exposures, from their scales (the largest scale is the
 * shortest time); the first of equals. */
LM_INLINE void
lm_hdr_linear_ends (const float *scale, unsigned n, unsigned *shortest, unsigned *longest)
{
  *shortest = *longest = 0;
  for (unsigned i = 1; i < n; i++)
    {
      if (scale[i] > scale[*shortest])
        *shortest = i;
      if (scale[i] < scale[*longest])
        *longest = i;
    }
}

/* One channel's sums over the exposures, and the two ends' own estimates. */
typedef struct {
  float num, den, shortest, longest;
  int longest_value;
} LmHdrLinearSums;

LM_INLINE void
lm_hdr_linear_add (LmHdrLinearSums *s, int v, float scale, int is_shortest, int is_longest)
{
  float r = (float) v * scale;
  float w = lm_hdr_linear_weight (v);
  s->num += w * r;
  s->den += w;
  if (is_shortest)
    s->shortest = r;
  if (is_longest)
    {
      s->longest = r;
      s->longest_value = v;
    }
}

LM_INLINE float
lm_hdr_linear_radiance (const LmHdrLinearSums *s)
{
  if (s->den > 0.0f)
    return s->num / s->den;
  return s->longest_value < LM_HDR_LINEAR_LO ? s->longest : s->shortest;
}
