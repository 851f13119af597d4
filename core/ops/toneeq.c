/* Tone equalizer (shadows and highlights): its parameters, commit step, tile halo and CPU
 * reference. toneeq-math.h says what it computes; kernels/toneeq.cu runs the same steps. */
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "ops.h"
#include "toneeq-math.h"

#define LM_PARAM_STRUCT LmToneeqParams
static const LmParamSpec toneeq_params[] = { LM_TONEEQ_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static LmFormat
toneeq_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

/* The photo's curve and luminance weights: zones are in its linear light. */
static void
toneeq_commit_op (void *params, const LmOpContext *context)
{
  ((LmToneeqParams *) params)->color = context->color;
}

/* What one run reads besides the pixels: the gains, the curve's tables (8- and 16-bit
 * sources; channels share sRGB's), the luminance weights. */
typedef struct {
  float gain[LM_TONEEQ_TABLE_STEPS + 1];
  float *curve; /* a profile's, per channel: MAXCODE + 1 decoded values, then MAXCODE
                 * thresholds; NULL for sRGB's, which are built once */
  const float *decode[3], *thresholds[3];
  unsigned maxcode;
  double weight[3];
} Tables;

/* sRGB's tables at MAXCODE (255 or 65535), the same for every photo without a profile: built
 * once (131071 pow at 16 bits, milliseconds each time otherwise). */
static const float *
srgb_tables (unsigned maxcode)
{
  static gsize tables8, tables16;
  gsize *once = maxcode == 255u ? &tables8 : &tables16;
  if (g_once_init_enter (once))
    {
      float *t = g_new (float, 2 * (gsize) maxcode + 1);
      lm_toneeq_curve_tables (&(LmOpColor) { 0 }, 1, maxcode, t, t + maxcode + 1);
      g_once_init_leave (once, (gsize) t);
    }
  return (const float *) *once;
}

static gboolean
tables_init (Tables *t, const LmToneeqParams *p, LmFormat format, GError **error)
{
  memset (t, 0, sizeof *t);
  lm_toneeq_gain_table (p, t->gain);
  lm_toneeq_weights (&p->color, t->weight);
  if (format == LM_FORMAT_RGBA_F32 || format == LM_FORMAT_GRAY_F32)
    return TRUE;
  if (format != LM_FORMAT_RGBA8 && format != LM_FORMAT_GRAY8 && format != LM_FORMAT_RGBA16
      && format != LM_FORMAT_GRAY16)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s cannot work on %s images"), "toneeq",
                   lm_format_name (format));
      return FALSE;
    }
  t->maxcode = lm_format_depth (format) == 16 ? 65535u : 255u;
  gsize each = 2 * (gsize) t->maxcode + 1;
  const float *curves;
  if (lm_toneeq_curve_count (&p->color) == 1)
    curves = srgb_tables (t->maxcode);
  else
    {
      t->curve = g_new (float, each * 3);
      for (int c = 0; c < 3; c++)
        lm_toneeq_curve_tables (&p->color, c, t->maxcode, t->curve + c * each, t->curve + c * each + t->maxcode + 1);
      curves = t->curve;
    }
  for (int c = 0; c < 3; c++)
    {
      const float *base = curves + (t->curve ? c * each : 0);
      t->decode[c] = base, t->thresholds[c] = base + t->maxcode + 1;
    }
  return TRUE;
}

/* Pixel X of ROW in linear light, its R, G, B (a gray one's value three times); its ℓ. */
static inline double
pixel_level (const LmImage *src, const Tables *t, const guint8 *row, guint x, double mask_exposure, float l[3])
{
  switch (src->format)
    {
    case LM_FORMAT_RGBA8:
      for (int c = 0; c < 3; c++)
        l[c] = t->decode[c][row[4 * x + c]];
      break;
    case LM_FORMAT_RGBA16:
      for (int c = 0; c < 3; c++)
        l[c] = t->decode[c][((const guint16 *) row)[4 * x + c]];
      break;
    case LM_FORMAT_RGBA_F32:
      for (int c = 0; c < 3; c++)
        l[c] = ((const float *) row)[4 * x + c];
      break;
    case LM_FORMAT_GRAY8:
      l[0] = l[1] = l[2] = t->decode[1][row[x]];
      return lm_toneeq_level_gray (l[1], mask_exposure);
    case LM_FORMAT_GRAY16:
      l[0] = l[1] = l[2] = t->decode[1][((const guint16 *) row)[x]];
      return lm_toneeq_level_gray (l[1], mask_exposure);
    default: /* GRAY_F32 */
      l[0] = l[1] = l[2] = ((const float *) row)[x];
      return lm_toneeq_level_gray (l[1], mask_exposure);
    }
  return lm_toneeq_level_rgb (t->weight, l[0], l[1], l[2], mask_exposure);
}

