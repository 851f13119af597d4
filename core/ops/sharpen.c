/* Sharpen, CPU reference: sharpen-math.h says what it computes.
 *
 * Two passes over a float plane of the image's size (kept between runs, as blur's scratch):
 * the first turns each row's luminance into its Gaussian along the row, the second sums those
 * down the columns into one float row per thread and applies the detail to the row's pixels.
 * Both keep each sum's terms in the order of sharpen-math.h, element by element, so that the
 * loops over x vectorize without changing a bit. */
#include <string.h>
#include <glib/gi18n.h>

#include "ops.h"
#include "sharpen-math.h"
#include "../error.h"

#define LM_PARAM_STRUCT LmSharpenParams
static const LmParamSpec sharpen_params[] = { LM_SHARPEN_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* The luminance weights of the photo's own primaries. */
static void
sharpen_commit (void *params, const LmOpContext *context)
{
  LmSharpenParams *p = params;
  const LmOpColor *color = &context->color;
  if (color->space == NULL)
    p->luma = (LmSharpenLuma) { 0.0f, 0.0f, 0.0f };
  else
    p->luma = (LmSharpenLuma) { (float) color->luminance[0], (float) color->luminance[1],
                                (float) color->luminance[2] };
}

static LmFormat
sharpen_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static gboolean
format_supported (LmFormat format)
{
  return format == LM_FORMAT_RGBA8 || format == LM_FORMAT_RGBA16 || format == LM_FORMAT_GRAY8
         || format == LM_FORMAT_GRAY16;
}

/* Y of the N pixels of ROW (FORMAT) into OUT. */
static void
luma_row (const guint8 *row, LmFormat format, LmSharpenLuma l, float *restrict out, int n)
{
  switch (format)
    {
    case LM_FORMAT_RGBA8:
      for (int x = 0; x < n; x++)
        {
          const guint8 *p = row + 4 * x;
          out[x] = lm_weighted_sum ((float) p[0], (float) p[1], (float) p[2], l.r, l.g, l.b);
        }
      break;
    case LM_FORMAT_RGBA16:
      for (int x = 0; x < n; x++)
        {
          const guint16 *p = (const guint16 *) row + 4 * x;
          out[x] = lm_weighted_sum (lm_u16_value (p[0]), lm_u16_value (p[1]), lm_u16_value (p[2]), l.r, l.g, l.b);
        }
      break;
    case LM_FORMAT_GRAY16:
      for (int x = 0; x < n; x++)
        out[x] = lm_u16_value (((const guint16 *) row)[x]);
      break;
    default:
      for (int x = 0; x < n; x++)
        out[x] = (float) row[x];
      break;
    }
}

/* OUT[x] = w₀·Y[x] + Σ_j w_j·(Y[x − j] + Y[x + j]); Y is padded by RADIUS on each side. */
static void
along_row (const float *y, int radius, const float *w, float *restrict out, int n)
{
  for (int x = 0; x < n; x++)
    out[x] = w[0] * y[x];
  for (int j = 1; j <= radius; j++)
    for (int x = 0; x < n; x++)
      out[x] += w[j] * (y[x - j] + y[x + j]);
}

/* Each pixel of SRC's row into DST's, with the detail of Y (its luminance) against B, which
 * this overwrites with the detail: one loop per step and format, so that each vectorizes. */
static void
apply_row (const guint8 *src, guint8 *dst, LmFormat format, const float *y, float *restrict b,
           const LmSharpenParams *p, int n)
{
  float amount = p->amount, t = p->threshold;
  for (int x = 0; x < n; x++)
    b[x] = lm_sharpen_detail (y[x], b[x], t);
  const float *d = b;
  switch (format)
    {
    case LM_FORMAT_RGBA8:
      for (int x = 0; x < n; x++)
        {
          for (int c = 0; c < 3; c++)
            dst[4 * x + c] = lm_quantize_u8 (lm_sharpen_channel ((float) src[4 * x + c], amount, d[x]));
          dst[4 * x + 3] = src[4 * x + 3];
        }
      break;
    case LM_FORMAT_RGBA16:
      for (int x = 0; x < n; x++)
        {
          const guint16 *s = (const guint16 *) src + 4 * x;
          guint16 *o = (guint16 *) dst + 4 * x;
          for (int c = 0; c < 3; c++)
            o[c] = lm_quantize_u16 (lm_sharpen_channel (lm_u16_value (s[c]), amount, d[x]));
          o[3] = s[3];
        }
      break;
    case LM_FORMAT_GRAY16:
      for (int x = 0; x < n; x++)
        ((guint16 *) dst)[x] = lm_quantize_u16 (lm_sharpen_channel (y[x], amount, d[x]));
      break;
    default:
      for (int x = 0; x < n; x++)
        dst[x] = lm_quantize_u8 (lm_sharpen_channel (y[x], amount, d[x]));
      break;
    }
}

typedef struct {
  float *plane;
  gsize size; /* floats */
} SharpenScratch;

static void
scratch_free (gpointer kept)
{
  SharpenScratch *scratch = kept;
  g_free (scratch->plane);
  g_free (scratch);
}

static gboolean
sharpen_run (const LmSharpenParams *p, const LmImage *src, LmImage *dst, SharpenScratch *scratch, GError **error)
{
  if (!format_supported (src->format))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, _("sharpen does not take %s images"),
                   lm_format_name (src->format));
      return FALSE;
    }
  int width = (int) src->width, height = (int) src->height, radius = lm_sharpen_radius (p);
  if (!lm_sharpen_active (p))
    {
      for (int y = 0; y < height; y++)
        memcpy (lm_image_row (dst, y), lm_image_row (src, y), width * lm_format_bytes_per_pixel (src->format));
      return TRUE;
    }
  gsize need = (gsize) width * height;
  if (scratch->size < need)
    {
      g_clear_pointer (&scratch->plane, g_free);
      scratch->size = 0;
      if ((scratch->plane = g_try_malloc (need * sizeof (float))) == NULL)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to sharpen"));
          return FALSE;
        }
      scratch->size = need;
    }
  float w[LM_BLUR_RADIUS_MAX + 1];
  lm_blur_weights (p->radius, radius, w);
  LmSharpenLuma l = lm_sharpen_luma (p);
  float *plane = scratch->plane;

