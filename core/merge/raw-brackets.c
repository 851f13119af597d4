/* Raw brackets merged in linear light (raw-brackets.h), on the CPU: the saturation of each
 * frame read from its sensor data, and the weighted sums of raw-merge-math.h. */
#include "raw-brackets.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../color/rec2020.h"
#include "../error.h"
#include "../hdr/stack.h"
#include "../ops/raw-prep-math.h"
#include "../raw/camera-color.h"
#include "raw-merge-math.h"

guint
lm_raw_brackets_reference (const double *times, guint n)
{
  g_return_val_if_fail (n > 0, 0);
  /* The index whose time has (n - 1) / 2 times below it: no sort, n is small. */
  for (guint i = 0; i < n; i++)
    {
      guint below = 0;
      for (guint j = 0; j < n; j++)
        below += times[j] < times[i];
      if (below == (n - 1) / 2)
        return i;
    }
  return 0;
}

void
lm_raw_brackets_params (const LmRawInfo *reference, LmRawParams *params)
{
  lm_op_params_init (lm_raw_op_info (), params);
  float mul[4];
  lm_raw_wb_multipliers (reference, LM_RAW_WB_AS_SHOT, 0.0, 0.0, NULL, mul);
  params->wb = LM_RAW_WB_CUSTOM;
  params->red = mul[0];
  params->blue = mul[2];
  params->highlights = LM_RAW_HIGHLIGHTS_CLIP;
  params->demosaic = LM_RAW_DEMOSAIC_AUTO;
  params->exposure = 0.0f;
}

/* "make model" of INFO, or NULL where neither is known. */
static char *
camera_name (const LmRawInfo *info)
{
  if (info->make == NULL && info->model == NULL)
    return NULL;
  return g_strstrip (g_strdup_printf ("%s %s", info->make ? info->make : "", info->model ? info->model : ""));
}

gboolean
lm_raw_brackets_check_camera (const char *path, const LmRawInfo *info, const char *first_path,
                              const LmRawInfo *first_info, GError **error)
{
  g_autofree char *name = camera_name (info), *first_name = camera_name (first_info);
  gboolean same = g_strcmp0 (name, first_name) == 0 && info->layout == first_info->layout
                  && info->cfa_w == first_info->cfa_w && info->cfa_h == first_info->cfa_h
                  && memcmp (info->cfa, first_info->cfa, sizeof info->cfa) == 0;
  if (same)
    return TRUE;
  g_autofree char *b = g_filename_display_name (path);
  g_autofree char *a = g_filename_display_name (first_path);
  if (name && first_name && g_strcmp0 (name, first_name) != 0)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s is from a %s but %s from a %s: a raw bracket must come from one camera"), b, name, a,
                 first_name);
  else if (g_strcmp0 (name, first_name) != 0)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s and %s do not name the same camera: a raw bracket must come from one camera"), b, a);
  else
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s has another sensor layout than %s: a raw bracket must come from one camera"), b, a);
  return FALSE;
}

/* ---- Saturation ---- */

/* How far from a pixel a clipped site can reach its demosaiced value: RCD's directional
 * gradients read four sites out (a merge of exact brackets still shows a clipped neighbour at
 * three), Markesteijn's X-Trans interpolation with its homogeneity pass one pattern period. */
static int
demosaic_reach (LmRawLayout layout)
{
  switch (layout)
    {
    case LM_RAW_BAYER:
      return 4;
    case LM_RAW_XTRANS:
      return 6;
    default:
      return 0; /* demosaiced in the camera, or no colour filter: the pixel alone */
    }
}

