/* Tone mapping, CPU reference. Sums over the image (means of logarithms, minima, maxima)
 * are taken per row in double and added in row order, so that they do not depend on the
 * thread count. */
#include "tonemap.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../ops/pixel-math.h"

#define LOG_FLOOR 1e-4f /* OpenCV's: log of luminances below it is log(1e-4) */

gboolean
lm_tonemap_kind_parse (const char *text, LmTonemapKind *kind)
{
  static const char *const names[] = { "none", "gamma", "reinhard", "drago" };
  for (int i = 0; i < (int) G_N_ELEMENTS (names); i++)
    if (g_str_equal (text, names[i]))
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

static inline float
luminance (const float *p)
{
  return lm_weighted_sum (p[0], p[1], p[2], LM_BT601_R, LM_BT601_G, LM_BT601_B);
}

typedef struct {
  double min, max;
} Range;

/* Smallest and largest colour sample. */
static Range
sample_range (const LmImage *img)
{
  double *row_min = g_new (double, img->height), *row_max = g_new (double, img->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      const float *p = (const float *) lm_image_row (img, y);
      float lo = INFINITY, hi = -INFINITY;
      for (guint x = 0; x < img->width; x++)
        for (int c = 0; c < 3; c++)
          {
            lo = MIN (lo, p[4 * x + c]);
            hi = MAX (hi, p[4 * x + c]);
          }
      row_min[y] = lo, row_max[y] = hi;
    }
  Range r = { INFINITY, -INFINITY };
  for (guint y = 0; y < img->height; y++)
    r.min = MIN (r.min, row_min[y]), r.max = MAX (r.max, row_max[y]);
  g_free (row_min);
  g_free (row_max);
  return r;
}

/* OpenCV's Tonemap: stretch the samples to 0..1, then the gamma. In place. */
static void
linear (LmImage *img, float gamma)
{
  Range r = sample_range (img);
  float lo = (float) r.min, span = (float) (r.max - r.min);
  gboolean stretch = r.max - r.min > DBL_EPSILON;
  float inv_gamma = 1.0f / gamma;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      float *p = (float *) lm_image_row (img, y);
      for (guint x = 0; x < img->width; x++)
        for (int c = 0; c < 3; c++)
          {
            float v = stretch ? (p[4 * x + c] - lo) / span : p[4 * x + c];
            p[4 * x + c] = inv_gamma == 1.0f ? v : powf (v, inv_gamma);
          }
    }
}

typedef struct {
  double log_sum, log_min, log_max;
  double sum[3], gray_sum;
} Stats;

static Stats
stats_of (const LmImage *img)
{
  Stats *rows = g_new0 (Stats, img->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      const float *p = (const float *) lm_image_row (img, y);
      Stats s = { 0.0, INFINITY, -INFINITY, { 0, 0, 0 }, 0.0 };
      for (guint x = 0; x < img->width; x++)
        {
          float g = luminance (p + 4 * x);
          double l = logf (MAX (g, LOG_FLOOR));
          s.log_sum += l;
          s.log_min = MIN (s.log_min, l);
          s.log_max = MAX (s.log_max, l);
          for (int c = 0; c < 3; c++)
            s.sum[c] += p[4 * x + c];
          s.gray_sum += g;
        }
      rows[y] = s;
    }
  Stats t = { 0.0, INFINITY, -INFINITY, { 0, 0, 0 }, 0.0 };
  for (guint y = 0; y < img->height; y++)
    {
      t.log_sum += rows[y].log_sum;
      t.log_min = MIN (t.log_min, rows[y].log_min);
      t.log_max = MAX (t.log_max, rows[y].log_max);
      for (int c = 0; c < 3; c++)
        t.sum[c] += rows[y].sum[c];
      t.gray_sum += rows[y].gray_sum;
    }
  g_free (rows);
  return t;
}

