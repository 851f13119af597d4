/* Local contrast (clarity), CPU reference: the fast local Laplacian of localcontrast-math.h,
 * each pass over a level parallel over its rows. Three float pyramids (ℓ's Gaussian, the
 * output's, one remapped working pyramid): about 4 floats a pixel. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "localcontrast-math.h"
#include "ops.h"
#include "../error.h"

/* Passes over fewer samples than this run on one thread. Each γ sample makes a few passes per
 * level, hundreds a run: below a megapixel a pass is short enough that the threads' barriers
 * dominate on a busy machine (a 384×256 raw on two loaded cores: 4.1 s on two threads at a
 * limit of 65536, 0.34 s on one). */
#define PARALLEL_MIN (1 << 20)

#define LM_PARAM_STRUCT LmLocalcontrastParams
static const LmParamSpec localcontrast_params[] = { LM_LOCALCONTRAST_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* Luminance weighs with the photo's own primaries, where it has a profile that is not sRGB. */
static void
localcontrast_commit (void *params, const LmOpContext *context)
{
  LmLocalcontrastParams *p = params;
  const LmOpColor *color = &context->color;
  memset (p->luminance, 0, sizeof p->luminance);
  if (color->space != NULL)
    for (int c = 0; c < 3; c++)
      p->luminance[c] = (float) color->luminance[c];
}

static LmFormat
localcontrast_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

/* Fills levels 1.. of the pyramid at BASE from its level 0. */
static void
gaussian_pyramid (float *base, const LmLcPyramid *pyr)
{
  for (int l = 1; l < pyr->levels; l++)
    {
      const float *fine = base + pyr->offset[l - 1];
      float *coarse = base + pyr->offset[l];
      int fw = pyr->w[l - 1], fh = pyr->h[l - 1], w = pyr->w[l], h = pyr->h[l];
#pragma omp parallel for schedule(static) if ((gsize) w * h >= PARALLEL_MIN)
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          coarse[(gsize) y * w + x] = lm_lc_reduce_at (fine, fw, fh, x, y);
    }
}

/* The smallest and largest value of the N floats at V. */
static void
range_of (const float *v, gsize n, float *lo, float *hi)
{
  float mn = v[0], mx = v[0];
#pragma omp parallel for reduction(min : mn) reduction(max : mx) schedule(static) if (n >= PARALLEL_MIN)
  for (gsize i = 0; i < n; i++)
    {
      mn = MIN (mn, v[i]);
      mx = MAX (mx, v[i]);
    }
  *lo = mn, *hi = mx;
}

/* Step 3 for the sample K: R (the working pyramid) from ℓ's level 0 in G, accumulated into O. */
static void
add_sample (const LmLocalcontrastParams *p, const LmLcPyramid *pyr, const float *g, float *r, float *o, int k)
{
  float step = lm_lc_step (p), gamma = (float) k * step;
  gsize n = (gsize) pyr->w[0] * pyr->h[0];
#pragma omp parallel for schedule(static) if (n >= PARALLEL_MIN)
  for (gsize i = 0; i < n; i++)
    r[i] = lm_lc_remap (g[i], gamma, p->range, p->amount);
  gaussian_pyramid (r, pyr);
  for (int l = 0; l + 1 < pyr->levels; l++)
    {
      gsize at = pyr->offset[l];
      int w = pyr->w[l], h = pyr->h[l];
#pragma omp parallel for schedule(static) if ((gsize) w * h >= PARALLEL_MIN)
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          lm_lc_accumulate_at (r + at, w, r + pyr->offset[l + 1], pyr->w[l + 1], pyr->h[l + 1], g + at, o + at, x, y,
                               k, step);
    }
}

/* Step 4: O's top level is G's, then each level adds the expanded one above it. */
static void
collapse (const LmLcPyramid *pyr, const float *g, float *o)
{
  int top = pyr->levels - 1;
  memcpy (o + pyr->offset[top], g + pyr->offset[top], (gsize) pyr->w[top] * pyr->h[top] * sizeof (float));
  for (int l = top - 1; l >= 0; l--)
    {
      float *fine = o + pyr->offset[l];
      const float *coarse = o + pyr->offset[l + 1];
      int w = pyr->w[l], h = pyr->h[l];
#pragma omp parallel for schedule(static) if ((gsize) w * h >= PARALLEL_MIN)
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          {
            gsize i = (gsize) y * w + x;
            fine[i] = fine[i] + lm_lc_expand_at (coarse, pyr->w[l + 1], pyr->h[l + 1], x, y);
          }
    }
}

static gboolean
localcontrast_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  const LmLocalcontrastParams *p = params;
  if (src->format == LM_FORMAT_RGBE8 || src->format == LM_FORMAT_CFA16)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("Local contrast cannot run on %s images"),
                   lm_format_name (src->format));
      return FALSE;
    }
  int width = (int) src->width, height = (int) src->height;
  int ch = (int) lm_format_channels (src->format), depth = (int) lm_format_depth (src->format) / 8;
  LmLcPyramid pyr;
  lm_lc_pyramid (width, height, lm_lc_levels (p->radius), &pyr);
  g_autofree float *g = g_try_new (float, pyr.total);
  g_autofree float *o = g_try_new0 (float, pyr.total);
  g_autofree float *r = g_try_new (float, pyr.total);
  if (g == NULL || o == NULL || r == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("Not enough memory for local contrast on %d × %d"),
                   width, height);
      return FALSE;
    }

