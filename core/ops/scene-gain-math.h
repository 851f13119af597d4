/* Scene light scaled per channel: the exposure and white balance of a scene-referred source
 * (op.h, on_scene), which the render folds into one gain per channel. Shared by the CPU
 * (scene-gain.c) and the kernel (kernels/scene-gain.cu): one multiply per channel, so the GPU
 * gives the CPU's bits. Alpha is kept. */
#pragma once

#include "pixel-math.h"

LM_INLINE void
lm_scene_gain_pixel (const float gain[3], const float in[4], float out[4])
{
  out[0] = in[0] * gain[0];
  out[1] = in[1] * gain[1];
  out[2] = in[2] * gain[2];
  out[3] = in[3];
}
