/* Tone mapping, CPU reference; the per-pixel arithmetic is tonemap-math.h's, shared with the
 * CUDA kernels. Sums over the image (means of logarithms, minima, maxima) are taken per row
 * in double and added in row order, so that they do not depend on the thread count. */
#include "tonemap.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "merge-math.h"
#include "tonemap-math.h"
#include "sigmoid-math.h"

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
  LmTmStretch s = lm_tm_stretch_of (r.min, r.max);
  float inv_gamma = 1.0f / gamma;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      float *p = (float *) lm_image_row (img, y);
      for (guint x = 0; x < img->width; x++)
        for (int c = 0; c < 3; c++)
          p[4 * x + c] = lm_tm_gamma (lm_tm_stretch (p[4 * x + c], s), inv_gamma);
    }
}

static LmTmStats
stats_of (const LmImage *img)
{
  LmTmStats *rows = g_new0 (LmTmStats, img->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      const float *p = (const float *) lm_image_row (img, y);
      LmTmStats s = { 0.0, INFINITY, -INFINITY, { 0, 0, 0 }, 0.0, 0.0 };
      for (guint x = 0; x < img->width; x++)
        {
          const float *q = p + 4 * x;
          float g = lm_tm_luminance (q[0], q[1], q[2]);
          double l = lm_tm_log_luminance (g);
          s.log_sum += l;
          s.log_min = MIN (s.log_min, l);
          s.log_max = MAX (s.log_max, l);
          for (int c = 0; c < 3; c++)
            s.sum[c] += q[c];
          s.gray_sum += g;
          s.max_luminance = MAX (s.max_luminance, g);
        }
      rows[y] = s;
    }
  LmTmStats t = { 0.0, INFINITY, -INFINITY, { 0, 0, 0 }, 0.0, 0.0 };
  for (guint y = 0; y < img->height; y++)
    {
      t.log_sum += rows[y].log_sum;
      t.log_min = MIN (t.log_min, rows[y].log_min);
      t.log_max = MAX (t.log_max, rows[y].log_max);
      for (int c = 0; c < 3; c++)
        t.sum[c] += rows[y].sum[c];
      t.gray_sum += rows[y].gray_sum;
      t.max_luminance = MAX (t.max_luminance, rows[y].max_luminance);
    }
  g_free (rows);
  return t;
}

/* Reinhard or Drago on the stretched image, in place. */
static void
apply_operator (const LmTonemapParams *p, LmImage *img)
{
  double n = (double) img->width * img->height;
  LmTmStats s = stats_of (img);
  LmTmReinhard r = lm_tm_reinhard_setup (p->intensity, p->light_adapt, p->color_adapt, &s, n);
  LmTmDrago d = lm_tm_drago_setup (p->bias, p->saturation, &s, n);
  gboolean is_reinhard = p->kind == LM_TONEMAP_REINHARD;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      float *px = (float *) lm_image_row (img, y);
      for (guint x = 0; x < img->width; x++)
        {
          if (is_reinhard)
            lm_tm_reinhard (&r, px + 4 * x);
          else
            lm_tm_drago (&d, px + 4 * x);
        }
    }
}

/* The sigmoid needs nothing of the image as a whole: one pass, pixel by pixel. */
static void
sigmoid (const LmTonemapParams *p, const LmImage *radiance, LmImage *out)
{
  LmTmSigmoid s = lm_tm_sigmoid_setup (p->exposure, p->contrast, p->hue_preservation);
  gboolean wide = out->format == LM_FORMAT_RGBA16;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < radiance->height; y++)
    {
      const float *in = (const float *) lm_image_row (radiance, y);
      guint8 *o = lm_image_row (out, y);
      guint16 *o16 = (guint16 *) o;
      for (guint x = 0; x < radiance->width; x++)
        {
          float q[3] = { in[4 * x], in[4 * x + 1], in[4 * x + 2] };
          lm_tm_sigmoid (&s, q);
          for (int c = 0; c < 3; c++)
            {
              if (wide)
                o16[4 * x + c] = lm_tm_quantize16 (q[c]);
              else
                o[4 * x + c] = lm_tm_quantize (q[c]);
            }
          if (wide)
            o16[4 * x + 3] = 65535;
          else
            o[4 * x + 3] = 255;
        }
    }
  out->opaque = TRUE;
}

/* The sigmoid's parameters, where its range checks (the table's) were not applied: the
 * kernel refuses the same ones. */
static gboolean
check_sigmoid (const LmTonemapParams *p, GError **error)
{
  const char *why = NULL;
  if (!(p->contrast > 0.0f) || !isfinite (p->contrast))
    why = _("the contrast must be positive");
  else if (!isfinite (p->exposure))
    why = _("the exposure must be a number");
  else if (!(p->hue_preservation >= 0.0f && p->hue_preservation <= 1.0f))
    why = _("the hue preservation must be between 0 and 1");
  if (why != NULL)
    g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID, why);
  return why == NULL;
}

gboolean
lm_tonemap_cpu (const LmTonemapParams *p, const LmImage *radiance, LmImage *out, GError **error)
{
  g_return_val_if_fail (radiance->format == LM_FORMAT_RGBA_F32
                        && (out->format == LM_FORMAT_RGBA8 || out->format == LM_FORMAT_RGBA16), FALSE);
  if (!(p->gamma > 0.0f))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("the gamma must be positive"));
      return FALSE;
    }
  if (p->kind == LM_TONEMAP_SIGMOID)
    {
      if (!check_sigmoid (p, error))
        return FALSE;
      sigmoid (p, radiance, out);
      return TRUE;
    }
  GError *e = NULL;
  g_autoptr (LmImage) img = lm_image_new (LM_FORMAT_RGBA_F32, radiance->width, radiance->height,
                                          lm_allocator_host (), &e);
  if (img == NULL)
    {
      g_propagate_error (error, e);
      return FALSE;
    }
#pragma omp parallel for schedule(static)
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
      apply_operator (p, img);
      linear (img, p->gamma);
    }

  gboolean wide = out->format == LM_FORMAT_RGBA16;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < img->height; y++)
    {
      const float *q = (const float *) lm_image_row (img, y);
      guint8 *o = lm_image_row (out, y);
      guint16 *o16 = (guint16 *) o;
      for (guint x = 0; x < img->width; x++)
        {
          if (wide)
            {
              for (int c = 0; c < 3; c++)
                o16[4 * x + c] = lm_tm_quantize16 (q[4 * x + c]);
              o16[4 * x + 3] = 65535;
              continue;
            }
          for (int c = 0; c < 3; c++)
            o[4 * x + c] = lm_tm_quantize (q[4 * x + c]);
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
          p[4 * x + c] = lm_hdr_gamma_correct (p[4 * x + c], max, gamma);
    }
}