/* Each pixel's own saturation into SAT. */
static void
own_saturation (const LmRawPrep *p, const LmImage *raw, float *sat)
{
  int w = raw->width, h = raw->height;
  /* The prep limits every balanced value to CLIP with highlights=clip (its least multiplier);
   * a gray sensor's to green's multiplier. */
  float clip = raw->format == LM_FORMAT_GRAY16 ? p->mul[LM_CFA_G] : p->clip;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const guint16 *row = (const guint16 *) lm_image_row (raw, y);
      float *out = sat + (gsize) y * w;
      for (int x = 0; x < w; x++)
        {
          float b = lm_raw_black (p, x, y);
          float s;
          if (raw->format == LM_FORMAT_CFA16)
            s = lm_raw_scale (p, row[x], lm_cfa_site (&p->cfa, x, y), b);
          else if (raw->format == LM_FORMAT_GRAY16)
            s = lm_raw_scale (p, row[x], LM_CFA_G, b);
          else
            {
              s = lm_raw_scale (p, row[4 * x], 0, b);
              for (int c = 1; c < 3; c++)
                {
                  float v = lm_raw_scale (p, row[4 * x + c], c, b);
                  s = v > s ? v : s;
                }
            }
          out[x] = s / clip;
        }
    }
}

/* SAT replaced by its largest value within R of each pixel (R × R square), TMP as large. */
static void
max_filter (float *sat, float *tmp, int w, int h, int r)
{
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const float *in = sat + (gsize) y * w;
      float *out = tmp + (gsize) y * w;
      for (int x = 0; x < w; x++)
        {
          float m = in[x];
          for (int i = MAX (x - r, 0); i <= MIN (x + r, w - 1); i++)
            m = in[i] > m ? in[i] : m;
          out[x] = m;
        }
    }
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      float *out = sat + (gsize) y * w;
      for (int x = 0; x < w; x++)
        {
          float m = tmp[(gsize) y * w + x];
          for (int j = MAX (y - r, 0); j <= MIN (y + r, h - 1); j++)
            {
              float v = tmp[(gsize) j * w + x];
              m = v > m ? v : m;
            }
          out[x] = m;
        }
    }
}

gboolean
lm_raw_merge_saturation (const LmRawParams *params, const LmImage *raw, float *sat, GError **error)
{
  g_return_val_if_fail (lm_image_is_raw (raw), FALSE);
  if (raw->format != LM_FORMAT_CFA16 && raw->format != LM_FORMAT_GRAY16 && raw->format != LM_FORMAT_RGBA16)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("the raw development cannot read %s data"),
                   lm_format_name (raw->format));
      return FALSE;
    }
  LmRawSetup setup;
  lm_raw_setup (params, raw->raw, &setup);
  own_saturation (&setup.prep, raw, sat);
  int r = demosaic_reach (raw->raw->layout);
  if (r == 0)
    return TRUE;
  g_autofree float *tmp = g_try_malloc_n ((gsize) raw->width * raw->height, sizeof (float));
  if (tmp == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to merge the raw exposures"));
      return FALSE;
    }
  max_filter (sat, tmp, (int) raw->width, (int) raw->height, r);
  return TRUE;
}

/* ---- The merge ---- */

struct _LmRawMerge {
  guint width, height, n;
  double times[LM_HDR_MAX_EXPOSURES];
  guint reference, shortest, longest;
  LmImage *sums;     /* Σ w·v·t_ref/t in R, G, B; Σ w in alpha */
  LmImage *fallback; /* where Σ w is 0: the shortest frame's value, or the longest's where that
                      * one is dark (alpha 1 marks those) */
  float *sat;
};

