/* The raw development's last per-pixel step, shared by the CPU reference (core/raw/develop.c)
 * and the kernel (kernels/raw-develop.cu): white-balanced camera RGB through the 3 × 3 matrix
 * to linear Rec. 2020, in one fixed order of operations so that both give the same bits. */
#pragma once

#include "pixel-math.h"

/* PX: R, G, B, A floats, rewritten in place; alpha 1. */
LM_INLINE void
lm_raw_matrix_pixel (const float m[3][3], float *px)
{
  float r = px[0], g = px[1], b = px[2];
  px[0] = m[0][0] * r + m[0][1] * g + m[0][2] * b;
  px[1] = m[1][0] * r + m[1][1] * g + m[1][2] * b;
  px[2] = m[2][0] * r + m[2][1] * g + m[2][2] * b;
  px[3] = 1.0f;
}