/* Pixel X of OUT: IN's (alpha kept) with linear L[c] times GAIN. */
static inline void
pixel_store (const LmImage *src, const Tables *t, const guint8 *in, guint8 *out, guint x, const float l[3],
             double gain)
{
  switch (src->format)
    {
    case LM_FORMAT_RGBA8:
      for (int c = 0; c < 3; c++)
        out[4 * x + c] = (guint8) lm_toneeq_encode (t->thresholds[c], t->maxcode, l[c] * gain);
      out[4 * x + 3] = in[4 * x + 3];
      break;
    case LM_FORMAT_RGBA16:
      for (int c = 0; c < 3; c++)
        ((guint16 *) out)[4 * x + c] = (guint16) lm_toneeq_encode (t->thresholds[c], t->maxcode, l[c] * gain);
      ((guint16 *) out)[4 * x + 3] = ((const guint16 *) in)[4 * x + 3];
      break;
    case LM_FORMAT_RGBA_F32:
      for (int c = 0; c < 3; c++)
        ((float *) out)[4 * x + c] = (float) (l[c] * gain);
      ((float *) out)[4 * x + 3] = ((const float *) in)[4 * x + 3];
      break;
    case LM_FORMAT_GRAY8:
      out[x] = (guint8) lm_toneeq_encode (t->thresholds[1], t->maxcode, l[1] * gain);
      break;
    case LM_FORMAT_GRAY16:
      ((guint16 *) out)[x] = (guint16) lm_toneeq_encode (t->thresholds[1], t->maxcode, l[1] * gain);
      break;
    default:
      ((float *) out)[x] = (float) (l[1] * gain);
    }
}

/* The mask's coefficients over the blocks that SRC covers (W.nx × W.ny of them, from block
 * W.x0, W.y0 of the whole image's grid G): ā into ABAR, b̄ into BBAR. SCRATCH: 3 planes. */
static void
mask_coefficients (const LmToneeqParams *p, const LmImage *src, const Tables *t, const LmToneeqGrid *g,
                   const LmToneeqWindow *w, double *abar, double *bbar, double *scratch)
{
  gsize n = (gsize) w->nx * w->ny;
  double *level = abar, *h1 = scratch, *h2 = scratch + n, *a = scratch + 2 * n, *b = bbar;

  /* ℓ_s: each block's mean, its pixels added row by row */
#pragma omp parallel for schedule(static)
  for (int j = 0; j < w->ny; j++)
    for (int i = 0; i < w->nx; i++)
      {
        LmToneeqSpan sx, sy;
        lm_toneeq_block_span (g, w, src->width, src->height, i, j, &sx, &sy);
        double sum = 0.0;
        for (guint y = sy.lo; y < sy.hi; y++)
          {
            const guint8 *row = lm_image_row (src, y);
            for (guint x = sx.lo; x < sx.hi; x++)
              {
                float l[3];
                sum += pixel_level (src, t, row, x, p->mask_exposure, l);
              }
          }
        level[(gsize) j * w->nx + i] = sum / ((double) (sx.hi - sx.lo) * (double) (sy.hi - sy.lo));
      }

  /* μ and the mean of ℓ_s², then a and b; then their means */
#pragma omp parallel for schedule(static)
  for (int j = 0; j < w->ny; j++)
    for (int i = 0; i < w->nx; i++)
      lm_toneeq_row_sums (level, level, TRUE, w->nx, g->rs, j, i, h1, h2);
#pragma omp parallel for schedule(static)
  for (int j = 0; j < w->ny; j++)
    for (int i = 0; i < w->nx; i++)
      lm_toneeq_column_means (h1, h2, g, w, j, i, TRUE, p->edges, a, b);
#pragma omp parallel for schedule(static)
  for (int j = 0; j < w->ny; j++)
    for (int i = 0; i < w->nx; i++)
      lm_toneeq_row_sums (a, b, FALSE, w->nx, g->rs, j, i, h1, h2);
#pragma omp parallel for schedule(static)
  for (int j = 0; j < w->ny; j++)
    for (int i = 0; i < w->nx; i++)
      lm_toneeq_column_means (h1, h2, g, w, j, i, FALSE, p->edges, abar, bbar);
}

