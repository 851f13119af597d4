/* The display stretch (stretch.h): limits, the curve's table, the CPU map and the data
 * histogram. */
#include "stretch.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "../error.h"
#include "select.h"

/* astropy.visualization's defaults for the two curves with a parameter. */
#define LOG_A 1000.0
#define ASINH_A 0.1

void
lm_stretch_params_init (LmStretchParams *params)
{
  *params = (LmStretchParams) { .kind = LM_STRETCH_LINEAR, .limits = LM_LIMITS_PERCENTILE,
                                .low_percent = 0.5, .high_percent = 99.5 };
}

const char *
lm_stretch_kind_name (LmStretchKind kind)
{
  static const char *const names[] = { "linear", "sqrt", "log", "asinh" };
  return (unsigned) kind < G_N_ELEMENTS (names) ? names[kind] : NULL;
}

/* ---- percentiles --------------------------------------------------------------------------- */

/* The K-th smallest of V (reordered). */
static float
select_kth (float *v, gsize n, gsize k)
{
  lm_select_kth (v, n, k);
  return v[k];
}

/* The smallest value of V[FROM … N). */
static float
min_from (const float *v, gsize from, gsize n)
{
  float m = v[from];
  for (gsize i = from + 1; i < n; i++)
    m = v[i] < m ? v[i] : m;
  return m;
}

/* numpy.percentile's linear rule on V (finite, N of them; reordered). */
static double
percentile_of (float *v, gsize n, double p)
{
  double rank = p / 100.0 * (double) (n - 1);
  gsize k = (gsize) floor (rank);
  if (k >= n - 1)
    return select_kth (v, n, n - 1);
  double below = select_kth (v, n, k);
  double above = min_from (v, k + 1, n); /* the next rank: the least of what lies above */
  return below + (above - below) * (rank - (double) k);
}

static float *
finite_copy (const float *data, gsize n, gsize *count)
{
  float *v = g_new (float, MAX (n, 1));
  gsize m = 0;
  for (gsize i = 0; i < n; i++)
    if (isfinite (data[i]))
      v[m++] = data[i];
  *count = m;
  return v;
}

gboolean
lm_percentiles (const float *data, gsize n, double p_low, double p_high, double *low, double *high)
{
  gsize m;
  g_autofree float *v = finite_copy (data, n, &m);
  if (m == 0)
    return FALSE;
  *low = percentile_of (v, m, CLAMP (p_low, 0.0, 100.0));
  *high = percentile_of (v, m, CLAMP (p_high, 0.0, 100.0));
  return TRUE;
}

gboolean
lm_percentile (const float *data, gsize n, double p, double *value)
{
  double unused;
  return lm_percentiles (data, n, p, p, value, &unused);
}

/* ---- limits, table, map -------------------------------------------------------------------- */

/* The image's values packed (rows may be padded). */
static const float *
packed_values (const LmImage *image, float **copy)
{
  gsize row = (gsize) image->width * sizeof (float);
  *copy = NULL;
  if (image->stride == row)
    return (const float *) image->data;
  *copy = g_new (float, (gsize) image->width * image->height);
  for (guint y = 0; y < image->height; y++)
    memcpy (*copy + (gsize) y * image->width, lm_image_row (image, y), row);
  return *copy;
}

gboolean
lm_stretch_limits (const LmImage *image, const LmStretchParams *params, double *low, double *high,
                   GError **error)
{
  g_return_val_if_fail (image->format == LM_FORMAT_GRAY_F32, FALSE);
  g_autofree float *copy = NULL;
  const float *values = packed_values (image, &copy);
  gsize n = (gsize) image->width * image->height;
  gboolean ok = params->limits == LM_LIMITS_ZSCALE
                  ? lm_zscale (values, n, low, high)
                  : lm_percentiles (values, n, MIN (params->low_percent, params->high_percent),
                                    MAX (params->low_percent, params->high_percent), low, high);
  if (!ok)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("every pixel is blank (NaN, infinite or BLANK): there is no value to show"));
      return FALSE;
    }
  if (!(*high > *low))
    {
      /* A flat image: its value in the middle of a range of one unit. */
      *low -= 0.5;
      *high = *low + 1.0;
    }
  return TRUE;
}

void
lm_stretch_table (LmStretchKind kind, guint8 *table)
{
  for (guint i = 0; i < LM_STRETCH_LEVELS; i++)
    {
      double x = (double) i / (double) (LM_STRETCH_LEVELS - 1u);
      double y;
      switch (kind)
        {
        case LM_STRETCH_SQRT:
          y = sqrt (x);
          break;
        case LM_STRETCH_LOG:
          y = log (LOG_A * x + 1.0) / log (LOG_A + 1.0);
          break;
        case LM_STRETCH_ASINH:
          y = asinh (x / ASINH_A) / asinh (1.0 / ASINH_A);
          break;
        case LM_STRETCH_LINEAR:
        default:
          y = x;
          break;
        }
      table[i] = (guint8) CLAMP (floor (y * 255.0 + 0.5), 0.0, 255.0);
    }
}

float
lm_stretch_inv_range (double low, double high)
{
  return (float) (1.0 / (high - low));
}

gboolean
lm_stretch_cpu (const LmImage *image, double low, double high, const guint8 *table, gboolean flip,
                LmImage *out, GError **error)
{
  g_return_val_if_fail (image->format == LM_FORMAT_GRAY_F32 && out->format == LM_FORMAT_RGBA8, FALSE);
  g_return_val_if_fail (image->width == out->width && image->height == out->height, FALSE);
  float lo = (float) low, inv = lm_stretch_inv_range (low, high);
  guint w = image->width, h = image->height;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < h; y++)
    {
      const float *in = (const float *) lm_image_row (image, y);
      guint32 *o = (guint32 *) lm_image_row (out, flip ? h - 1 - y : y);
      for (guint x = 0; x < w; x++)
        {
          guint32 g = table[lm_stretch_level (in[x], lo, inv)];
          o[x] = GUINT32_TO_LE (g | g << 8 | g << 16 | 0xFF000000u); /* R, G, B, A in memory */
        }
    }
  out->opaque = TRUE;
  return TRUE;
}

void
lm_stretch_histogram (const LmImage *image, double low, double high, LmHistogram *hist)
{
  memset (hist, 0, sizeof *hist);
  double scale = LM_HIST_BINS / (high - low);
  guint32 *bins = hist->bins[LM_HIST_LUMA];
  for (guint y = 0; y < image->height; y++)
    {
      const float *in = (const float *) lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++)
        {
          if (!isfinite (in[x]))
            continue;
          double b = floor ((in[x] - low) * scale);
          bins[(int) CLAMP (b, 0.0, LM_HIST_BINS - 1.0)]++;
          hist->total++;
        }
    }
  for (int c = 0; c < LM_HIST_LUMA; c++)
    memcpy (hist->bins[c], bins, sizeof hist->bins[c]);
}
