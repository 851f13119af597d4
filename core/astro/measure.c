/* Measurements per source (lm_measure), as SciPy's ndimage functions give them on
 * data − background and as SExtractor derives shapes:
 * - x, y: scipy.ndimage.center_of_mass (data − background, labels, index): Σ v·x / Σ v. As
 *   there, nothing guards the sign of Σ v: a source whose residual sums below zero (possible
 *   only when the background is above the source, e.g. a mask made with another background)
 *   gets a centroid that may lie outside it, and a zero sum gives NaN;
 * - flux = Σ (data − background), flux_raw = Σ data (sum_labels), background = Σ background;
 * - peak: the largest data − background (float), at its first pixel in raster order;
 * - x2, y2, xy: the flux-weighted second central moments Σ v·x² / Σ v − x̄², …, from sums in
 *   double about the source's box corner (SExtractor's definition; the GPU sums the same way);
 *   a, b, θ and the FWHM from them (detect-math.h).
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

  /* First the boxes, peaks and plain sums; then the moments, about each box's corner: sums of
   * v·x² at x in the thousands would lose the digits a σ of a pixel or two is made of. */
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
        t->sum += residual;
        t->sum_raw += data[i];
        t->sum_back += background[i];
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
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        gsize i = (gsize) y * width + x;
        guint32 label = labels[i];
        if (label == 0 || label > n_labels)
          continue;
        const LmSource *s = &sources[label - 1];
        Sums *t = &sums[label];
        double v = (float) (data[i] - background[i]);
        double dx = (double) x - s->xmin, dy = (double) y - s->ymin;
        t->sx += v * dx;
        t->sy += v * dy;
        t->sxx += v * dx * dx;
        t->syy += v * dy * dy;
        t->sxy += v * dx * dy;
      }

  for (guint label = 1; label <= n_labels; label++)
    {
      LmSource *s = &sources[label - 1];
      const Sums *t = &sums[label];
      s->flux = t->sum;
      s->flux_raw = t->sum_raw;
      s->background = t->sum_back;
      double cx = t->sx / t->sum, cy = t->sy / t->sum; /* from the box's corner */
      s->x = s->xmin + cx;
      s->y = s->ymin + cy;
      s->x2 = t->sxx / t->sum - cx * cx;
      s->y2 = t->syy / t->sum - cy * cy;
      s->xy = t->sxy / t->sum - cx * cy;
      lm_astro_shape (s->x2, s->y2, s->xy, &s->a, &s->b, &s->theta);
      s->fwhm = lm_astro_fwhm (s->a, s->b);
    }
}
