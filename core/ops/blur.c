/* Gaussian blur, CPU reference: separable, border reflect-101, kernel rule in blur-math.h.
 *
 * Each thread makes whole output rows: the vertical pass reads the 8-bit source rows around
 * y into one float row (padded by the border), the horizontal pass turns that row into the
 * output. Only one float row per thread exists, so the working set stays in cache and no
 * full-size intermediate image is stored. Both passes keep a block of sums in vector
 * registers across all taps (GCC vector extensions, compiled for AVX2 and the baseline).
 * Blur only promises |Δ| ≤ 1, so this file is built with FMA contraction allowed. */
#include <string.h>
#include <glib/gi18n.h>

#include "blur-math.h"
#include "ops.h"
#include "simd.h"

/* Samples per block: four 8-float vectors, kept in registers across all taps. */
#define BLOCK 32

typedef float v8f __attribute__ ((vector_size (32)));
typedef gint32 v8i __attribute__ ((vector_size (32)));
typedef guint8 v8u8 __attribute__ ((vector_size (8)));

static inline v8i
load_u8 (const guint8 *p)
{
  v8u8 v;
  memcpy (&v, p, sizeof v);
  return __builtin_convertvector (v, v8i);
}

static inline v8f
load_f (const float *p)
{
  v8f v;
  memcpy (&v, p, sizeof v);
  return v;
}

static const LmParamSpec blur_params[] = {
  { "sigma", N_("Radius (σ)"), LM_PARAM_FLOAT, G_STRUCT_OFFSET (LmBlurParams, sigma), 0,
    LM_BLUR_SIGMA_MAX, 2.0 },
};

static LmFormat
blur_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

/* tmp[i] = Σ_j w_j · (rows[r−j][i] + rows[r+j][i]) for the N samples of one row, in blocks
 * that may read up to BLOCK − 1 samples past N (rows are padded to LM_ROW_ALIGN) and write
 * as far into TMP's padding. */
LM_SIMD_CLONES static void
vertical_pass (const guint8 *const *rows, int radius, const float *w, float *restrict tmp,
               gsize n)
{
  for (gsize i0 = 0; i0 < n; i0 += BLOCK)
    {
      v8f acc[BLOCK / 8];
      const guint8 *centre = rows[radius] + i0;
      for (int k = 0; k < BLOCK / 8; k++)
        acc[k] = w[0] * __builtin_convertvector (load_u8 (centre + 8 * k), v8f);
      for (int j = 1; j <= radius; j++)
        {
          const guint8 *a = rows[radius - j] + i0, *b = rows[radius + j] + i0;
          float wj = w[j];
          /* The pair is summed in integers: one conversion instead of two. */
          for (int k = 0; k < BLOCK / 8; k++)
            acc[k] += wj * __builtin_convertvector (load_u8 (a + 8 * k) + load_u8 (b + 8 * k), v8f);
        }
      memcpy (tmp + i0, acc, sizeof acc);
    }
}

/* out[i] = Σ_j w_j · (t[i − j·ch] + t[i + j·ch]), where T is padded by RADIUS pixels (and
 * BLOCK samples more on the right). */
LM_SIMD_CLONES static void
horizontal_pass (const float *t, int radius, int ch, const float *w, guint8 *restrict out,
                 gsize n)
{
  for (gsize i0 = 0; i0 < n; i0 += BLOCK)
    {
      v8f acc[BLOCK / 8];
      const float *centre = t + i0;
      for (int k = 0; k < BLOCK / 8; k++)
        acc[k] = w[0] * load_f (centre + 8 * k);
      for (int j = 1; j <= radius; j++)
        {
          const float *a = centre - j * ch, *b = centre + j * ch;
          float wj = w[j];
          for (int k = 0; k < BLOCK / 8; k++)
            acc[k] += wj * (load_f (a + 8 * k) + load_f (b + 8 * k));
        }
      float sums[BLOCK];
      memcpy (sums, acc, sizeof sums);
      gsize len = MIN (BLOCK, n - i0);
      for (gsize i = 0; i < len; i++)
        out[i0 + i] = lm_quantize_u8 (sums[i]);
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
    float *padded = g_new0 (float, n + 2 * (gsize) radius * ch + BLOCK);
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
