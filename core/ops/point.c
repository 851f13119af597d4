/* The fused point pass: its table built on the host, and the CPU's loop. */
#include "point.h"

#include <string.h>

#include "ops.h"
#include "simd.h"

void
lm_point_pass_init (LmPointPass *pass)
{
  /* Zeroed whole, padding included: the render cache compares passes byte for byte. */
  memset (pass, 0, sizeof *pass);
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 256; i++)
      pass->table[c][i] = (float) i;
  for (int i = 0; i < 256; i++)
    pass->gray[i] = (float) i;
}

G_STATIC_ASSERT (LM_POINT_RECIPE_PARAMS == LM_OP_PARAMS_MAX);

void
lm_point_pass_add (LmPointPass *pass, const LmOpInfo *info, const void *params)
{
  g_return_if_fail (lm_op_is_point (info->id) && info->point_prepare != NULL);
  g_return_if_fail (pass->n_recipe < LM_POINT_RECIPE_MAX && info->params_size <= LM_OP_PARAMS_MAX);
  pass->recipe[pass->n_recipe].id = info->id;
  memcpy (pass->recipe[pass->n_recipe].params, params, info->params_size);
  pass->n_recipe++;
  info->point_prepare (params, pass);
}

LmPointPixels
lm_point_pass_pixels (const LmPointPass *pass)
{
  LmPointPixels px;
  memset (&px, 0, sizeof px); /* padding too: the bytes a kernel is given are all set */
  px.pixel_ops = pass->pixel_ops;
#define LM_POINT_COPY_GEOMETRY(name)
#define LM_POINT_COPY_POINT(name)
#define LM_POINT_COPY_POINT_COLOR(name) px.name = pass->name;
#define LM_POINT_COPY_PIXEL(name)
#define LM_POINT_COPY_GLOBAL(name)
#define LM_POINT_COPY_AREA(name)
#define LM_POINT_COPY_EXPORT(name)
#define LM_OP(ID, name, Name, KIND) LM_POINT_COPY_##KIND (name)
#include "op-list.h"
#undef LM_OP
  return px;
}

/* V within ±LM_POINT_VALUE_MAX (point-math.h); NaN as it is. */
static float
held (float v)
{
  return v > LM_POINT_VALUE_MAX ? LM_POINT_VALUE_MAX : v < -LM_POINT_VALUE_MAX ? -LM_POINT_VALUE_MAX : v;
}

void
lm_point_pass_map (LmPointPass *pass, LmPointChannelFn fn, const void *params)
{
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 256; i++)
      pass->table[c][i] = held (fn (params, c, pass->table[c][i]));
  float *t = pass->table16;
  if (t == NULL)
    return;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < 3 * LM_POINT_TABLE16_SIZE; i++)
    t[i] = held (fn (params, i / LM_POINT_TABLE16_SIZE, t[i]));
}

void
lm_point_pass_map_gray (LmPointPass *pass, LmPointGrayFn fn, const void *params)
{
  for (int i = 0; i < 256; i++)
    pass->gray[i] = fn (params, pass->gray[i]);
  float *t = pass->gray16;
  if (t == NULL)
    return;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < LM_POINT_TABLE16_SIZE; i++)
    t[i] = fn (params, t[i]);
}

float *
lm_point_table16 (const LmPointPass *pass, gboolean gray)
{
  int n = (gray ? 1 : 3) * LM_POINT_TABLE16_SIZE;
  float *table = g_new (float, n);
  for (int i = 0; i < n; i++)
    table[i] = lm_u16_value (i % LM_POINT_TABLE16_SIZE);
  /* The operations prepared again on a pass that maps the large table too. */
  g_autofree LmPointPass *again = g_new (LmPointPass, 1);
  lm_point_pass_init (again);
  if (gray)
    again->gray16 = table;
  else
    again->table16 = table;
  for (guint k = 0; k < pass->n_recipe; k++)
    lm_op_info (pass->recipe[k].id)->point_prepare (pass->recipe[k].params, again);
  return table;
}

LM_SIMD_CLONES static void
row_rgba (const LmPointPixels *px, const float (*table)[256], const guint32 *restrict in, guint32 *restrict out,
          guint width)
{
  for (guint x = 0; x < width; x++)
    out[x] = lm_point_rgba (px, table, in[x]);
}

LM_SIMD_CLONES static void
row_rgba16 (const LmPointPixels *px, const float *table16, const guint64 *restrict in, guint64 *restrict out,
            guint width)
{
  for (guint x = 0; x < width; x++)
    out[x] = lm_point_rgba16 (px, table16, in[x]);
}

