/* Noise reduction, CPU reference (denoise-math.h): whole planes of floats, each pass over rows
 * in parallel (OpenMP), every sum in the order the CUDA kernels use, so the bytes are theirs.
 * Its buffers (eight planes, the threads' histograms) stay from one run to the next
 * (run_cpu_kept), so that moving a slider allocates nothing. */
#include <omp.h>
#include <string.h>
#include <glib/gi18n.h>

#include "denoise.h"
#include "ops.h"
#include "../error.h"

#define LM_PARAM_STRUCT LmDenoiseParams
static const LmParamSpec denoise_params[] = { LM_DENOISE_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* The planes: Y, U, V (or gray), two levels in turn, the row pass's output, the sum of shrunk
 * details, and the band's squares (the estimate's fourth coarse plane). */
enum { P_Y, P_U, P_V, P_A, P_B, P_T, P_ACC, P_X, N_PLANES };

typedef struct {
  float *planes;
  gsize plane_floats;
  guint32 *hists; /* one joint histogram per thread */
  int n_hists;
} DenoiseScratch;

static void
scratch_clear (DenoiseScratch *s)
{
  g_clear_pointer (&s->planes, g_free);
  g_clear_pointer (&s->hists, g_free);
  s->plane_floats = 0;
  s->n_hists = 0;
}

static gboolean
scratch_reserve (DenoiseScratch *s, gsize floats, gboolean hists, GError **error)
{
  if (s->plane_floats < floats)
    {
      g_clear_pointer (&s->planes, g_free);
      s->plane_floats = 0;
      if (floats > G_MAXSIZE / sizeof (float) / N_PLANES
          || (s->planes = g_try_malloc (floats * sizeof (float) * N_PLANES)) == NULL)
        goto fail;
      s->plane_floats = floats;
    }
  int threads = omp_get_max_threads ();
  if (hists && s->n_hists < threads)
    {
      g_clear_pointer (&s->hists, g_free);
      s->n_hists = 0;
      if ((s->hists = g_try_malloc ((gsize) threads * LM_DENOISE_HIST_SIZE * sizeof (guint32))) == NULL)
        goto fail;
      s->n_hists = threads;
    }
  return TRUE;
fail:
  g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to reduce noise"));
  return FALSE;
}

static float *
plane (const DenoiseScratch *s, int i)
{
  return s->planes + (gsize) i * s->plane_floats;
}

static LmFormat
denoise_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static gboolean
format_supported (LmFormat f)
{
  return f == LM_FORMAT_RGBA8 || f == LM_FORMAT_RGBA16 || f == LM_FORMAT_RGBA_F32 || f == LM_FORMAT_GRAY8
         || f == LM_FORMAT_GRAY16;
}

/* SRC's pixels as Y, U, V planes (one gray plane for gray formats), on the 0..255 scale. */
static void
load_planes (const LmImage *src, float *const p[3])
{
  int w = (int) src->width, h = (int) src->height;
  LmFormat f = src->format;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const guint8 *row = lm_image_row (src, (guint) y);
      gsize o = (gsize) y * w;
      for (int x = 0; x < w; x++)
        {
          float r, g, b;
          if (f == LM_FORMAT_GRAY8)
            {
              p[0][o + x] = row[x];
              continue;
            }
          if (f == LM_FORMAT_GRAY16)
            {
              p[0][o + x] = lm_u16_value (((const guint16 *) row)[x]);
              continue;
            }
          if (f == LM_FORMAT_RGBA8)
            r = row[4 * x], g = row[4 * x + 1], b = row[4 * x + 2];
          else if (f == LM_FORMAT_RGBA16)
            {
              const guint16 *q = (const guint16 *) row + 4 * x;
              r = lm_u16_value (q[0]), g = lm_u16_value (q[1]), b = lm_u16_value (q[2]);
            }
          else
            {
              const float *q = (const float *) row + 4 * x;
              r = lm_denoise_scene_in (q[0]), g = lm_denoise_scene_in (q[1]), b = lm_denoise_scene_in (q[2]);
            }
          lm_denoise_to_yuv (r, g, b, &p[0][o + x], &p[1][o + x], &p[2][o + x]);
        }
    }
}

