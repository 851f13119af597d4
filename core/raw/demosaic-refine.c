/* The demosaic's refinement on the CPU (demosaic-refine.h): its two steps over the image, one
 * after the other, rows in parallel (each step writes nothing another site of it reads). */
#include "demosaic-refine.h"

#include "../ops/demosaic-refine-math.h"

void
lm_demosaic_refine_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                        size_t rgba_stride)
{
  ptrdiff_t s = (ptrdiff_t) rgba_stride;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < height; y++)
    {
      const float *m = plane + (size_t) y * (size_t) width;
      float *row = rgba + (size_t) y * rgba_stride;
      for (int x = 0; x < width; x++)
        {
          int c = lm_cfa_color (cfa, x, y);
          if (c != LM_CFA_G)
            row[4 * x + 1] = lm_refine_green (row + 4 * x, s, m + x, width, cfa, x, y, width, height, c);
        }
    }
#pragma omp parallel for schedule(static)
  for (int y = 0; y < height; y++)
    {
      const float *m = plane + (size_t) y * (size_t) width;
      float *row = rgba + (size_t) y * rgba_stride;
      for (int x = 0; x < width; x++)
        lm_refine_pixel (row + 4 * x, s, m + x, width, cfa, x, y, width, height);
    }
}