/* A pass of channel parts alone (white balance, exposure, contrast, a curve in RGB mode) maps
 * each 8-bit channel value to one 8-bit value: its table quantized once, then byte lookups,
 * the same bytes as lm_point_rgba's float path (which quantizes the same table entries) at
 * a fraction of its work, as OpenCV's LUT does. */
typedef struct {
  guint8 r[256], g[256], b[256];
} ChannelLut;

static void
channel_lut (const LmPointPass *pass, ChannelLut *lut)
{
  for (int i = 0; i < 256; i++)
    {
      lut->r[i] = lm_quantize_u8 (pass->table[0][i]);
      lut->g[i] = lm_quantize_u8 (pass->table[1][i]);
      lut->b[i] = lm_quantize_u8 (pass->table[2][i]);
    }
}

static void
row_rgba_lut (const ChannelLut *lut, const guint32 *restrict in, guint32 *restrict out, guint width)
{
  for (guint x = 0; x < width; x++)
    {
      guint32 p = in[x];
      out[x] = (guint32) lut->r[p & 0xff] | (guint32) lut->g[(p >> 8) & 0xff] << 8
               | (guint32) lut->b[(p >> 16) & 0xff] << 16 | (p & 0xff000000u);
    }
}

static void
run_lut (const LmPointPass *pass, const LmImage *src, LmImage *dst)
{
  ChannelLut lut;
  channel_lut (pass, &lut);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    row_rgba_lut (&lut, (const guint32 *) lm_image_row (src, y), (guint32 *) lm_image_row (dst, y), src->width);
}

/* A gray source: its table quantized once (the bytes of lm_point_gray), then byte lookups. */
static void
run_gray (const LmPointPass *pass, const LmImage *src, LmImage *dst)
{
  guint8 lut[256];
  for (int i = 0; i < 256; i++)
    lut[i] = lm_point_gray (pass->gray, (guint8) i);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint8 *out = lm_image_row (dst, y);
      for (guint x = 0; x < src->width; x++)
        out[x] = lut[in[x]];
    }
}

static void
run16 (const LmPointPass *pass, const LmImage *src, LmImage *dst)
{
  gboolean gray = src->format == LM_FORMAT_GRAY16;
  g_autofree float *table16 = lm_point_table16 (pass, gray);
  LmPointPixels px = lm_point_pass_pixels (pass);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      if (gray)
        {
          const guint16 *in = (const guint16 *) lm_image_row (src, y);
          guint16 *out = (guint16 *) lm_image_row (dst, y);
          for (guint x = 0; x < src->width; x++)
            out[x] = lm_point_gray16 (table16, in[x]);
        }
      else
        row_rgba16 (&px, table16, (const guint64 *) lm_image_row (src, y), (guint64 *) lm_image_row (dst, y),
                    src->width);
    }
}

void
lm_point_run_cpu (const LmPointPass *pass, const LmImage *src, LmImage *dst)
{
  g_return_if_fail (dst->format == lm_point_output_format (NULL, src->format, src->opaque)
                    && src->width == dst->width && src->height == dst->height);
  if (lm_format_depth (src->format) == 16)
    run16 (pass, src, dst);
  else if (src->format == LM_FORMAT_GRAY8)
    run_gray (pass, src, dst);
  else if (pass->pixel_ops == 0)
    run_lut (pass, src, dst);
  else
    {
      LmPointPixels px = lm_point_pass_pixels (pass);
#pragma omp parallel for schedule(static)
      for (guint y = 0; y < src->height; y++)
        row_rgba (&px, pass->table, (const guint32 *) lm_image_row (src, y), (guint32 *) lm_image_row (dst, y),
                  src->width);
    }
}

LmFormat
lm_point_output_format (const void *params, LmFormat in, gboolean opaque)
{
  if (in == LM_FORMAT_GRAY8 || in == LM_FORMAT_GRAY16)
    return in; /* gray in, gray out */
  return lm_format_depth (in) == 16 ? LM_FORMAT_RGBA16 : LM_FORMAT_RGBA8;
}

gboolean
lm_point_run_one_cpu (const LmOpInfo *info, const void *params, const LmImage *src, LmImage *dst,
                      GError **error)
{
  LmPointPass pass;
  lm_point_pass_init (&pass);
  lm_point_pass_add (&pass, info, params);
  lm_point_run_cpu (&pass, src, dst);
  return TRUE;
}
