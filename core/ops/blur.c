/* Gaussian blur, CPU reference: separable, border reflect-101, kernel rule in blur-math.h.
 *
 * Each thread makes whole output rows: the vertical pass reads the 8-bit source rows around
 * y into one float row (padded by the border), the horizontal pass turns that row into the
 * output. Only one float row per thread exists, so the working set stays in cache and no
 * full-size intermediate image is stored. Both passes loop over taps outside and over a
 * strip of samples inside, which the compiler vectorizes. Blur only promises |Δ| ≤ 1, so
 * this file is built with FMA contraction allowed. */
#include <string.h>
#include <glib/gi18n.h>

#include "blur-math.h"
#include "ops.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define LM_SIMD_CLONES __attribute__ ((target_clones ("arch=x86-64-v3", "default")))
#else
#define LM_SIMD_CLONES
#endif

#define STRIP 512 /* samples kept in registers and L1 per pass */

static const LmParamSpec blur_params[] = {
  { "sigma", N_("Radius (σ)"), LM_PARAM_FLOAT, G_STRUCT_OFFSET (LmBlurParams, sigma), 0,
    LM_BLUR_SIGMA_MAX, 2.0 },
};

static LmFormat
blur_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

/* tmp[i] = Σ_j w_j · (rows[r−j][i] + rows[r+j][i]) for the N samples of one row. */
LM_SIMD_CLONES static void
vertical_pass (const guint8 *const *rows, int radius, const float *w, float *restrict tmp,
               gsize n)
{
  for (gsize i0 = 0; i0 < n; i0 += STRIP)
    {
      gsize len = MIN (STRIP, n - i0);
      float acc[STRIP];
      const guint8 *centre = rows[radius] + i0;
      for (gsize i = 0; i < len; i++)
        acc[i] = w[0] * (float) centre[i];
      for (int j = 1; j <= radius; j++)
        {
          const guint8 *restrict a = rows[radius - j] + i0;
          const guint8 *restrict b = rows[radius + j] + i0;
          float wj = w[j];
          for (gsize i = 0; i < len; i++)
            acc[i] += wj * (float) (a[i] + b[i]);
        }
      memcpy (tmp + i0, acc, len * sizeof (float));
    }
}

/* out[i] = Σ_j w_j · (t[i − j·ch] + t[i + j·ch]), where T is padded by RADIUS pixels. */
LM_SIMD_CLONES static void
horizontal_pass (const float *t, int radius, int ch, const float *w, guint8 *restrict out,
                 gsize n)
{
  for (gsize i0 = 0; i0 < n; i0 += STRIP)
    {
      gsize len = MIN (STRIP, n - i0);
      float acc[STRIP];
      const float *centre = t + i0;
      for (gsize i = 0; i < len; i++)
        acc[i] = w[0] * centre[i];
      for (int j = 1; j <= radius; j++)
        {
          const float *restrict a = centre - j * ch;
          const float *restrict b = centre + j * ch;
          float wj = w[j];
          for (gsize i = 0; i < len; i++)
            acc[i] += wj * (a[i] + b[i]);
        }
      for (gsize i = 0; i < len; i++)
        out[i0 + i] = lm_quantize_u8 (acc[i]);
    }
}

/* Fills RADIUS pixels of border on each side of the row at T (width pixels of CH). */
static void
pad_row (float *t, int width, int radius, int ch)
{
  for (int p = 1; p <= radius; p++)
    {
      memcpy (t - p * ch, t + lm_reflect101 (-p, width) * ch, ch * sizeof (float));
      memcpy (t + (width - 1 + p) * ch, t + lm_reflect101 (width - 1 + p, width) * ch,
              ch * sizeof (float));
    }
}

static gboolean
blur_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  const LmBlurParams *p = params;
  int radius = lm_blur_radius (p->sigma);
  if (radius == 0)
    {
      for (guint y = 0; y < src->height; y++)
        memcpy (lm_image_row (dst, y), lm_image_row (src, y),
                src->width * lm_format_bytes_per_pixel (src->format));
      return TRUE;
    }

  float w[LM_BLUR_RADIUS_MAX + 1];
  lm_blur_weights (p->sigma, radius, w);
  int ch = (int) lm_format_channels (src->format);
  int width = (int) src->width, height = (int) src->height;
  gsize n = (gsize) width * ch;

#pragma omp parallel
  {
    float *padded = g_new (float, n + 2 * (gsize) radius * ch);
    float *row = padded + (gsize) radius * ch;
    const guint8 **rows = g_new (const guint8 *, 2 * radius + 1);

#pragma omp for schedule(static)
    for (int y = 0; y < height; y++)
      {
        for (int j = -radius; j <= radius; j++)
          rows[j + radius] = lm_image_row (src, lm_reflect101 (y + j, height));
        vertical_pass (rows, radius, w, row, n);
        pad_row (row, width, radius, ch);
        horizontal_pass (row, radius, ch, w, lm_image_row (dst, y), n);
      }
    g_free (rows);
    g_free (padded);
  }
  return TRUE;
}

const LmOpInfo lm_blur_op = {
  .id = LM_OP_BLUR,
  .name = "blur",
  .label = N_("Gaussian blur"),
  .blurb = N_("Gaussian blur of radius σ pixels (0..200)"),
  .params = blur_params,
  .n_params = G_N_ELEMENTS (blur_params),
  .params_size = sizeof (LmBlurParams),
  .output_format = blur_output_format,
  .run_cpu = blur_run_cpu,
};
G_STATIC_ASSERT (sizeof (LmBlurParams) <= LM_OP_PARAMS_MAX);