LmRawMerge *
lm_raw_merge_new (guint width, guint height, const double *times, guint n, guint reference, GError **error)
{
  g_return_val_if_fail (n >= 1 && n <= LM_HDR_MAX_EXPOSURES && reference < n, NULL);
  g_autoptr (LmRawMerge) m = g_new0 (LmRawMerge, 1);
  m->width = width, m->height = height, m->n = n, m->reference = reference;
  memcpy (m->times, times, n * sizeof (double));
  for (guint i = 1; i < n; i++)
    {
      if (times[i] < times[m->shortest])
        m->shortest = i;
      if (times[i] > times[m->longest])
        m->longest = i;
    }
  m->sums = lm_image_new (LM_FORMAT_RGBA_F32, width, height, lm_allocator_host (), error);
  m->fallback = m->sums ? lm_image_new (LM_FORMAT_RGBA_F32, width, height, lm_allocator_host (), error) : NULL;
  if (m->fallback == NULL)
    return NULL;
  m->sat = g_try_malloc_n ((gsize) width * height, sizeof (float));
  if (m->sat == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to merge the raw exposures"));
      return NULL;
    }
  for (guint y = 0; y < height; y++)
    {
      memset (lm_image_row (m->sums, y), 0, (gsize) width * 4 * sizeof (float));
      memset (lm_image_row (m->fallback, y), 0, (gsize) width * 4 * sizeof (float));
    }
  return g_steal_pointer (&m);
}

void
lm_raw_merge_free (LmRawMerge *merge)
{
  if (merge == NULL)
    return;
  g_clear_pointer (&merge->sums, lm_image_unref);
  g_clear_pointer (&merge->fallback, lm_image_unref);
  g_free (merge->sat);
  g_free (merge);
}

gboolean
lm_raw_merge_add (LmRawMerge *m, guint i, const LmRawParams *params, const LmImage *raw, const LmImage *scene,
                  GError **error)
{
  g_return_val_if_fail (i < m->n && m->sums != NULL, FALSE);
  g_return_val_if_fail (raw->width == m->width && raw->height == m->height, FALSE);
  g_return_val_if_fail (scene->format == LM_FORMAT_RGBA_F32 && scene->width == m->width
                          && scene->height == m->height,
                        FALSE);
  if (!lm_raw_merge_saturation (params, raw, m->sat, error))
    return FALSE;
  /* In single precision, computed once: what the frame's values are multiplied by (to the
   * reference's scale) and its weights' factor (its time over the reference's). */
  float scale = (float) (m->times[m->reference] / m->times[i]);
  float factor = (float) (m->times[i] / m->times[m->reference]);
  gboolean shortest = i == m->shortest, longest = i == m->longest;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < m->height; y++)
    {
      const float *v = (const float *) lm_image_row (scene, y);
      const float *s = m->sat + (gsize) y * m->width;
      float *sum = (float *) lm_image_row (m->sums, y);
      float *fb = (float *) lm_image_row (m->fallback, y);
      for (guint x = 0; x < m->width; x++)
        {
          float w = factor * lm_raw_merge_hat (s[x]);
          for (int c = 0; c < 3; c++)
            sum[4 * x + c] += w * (v[4 * x + c] * scale);
          sum[4 * x + 3] += w;
          gboolean dark_longest = longest && lm_raw_merge_dark (s[x]);
          if (dark_longest || (shortest && fb[4 * x + 3] == 0.0f))
            {
              for (int c = 0; c < 3; c++)
                fb[4 * x + c] = v[4 * x + c] * scale;
              fb[4 * x + 3] = dark_longest ? 1.0f : 0.0f;
            }
        }
    }
  return TRUE;
}

LmImage *
lm_raw_merge_finish (LmRawMerge *m)
{
  g_return_val_if_fail (m->sums != NULL, NULL);
  LmImage *out = g_steal_pointer (&m->sums);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < m->height; y++)
    {
      float *o = (float *) lm_image_row (out, y);
      const float *fb = (const float *) lm_image_row (m->fallback, y);
      for (guint x = 0; x < m->width; x++)
        {
          float den = o[4 * x + 3];
          for (int c = 0; c < 3; c++)
            o[4 * x + c] = den > 0.0f ? o[4 * x + c] / den : fb[4 * x + c];
          o[4 * x + 3] = 1.0f;
        }
    }
  out->opaque = TRUE;
  g_clear_pointer (&out->icc_profile, g_bytes_unref);
  out->icc_profile = lm_color_rec2020_linear_icc ();
  return out;
}
