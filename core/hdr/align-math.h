/* Median threshold bitmaps (Ward 2003) as OpenCV's AlignMTB computes them: per-pixel math
 * shared by the CPU reference (align.c) and the CUDA kernels, so that both find the same
 * shifts. Everything here is integer arithmetic: the shifts are exact, not close. */
#pragma once

#include <math.h>

#include "../ops/pixel-math.h"

/* The 8-bit luma that OpenCV's cvtColor (RGB2GRAY, 8-bit) computes: BT.601 weights in
 * 14-bit fixed point (0.299, 0.587, 0.114 → 4899, 9617, 1868), rounded half up. Lumen's
 * pixels are R, G, B in memory, so this is OpenCV's result on the same pixels in RGB
 * order (BGR2GRAY on cv2.imread data). */
#define LM_MTB_GRAY_R 4899u
#define LM_MTB_GRAY_G 9617u
#define LM_MTB_GRAY_B 1868u
#define LM_MTB_GRAY_SHIFT 14

LM_INLINE uint8_t
lm_mtb_gray (uint32_t r, uint32_t g, uint32_t b)
{
  return (uint8_t) ((r * LM_MTB_GRAY_R + g * LM_MTB_GRAY_G + b * LM_MTB_GRAY_B
                     + (1u << (LM_MTB_GRAY_SHIFT - 1)))
                    >> LM_MTB_GRAY_SHIFT);
}

/* The "median" of AlignMTB::getMedian: one past the first level at which the running count
 * of a 256-bin histogram reaches half the pixels (total / 2, rounded down). Being one past
 * the true median is OpenCV's; matching it is what makes the bitmaps equal. */
LM_INLINE int
lm_mtb_median (const uint64_t *hist, uint64_t total)
{
  uint64_t half = total / 2, sum = 0;
  int median = 0;
  while (sum < half && median < 256)
    sum += hist[median++];
  return median;
}

/* Both bitmaps of one pixel in one byte: bit 0 the threshold bitmap (brighter than the
 * median), bit 1 the exclusion bitmap (farther than RANGE from it, so noise near the
 * median does not vote). */
#define LM_MTB_ABOVE 1u
#define LM_MTB_KEEP  2u

LM_INLINE uint8_t
lm_mtb_bits (int v, int median, int range)
{
  int d = v > median ? v - median : median - v;
  return (uint8_t) ((v > median ? LM_MTB_ABOVE : 0u) | (d > range ? LM_MTB_KEEP : 0u));
}

/* 1 when the two pixels disagree on the threshold and neither is excluded. */
LM_INLINE uint32_t
lm_mtb_mismatch (uint8_t a, uint8_t b)
{
  return (uint32_t) ((a ^ b) & (a >> 1) & (b >> 1) & 1u);
}

/* The deepest level that AlignMTB searches: OpenCV's expression, log2 of the longer side minus
 * one, in double (the same libm gives the same rounding), capped at MAX_BITS − 1. Negative
 * when there is no level to search (the shifts are then all zero). */
LM_INLINE int
lm_mtb_max_level (unsigned w, unsigned h, int max_bits)
{
  int maxlevel = (int) (log ((double) (w > h ? w : h)) / log (2.0)) - 1;
  return maxlevel < max_bits - 1 ? maxlevel : max_bits - 1;
}