#pragma omp parallel
  {
    float *padded = g_new (float, width + 2 * radius), *y_row = padded + radius;
    float *b = g_new (float, width);
#pragma omp for schedule(static)
    for (int y = 0; y < height; y++)
      {
        luma_row (lm_image_row (src, y), src->format, l, y_row, width);
        for (int j = 1; j <= radius; j++)
          {
            y_row[-j] = y_row[lm_reflect101 (-j, width)];
            y_row[width - 1 + j] = y_row[lm_reflect101 (width - 1 + j, width)];
          }
        along_row (y_row, radius, w, plane + (gsize) y * width, width);
      }
    /* the omp for's barrier: every row's first pass is in the plane */
#pragma omp for schedule(static)
    for (int y = 0; y < height; y++)
      {
        const float *centre = plane + (gsize) y * width;
        for (int x = 0; x < width; x++)
          b[x] = w[0] * centre[x];
        for (int j = 1; j <= radius; j++)
          {
            const float *up = plane + (gsize) lm_reflect101 (y - j, height) * width;
            const float *down = plane + (gsize) lm_reflect101 (y + j, height) * width;
            for (int x = 0; x < width; x++)
              b[x] += w[j] * (up[x] + down[x]);
          }
        luma_row (lm_image_row (src, y), src->format, l, y_row, width);
        apply_row (lm_image_row (src, y), lm_image_row (dst, y), src->format, y_row, b, p, width);
      }
    g_free (padded);
    g_free (b);
  }
  return TRUE;
}

static gboolean
sharpen_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  SharpenScratch scratch = { NULL, 0 };
  gboolean ok = sharpen_run (params, src, dst, &scratch, error);
  g_free (scratch.plane);
  return ok;
}

/* The plane stays in *KEPT for the next run on this photo: a block of the image's size freed
 * and allocated again at every edit is what grows glibc's heap (blur.c says more). */
static gboolean
sharpen_run_cpu_kept (const void *params, const LmImage *src, LmImage *dst, gpointer *kept, GError **error)
{
  if (*kept == NULL)
    *kept = g_new0 (SharpenScratch, 1);
  return sharpen_run (params, src, dst, *kept, error);
}

static void
source_span (int n, int a, int b, int radius, guint *lo, guint *count)
{
  int first, n_read;
  lm_reflect101_span (n, a, b, radius, &first, &n_read);
  *lo = (guint) first, *count = (guint) n_read;
}

/* A tile's input: its output and the kernel's radius around it. A tile's kept pixels then sum
 * the same taps in the same order as the whole image's (the tile's own reflection reaches
 * only pixels the whole image reflects too, at its borders). */
static void
sharpen_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  const LmSharpenParams *p = params;
  int radius = lm_sharpen_active (p) ? lm_sharpen_radius (p) : 0;
  source_span ((int) in_w, (int) out->x, (int) (out->x + out->width), radius, &in->x, &in->width);
  source_span ((int) in_h, (int) out->y, (int) (out->y + out->height), radius, &in->y, &in->height);
}

const LmOpInfo lm_sharpen_op = {
  .id = LM_OP_SHARPEN,
  .name = "sharpen",
  .label = N_("Sharpen"),
  .blurb = N_("Unsharp mask on luminance: amount, radius σ (0.3..10 pixels), threshold in levels"),
  .params = sharpen_params,
  .n_params = G_N_ELEMENTS (sharpen_params),
  .params_size = sizeof (LmSharpenParams),
  .version = 1,
  .commit = sharpen_commit,
  .output_format = sharpen_output_format,
  .run_cpu = sharpen_run_cpu,
  .run_cpu_kept = sharpen_run_cpu_kept,
  .kept_free = scratch_free,
  .source_rect = sharpen_source_rect,
};
G_STATIC_ASSERT (sizeof (LmSharpenParams) <= LM_OP_PARAMS_MAX);
