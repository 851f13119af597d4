/* Measurements per source (lm_measure), as SciPy's ndimage functions give them on
 * data − background and as SExtractor derives shapes:
 * - x, y: scipy.ndimage.center_of_mass (data − background, labels, index): Σ v·x / Σ v. As
 *   there, nothing guards the sign of Σ v: a source whose residual sums below zero (possible
 *   only when the background is above the source, e.g. a mask made with another background)
 *   gets a centroid that may lie outside it, and a zero sum gives NaN;
 * - flux = Σ (data − background), flux_raw = Σ data (sum_labels), background = Σ background;
 * - peak: the largest data − background (float), at its first pixel in raster order;
 * - x2, y2, xy: the flux-weighted second central moments Σ v·x² / Σ v − x̄², …, from sums in
 *   double (SExtractor's definition); a, b, θ and the FWHM from them (detect-math.h).
 * Every sum is in double, in raster order. Blank (NaN) pixels are never labelled. */
#include <math.h>

#include "detect-math.h"
#include "detect-private.h"

typedef struct {
  double sum, sum_raw, sum_back;
  double sx, sy, sxx, syy, sxy;
} Sums;

void
lm_measure (const float *data, const float *background, const guint32 *labels, guint width,
            guint height, guint n_labels, LmSource *sources)
{
  g_return_if_fail (n_labels == 0 || (data && background && labels && sources));
  g_autofree Sums *sums = g_new0 (Sums, (gsize) n_labels + 1);
  for (guint i = 0; i < n_labels; i++)
    sources[i] = (LmSource) { .label = i + 1, .peak = -INFINITY, .xmin = G_MAXUINT,
                              .ymin = G_MAXUINT };

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        gsize i = (gsize) y * width + x;
        guint32 label = labels[i];
        if (label == 0 || label > n_labels)
          continue;
        LmSource *s = &sources[label - 1];
        Sums *t = &sums[label];
        float residual = data[i] - background[i];
        double v = residual;
        t->sum += v;
        t->sum_raw += data[i];
        t->sum_back += background[i];
        t->sx += v * x;
        t->sy += v * y;
        t->sxx += v * x * x;
        t->syy += v * y * y;
        t->sxy += v * x * y;
        if (residual > s->peak)
          {
            s->peak = residual;
            s->peak_x = x;
            s->peak_y = y;
          }
        s->area++;
        s->xmin = MIN (s->xmin, x);
        s->xmax = MAX (s->xmax, x);
        s->ymin = MIN (s->ymin, y);
        s->ymax = MAX (s->ymax, y);
      }

  for (guint label = 1; label <= n_labels; label++)
    {
      LmSource *s = &sources[label - 1];
      const Sums *t = &sums[label];
      s->flux = t->sum;
      s->flux_raw = t->sum_raw;
      s->background = t->sum_back;
      s->x = t->sx / t->sum;
      s->y = t->sy / t->sum;
      s->x2 = t->sxx / t->sum - s->x * s->x;
      s->y2 = t->syy / t->sum - s->y * s->y;
      s->xy = t->sxy / t->sum - s->x * s->y;
      lm_astro_shape (s->x2, s->y2, s->xy, &s->a, &s->b, &s->theta);
      s->fwhm = lm_astro_fwhm (s->a, s->b);
    }
}
