/* Black, white, white balance and highlights on the CPU, one row a task: the per-site
 * arithmetic is raw-prep-math.h's, the pre-pass of RECONSTRUCT sums in integers, so the
 * result does not depend on the threads. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "core/error.h"
#include "prep.h"

G_STATIC_ASSERT (LM_RAW_PREP_BLACK_MAX == LM_RAW_BLACK_MAX);

static float
usable_mul (float m)
{
  return isfinite (m) && m > 0.0f ? m : 1.0f;
}

void
lm_raw_prep_init (LmRawPrep *prep, const LmRawInfo *info, const float mul[4], LmRawHighlights highlights)
{
  memset (prep, 0, sizeof *prep);
  prep->cfa.w = CLAMP (info->cfa_w, 1, 6);
  prep->cfa.h = CLAMP (info->cfa_h, 1, 6);
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < 6; x++)
      prep->cfa.color[y][x] = MIN (info->cfa[y][x], 3);

  prep->black_w = CLAMP (info->black_w, 1, LM_RAW_PREP_BLACK_MAX);
  prep->black_h = CLAMP (info->black_h, 1, LM_RAW_PREP_BLACK_MAX);
  float black_max = 0.0f;
  for (int y = 0; y < prep->black_h; y++)
    for (int x = 0; x < prep->black_w; x++)
      {
        float b = info->black[y][x];
        prep->black[y][x] = isfinite (b) ? CLAMP (b, 0.0f, 65535.0f) : 0.0f;
        black_max = MAX (black_max, prep->black[y][x]);
      }
  for (int c = 0; c < 4; c++)
    {
      float w = info->white[c];
      prep->white[c] = isfinite (w) && w > black_max ? w : (black_max < 65535.0f ? 65535.0f : 65536.0f);
      prep->mul[c] = usable_mul (mul[c]);
    }
  if (!(mul[3] > 0.0f))
    prep->mul[3] = prep->mul[1];
  prep->highlights = highlights == LM_RAW_HIGHLIGHTS_RECONSTRUCT ? LM_RAW_HIGHLIGHTS_RECONSTRUCT
                                                                 : LM_RAW_HIGHLIGHTS_CLIP;

  /* The clip levels of the colours the data holds: a Bayer array's four, X-Trans's three,
   * camera RGB's three, a monochrome sensor's one (read as green). */
  gboolean present[4] = { FALSE };
  if (info->layout == LM_RAW_LINEAR)
    present[0] = present[1] = present[2] = TRUE;
  else if (info->layout == LM_RAW_MONO)
    present[1] = TRUE;
  else
    for (int y = 0; y < prep->cfa.h; y++)
      for (int x = 0; x < prep->cfa.w; x++)
        present[prep->cfa.color[y][x]] = TRUE;
  prep->clip = INFINITY, prep->clip_max = 0.0f;
  for (int c = 0; c < 4; c++)
    if (present[c])
      prep->clip = MIN (prep->clip, prep->mul[c]), prep->clip_max = MAX (prep->clip_max, prep->mul[c]);
}

static gboolean
check_source (const LmImage *src, LmFormat want, LmFormat or_want, GError **error)
{
  if (src->format == want || src->format == or_want)
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("the raw development cannot read %s data"),
               lm_format_name (src->format));
  return FALSE;
}

/* RECONSTRUCT's pre-pass: the ratios of the colours at the edges of clipped areas. */
static void
ratio_sums (const LmRawPrep *prep, const LmImage *cfa16, LmRawRatioSums *sums)
{
  const unsigned char *data = cfa16->data;
  int w = cfa16->width, h = cfa16->height;
  long long sum[3] = { 0 }, count[3] = { 0 };
#pragma omp parallel for schedule(static) reduction(+ : sum[:3], count[:3])
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        int c;
        long long term;
        if (lm_raw_ratio_term (prep, data, cfa16->stride, w, h, x, y, &c, &term))
          sum[c] += term, count[c]++;
      }
  for (int c = 0; c < 3; c++)
    sums->sum[c] = sum[c], sums->count[c] = count[c];
}

gboolean
lm_raw_prep_cpu (const LmRawPrep *prep, const LmImage *cfa16, float *plane, GError **error)
{
  if (!check_source (cfa16, LM_FORMAT_CFA16, LM_FORMAT_CFA16, error))
    return FALSE;
  float ratio[3] = { 1.0f, 1.0f, 1.0f };
  if (prep->highlights == LM_RAW_HIGHLIGHTS_RECONSTRUCT)
    {
      LmRawRatioSums sums;
      ratio_sums (prep, cfa16, &sums);
      for (int c = 0; c < 3; c++)
        ratio[c] = lm_raw_ratio (&sums, c);
    }
  const unsigned char *data = cfa16->data;
  int w = cfa16->width, h = cfa16->height;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      float *out = plane + (size_t) y * w;
      for (int x = 0; x < w; x++)
        out[x] = lm_raw_prep_site (prep, data, cfa16->stride, w, h, x, y, ratio);
    }
  return TRUE;
}

gboolean
lm_raw_prep_linear_cpu (const LmRawPrep *prep, const LmImage *src, float *rgba, size_t rgba_stride, GError **error)
{
  if (!check_source (src, LM_FORMAT_RGBA16, LM_FORMAT_GRAY16, error))
    return FALSE;
  int n = src->format == LM_FORMAT_GRAY16 ? 1 : 3, step = n == 1 ? 1 : 4;
  int w = src->width, h = src->height;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const guint16 *in = (const guint16 *) (src->data + (size_t) y * src->stride);
      float *out = rgba + (size_t) y * rgba_stride;
      for (int x = 0; x < w; x++)
        {
          float v[3] = { in[(size_t) x * step], 0.0f, 0.0f };
          if (n == 3)
            v[1] = in[(size_t) x * step + 1], v[2] = in[(size_t) x * step + 2];
          lm_raw_prep_pixel (prep, v, n, lm_raw_black (prep, x, y), out + (size_t) 4 * x);
          out[(size_t) 4 * x + 3] = 1.0f;
        }
    }
  return TRUE;
}