/* The planes back into DST in its format; alpha from SRC as it is. */
static void
store_planes (const LmImage *src, float *const p[3], LmImage *dst)
{
  int w = (int) src->width, h = (int) src->height;
  LmFormat f = src->format;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const guint8 *in = lm_image_row (src, (guint) y);
      guint8 *out = lm_image_row (dst, (guint) y);
      gsize o = (gsize) y * w;
      for (int x = 0; x < w; x++)
        {
          if (f == LM_FORMAT_GRAY8)
            {
              out[x] = lm_quantize_u8 (p[0][o + x]);
              continue;
            }
          if (f == LM_FORMAT_GRAY16)
            {
              ((guint16 *) out)[x] = lm_quantize_u16 (p[0][o + x]);
              continue;
            }
          float c[3];
          lm_denoise_to_rgb (p[0][o + x], p[1][o + x], p[2][o + x], &c[0], &c[1], &c[2]);
          if (f == LM_FORMAT_RGBA8)
            {
              for (int k = 0; k < 3; k++)
                out[4 * x + k] = lm_quantize_u8 (c[k]);
              out[4 * x + 3] = in[4 * x + 3];
            }
          else if (f == LM_FORMAT_RGBA16)
            {
              guint16 *q = (guint16 *) out + 4 * x;
              for (int k = 0; k < 3; k++)
                q[k] = lm_quantize_u16 (c[k]);
              q[3] = ((const guint16 *) in)[4 * x + 3];
            }
          else
            {
              float *q = (float *) out + 4 * x;
              for (int k = 0; k < 3; k++)
                q[k] = lm_denoise_scene_out (c[k]);
              q[3] = ((const float *) in)[4 * x + 3];
            }
        }
    }
}

/* OUT = IN's rows filtered by the B3 spline with taps S apart (reflect-101). */
static void
rows_b3 (const float *in, float *out, int w, int h, int s)
{
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const float *r = in + (gsize) y * w;
      float *o = out + (gsize) y * w;
      int lo = MIN (2 * s, w), hi = MAX (w - 2 * s, lo);
      for (int x = 0; x < lo; x++)
        o[x] = lm_denoise_b3 (r[lm_reflect101 (x - 2 * s, w)], r[lm_reflect101 (x - s, w)], r[x],
                              r[lm_reflect101 (x + s, w)], r[lm_reflect101 (x + 2 * s, w)]);
      for (int x = lo; x < hi; x++)
        o[x] = lm_denoise_b3 (r[x - 2 * s], r[x - s], r[x], r[x + s], r[x + 2 * s]);
      for (int x = hi; x < w; x++)
        o[x] = lm_denoise_b3 (r[lm_reflect101 (x - 2 * s, w)], r[lm_reflect101 (x - s, w)], r[x],
                              r[lm_reflect101 (x + s, w)], r[lm_reflect101 (x + 2 * s, w)]);
    }
}

/* The same down the columns. */
static void
cols_b3 (const float *in, float *out, int w, int h, int s)
{
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const float *a = in + (gsize) lm_reflect101 (y - 2 * s, h) * w, *b = in + (gsize) lm_reflect101 (y - s, h) * w;
      const float *c = in + (gsize) y * w;
      const float *d = in + (gsize) lm_reflect101 (y + s, h) * w, *e = in + (gsize) lm_reflect101 (y + 2 * s, h) * w;
      float *o = out + (gsize) y * w;
      for (int x = 0; x < w; x++)
        o[x] = lm_denoise_b3 (a[x], b[x], c[x], d[x], e[x]);
    }
}

/* OUT = the sums of IN's rows over 2R + 1 neighbours, left to right (reflect-101). */
static void
rows_box (const float *in, float *out, int w, int h, int r)
{
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const float *row = in + (gsize) y * w;
      float *o = out + (gsize) y * w;
      for (int x = 0; x < w; x++)
        {
          float s;
          if (x >= r && x + r < w)
            {
              s = row[x - r];
              for (int k = -r + 1; k <= r; k++)
                s = s + row[x + k];
            }
          else
            {
              s = row[lm_reflect101 (x - r, w)];
              for (int k = -r + 1; k <= r; k++)
                s = s + row[lm_reflect101 (x + k, w)];
            }
          o[x] = s;
        }
    }
}

