/* The merge of raw brackets in linear light (raw-brackets.h), per pixel: GLib-free, so that a
 * kernel can share it.
 *
 * Each frame is developed to scene light with one set of raw parameters, and a pixel's
 * radiance is the weighted mean of its frames' values, each brought to the reference
 * exposure's scale (× t_ref / t). A raw is linear: no camera response is calibrated.
 *
 * One weight per pixel and frame, not one per channel: the camera → Rec. 2020 matrix mixes
 * the camera's channels into every output channel, so a clipped camera channel spoils all
 * three, and three channels taken from the same frames keep the pixel's hue. The weight is
 *   w = t / t_ref × hat (s),
 * where s is the pixel's saturation in the raw stage's terms: the largest, over the sites the
 * demosaic reads for it, of a site's balanced value over the level where the prep clips it
 * (1 when the sensor site reached its white level, or its balanced value reached the clip
 * level of highlights=clip). hat falls to 0 as s approaches 1 (a clipped site says "at least
 * this", not how much) and towards black (quantization and the black level's error), and is
 * 1 between. The factor t is the inverse variance of value / t for shot noise (variance ∝
 * L·t / t² = L / t): of two unclipped frames, the longer is the less noisy measure.
 *
 * A pixel where every frame's weight is 0 takes the longest frame's value where that one is
 * dark, else the shortest's (clipped in every frame: the best lower bound, neutral since the
 * prep clipped it). */
#pragma once

#include "../ops/pixel-math.h"

/* hat's ends, in units of the clip level: 1 from DARK to KNEE, 0 from CLIP up. */
#define LM_RAW_MERGE_DARK 0.02f
#define LM_RAW_MERGE_KNEE 0.80f
#define LM_RAW_MERGE_CLIP 0.95f

LM_INLINE float
lm_raw_merge_hat (float s)
{
  if (!(s > 0.0f) || s >= LM_RAW_MERGE_CLIP)
    return 0.0f;
  if (s < LM_RAW_MERGE_DARK)
    return s / LM_RAW_MERGE_DARK;
  if (s > LM_RAW_MERGE_KNEE)
    return (LM_RAW_MERGE_CLIP - s) / (LM_RAW_MERGE_CLIP - LM_RAW_MERGE_KNEE);
  return 1.0f;
}

/* Whether a frame's pixel of saturation S is dark: below the hat's rising ramp. */
LM_INLINE int
lm_raw_merge_dark (float s)
{
  return s < LM_RAW_MERGE_DARK;
}