#pragma omp parallel for schedule(static) if ((gsize) width * height >= PARALLEL_MIN)
  for (int y = 0; y < height; y++)
    {
      const guint8 *row = lm_image_row (src, (guint) y);
      for (int x = 0; x < width; x++)
        g[(gsize) y * width + x] = lm_lc_pixel_log (row, x, depth, ch, p->luminance);
    }
  gaussian_pyramid (g, &pyr);

  /* Every level's values lie in this range, so only these samples weigh anywhere. */
  float lo, hi, step = lm_lc_step (p);
  range_of (g, pyr.total, &lo, &hi);
  int k_lo = (int) floorf (lo / step), k_hi = (int) floorf (hi / step) + 1;
  for (int k = k_lo; k <= k_hi; k++)
    add_sample (p, &pyr, g, r, o, k);
  collapse (&pyr, g, o);

#pragma omp parallel for schedule(static) if ((gsize) width * height >= PARALLEL_MIN)
  for (int y = 0; y < height; y++)
    {
      const guint8 *in = lm_image_row (src, (guint) y);
      guint8 *out = lm_image_row (dst, (guint) y);
      for (int x = 0; x < width; x++)
        {
          gsize i = (gsize) y * width + x;
          lm_lc_pixel_apply (in, out, x, depth, ch, lm_tm_exp2 (o[i] - g[i]));
        }
    }
  return TRUE;
}

/* The halo a tile needs: output pixel x depends on level 0 within 2^(L+1) − 4 pixels (the
 * collapse's expands, then the Laplacian's reduce and expand chains); the input's origin on
 * a multiple of 2^(L−1) puts every level's samples where the whole image has them. */
static void
span (guint n, guint a, guint count, int levels, guint *lo, guint *len)
{
  gint64 halo = ((gint64) 1 << (levels + 1)) + 4, align = (gint64) 1 << (levels - 1);
  gint64 start = MAX ((gint64) a - halo, 0), end = MIN ((gint64) a + count + halo, (gint64) n);
  start -= start % align;
  *lo = (guint) start, *len = (guint) (end - start);
}

static void
localcontrast_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  int levels = lm_lc_levels (((const LmLocalcontrastParams *) params)->radius);
  span (in_w, out->x, out->width, levels, &in->x, &in->width);
  span (in_h, out->y, out->height, levels, &in->y, &in->height);
}

const LmOpInfo lm_localcontrast_op = {
  .id = LM_OP_LOCALCONTRAST,
  .name = "localcontrast",
  .label = N_("Local contrast"),
  .blurb = N_("Clarity: details below the range raised or lowered, edges left alone (local Laplacian)"),
  .params = localcontrast_params,
  .n_params = G_N_ELEMENTS (localcontrast_params),
  .params_size = sizeof (LmLocalcontrastParams),
  .version = 1,
  .commit = localcontrast_commit,
  .output_format = localcontrast_output_format,
  .run_cpu = localcontrast_run_cpu,
  .source_rect = localcontrast_source_rect,
  .on_scene = TRUE,
};
G_STATIC_ASSERT (sizeof (LmLocalcontrastParams) <= LM_OP_PARAMS_MAX);