/* The sum over 2R + 1 rows of IN around row Y, top to bottom, for each column, into OUT. */
static void
column_box_row (const float *in, int w, int h, int y, int r, float *out)
{
  const float *rows[2 * LM_DENOISE_EST_BOX + 1];
  for (int k = -r; k <= r; k++)
    rows[k + r] = in + (gsize) lm_reflect101 (y + k, h) * w;
  for (int x = 0; x < w; x++)
    {
      float s = rows[0][x];
      for (int k = 1; k <= 2 * r; k++)
        s = s + rows[k][x];
      out[x] = s;
    }
}

/* One channel's shrink: C0 (the channel, replaced by its result) through the levels, with
 * the band thresholds S2 and the detail floor D. */
static void
shrink_channel (const DenoiseScratch *sc, float *c0, int w, int h, const float s2[LM_DENOISE_LEVELS], float d)
{
  gsize n = (gsize) w * h;
  float *a = plane (sc, P_A), *b = plane (sc, P_B), *t = plane (sc, P_T), *acc = plane (sc, P_ACC);
  float *sq = plane (sc, P_X);
  float *cur = c0, *nxt = a;
  for (int j = 0; j < LM_DENOISE_LEVELS; j++)
    {
      rows_b3 (cur, t, w, h, 1 << j);
      cols_b3 (t, nxt, w, h, 1 << j);
#pragma omp parallel for schedule(static)
      for (gsize i = 0; i < n; i++)
        {
          float wv = cur[i] - nxt[i];
          sq[i] = wv * wv;
        }
      rows_box (sq, t, w, h, 3);
      float thr = s2[j];
#pragma omp parallel
      {
        float *e = g_new (float, w);
#pragma omp for schedule(static)
        for (int y = 0; y < h; y++)
          {
            column_box_row (t, w, h, y, 3, e);
            gsize o = (gsize) y * w;
            for (int x = 0; x < w; x++)
              {
                float wv = cur[o + x] - nxt[o + x];
                float g = lm_denoise_gain (e[x] / 49.0f, thr, d);
                acc[o + x] = j == 0 ? g * wv : acc[o + x] + g * wv;
              }
          }
        g_free (e);
      }
      cur = nxt;
      nxt = nxt == a ? b : a;
    }
#pragma omp parallel for schedule(static)
  for (gsize i = 0; i < n; i++)
    c0[i] = cur[i] + acc[i];
}

/* The estimate's counts of the pixels in OWN of the planes P (N_CH of them: 1 gray, 3 Y U V),
 * W × H, into HIST (zeroed first). */
static void
count_planes (const DenoiseScratch *sc, float *const p[3], int n_ch, int w, int h, const LmRect *own, guint32 *hist)
{
  float *c1 = plane (sc, P_A), *c2[3] = { plane (sc, P_B), plane (sc, P_ACC), plane (sc, P_X) };
  float *t = plane (sc, P_T);
  for (int ch = 0; ch < n_ch; ch++)
    {
      float *first = ch == 0 ? c1 : c2[ch];
      rows_b3 (p[ch], t, w, h, 1);
      cols_b3 (t, first, w, h, 1);
      rows_b3 (first, t, w, h, 2);
      cols_b3 (t, c2[ch], w, h, 2);
    }
  /* T: the rows' sums of (c₁ − c₂)² of Y over the 9×9 window */
  int r = LM_DENOISE_EST_BOX;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      const float *a = c1 + (gsize) y * w, *b = c2[0] + (gsize) y * w;
      float *o = t + (gsize) y * w;
      for (int x = 0; x < w; x++)
        {
          float s = 0.0f;
          for (int k = -r; k <= r; k++)
            {
              int i = lm_reflect101 (x + k, w);
              float dv = a[i] - b[i];
              s = k == -r ? dv * dv : s + dv * dv;
            }
          o[x] = s;
        }
    }
  int threads = sc->n_hists;
  memset (sc->hists, 0, (gsize) threads * LM_DENOISE_HIST_SIZE * sizeof (guint32));
