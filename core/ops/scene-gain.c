/* Scene light scaled per channel on the CPU. */
#include "scene-gain.h"

#include "scene-gain-math.h"

void
lm_scene_gain_cpu (const float gain[3], const LmImage *src, LmImage *dst)
{
  g_return_if_fail (src->format == LM_FORMAT_RGBA_F32 && dst->format == LM_FORMAT_RGBA_F32
                    && src->width == dst->width && src->height == dst->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const float *in = (const float *) lm_image_row (src, y);
      float *out = (float *) lm_image_row (dst, y);
      for (guint x = 0; x < src->width; x++)
        lm_scene_gain_pixel (gain, in + 4 * x, out + 4 * x);
    }
}
