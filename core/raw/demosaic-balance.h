/* The demosaic's channel balance on the CPU (core/ops/demosaic-balance-math.h says why): the
 * reference of kernels/demosaic-balance.cu, which gives the same bits
 * (tests/gpu/test-demosaic-balance-parity.c). PLANE is the prepared mosaic of core/raw/demosaic.h
 * (WIDTH × HEIGHT floats, packed rows), CFA its pattern (Bayer or X-Trans). */
#pragma once

#include "../ops/cfa-math.h"
#include "../ops/demosaic-balance-math.h"

/* Each colour's counted samples and their sum (deterministic: integer sums). */
void lm_demosaic_balance_measure_cpu (const float *plane, int width, int height, const LmCfa *cfa,
                                      LmBalanceSums *sums);

/* Each site multiplied by its colour's gain. */
void lm_demosaic_balance_apply_cpu (float *plane, int width, int height, const LmCfa *cfa, const float gain[3]);

/* The whole step before a demosaic: measures PLANE, scales it in place by the gains, and folds
 * their inverse into MATRIX (camera RGB → working space), which the development applies to the
 * demosaic's output; the result is the unbalanced development's but for the demosaic's errors. */
void lm_demosaic_balance_cpu (float *plane, int width, int height, const LmCfa *cfa, float matrix[3][3]);