#pragma omp parallel num_threads (threads)
  {
    guint32 *mine = sc->hists + (gsize) omp_get_thread_num () * LM_DENOISE_HIST_SIZE;
    float *e = g_new (float, w);
#pragma omp for schedule(static)
    for (int y = (int) own->y; y < (int) (own->y + own->height); y++)
      {
        column_box_row (t, w, h, y, r, e);
        gsize o = (gsize) y * w;
        for (int x = (int) own->x; x < (int) (own->x + own->width); x++)
          {
            float cr, cg, cb;
            if (n_ch == 1)
              cr = cg = cb = c2[0][o + x];
            else
              lm_denoise_to_rgb (c2[0][o + x], c2[1][o + x], c2[2][o + x], &cr, &cg, &cb);
            if (!lm_denoise_counts (cr, cg, cb))
              continue;
            int eb = lm_denoise_e_bin (e[x] / 81.0f), wb = lm_denoise_w_bin (p[0][o + x] - c1[o + x]);
            mine[(gsize) eb * LM_DENOISE_W_BINS + wb]++;
          }
      }
    g_free (e);
  }
#pragma omp parallel for schedule(static)
  for (gsize i = 0; i < LM_DENOISE_HIST_SIZE; i++)
    {
      guint32 s = 0;
      for (int k = 0; k < threads; k++)
        s += sc->hists[(gsize) k * LM_DENOISE_HIST_SIZE + i];
      hist[i] = s;
    }
}

double
lm_denoise_sigma_from_histogram (const guint32 *hist)
{
  guint64 e_totals[LM_DENOISE_E_BINS] = { 0 };
  g_autofree guint64 *wc = g_new0 (guint64, LM_DENOISE_W_BINS);
  for (int b = 0; b < LM_DENOISE_E_BINS; b++)
    for (int w = 0; w < LM_DENOISE_W_BINS; w++)
      e_totals[b] += hist[b * LM_DENOISE_W_BINS + w];
  guint64 selected;
  int last = lm_denoise_flat_last (e_totals, &selected);
  for (int b = 0; b <= last; b++)
    for (int w = 0; w < LM_DENOISE_W_BINS; w++)
      wc[w] += hist[b * LM_DENOISE_W_BINS + w];
  return lm_denoise_median_sigma (wc, selected);
}

static gboolean
check_format (const LmImage *src, GError **error)
{
  if (format_supported (src->format))
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, _("Noise reduction does not work on this image's format"));
  return FALSE;
}

static int
plane_count (const LmImage *src)
{
  return lm_format_channels (src->format) == 1 ? 1 : 3;
}

gboolean
lm_denoise_histogram_cpu (const LmImage *src, const LmRect *own, guint32 *hist, GError **error)
{
  DenoiseScratch sc = { 0 };
  if (!check_format (src, error) || !scratch_reserve (&sc, (gsize) src->width * src->height, TRUE, error))
    return FALSE;
  g_autofree guint32 *part = g_new (guint32, LM_DENOISE_HIST_SIZE);
  float *p[3] = { plane (&sc, P_Y), plane (&sc, P_U), plane (&sc, P_V) };
  load_planes (src, p);
  count_planes (&sc, p, plane_count (src), (int) src->width, (int) src->height, own, part);
  for (gsize i = 0; i < LM_DENOISE_HIST_SIZE; i++)
    hist[i] += part[i];
  scratch_clear (&sc);
  return TRUE;
}

gboolean
lm_denoise_estimate_cpu (const LmImage *src, double *sigma, GError **error)
{
  g_autofree guint32 *hist = g_new0 (guint32, LM_DENOISE_HIST_SIZE);
  LmRect all = { 0, 0, src->width, src->height };
  if (!lm_denoise_histogram_cpu (src, &all, hist, error))
    return FALSE;
  *sigma = lm_denoise_sigma_from_histogram (hist);
  return TRUE;
}

void
lm_denoise_band (const float *in, int width, int height, int j, float *out)
{
  gsize n = (gsize) width * height;
  DenoiseScratch sc = { 0 };
  if (!scratch_reserve (&sc, n, FALSE, NULL))
    g_error ("lm_denoise_band: out of memory");
  float *cur = plane (&sc, P_Y), *nxt = plane (&sc, P_A), *t = plane (&sc, P_T);
  memcpy (cur, in, n * sizeof (float));
  for (int l = 0; l < LM_DENOISE_LEVELS && l <= j; l++)
    {
      rows_b3 (cur, t, width, height, 1 << l);
      cols_b3 (t, nxt, width, height, 1 << l);
      if (l == j)
        for (gsize i = 0; i < n; i++)
          out[i] = cur[i] - nxt[i];
      float *swap = cur;
      cur = nxt, nxt = swap;
    }
  if (j >= LM_DENOISE_LEVELS)
    memcpy (out, cur, n * sizeof (float));
  scratch_clear (&sc);
}