static gboolean
toneeq_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  const LmToneeqParams *p = params;
  Tables *t = g_new (Tables, 1);
  if (!tables_init (t, p, src->format, error))
    {
      g_free (t);
      return FALSE;
    }
  LmToneeqGrid g;
  LmToneeqWindow w;
  lm_toneeq_layout (p, src->width, src->height, &g, &w);
  gsize n = (gsize) w.nx * w.ny;
  double *planes = g_try_new (double, 5 * n);
  if (planes == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("Not enough memory for the tone equalizer's mask"));
      g_free (t->curve);
      g_free (t);
      return FALSE;
    }
  double *abar = planes, *bbar = planes + n;
  mask_coefficients (p, src, t, &g, &w, abar, bbar, planes + 2 * n);

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      for (guint x = 0; x < src->width; x++)
        {
          float l[3];
          double level = pixel_level (src, t, in, x, p->mask_exposure, l);
          double m = lm_toneeq_mask (&g, &w, abar, bbar, x, y, level);
          pixel_store (src, t, in, out, x, l, lm_toneeq_gain (t->gain, m));
        }
    }
  g_free (planes);
  g_free (t->curve);
  g_free (t);
  return TRUE;
}

/* The input pixels [*LO, *LO + *COUNT) of an axis of N pixels that output pixels [A, B) read:
 * the blocks their bilinear reads, and 2 r_s more each way (two nested boxes), whole. */
static void
source_span (const LmToneeqGrid *g, int n, int blocks, guint a, guint b, guint *lo, guint *count)
{
  int i0, i1, k0, k1;
  double t;
  lm_toneeq_bilinear_at (a, g->s, blocks, &i0, &i1, &t);
  lm_toneeq_bilinear_at (b - 1, g->s, blocks, &k0, &k1, &t);
  int first = MAX (i0 - 2 * g->rs, 0), last = MIN (k1 + 2 * g->rs, blocks - 1);
  *lo = (guint) (first * g->s);
  *count = (guint) (MIN ((last + 1) * g->s, n) - first * g->s);
}

static void
toneeq_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  LmToneeqGrid g;
  lm_toneeq_grid (params, in_w, in_h, &g);
  source_span (&g, (int) in_w, g.nx, out->x, out->x + out->width, &in->x, &in->width);
  source_span (&g, (int) in_h, g.ny, out->y, out->y + out->height, &in->y, &in->height);
}

static LmTileFrame *
toneeq_tile_frame (void *params)
{
  return &((LmToneeqParams *) params)->tile;
}

const LmOpInfo lm_toneeq_op = {
  .id = LM_OP_TONEEQ,
  .name = "toneeq",
  .label = N_("Shadows and highlights"),
  .blurb = N_("Exposure by luminance zone (−8 to 0 EV), through an edge-aware mask that keeps local contrast"),
  .params = toneeq_params,
  .n_params = G_N_ELEMENTS (toneeq_params),
  .params_size = sizeof (LmToneeqParams),
  .version = 1,
  .flag_params = "blacks,deep_shadows,shadows,light_shadows,midtones,dark_highlights,highlights,whites,speculars",
  .flag_sep = ',',
  .output_format = toneeq_output_format,
  .commit = toneeq_commit_op,
  .run_cpu = toneeq_run_cpu,
  .source_rect = toneeq_source_rect,
  .tile_frame = toneeq_tile_frame,
  .on_scene = TRUE,
};
G_STATIC_ASSERT (sizeof (LmToneeqParams) <= LM_OP_PARAMS_MAX);
