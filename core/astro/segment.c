/* Segmentation (lm_segment): the pixels that stand out of the background.
 *
 * The residual data − background (0 at blank pixels, so that a blank area neither raises
 * nor lowers its neighbours) is optionally smoothed by the matched filter: the taps of Lumen's
 * Gaussian blur (core/ops/blur-math.h) for FILTER_SIGMA, rows first into a float buffer, then
 * columns, reflect-101 edges, float sums in tap order (lm_astro_filter_at, which the CUDA
 * kernel calls too, so that both masks are the same bit for bit). A pixel is in the mask where
 * that value is above THRESHOLD × noise, as SExtractor thresholds its filtered image against
 * the unfiltered σ; a blank pixel never is. */
#include <glib/gi18n.h>
#include <math.h>

#include "../error.h"
#include "../ops/blur-math.h"
#include "detect-math.h"
#include "detect-private.h"

static void
residual (const float *data, const float *background, gsize n, float *out)
{
#pragma omp parallel for schedule(static)
  for (gsize i = 0; i < n; i++)
    out[i] = isfinite (data[i]) ? data[i] - background[i] : 0.0f;
}

static void
matched_filter (float *image, guint width, guint height, double sigma)
{
  int radius = lm_blur_radius ((float) sigma);
  if (radius == 0)
    return;
  float taps[LM_BLUR_RADIUS_MAX + 1];
  lm_blur_weights ((float) sigma, radius, taps);
  g_autofree float *rows = g_new (float, (gsize) width * height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < height; y++)
    {
      const float *src = image + (gsize) y * width;
      float *dst = rows + (gsize) y * width;
      for (guint x = 0; x < width; x++)
        dst[x] = lm_astro_filter_at (src, 1, x, width, taps, radius);
    }
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      image[(gsize) y * width + x] = lm_astro_filter_at (rows + x, width, y, height, taps, radius);
}

gboolean
lm_segment (const float *data, const float *background, const float *noise, guint width,
            guint height, double threshold, double filter_sigma, guint8 *mask, GError **error)
{
  g_return_val_if_fail (data && background && noise && mask, FALSE);
  if (!(filter_sigma >= 0.0 && filter_sigma <= LM_BLUR_SIGMA_MAX))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("The filter’s σ must be between 0 and %g pixels"), (double) LM_BLUR_SIGMA_MAX);
      return FALSE;
    }
  gsize n = (gsize) width * height;
  g_autofree float *work = g_try_new (float, n);
  if (!work)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                   _("Not enough memory to segment a %u × %u image"), width, height);
      return FALSE;
    }
  residual (data, background, n, work);
  if (filter_sigma > 0.0)
    matched_filter (work, width, height, filter_sigma);
#pragma omp parallel for schedule(static)
  for (gsize i = 0; i < n; i++)
    mask[i] = isfinite (data[i]) && lm_astro_above (work[i], noise[i], threshold);
  return TRUE;
}
