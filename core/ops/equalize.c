/* Histogram equalization, CPU reference: a histogram pass, the lookup table of
 * equalize-math.h, then a mapping pass. */
#include <string.h>
#include <glib/gi18n.h>

#include "byte-table.h"
#include "equalize-math.h"
#include "histogram.h"
#include "ops.h"
#include "simd.h"

static const LmEnumValue lm_equalize_modes[] = {
  { "luma", N_("Luma (keeps colours)") },
  { "rgb", N_("Each channel (R, G, B)") },
  { NULL, NULL },
};

#define LM_PARAM_STRUCT LmEqualizeParams
static const LmParamSpec equalize_params[] = { LM_EQUALIZE_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static LmFormat
equalize_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

#define STRIP 1024

LM_SIMD_CLONES static void
shift_rgba (const guint32 *restrict in, guint32 *restrict out, const float *restrict shift, guint n)
{
  for (guint x = 0; x < n; x++)
    out[x] = lm_equalize_shift_rgba (in[x], shift[x]);
}

/* Luma in strips: the luma and the shifts are vectorized loops, only the table lookup is
 * done one pixel at a time. */
static void
row_luma (const guint32 *in, guint32 *out, guint width, const float shift_of[LM_HIST_BINS])
{
  guint8 luma[STRIP];
  float shift[STRIP];
  for (guint x0 = 0; x0 < width; x0 += STRIP)
    {
      guint n = MIN (STRIP, width - x0);
      lm_luma_row (in + x0, luma, n);
      for (guint x = 0; x < n; x++)
        shift[x] = shift_of[luma[x]];
      shift_rgba (in + x0, out + x0, shift, n);
    }
}

static void
row_rgb (const guint32 *restrict in, guint32 *restrict out, guint width,
         guint8 lut[LM_HIST_N_CHANNELS][LM_HIST_BINS], float amount)
{
  for (guint x = 0; x < width; x++)
    {
      guint32 p = in[x];
      guint8 r = p & 0xff, g = (p >> 8) & 0xff, b = (p >> 16) & 0xff;
      out[x] = lm_px_pack (lm_equalize_channel (r, lut[LM_HIST_R][r], amount),
                           lm_equalize_channel (g, lut[LM_HIST_G][g], amount),
                           lm_equalize_channel (b, lut[LM_HIST_B][b], amount), p);
    }
}

/* 16-bit sources: 65536-bin histograms and tables (equalize-math.h), the same channels. */
static void
run16 (const LmEqualizeParams *p, const LmImage *src, LmImage *dst)
{
  gboolean gray = src->format == LM_FORMAT_GRAY16, luma = gray || p->mode == LM_EQUALIZE_LUMA;
  g_autofree guint32 *own = NULL;
  const guint32 *bins = p->bins; /* a tiled render's, of the whole image */
  guint64 total = p->bins ? p->total : (guint64) src->width * src->height;
  if (bins == NULL)
    {
      own = g_new (guint32, LM_HIST_N_CHANNELS * LM_HIST16_BINS);
      lm_histogram16_cpu (src, luma ? LM_HIST_WANT_LUMA : LM_HIST_WANT_RGB, own);
      bins = own;
    }
  g_autofree guint16 *lut = g_new (guint16, LM_HIST_N_CHANNELS * LM_HIST16_BINS);
  for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
    lm_equalize_lut16 (bins + c * LM_HIST16_BINS, total, lut + c * LM_HIST16_BINS);
  const guint16 *luma_lut = lut + LM_HIST_LUMA * LM_HIST16_BINS;

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      if (gray)
        {
          const guint16 *in = (const guint16 *) lm_image_row (src, y);
          guint16 *out = (guint16 *) lm_image_row (dst, y);
          for (guint x = 0; x < src->width; x++)
            out[x] = lm_equalize_channel16 (in[x], luma_lut[in[x]], p->amount);
          continue;
        }
      const guint64 *in = (const guint64 *) lm_image_row (src, y);
      guint64 *out = (guint64 *) lm_image_row (dst, y);
      for (guint x = 0; x < src->width; x++)
        {
          guint64 px = in[x];
          if (luma)
            {
              guint16 l = lm_luma_u16 (px);
              out[x] = lm_equalize_shift_rgba16 (px, lm_equalize_luma_shift16 (l, luma_lut[l], p->amount));
              continue;
            }
          guint16 c[3];
          for (int k = 0; k < 3; k++)
            {
              guint16 v = (px >> (16 * k)) & 0xffff;
              c[k] = lm_equalize_channel16 (v, lut[k * LM_HIST16_BINS + v], p->amount);
            }
          out[x] = lm_px16_pack (c[0], c[1], c[2], px);
        }
    }
}

static gboolean
equalize_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  const LmEqualizeParams *p = params;
  if (lm_format_depth (src->format) == 16)
    {
      run16 (p, src, dst);
      return TRUE;
    }
  gboolean luma = p->mode == LM_EQUALIZE_LUMA || src->format == LM_FORMAT_GRAY8;

  LmHistogram hist;
  if (p->bins) /* a tiled render's, of the whole image */
    {
      memcpy (hist.bins, p->bins, sizeof hist.bins);
      hist.total = p->total;
    }
  else
    lm_histogram_cpu (src, luma ? LM_HIST_WANT_LUMA : LM_HIST_WANT_RGB, &hist);
  guint8 lut[LM_HIST_N_CHANNELS][LM_HIST_BINS];
  for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
    lm_equalize_lut (hist.bins[c], hist.total, lut[c]);
  float shift_of[LM_HIST_BINS];
  guint8 gray_table[LM_HIST_BINS];
  for (int y = 0; y < LM_HIST_BINS; y++)
    {
      shift_of[y] = lm_equalize_luma_shift (y, lut[LM_HIST_LUMA][y], p->amount);
      gray_table[y] = lm_equalize_channel (y, lut[LM_HIST_LUMA][y], p->amount);
    }

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      if (src->format == LM_FORMAT_GRAY8)
        lm_byte_table_row (in, out, src->width, gray_table);
      else if (luma)
        row_luma ((const guint32 *) in, (guint32 *) out, src->width, shift_of);
      else
        row_rgb ((const guint32 *) in, (guint32 *) out, src->width, lut, p->amount);
    }
  return TRUE;
}

const LmOpInfo lm_equalize_op = {
  .id = LM_OP_EQUALIZE,
  .name = "equalize",
  .label = N_("Equalize"),
  .blurb = N_("Histogram equalization: luma or rgb"),
  .params = equalize_params,
  .n_params = G_N_ELEMENTS (equalize_params),
  .params_size = sizeof (LmEqualizeParams),
  .version = 1,
  .output_format = equalize_output_format,
  .run_cpu = equalize_run_cpu,
};
G_STATIC_ASSERT (sizeof (LmEqualizeParams) <= LM_OP_PARAMS_MAX);
