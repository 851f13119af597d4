/* Source detection: parameters, the result, and the CPU reference of the whole pipeline, its
 * steps (core/astro/<step>.c) in order. Which backend runs it is decided above this folder
 * (lm_detect, core/render/astro-run.c). */
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "../error.h"
#include "../ops/blur-math.h"
#include "detect-private.h"

void
lm_detect_params_init (LmDetectParams *params)
{
  g_return_if_fail (params != NULL);
  *params = (LmDetectParams) {
    .kappa = 3.0,
    .max_iterations = 10,
    .threshold = 5.0,
    .min_area = 5,
    .connectivity = 4,
    .filter_sigma = 0.0,
    .mesh = 64,
    .mesh_filter = 3,
  };
}

gboolean
lm_detect_params_check (const LmDetectParams *params, GError **error)
{
  g_return_val_if_fail (params != NULL, FALSE);
  if (!(params->kappa > 0.0 && params->kappa <= 100.0))
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("κ must be above 0 and at most 100, not %g"), params->kappa);
  else if (params->max_iterations < 1 || params->max_iterations > 1000)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("The clipping passes must be between 1 and 1000, not %d"), params->max_iterations);
  else if (!(isfinite (params->threshold) && params->threshold >= 0.0))
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("The threshold must be a number of σ of at least 0, not %g"), params->threshold);
  else if (params->min_area < 1)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("The minimum area must be at least 1 pixel"));
  else if (params->connectivity != 4 && params->connectivity != 8)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("The connectivity must be 4 or 8, not %d"), params->connectivity);
  else if (!(params->filter_sigma >= 0.0 && params->filter_sigma <= LM_BLUR_SIGMA_MAX))
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("The filter’s σ must be between 0 and %g pixels"), (double) LM_BLUR_SIGMA_MAX);
  else if (params->mesh == 1 || params->mesh > 65535)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("The background mesh must be 0 (one background) or 2 to 65535 pixels, not %u"),
                 params->mesh);
  else if (params->mesh_filter < 1 || params->mesh_filter > 99)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("The mesh filter must be between 1 and 99 boxes, not %u"), params->mesh_filter);
  else
    return TRUE;
  return FALSE;
}

void
lm_detect_result_free (LmDetectResult *result)
{
  if (!result)
    return;
  g_free (result->background);
  g_free (result->noise);
  g_free (result->labels);
  g_free (result->sources);
  g_free (result);
}

static double
ms_since (gint64 *start)
{
  gint64 now = g_get_monotonic_time ();
  double ms = (double) (now - *start) / 1000.0;
  *start = now;
  return ms;
}

/* The image's rows packed (stride = width), borrowed when they already are. */
static const float *
packed_pixels (const LmImage *image, float **owned)
{
  gsize row = (gsize) image->width * sizeof (float);
  *owned = NULL;
  if (image->stride == row)
    return (const float *) image->data;
  float *pixels = g_try_malloc ((gsize) image->height * row);
  if (!pixels)
    return NULL;
  for (guint y = 0; y < image->height; y++)
    memcpy (pixels + (gsize) y * image->width, lm_image_row (image, y), row);
  *owned = pixels;
  return pixels;
}

static LmDetectResult *
detect_steps (const LmImage *image, const LmDetectParams *params, GCancellable *cancellable,
              GError **error)
{
  gint64 start = g_get_monotonic_time (), clock = start;
  guint width = image->width, height = image->height;
  gsize n = (gsize) width * height;
  g_autofree float *owned = NULL;
  const float *data = packed_pixels (image, &owned);
  g_autoptr (LmDetectResult) result = g_new0 (LmDetectResult, 1);
  result->width = width;
  result->height = height;
  result->background = g_try_new (float, n);
  result->noise = g_try_new (float, n);
  result->labels = g_try_new (guint32, n);
  g_autofree guint8 *mask = g_try_new (guint8, n);
  if (!data || !result->background || !result->noise || !result->labels || !mask)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                   _("Not enough memory to detect sources in a %u × %u image"), width, height);
      return NULL;
    }

  if (!lm_background_map (data, width, height, params, result->background, result->noise,
                          &result->global, error))
    return NULL;
  result->timings.background = ms_since (&clock);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  /* The matched filter runs inside lm_segment; its time is the segmentation's. */
  if (!lm_segment (data, result->background, result->noise, width, height, params->threshold,
                   params->filter_sigma, mask, error))
    return NULL;
  result->timings.segment = ms_since (&clock);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  guint n_labels = lm_label (mask, width, height, params->connectivity, result->labels);
  result->n_sources = lm_label_min_area (result->labels, width, height, n_labels, params->min_area);
  result->timings.label = ms_since (&clock);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  result->sources = g_new0 (LmSource, MAX (result->n_sources, 1));
  lm_measure (data, result->background, result->labels, width, height, result->n_sources,
              result->sources);
  result->timings.measure = ms_since (&clock);
  result->timings.total = (double) (g_get_monotonic_time () - start) / 1000.0;
  return g_steal_pointer (&result);
}

gboolean
lm_detect_check_input (const LmImage *image, const LmDetectParams *params, GError **error)
{
  g_return_val_if_fail (image && params, FALSE);
  if (!lm_detect_params_check (params, error))
    return FALSE;
  if (image->format != LM_FORMAT_GRAY_F32)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("Source detection needs a one-channel float image, not %s"),
                   lm_format_name (image->format));
      return FALSE;
    }
  if (image->width == 0 || image->height == 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("The image is empty"));
      return FALSE;
    }
  return TRUE;
}

LmDetectResult *
lm_detect_cpu (const LmImage *image, const LmDetectParams *params, GCancellable *cancellable,
               GError **error)
{
  if (!lm_detect_check_input (image, params, error))
    return NULL;
  return detect_steps (image, params, cancellable, error);
}
