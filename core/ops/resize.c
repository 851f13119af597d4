/* Resize: the export's scaling, CPU reference (resize-math.h has the size rule, the weights
 * and the sums). */
#include <string.h>
#include <omp.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "ops.h"
#include "resize-math.h"
#include "simd.h"

static const LmEnumValue lm_resize_modes[] = {
  { "fit", N_("Fit inside (keep the aspect ratio)") },
  { "exact", N_("Exact size") },
  { NULL, NULL },
};

#define LM_PARAM_STRUCT LmResizeParams
static const LmParamSpec resize_params[] = { LM_RESIZE_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static LmFormat
resize_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static void
resize_output_size (const void *params, guint width, guint height, guint *out_width, guint *out_height)
{
  const LmResizeParams *p = params;
  if (lm_tile_frame_active (&p->tile))
    *out_width = p->tile.out_w, *out_height = p->tile.out_h;
  else
    lm_resize_size (params, width, height, out_width, out_height);
}

/* One axis's table (lm_resize_axis_table) with each weight's source index, held within the
 * N pixels of the input given as the sums of resize-math.h hold them (spans lie inside the
 * axis; the clamp guards a tile's window). */
typedef struct {
  LmResizeSpan *spans;
  float *weights;
  gint32 *index;
  guint max_count;
} AxisTable;

static AxisTable
axis_table (const LmResizeAxis *a, guint n)
{
  gsize capacity = lm_resize_axis_capacity (a->in, a->out);
  AxisTable t = { g_new (LmResizeSpan, MAX (a->count, 1)), g_new (float, capacity), g_new (gint32, capacity), 1 };
  lm_resize_axis_table_part (a->in, a->out, a->first, a->count, a->origin, t.spans, t.weights);
  for (guint i = 0; i < a->count; i++)
    {
      LmResizeSpan s = t.spans[i];
      for (guint k = 0; k < s.count; k++)
        t.index[s.offset + k] = CLAMP (s.start + (gint32) k, 0, (gint32) n - 1);
      t.max_count = MAX (t.max_count, s.count);
    }
  return t;
}

static void
axis_table_clear (AxisTable *t)
{
  g_free (t->spans);
  g_free (t->weights);
  g_free (t->index);
}

/* The passes below run the sums of resize-math.h (acc = 0, then acc + w × v tap after tap,
 * in the table's order) over whole rows at once, so that they vectorize across pixels and
 * channels while every value sees the same float operations as lm_resize_sum_*: the bytes
 * do not change, and the GPU (which runs those sums) still agrees. */

typedef float v4sf __attribute__ ((vector_size (16)));

/* A source row as the sums read it: 8-bit values as floats, 16-bit on the 0..255 scale. */
LM_SIMD_CLONES static void
row_to_float (const guint8 *in, gboolean deep, gsize n, float *out)
{
  if (deep)
    for (gsize i = 0; i < n; i++)
      out[i] = lm_u16_value (((const guint16 *) in)[i]);
  else
    for (gsize i = 0; i < n; i++)
      out[i] = (float) in[i];
}

/* ACC (N values) plus W × ROW, for the first tap after ACC = 0. */
LM_SIMD_CLONES static void
row_add_f32 (float *restrict acc, const float *restrict row, float w, gsize n)
{
  for (gsize i = 0; i < n; i++)
    acc[i] = acc[i] + w * row[i];
}

LM_SIMD_CLONES static void
row_add_u8 (float *restrict acc, const guint8 *restrict row, float w, gsize n)
{
  for (gsize i = 0; i < n; i++)
    acc[i] = acc[i] + w * (float) row[i];
}

LM_SIMD_CLONES static void
row_add_u16 (float *restrict acc, const guint16 *restrict row, float w, gsize n)
{
  for (gsize i = 0; i < n; i++)
    acc[i] = acc[i] + w * lm_u16_value (row[i]);
}

/* The vertical sums of output row Y from the source's rows into ACC (N values a row). */
static void
vertical_from_source (const LmImage *src, gboolean deep, const AxisTable *t, guint y, float *acc, gsize n)
{
  LmResizeSpan s = t->spans[y];
  memset (acc, 0, n * sizeof (float));
  for (guint k = 0; k < s.count; k++)
    {
      const guint8 *row = lm_image_row (src, (guint) t->index[s.offset + k]);
      float w = t->weights[s.offset + k];
      if (deep)
        row_add_u16 (acc, (const guint16 *) row, w, n);
      else
        row_add_u8 (acc, row, w, n);
    }
}

/* The horizontal sums of one float row IN (C channels a pixel) into OUT, OUT_W pixels. */
LM_SIMD_CLONES static void
horizontal (const float *restrict in, float *restrict out, guint out_w, int C, const AxisTable *t)
{
  if (C == 4)
    for (guint x = 0; x < out_w; x++)
      {
        LmResizeSpan s = t->spans[x];
        v4sf acc = { 0.0f, 0.0f, 0.0f, 0.0f };
        for (guint k = 0; k < s.count; k++)
          {
            v4sf v;
            memcpy (&v, in + (gsize) t->index[s.offset + k] * 4, sizeof v);
            acc = acc + t->weights[s.offset + k] * v;
          }
        memcpy (out + (gsize) x * 4, &acc, sizeof acc);
      }
  else
    for (guint x = 0; x < out_w; x++)
      {
        LmResizeSpan s = t->spans[x];
        float acc = 0.0f;
        for (guint k = 0; k < s.count; k++)
          acc = acc + t->weights[s.offset + k] * in[t->index[s.offset + k]];
        out[x] = acc;
      }
}

/* The one rounding of a finished row. */
LM_SIMD_CLONES static void
store_row (const float *restrict acc, guint8 *restrict out, gboolean deep, gsize n)
{
  if (deep)
    for (gsize i = 0; i < n; i++)
      ((guint16 *) out)[i] = lm_quantize_u16 (acc[i]);
  else
    for (gsize i = 0; i < n; i++)
      out[i] = lm_quantize_u8 (acc[i]);
}

/* Area averaging by a power of two K on an axis (K source pixels of weight exactly 1/K an
 * output pixel, side by side): the float sums then make no rounding error (every partial sum
 * is a multiple of 1/(KX KY) below 2^24 of them), so they equal the integer box sum S / (KX KY)
 * and the one rounding is (S + KX KY / 2) / (KX KY) in integers: the same bytes, at the speed
 * of integer adds. 0 when the axis is not such a box. */
static guint
box_factor (const AxisTable *t, guint count)
{
  guint k = t->spans[0].count;
  if (k < 2 || k > 16 || (k & (k - 1)) != 0)
    return 0;
  for (guint i = 0; i < count; i++)
    {
      LmResizeSpan s = t->spans[i];
      if (s.count != k || t->index[s.offset] != t->index[0] + (gint32) (i * k))
        return 0;
      for (guint j = 0; j < k; j++)
        if (t->weights[s.offset + j] != 1.0f / (float) k || t->index[s.offset + j] != t->index[s.offset] + (gint32) j)
          return 0;
    }
  return k;
}

/* ACC (N values) plus the 8-bit ROW. */
LM_SIMD_CLONES static void
row_add_u8_u16 (guint16 *restrict acc, const guint8 *restrict row, gsize n)
{
  for (gsize i = 0; i < n; i++)
    acc[i] = (guint16) (acc[i] + row[i]);
}

/* Output pixels from the column sums SUM: KX pixels of C channels each, from pixel X0 on. */
LM_SIMD_CLONES static void
box_row (const guint16 *restrict sum, guint8 *restrict out, guint ow, int C, guint kx, guint x0, guint shift)
{
  guint half = 1u << (shift - 1);
  if (C == 4 && kx == 2)
    {
      /* A pixel's four 16-bit sums as one 64-bit word: lanes add without carrying into each
       * other (each stays below 2^16), and after the shift each lane's low byte is its own. */
      const guint64 halves = half * 0x0001000100010001ull, bytes = 0x00ff00ff00ff00ffull;
      for (guint x = 0; x < ow; x++)
        {
          guint64 a, b;
          memcpy (&a, sum + ((gsize) x0 + 2 * (gsize) x) * 4, 8);
          memcpy (&b, sum + ((gsize) x0 + 2 * (gsize) x + 1) * 4, 8);
          guint64 v = ((a + b + halves) >> shift) & bytes;
          v = (v | v >> 8) & 0x0000ffff0000ffffull;
          guint32 p = (guint32) (v | v >> 16);
          memcpy (out + (gsize) x * 4, &p, 4);
        }
      return;
    }
  for (guint x = 0; x < ow; x++)
    for (int c = 0; c < C; c++)
      {
        guint v = half;
        for (guint j = 0; j < kx; j++)
          v += sum[((gsize) x0 + (gsize) x * kx + j) * C + c];
        out[(gsize) x * C + c] = (guint8) (v >> shift);
      }
}

typedef guint8 v16qu __attribute__ ((vector_size (16)));
typedef guint16 v16hu __attribute__ ((vector_size (32)));
typedef guint16 v8hu __attribute__ ((vector_size (16)));
typedef guint8 v8qu __attribute__ ((vector_size (8)));
typedef guint64 v4du __attribute__ ((vector_size (32)));
typedef guint64 v2du __attribute__ ((vector_size (16)));

/* The commonest shrink, RGBA by 2 on both axes, in one pass over the two source rows: four
 * pixels of each row widened to 16 bits, the rows added, then neighbouring pixels (64-bit
 * lanes) added, rounded and narrowed: two output pixels an iteration. */
LM_SIMD_CLONES static void
box_rgba_2x2 (const guint8 *restrict r0, const guint8 *restrict r1, guint8 *restrict out, guint ow)
{
  const v8hu two = { 2, 2, 2, 2, 2, 2, 2, 2 };
  guint x = 0;
  for (; x + 2 <= ow; x += 2)
    {
      v16qu a, b;
      memcpy (&a, r0 + (gsize) x * 8, 16);
      memcpy (&b, r1 + (gsize) x * 8, 16);
      v16hu s = __builtin_convertvector (a, v16hu) + __builtin_convertvector (b, v16hu);
      v4du q = (v4du) s;
      v2du pairs = __builtin_shufflevector (q, q, 0, 2) + __builtin_shufflevector (q, q, 1, 3);
      v8qu o = __builtin_convertvector (((v8hu) pairs + two) >> 2, v8qu);
      memcpy (out + (gsize) x * 4, &o, 8);
    }
  for (; x < ow; x++)
    for (int c = 0; c < 4; c++)
      {
        gsize i = (gsize) x * 8 + c; /* past 2^29 pixels a row, x · 8 leaves 32 bits */
        out[(gsize) x * 4 + c] = (guint8) ((r0[i] + r0[i + 4] + r1[i] + r1[i + 4] + 2) >> 2);
      }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_BOX_RGBA_2X2_AVX2 1

/* box_rgba_2x2 eight output pixels a step: a byte shuffle puts each channel's two source
 * pixels side by side, and one multiply-add of bytes by 1 adds them into 16 bits (where the
 * generic loop widened and added two pixels a step). The same integer sums, so the same bytes. */
__attribute__ ((target ("avx2"))) static void
box_rgba_2x2_avx2 (const guint8 *r0, const guint8 *r1, guint8 *out, guint ow)
{
  const __m256i pairs = _mm256_setr_epi8 (0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15,
                                          0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
  const __m256i ones = _mm256_set1_epi8 (1), two = _mm256_set1_epi16 (2);
  guint x = 0;
  for (; x + 8 <= ow; x += 8)
    {
      __m256i half[2];
      for (int h = 0; h < 2; h++) /* four output pixels from eight of each row */
        {
          gsize at = (gsize) x * 8 + (gsize) h * 32;
          __m256i a = _mm256_loadu_si256 ((const __m256i *) (r0 + at));
          __m256i b = _mm256_loadu_si256 ((const __m256i *) (r1 + at));
          __m256i sum = _mm256_add_epi16 (_mm256_maddubs_epi16 (_mm256_shuffle_epi8 (a, pairs), ones),
                                          _mm256_maddubs_epi16 (_mm256_shuffle_epi8 (b, pairs), ones));
          half[h] = _mm256_srli_epi16 (_mm256_add_epi16 (sum, two), 2);
        }
      /* The pack interleaves the halves' 128-bit lanes; the permute puts the pixels in order. */
      __m256i packed = _mm256_packus_epi16 (half[0], half[1]);
      _mm256_storeu_si256 ((__m256i *) (out + (gsize) x * 4), _mm256_permute4x64_epi64 (packed, 0xd8));
    }
  if (x < ow)
    box_rgba_2x2 (r0 + (gsize) x * 8, r1 + (gsize) x * 8, out + (gsize) x * 4, ow - x);
}
#endif

/* The 8-bit box case (box_factor on both axes, KX KY ≤ 256 so that sums fit 16 bits). */
static gboolean
resize_box_u8 (const LmImage *src, LmImage *dst, const AxisTable *xt, const AxisTable *yt, guint kx, guint ky)
{
  int C = (int) lm_format_channels (src->format);
  guint ow = dst->width, oh = dst->height, shift = (guint) g_bit_nth_lsf (kx * ky, -1);
  guint x0 = (guint) xt->index[0];
  gsize n = (gsize) ow * kx * C; /* the source values the output reads */
  int threads = omp_get_max_threads ();
  guint16 *pool = g_try_new (guint16, n * threads);
  if (pool == NULL)
    return FALSE;
#ifdef HAVE_BOX_RGBA_2X2_AVX2
  gboolean avx2 = __builtin_cpu_supports ("avx2");
#endif
#pragma omp parallel num_threads (threads)
  {
    guint16 *sum = pool + n * omp_get_thread_num ();
#pragma omp for schedule(dynamic, 16)
    for (guint y = 0; y < oh; y++)
      {
        const gint32 *rows = yt->index + yt->spans[y].offset;
        if (C == 4 && kx == 2 && ky == 2)
          {
            const guint8 *r0 = lm_image_row (src, (guint) rows[0]) + (gsize) x0 * 4;
            const guint8 *r1 = lm_image_row (src, (guint) rows[1]) + (gsize) x0 * 4;
#ifdef HAVE_BOX_RGBA_2X2_AVX2
            if (avx2)
              box_rgba_2x2_avx2 (r0, r1, lm_image_row (dst, y), ow);
            else
#endif
              box_rgba_2x2 (r0, r1, lm_image_row (dst, y), ow);
            continue;
          }
        memset (sum, 0, n * sizeof *sum);
        for (guint j = 0; j < ky; j++)
          row_add_u8_u16 (sum, lm_image_row (src, (guint) yt->index[yt->spans[y].offset + j]) + (gsize) x0 * C, n);
        box_row (sum, lm_image_row (dst, y), ow, C, kx, 0, shift);
      }
  }
  g_free (pool);
  return TRUE;
}

/* Horizontal first: the source rows that output rows share are resampled once into a ring of
 * RING rows per thread, found by their index (any RING is correct: a row is used as soon as it
 * is made; RING ≥ the longest span makes each row once per thread, as the spans only move
 * down). */
typedef struct {
  float *rows;    /* RING × OW × C */
  gint64 *tag;    /* the source row each slot holds, -1: none */
  float *line;    /* W × C: a source row as floats */
  float *acc;     /* OW × C */
} Lanes;

static gboolean
resize_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  gboolean deep = src->format == LM_FORMAT_RGBA16 || src->format == LM_FORMAT_GRAY16;
  if (src->format != LM_FORMAT_RGBA8 && src->format != LM_FORMAT_GRAY8 && !deep)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s needs an 8-bit image"), "resize");
      return FALSE;
    }
  guint w = src->width, h = src->height, ow = dst->width, oh = dst->height;
  int C = (int) lm_format_channels (src->format);
  /* A tile computes its pixels of the whole image's tables, in the whole image's order. */
  LmResizeAxis xa, ya;
  lm_resize_axes (params, w, h, ow, oh, &xa, &ya);
  gboolean vfirst = lm_resize_vertical_first (xa.in, ya.in, xa.out, ya.out);
  AxisTable xt = axis_table (&xa, w), yt = axis_table (&ya, h);
  guint kx = box_factor (&xt, ow), ky = box_factor (&yt, oh);
  if (!deep && kx && ky && kx * ky <= 256 && resize_box_u8 (src, dst, &xt, &yt, kx, ky))
    {
      axis_table_clear (&xt);
      axis_table_clear (&yt);
      return TRUE;
    }
  gsize in_n = (gsize) w * C, out_n = (gsize) ow * C;
  /* The ring's rows: up to the longest span, within about 32 MiB a thread. */
  gsize ring = vfirst ? 0 : CLAMP ((32u << 20) / (out_n * sizeof (float)), 1, yt.max_count);
  int threads = omp_get_max_threads ();
  /* Chunks handed out as threads come free (a loaded machine stalls a static split on its
   * slowest thread), long enough that the ring's refill at a chunk's start stays small. */
  int chunk = vfirst ? 16 : (int) MAX (32, 8 * yt.max_count);
  gsize lane_floats = in_n + out_n + ring * out_n;
  float *pool = g_try_new (float, lane_floats * threads);
  gint64 *tags = g_try_new (gint64, MAX (ring, 1) * threads);
  if (pool == NULL || tags == NULL)
    {
      g_free (pool);
      g_free (tags);
      axis_table_clear (&xt);
      axis_table_clear (&yt);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("Not enough memory to resize to %u × %u"), ow, oh);
      return FALSE;
    }

#pragma omp parallel num_threads (threads)
  {
    int me = omp_get_thread_num ();
    Lanes l = { pool + lane_floats * me + in_n + out_n, tags + MAX (ring, 1) * me, pool + lane_floats * me,
                pool + lane_floats * me + in_n };
    for (gsize r = 0; r < ring; r++)
      l.tag[r] = -1;
#pragma omp for schedule(dynamic, chunk)
    for (guint y = 0; y < oh; y++)
      {
        if (vfirst)
          {
            vertical_from_source (src, deep, &yt, y, l.line, in_n);
            horizontal (l.line, l.acc, ow, C, &xt);
          }
        else
          {
            LmResizeSpan s = yt.spans[y];
            memset (l.acc, 0, out_n * sizeof (float));
            for (guint k = 0; k < s.count; k++)
              {
                gint32 sy = yt.index[s.offset + k];
                float *row = l.rows + (gsize) (sy % ring) * out_n;
                if (l.tag[sy % ring] != sy)
                  {
                    row_to_float (lm_image_row (src, (guint) sy), deep, in_n, l.line);
                    horizontal (l.line, row, ow, C, &xt);
                    l.tag[sy % ring] = sy;
                  }
                row_add_f32 (l.acc, row, yt.weights[s.offset + k], out_n);
              }
          }
        store_row (l.acc, lm_image_row (dst, y), deep, out_n);
      }
  }

  axis_table_clear (&xt);
  axis_table_clear (&yt);
  g_free (pool);
  g_free (tags);
  return TRUE;
}

