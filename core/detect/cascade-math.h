/* One window of a cascade, evaluated as OpenCV 4.6's CascadeClassifier evaluates it
 * (cascadedetect.hpp's predictOrderedStump and predictCategoricalStump, and the evaluators'
 * setWindow): the same integer sums, the same float and double steps in the same order, so
 * that every window passes or fails as it does in OpenCV. Plain C for gcc and nvcc. */
#pragma once

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "cascade-types.h"
#include "core/ops/pixel-math.h"

/* The integrals of one pyramid level (integral.h): STEP elements a row. */
typedef struct {
  const uint32_t *sum, *sqsum, *tilted;
  ptrdiff_t step;
} LmCascadeIntegrals;

/* Why a window gave no object: a stage rejected it (OpenCV's result −stage, 0 for the first,
 * after which OpenCV skips the next window too), or its variance is too low to normalise. */
#define LM_CASCADE_FLAT (-1000000)

LM_INLINE int32_t
lm_cascade_box_sum (const uint32_t *p, ptrdiff_t step, int x, int y, int w, int h)
{
  const uint32_t *top = p + (ptrdiff_t) y * step + x, *bottom = top + (ptrdiff_t) h * step;
  return (int32_t) (top[0] - top[w] - bottom[0] + bottom[w]);
}

/* The tilted rectangle's corners: (x, y), (x − h, y + h), (x + w, y + w), (x + w − h, y + w + h). */
LM_INLINE int32_t
lm_cascade_tilted_sum (const uint32_t *p, ptrdiff_t step, int x, int y, int w, int h)
{
  uint32_t p0 = p[(ptrdiff_t) y * step + x];
  uint32_t p1 = p[(ptrdiff_t) (y + h) * step + x - h];
  uint32_t p2 = p[(ptrdiff_t) (y + w) * step + x + w];
  uint32_t p3 = p[(ptrdiff_t) (y + w + h) * step + x + w - h];
  return (int32_t) (p0 - p1 - p2 + p3);
}

/* OpenCV's 1 / σ·area over the window less a pixel on each side; 0 when the window is too
 * flat (OpenCV's setWindow refuses it: the window is neither kept nor skipped past). */
LM_INLINE float
lm_cascade_haar_norm (const LmCascade *c, const LmCascadeIntegrals *in, int x, int y)
{
  int w = c->window_width - 2, h = c->window_height - 2;
  int32_t s = lm_cascade_box_sum (in->sum, in->step, x + 1, y + 1, w, h);
  uint32_t sq = (uint32_t) lm_cascade_box_sum (in->sqsum, in->step, x + 1, y + 1, w, h);
  double area = (double) w * h;
  double nf = area * sq - (double) s * s;
  if (!(nf > 0.0))
    return 0.0f;
  float norm = (float) (1.0 / sqrt (nf));
  return area * norm < 1e-1 ? norm : 0.0f;
}

LM_INLINE float
lm_cascade_haar_value (const LmHaarFeature *f, const LmCascadeIntegrals *in, int x, int y)
{
  int32_t s[LM_CASCADE_HAAR_RECTS] = { 0, 0, 0 };
  for (int k = 0; k < f->n_rects; k++)
    {
      const LmHaarRect *r = &f->rect[k];
      s[k] = f->tilted ? lm_cascade_tilted_sum (in->tilted, in->step, x + r->x, y + r->y, r->width, r->height)
                       : lm_cascade_box_sum (in->sum, in->step, x + r->x, y + r->y, r->width, r->height);
    }
  float v = f->rect[0].weight * (float) s[0] + f->rect[1].weight * (float) s[1];
  if (f->rect[2].weight != 0.0f)
    v += f->rect[2].weight * (float) s[2];
  return v;
}

/* The 8-bit code of the 3 × 3 blocks: a bit for each outer block whose sum is at least the
 * centre's, clockwise from the top-left (bit 7) to the left (bit 0). */
LM_INLINE int
lm_cascade_lbp_code (const LmLbpFeature *f, const LmCascadeIntegrals *in, int x, int y)
{
  int32_t b[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      b[i][j] = lm_cascade_box_sum (in->sum, in->step, x + f->x + j * f->width, y + f->y + i * f->height,
                                    f->width, f->height);
  int32_t c = b[1][1];
  return (b[0][0] >= c) << 7 | (b[0][1] >= c) << 6 | (b[0][2] >= c) << 5 | (b[1][2] >= c) << 4
         | (b[2][2] >= c) << 3 | (b[2][1] >= c) << 2 | (b[2][0] >= c) << 1 | (b[1][0] >= c);
}

/* The window's normalisation before its stages: OpenCV's 1 / σ·area for Haar, 1 for LBP
 * (unused); 0 where a Haar window is too flat (LM_CASCADE_FLAT). */
LM_INLINE float
lm_cascade_window_norm (const LmCascade *c, const LmCascadeIntegrals *in, int x, int y)
{
  return c->kind == LM_CASCADE_HAAR ? lm_cascade_haar_norm (c, in, x, y) : 1.0f;
}

/* The leaf that stump I (of the whole cascade) gives the window at (x, y), NORM as below. */
LM_INLINE float
lm_cascade_stump_leaf (const LmCascade *c, const LmCascadeIntegrals *in, int x, int y, float norm, unsigned i)
{
  const LmCascadeStump *stump = &c->stumps[i];
  if (c->kind == LM_CASCADE_HAAR)
    {
      double value = (double) (lm_cascade_haar_value (&c->haar[stump->feature], in, x, y) * norm);
      return value < (double) stump->threshold ? stump->left : stump->right;
    }
  const uint32_t *subset = c->subsets + (size_t) i * LM_CASCADE_LBP_WORDS;
  int code = lm_cascade_lbp_code (&c->lbp[stump->feature], in, x, y);
  return (subset[code >> 5] >> (code & 31)) & 1u ? stump->left : stump->right;
}

/* Stages FIRST … END − 1 of the window whose top-left is (x, y) in the level's pixels, with
 * NORM from lm_cascade_window_norm: 1 when each passes, else −(the stage that rejected it). */
LM_INLINE int
lm_cascade_window_stages (const LmCascade *c, const LmCascadeIntegrals *in, int x, int y, float norm,
                          unsigned first, unsigned end)
{
  for (unsigned si = first; si < end; si++)
    {
      const LmCascadeStage *stage = &c->stages[si];
      double sum = 0.0;
      for (unsigned i = stage->first; i < stage->first + stage->n_stumps; i++)
        sum += lm_cascade_stump_leaf (c, in, x, y, norm, i);
      if (sum < (double) stage->threshold)
        return -(int) si;
    }
  return 1;
}

/* The window whose top-left is (x, y) in the level's pixels: 1 when every stage passes, else
 * −(the stage that rejected it), or LM_CASCADE_FLAT. */
LM_INLINE int
lm_cascade_window (const LmCascade *c, const LmCascadeIntegrals *in, int x, int y)
{
  float norm = lm_cascade_window_norm (c, in, x, y);
  if (norm == 0.0f)
    return LM_CASCADE_FLAT;
  return lm_cascade_window_stages (c, in, x, y, norm, 0, c->n_stages);
}
