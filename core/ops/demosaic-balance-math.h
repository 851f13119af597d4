/* The demosaic's channel balance, shared by the CPU (core/raw/demosaic-balance.c) and the CUDA
 * kernel (kernels/demosaic-balance.cu). A demosaic interpolates colour differences (or ratios)
 * and is best where the channels are of one size; the as-shot white balance does not make them
 * so on a colourful scene (a forest: green twice red and blue). So the mosaic's channels are
 * scaled by their grey-world gains before the demosaic (the mean of each, near-clipped samples
 * left out) and the gains are taken out again after it, in the camera matrix. RawTherapee does
 * the same ("Preprocess WB: Auto"); on the ground truth it is worth 1.1 dB on a forest photo and
 * nothing on grey scenes (tests/raw/cpsnr_table.py).
 *
 * The sums are integers (each sample in 2^-24 steps), so that any order of addition, the
 * CPU's threads' or the GPU's atomics, gives the same gains bit for bit. GLib-free, for gcc
 * and nvcc; the gains and the fold run on the host for both backends. */
#pragma once

#include <stdint.h>

#include "pixel-math.h"

/* Samples at or above this (1 = white) are left out of the means: near clipping, a channel's
 * level says nothing of the scene's colour. */
#define LM_BALANCE_CLIP 0.99f
/* The fixed-point unit of the sums: a sample below LM_BALANCE_CLIP is below 2^24 of them, so a
 * 2^32-site image sums below 2^56. */
#define LM_BALANCE_UNIT 16777216.0f
/* The smallest gain: a channel with next to no light is not amplified beyond this. */
#define LM_BALANCE_MIN_GAIN (1.0 / 64.0)

typedef struct {
  unsigned long long sum[3];   /* per colour (0 R, 1 G, 2 B): the counted samples, in units */
  unsigned long long count[3]; /* per colour: the samples counted */
} LmBalanceSums;

/* Whether a sample counts towards its channel's mean (NaN does not; negative counts as 0). */
LM_INLINE int
lm_balance_counts (float v)
{
  return v < LM_BALANCE_CLIP;
}

/* A counted sample in units (truncated: the means need no more). */
LM_INLINE unsigned long long
lm_balance_units (float v)
{
  return v > 0.0f ? (unsigned long long) (v * LM_BALANCE_UNIT) : 0ull;
}

/* GAIN[c] = the smallest mean / the mean of c: the darkest channel keeps its scale and the
 * others are brought down to it, so no sample grows past where it was. All 1 where a channel
 * has no counted light (then the means say nothing). */
LM_INLINE void
lm_balance_gains (const LmBalanceSums *s, float gain[3])
{
  double mean[3], least = 0.0;
  for (int c = 0; c < 3; c++)
    {
      if (s->count[c] == 0 || s->sum[c] == 0)
        {
          gain[0] = gain[1] = gain[2] = 1.0f;
          return;
        }
      mean[c] = (double) s->sum[c] / (double) s->count[c];
      least = c == 0 || mean[c] < least ? mean[c] : least;
    }
  for (int c = 0; c < 3; c++)
    {
      double g = least / mean[c];
      gain[c] = (float) (g > LM_BALANCE_MIN_GAIN ? g : LM_BALANCE_MIN_GAIN);
    }
}

/* MATRIX (camera RGB → working space, applied after the demosaic) made to take the balanced
 * camera RGB: its columns divided by the gains. */
LM_INLINE void
lm_balance_fold (float matrix[3][3], const float gain[3])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      matrix[i][j] = (float) ((double) matrix[i][j] / (double) gain[j]);
}