static void
reinhard (const LmTonemapParams *p, LmImage *img)
{
  double n = (double) img->width * img->height;
  Stats s = stats_of (img);
  double log_mean = s.log_sum / n;
  float key = s.log_max > s.log_min ? (float) ((s.log_max - log_mean) / (s.log_max - s.log_min)) : 0.0f;
  float map_key = 0.3f + 0.7f * powf (key, 1.4f);
  float intensity = expf (-p->intensity), gray_mean = (float) (s.gray_sum / n);
  float global[3];
  for (int c = 0; c < 3; c++)
    global[c] = p->color_adapt * (float) (s.sum[c] / n) + (1.0f - p->color_adapt) * gray_mean;

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      float *px = (float *) lm_image_row (img, y);
      for (guint x = 0; x < img->width; x++)
        {
          float *q = px + 4 * x, g = luminance (q);
          for (int c = 0; c < 3; c++)
            {
              float adapt = p->color_adapt * q[c] + (1.0f - p->color_adapt) * g;
              adapt = p->light_adapt * adapt + (1.0f - p->light_adapt) * global[c];
              adapt = powf (intensity * adapt, map_key);
              q[c] = q[c] / (adapt + q[c]);
            }
        }
    }
}

static void
drago (const LmTonemapParams *p, LmImage *img)
{
  double n = (double) img->width * img->height;
  Stats s = stats_of (img);
  float mean = expf ((float) (s.log_sum / n));
  /* The largest luminance over the mean. */
  double *row_max = g_new (double, img->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      const float *px = (const float *) lm_image_row (img, y);
      float hi = 0.0f;
      for (guint x = 0; x < img->width; x++)
        hi = MAX (hi, luminance (px + 4 * x) / mean);
      row_max[y] = hi;
    }
  float max = 0.0f;
  for (guint y = 0; y < img->height; y++)
    max = MAX (max, (float) row_max[y]);
  g_free (row_max);
  float exponent = logf (p->bias) / logf (0.5f);

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      float *px = (float *) lm_image_row (img, y);
      for (guint x = 0; x < img->width; x++)
        {
          float *q = px + 4 * x, g = luminance (q) / mean;
          float map = logf (g + 1.0f) / logf (2.0f + 8.0f * powf (g / max, exponent));
          for (int c = 0; c < 3; c++)
            q[c] = g > 0.0f ? powf (q[c] / g, p->saturation) * map : 0.0f;
        }
    }
}

gboolean
lm_tonemap_cpu (const LmTonemapParams *p, const LmImage *radiance, LmImage *out, GError **error)
{
  g_return_val_if_fail (radiance->format == LM_FORMAT_RGBA_F32 && out->format == LM_FORMAT_RGBA8, FALSE);
  if (!(p->gamma > 0.0f))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("the gamma must be positive"));
      return FALSE;
    }
  GError *e = NULL;
  g_autoptr (LmImage) img = lm_image_new (LM_FORMAT_RGBA_F32, radiance->width, radiance->height,
                                          lm_allocator_host (), &e);
  if (img == NULL)
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  for (guint y = 0; y < radiance->height; y++)
    memcpy (lm_image_row (img, y), lm_image_row (radiance, y), (gsize) radiance->width * 16);

  /* NONE: the values as they are, 0..1 to 0..255, clipped, as one writes Mertens' fusion. */
  if (p->kind == LM_TONEMAP_NONE)
    ;
  else if (p->kind == LM_TONEMAP_GAMMA)
    linear (img, p->gamma);
  else
    {
      /* Both operators work on the stretched image and stretch their result again. */
      linear (img, 1.0f);
      if (p->kind == LM_TONEMAP_REINHARD)
        reinhard (p, img);
      else
        drago (p, img);
      linear (img, p->gamma);
    }

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      const float *q = (const float *) lm_image_row (img, y);
      guint8 *o = lm_image_row (out, y);
      for (guint x = 0; x < img->width; x++)
        {
          for (int c = 0; c < 3; c++)
            o[4 * x + c] = lm_quantize_u8 (q[4 * x + c] * 255.0f);
          o[4 * x + 3] = 255;
        }
    }
  out->opaque = TRUE;
  return TRUE;
}

void
lm_gamma_correct_cpu (LmImage *radiance, float gamma)
{
  Range r = sample_range (radiance);
  float max = (float) r.max;
  if (!(max > 0.0f))
    return;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < radiance->height; y++)
    {
      float *p = (float *) lm_image_row (radiance, y);
      for (guint x = 0; x < radiance->width; x++)
        for (int c = 0; c < 3; c++)
          p[4 * x + c] = powf (MAX (p[4 * x + c], 0.0f) / max, gamma) * max;
    }
}
