/* The demosaic's refinement, shared by the CPU (core/raw/demosaic-refine.c) and the CUDA
 * kernels (kernels/demosaic-refine.cu): one robust colour-difference pass after any demosaic,
 * in the spirit of the refining steps of W. Lu and Y.-P. Tan, "Color filter array demosaicking:
 * new method and performance measures", IEEE Trans. Image Process. 12 (2003) 1194–1210, and
 * D. Menon, S. Andriani and G. Calvagno, "Demosaicing with directional filtering and a
 * posteriori decision", IEEE Trans. Image Process. 16 (2007) 132–141: a missing colour is the
 * site's own sample plus the colour difference of the neighbours where that colour was sampled.
 * The neighbours' differences are weighted by their closeness to the demosaic's own difference
 * at the site (1 / (ε + |d_q − d_p|)), so that across a hue edge, where the differences jump,
 * the side the demosaic chose keeps the say. Any CFA: the neighbours are the 3 × 3 sites whose
 * colour is the one sought (Bayer and X-Trans have one in every 3 × 3 window). The outermost
 * rows and columns keep the demosaic's values: there the window is cut, and a colour's only
 * sites in it may lie across a hue edge.
 *
 * Two steps, each in place and free of races between sites: green at red and blue sites from the
 * green sites' G − C (C the site's colour); then red and blue at every site but their own, from
 * their sites' X − G (G from the first step), the samples themselves written back where they
 * were taken. The samples are read from the mosaic, never from the demosaic's output.
 * Plain IEEE operations in a fixed order, no FMA contraction: the same bits on both backends.
 * GLib-free, for gcc and nvcc. */
#pragma once

#include <math.h>
#include <stddef.h>

#include "cfa-math.h"
#include "pixel-math.h"

/* The weights' floor (1 = white): differences this far apart still share the estimate, so
 * noise averages out; a hue edge's jump is larger. */
#define LM_REFINE_EPS 3e-3f

/* A mosaic sample as the demosaics see it: negative and NaN read as 0. */
LM_INLINE float
lm_refine_sample (float v)
{
  return v > 0.0f ? v : 0.0f;
}

/* Step 1 at a red or blue site (X, Y) of colour C in a WIDTH × HEIGHT image: green. PX is the
 * pixel (RGBA, rows of S floats), M the mosaic at the site (rows of MS floats). Only sites
 * inside the outermost ring read around them, so every read is inside the image. */
LM_INLINE float
lm_refine_green (const float *px, ptrdiff_t s, const float *m, ptrdiff_t ms, const LmCfa *cfa, int x, int y,
                 int width, int height, int c)
{
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1)
    return px[1];
  float mp = lm_refine_sample (m[0]);
  float dp = px[1] - mp;
  float num = 0.0f, den = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        if (lm_cfa_color (cfa, x + dx, y + dy) != LM_CFA_G)
          continue;
        float dq = lm_refine_sample (m[dy * ms + dx]) - px[dy * s + 4 * dx + c];
        float w = 1.0f / (LM_REFINE_EPS + fabsf (dq - dp));
        num = num + w * dq;
        den = den + w;
      }
  return den > 0.0f ? mp + num / den : px[1];
}

/* Step 2 at site (X, Y): colour K (red or blue, not the site's), GP the site's green. PX and M
 * as in step 1; green at K's sites is step 1's. */
LM_INLINE float
lm_refine_other (const float *px, ptrdiff_t s, const float *m, ptrdiff_t ms, const LmCfa *cfa, int x, int y,
                 int width, int height, int k, float gp)
{
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1)
    return px[k];
  float dp = px[k] - gp;
  float num = 0.0f, den = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        if (lm_cfa_color (cfa, x + dx, y + dy) != k)
          continue;
        float dq = lm_refine_sample (m[dy * ms + dx]) - px[dy * s + 4 * dx + 1];
        float w = 1.0f / (LM_REFINE_EPS + fabsf (dq - dp));
        num = num + w * dq;
        den = den + w;
      }
  return den > 0.0f ? gp + num / den : px[k];
}

/* Step 2 at site (X, Y), in place: PX gets red and blue, and where the site is green its
 * green, from the mosaic where the site sampled them; alpha 1. Of the image it reads only this
 * pixel's own red and blue and, around it, green at red and blue sites (step 1's), which no
 * site writes in step 2: so the sites may run in any order, or at once. */
LM_INLINE void
lm_refine_pixel (float *px, ptrdiff_t s, const float *m, ptrdiff_t ms, const LmCfa *cfa, int x, int y, int width,
                 int height)
{
  int c = lm_cfa_color (cfa, x, y);
  float mp = lm_refine_sample (m[0]);
  float g = c == LM_CFA_G ? mp : px[1];
  float r = c == LM_CFA_R ? mp : lm_refine_other (px, s, m, ms, cfa, x, y, width, height, LM_CFA_R, g);
  float b = c == LM_CFA_B ? mp : lm_refine_other (px, s, m, ms, cfa, x, y, width, height, LM_CFA_B, g);
  px[0] = r;
  if (c == LM_CFA_G)
    px[1] = g;
  px[2] = b;
  px[3] = 1.0f;
}
