/* Scene light scaled per channel on the CPU (scene-gain-math.h says what it computes). */
#pragma once

#include "../image.h"

/* DST = SRC with each of R, G, B multiplied by its GAIN; both RGBA_F32 of one size (DST may be
 * SRC). */
void lm_scene_gain_cpu (const float gain[3], const LmImage *src, LmImage *dst);