static gboolean
denoise_run (const LmDenoiseParams *p, const LmImage *src, LmImage *dst, DenoiseScratch *sc, GError **error)
{
  gboolean luma = p->luma > 0.0f, chroma = p->chroma > 0.0f;
  int n_ch = plane_count (src);
  if (!check_format (src, error))
    return FALSE;
  if (!luma && (!chroma || n_ch == 1))
    {
      /* nothing to shrink: the transform and back would not give the same bytes */
      for (guint y = 0; y < src->height; y++)
        memcpy (lm_image_row (dst, y), lm_image_row (src, y), src->width * lm_format_bytes_per_pixel (src->format));
      return TRUE;
    }
  int w = (int) src->width, h = (int) src->height;
  float sigma = lm_denoise_fixed_sigma (p);
  if (!scratch_reserve (sc, (gsize) w * h, sigma < 0.0f, error))
    return FALSE;
  float *planes[3] = { plane (sc, P_Y), plane (sc, P_U), plane (sc, P_V) };
  load_planes (src, planes);
  if (sigma < 0.0f)
    {
      g_autofree guint32 *hist = g_new (guint32, LM_DENOISE_HIST_SIZE);
      LmRect all = { 0, 0, src->width, src->height };
      count_planes (sc, planes, n_ch, w, h, &all, hist);
      sigma = (float) lm_denoise_sigma_from_histogram (hist);
    }
  for (int ch = 0; ch < n_ch; ch++)
    {
      float k = ch == 0 ? p->luma : p->chroma, d = ch == 0 ? p->luma_detail : p->chroma_detail;
      if (!(k > 0.0f))
        continue;
      float s2[LM_DENOISE_LEVELS];
      for (int j = 0; j < LM_DENOISE_LEVELS; j++)
        s2[j] = lm_denoise_threshold (k, sigma, j);
      shrink_channel (sc, planes[ch], w, h, s2, d);
    }
  store_planes (src, planes, dst);
  return TRUE;
}

static gboolean
denoise_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  DenoiseScratch sc = { 0 };
  gboolean ok = denoise_run (params, src, dst, &sc, error);
  scratch_clear (&sc);
  return ok;
}

static gboolean
denoise_run_cpu_kept (const void *params, const LmImage *src, LmImage *dst, gpointer *kept, GError **error)
{
  if (*kept == NULL)
    *kept = g_new0 (DenoiseScratch, 1);
  return denoise_run (params, src, dst, *kept, error);
}

static void
denoise_kept_free (gpointer kept)
{
  scratch_clear (kept);
  g_free (kept);
}

/* The output rectangle OUT with LM_DENOISE_HALO pixels around it, clamped to the input: what
 * the image's edge would reflect lies inside that rectangle, and a tile reflects it at the
 * same edge. A step that does nothing needs no halo. */
static void
denoise_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  const LmDenoiseParams *p = params;
  if (!(p->luma > 0.0f) && !(p->chroma > 0.0f))
    {
      *in = *out;
      return;
    }
  guint x0 = out->x > LM_DENOISE_HALO ? out->x - LM_DENOISE_HALO : 0;
  guint y0 = out->y > LM_DENOISE_HALO ? out->y - LM_DENOISE_HALO : 0;
  guint x1 = MIN (in_w, out->x + out->width + LM_DENOISE_HALO);
  guint y1 = MIN (in_h, out->y + out->height + LM_DENOISE_HALO);
  *in = (LmRect) { x0, y0, x1 - x0, y1 - y0 };
}

const LmOpInfo lm_denoise_op = {
  .id = LM_OP_DENOISE,
  .name = "denoise",
  .label = N_("Noise reduction"),
  .blurb = N_("Reduce noise: luminance and colour strengths (0..3), noise level estimated or given"),
  .params = denoise_params,
  .n_params = G_N_ELEMENTS (denoise_params),
  .params_size = sizeof (LmDenoiseParams),
  .version = 1,
  .output_format = denoise_output_format,
  .run_cpu = denoise_run_cpu,
  .run_cpu_kept = denoise_run_cpu_kept,
  .kept_free = denoise_kept_free,
  .source_rect = denoise_source_rect,
  .on_scene = TRUE,
};
G_STATIC_ASSERT (sizeof (LmDenoiseParams) <= LM_OP_PARAMS_MAX);
