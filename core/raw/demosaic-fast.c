/* The fast Bayer demosaics on the CPU (core/ops/demosaic-fast-math.h): bilinear and half size,
 * the references of kernels/demosaic-fast.cu. */
#include "demosaic.h"

#include <glib.h>

#include "../ops/demosaic-fast-math.h"

void
lm_demosaic_bilinear_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                          size_t rgba_stride)
{
  g_return_if_fail (plane != NULL && rgba != NULL && cfa != NULL && width > 0 && height > 0);
  g_return_if_fail (lm_cfa_is_bayer (cfa) && rgba_stride >= (size_t) width * 4);
#pragma omp parallel for schedule(static) if ((size_t) width * height > 65536)
  for (int y = 0; y < height; y++)
    {
      float *out = rgba + (size_t) y * rgba_stride;
      for (int x = 0; x < width; x++, out += 4)
        {
          lm_demosaic_bilinear_site (plane, width, height, cfa, x, y, &out[0], &out[1], &out[2]);
          out[3] = 1.0f;
        }
    }
}

void
lm_demosaic_half_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                      size_t rgba_stride)
{
  g_return_if_fail (plane != NULL && rgba != NULL && cfa != NULL && width > 0 && height > 0);
  int out_w = lm_demosaic_half_size (width), out_h = lm_demosaic_half_size (height);
  g_return_if_fail (lm_cfa_is_bayer (cfa) && rgba_stride >= (size_t) out_w * 4);
#pragma omp parallel for schedule(static) if ((size_t) width * height > 65536)
  for (int y = 0; y < out_h; y++)
    {
      float *out = rgba + (size_t) y * rgba_stride;
      for (int x = 0; x < out_w; x++, out += 4)
        {
          lm_demosaic_half_site (plane, width, height, cfa, x, y, &out[0], &out[1], &out[2]);
          out[3] = 1.0f;
        }
    }
}