static void
resize_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  guint ow, oh;
  lm_resize_size (params, in_w, in_h, &ow, &oh);
  /* Tiles: on each axis, the input pixels that the output pixels' spans reach. */
  g_autofree float *xw = g_new (float, lm_resize_axis_stride (in_w, ow));
  g_autofree float *yw = g_new (float, lm_resize_axis_stride (in_h, oh));
  lm_resize_axis_source (in_w, ow, out->x, out->width, xw, &in->x, &in->width);
  lm_resize_axis_source (in_h, oh, out->y, out->height, yw, &in->y, &in->height);
}

static LmTileFrame *
resize_tile_frame (void *params)
{
  return &((LmResizeParams *) params)->tile;
}

const LmOpInfo lm_resize_op = {
  .id = LM_OP_RESIZE,
  .name = "resize",
  .label = N_("Resize"),
  .blurb = N_("Scale on export to WIDTHxHEIGHT (0: from the other side): area averaging for shrinks of 2 or more, "
              "else Lanczos-3"),
  .params = resize_params,
  .n_params = G_N_ELEMENTS (resize_params),
  .params_size = sizeof (LmResizeParams),
  .version = 1,
  .flag_params = "width,height",
  .flag_sep = 'x',
  .output_format = resize_output_format,
  .output_size = resize_output_size,
  .run_cpu = resize_run_cpu,
  .source_rect = resize_source_rect,
  .tile_frame = resize_tile_frame,
};
