/* Diff, CPU reference: integer sums per thread, added at the end, so that the figures do
 * not depend on the thread count and equal the GPU's. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"

gboolean
lm_diff_check (const LmImage *a, const LmImage *b, GError **error)
{
  if (a->width != b->width || a->height != b->height || a->format != b->format
      || a->format == LM_FORMAT_RGBA_F32)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("cannot compare a %u×%u %s image with a %u×%u %s one"), a->width, a->height,
                   lm_format_name (a->format), b->width, b->height, lm_format_name (b->format));
      return FALSE;
    }
  return TRUE;
}

void
lm_diff_stats_from_sums (const LmDiffSums *sums, LmDiffStats *stats)
{
  stats->depth = sums->depth == 16 ? 16 : 8;
  double peak = stats->depth == 16 ? 65535.0 : 255.0;
  stats->max_abs = sums->max_abs;
  stats->differing = sums->differing;
  stats->pixels = sums->pixels;
  stats->mean_abs = sums->samples ? (double) sums->sum_abs / sums->samples : 0.0;
  double mse = sums->samples ? (double) sums->sum_sq / sums->samples : 0.0;
  stats->psnr_db = mse > 0.0 ? 10.0 * log10 (peak * peak / mse) : INFINITY;
}

void
lm_diff_cpu (const LmImage *a, const LmImage *b, float gain, LmImage *heat, LmDiffSums *out)
{
  guint ch = lm_format_channels (a->format) == 1 ? 1 : 3;
  guint bpp = lm_format_channels (a->format); /* samples a pixel */
  int deep = lm_format_depth (a->format) == 16;
  guint64 differing = 0, sum_abs = 0, sum_sq = 0;
  guint max_abs = 0;

#pragma omp parallel for schedule(static) reduction(+ : differing, sum_abs, sum_sq) reduction(max : max_abs)
  for (guint y = 0; y < a->height; y++)
    {
      const guint8 *p = lm_image_row (a, y), *q = lm_image_row (b, y);
      guint32 *h = heat ? (guint32 *) lm_image_row (heat, y) : NULL;
      for (guint x = 0; x < a->width; x++)
        {
          guint worst = 0;
          for (guint c = 0; c < ch; c++)
            {
              int d = abs ((int) lm_diff_sample (p, deep, x * bpp + c) - (int) lm_diff_sample (q, deep, x * bpp + c));
              sum_abs += d;
              sum_sq += (guint64) d * d;
              worst = MAX (worst, (guint) d);
            }
          differing += worst != 0;
          max_abs = MAX (max_abs, worst);
          if (h)
            h[x] = lm_heat_rgba_depth (worst, deep, gain);
        }
    }
  out->samples = (guint64) a->width * a->height * ch;
  out->pixels = (guint64) a->width * a->height;
  out->differing = differing;
  out->sum_abs = sum_abs;
  out->sum_sq = sum_sq;
  out->max_abs = max_abs;
  out->depth = deep ? 16 : 8;
  if (heat)
    heat->opaque = FALSE;
}

void
lm_diff_heat_view (const LmImage *a, const LmImage *b, const LmViewRect *rect, float gain,
                   LmImage *out)
{
  guint ch = lm_format_channels (a->format) == 1 ? 1 : 3, bpp = lm_format_channels (a->format);
  int deep = lm_format_depth (a->format) == 16;
  double sx = rect->rw / rect->out_w, sy = rect->rh / rect->out_h;
#pragma omp parallel for schedule(static)
  for (int j = 0; j < rect->out_h; j++)
    {
      int y0, y1;
      float w0, w1;
      lm_view_span (rect->ry, sy, j, (int) a->height, &y0, &y1, &w0, &w1);
      guint32 *o = (guint32 *) lm_image_row (out, j);
      for (int i = 0; i < rect->out_w; i++)
        {
          int x0, x1;
          lm_view_span (rect->rx, sx, i, (int) a->width, &x0, &x1, &w0, &w1);
          guint worst = 0;
          for (int y = y0; y <= y1; y++)
            {
              const guint8 *p = lm_image_row (a, y), *q = lm_image_row (b, y);
              for (int x = x0; x <= x1; x++)
                for (guint c = 0; c < ch; c++)
                  worst = MAX (worst, (guint) abs ((int) lm_diff_sample (p, deep, x * bpp + c)
                                                   - (int) lm_diff_sample (q, deep, x * bpp + c)));
            }
          guint32 h = lm_heat_rgba_depth (worst, deep, gain);
          /* packed RGBA to cairo's 0xAARRGGBB; alpha is 0 or 255, so nothing to premultiply */
          o[i] = (h & 0xff000000u) | (h & 0xff) << 16 | (h & 0xff00) | (h >> 16 & 0xff);
        }
    }
  out->opaque = FALSE;
}

char *
lm_diff_stats_describe (const LmDiffStats *s)
{
  g_autofree char *psnr = isinf (s->psnr_db) ? g_strdup (_("PSNR ∞ (identical)"))
                                             : g_strdup_printf (_("PSNR %.1f dB"), s->psnr_db);
  if (s->depth == 16)
    return g_strdup_printf (_("max |Δ| %u u16 (%.3f 8-bit steps), mean |Δ| %.4f u16, %llu pixels differ "
                              "(%.3f %%), %s"),
                            s->max_abs, lm_diff_stats_max_steps (s), s->mean_abs,
                            (unsigned long long) s->differing, s->pixels ? 100.0 * s->differing / s->pixels : 0.0,
                            psnr);
  return g_strdup_printf (_("max |Δ| %u, mean |Δ| %.4f, %llu pixels differ (%.3f %%), %s"),
                          s->max_abs, s->mean_abs, (unsigned long long) s->differing,
                          s->pixels ? 100.0 * s->differing / s->pixels : 0.0, psnr);
}
