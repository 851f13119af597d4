/* Straighten: a small turn with bicubic sampling, cropped to the largest upright rectangle;
 * CPU reference (straighten-math.h has the geometry and the sampling). */
#include <string.h>
#include <omp.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "ops.h"
#include "simd.h"
#include "straighten-math.h"

#define LM_PARAM_STRUCT LmStraightenParams
static const LmParamSpec straighten_params[] = { LM_STRAIGHTEN_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static LmFormat
straighten_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static void
straighten_output_size (const void *params, guint width, guint height, guint *out_width, guint *out_height)
{
  const LmStraightenParams *p = params;
  if (lm_tile_frame_active (&p->tile))
    *out_width = p->tile.out_w, *out_height = p->tile.out_h;
  else
    lm_straighten_size (params, width, height, out_width, out_height);
}

typedef float v4sf __attribute__ ((vector_size (16)));
typedef guint8 v4qu __attribute__ ((vector_size (4)));

/* An RGBA8 pixel's four channels as floats. */
static inline v4sf
pixel_floats (const guint8 *p)
{
  v4qu q;
  memcpy (&q, p, 4);
  return __builtin_convertvector (q, v4sf);
}

typedef gint32 v4si __attribute__ ((vector_size (16)));
typedef guint8 v16qu __attribute__ ((vector_size (16)));

/* Four neighbouring RGBA8 pixels (16 bytes) as four vectors of floats: one load and a byte
 * shuffle each, where a conversion of each 4-byte pixel went a byte at a time. */
#define PIXEL_LANES(n) 4 * n, 16, 16, 16, 4 * n + 1, 16, 16, 16, 4 * n + 2, 16, 16, 16, 4 * n + 3, 16, 16, 16
LM_ROW_INLINE void
four_pixel_floats (const guint8 *p, v4sf px[4])
{
  v16qu q;
  memcpy (&q, p, sizeof q);
  const v16qu zero = { 0 };
  px[0] = __builtin_convertvector ((v4si) __builtin_shufflevector (q, zero, PIXEL_LANES (0)), v4sf);
  px[1] = __builtin_convertvector ((v4si) __builtin_shufflevector (q, zero, PIXEL_LANES (1)), v4sf);
  px[2] = __builtin_convertvector ((v4si) __builtin_shufflevector (q, zero, PIXEL_LANES (2)), v4sf);
  px[3] = __builtin_convertvector ((v4si) __builtin_shufflevector (q, zero, PIXEL_LANES (3)), v4sf);
}
#undef PIXEL_LANES

/* lm_cubic_sum over four channels at once: each lane sees the same float operations in the
 * same order as lm_straighten_rgba's per-channel sums, so the bytes are the same. */
static inline v4sf
cubic_sum4 (v4sf a, v4sf b, v4sf c, v4sf d, const float k[4])
{
  return ((k[0] * a + k[1] * b) + k[2] * c) + k[3] * d;
}

/* lm_straighten_rgba before its rounding, for the pixels near the edges. */
static v4sf
edge_rgba (const guint8 *src, gsize stride, const LmStraightenSource *s, float sx, float sy)
{
  int xi[4], yi[4];
  float kx[4], ky[4];
  lm_cubic_taps (sx, sy, s, xi, yi, kx, ky);
  v4sf rows[4];
  for (int j = 0; j < 4; j++)
    {
      const guint8 *row = src + (gsize) yi[j] * stride;
      rows[j] = cubic_sum4 (pixel_floats (row + xi[0] * 4), pixel_floats (row + xi[1] * 4),
                            pixel_floats (row + xi[2] * 4), pixel_floats (row + xi[3] * 4), kx);
    }
  return cubic_sum4 (rows[0], rows[1], rows[2], rows[3], ky);
}

/* One output row's work, in three passes that each vectorize: every pixel's source point and
 * cubic weights (across pixels), the 4 × 4 sums (across channels), the rounding (across
 * values). Each value sees the float operations of lm_straighten_rgba in its order, so the
 * bytes are the same. */
typedef struct {
  float *sx, *sy, *fx, *fy, *k[8]; /* OW each: kx[0..3], ky[0..3] */
  float *acc;                      /* OW × 4 */
} RowLanes;

LM_SIMD_CLONES static void
row_weights (const LmStraightenMap *m, guint i0, guint j, guint ow, RowLanes *l)
{
  float *restrict sx = l->sx, *restrict sy = l->sy, *restrict fx = l->fx, *restrict fy = l->fy;
  float *restrict k0 = l->k[0], *restrict k1 = l->k[1], *restrict k2 = l->k[2], *restrict k3 = l->k[3];
  float *restrict k4 = l->k[4], *restrict k5 = l->k[5], *restrict k6 = l->k[6], *restrict k7 = l->k[7];
  /* A copy of the map: loads through M inside the loop kept GCC from vectorizing it, as
   * stores to the lanes might change *M. */
  const LmStraightenMap mm = *m;
  const float fj = (float) (gint) j;
  /* The lanes never overlap; GCC does not take restrict on these locals as proof and would
   * need more run-time alias checks than it makes, so it left the loop scalar. */
#pragma GCC ivdep
  for (gint i = 0; i < (gint) ow; i++)
    {
      float fi = (float) ((gint) i0 + i);
      float x = lm_straighten_src_xf (&mm, fi, fj), y = lm_straighten_src_yf (&mm, fi, fj);
      float ffx = floorf (x), ffy = floorf (y);
      sx[i] = x, sy[i] = y, fx[i] = ffx, fy[i] = ffy;
      lm_cubic_weights_each (x - ffx, &k0[i], &k1[i], &k2[i], &k3[i]);
      lm_cubic_weights_each (y - ffy, &k4[i], &k5[i], &k6[i], &k7[i]);
    }
}

/* The box of neighbourhood corners (floor - 1) whose clamps do nothing and whose four
 * pixels of a row lie side by side, in the piece of the source that S holds. In double:
 * past 2^24 a bound in float may round outwards, and the taps leave the source. */
typedef struct {
  double lo_x, hi_x, lo_y, hi_y;
} Interior;

static inline Interior
interior_of (const LmStraightenSource *s)
{
  return (Interior) { MAX (0, s->ox) + 1.0, MIN (s->w, s->ox + s->tw) - 3.0, MAX (0, s->oy) + 1.0,
                      MIN (s->h, s->oy + s->th) - 3.0 };
}

/* Pixel I's neighbourhood's first byte, or NULL near the edges. */
static inline const guint8 *
interior_taps (const LmImage *src, const LmStraightenSource *s, const Interior *in, const RowLanes *l, guint i)
{
  double fx = l->fx[i], fy = l->fy[i];
  if (fx >= in->lo_x && fx <= in->hi_x && fy >= in->lo_y && fy <= in->hi_y)
    return src->data + (gsize) ((int) fy - 1 - s->oy) * src->stride + (gsize) ((int) fx - 1 - s->ox) * 4;
  return NULL;
}

/* Pixel I's sums before their rounding, into its four places of the lanes' sums. */
LM_ROW_INLINE void
pixel_sums (const LmImage *src, const LmStraightenSource *s, const Interior *in, const RowLanes *l, guint i)
{
  v4sf v;
  const guint8 *p = interior_taps (src, s, in, l, i);
  if (p != NULL)
    {
      float kx[4] = { l->k[0][i], l->k[1][i], l->k[2][i], l->k[3][i] };
      float ky[4] = { l->k[4][i], l->k[5][i], l->k[6][i], l->k[7][i] };
      v4sf r[4];
      for (int j = 0; j < 4; j++, p += src->stride)
        {
          v4sf px[4];
          four_pixel_floats (p, px);
          r[j] = cubic_sum4 (px[0], px[1], px[2], px[3], kx);
        }
      v = cubic_sum4 (r[0], r[1], r[2], r[3], ky);
    }
  else
    v = edge_rgba (src->data, src->stride, s, l->sx[i], l->sy[i]);
  memcpy (l->acc + (gsize) i * 4, &v, sizeof v);
}

LM_SIMD_CLONES static void
row_sums (const LmImage *src, const LmStraightenSource *s, guint ow, const RowLanes *l)
{
  Interior in = interior_of (s);
  for (guint i = 0; i < ow; i++)
    pixel_sums (src, s, &in, l, i);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_ROW_SUMS_AVX2 1

/* Weight lane K's values for pixels I and I + 1, each over its four channels. */
__attribute__ ((target ("avx2"))) static inline __m256
pair_weights (const float *k, guint i)
{
  __m128 two = _mm_castsi128_ps (_mm_loadl_epi64 ((const __m128i_u *) (k + i))); /* 4-byte aligned */
  return _mm256_permutevar8x32_ps (_mm256_castps128_ps256 (two), _mm256_setr_epi32 (0, 0, 0, 0, 1, 1, 1, 1));
}

/* cubic_sum4 of two pixels at once, in the same order. */
__attribute__ ((target ("avx2"))) static inline __m256
pair_cubic_sum (__m256 a, __m256 b, __m256 c, __m256 d, const __m256 k[4])
{
  __m256 t = _mm256_add_ps (_mm256_mul_ps (k[0], a), _mm256_mul_ps (k[1], b));
  t = _mm256_add_ps (t, _mm256_mul_ps (k[2], c));
  return _mm256_add_ps (t, _mm256_mul_ps (k[3], d));
}

/* row_sums two output pixels at a time where both neighbourhoods are inside: eight-float
 * vectors hold both pixels' four channels, and each row of four taps comes in with one
 * load a pixel and a byte shuffle a tap (the generic loop works one pixel in four floats).
 * Every value sees the same float operations in the same order, so the bytes are the same. */
__attribute__ ((target ("avx2"))) static void
row_sums_avx2 (const LmImage *src, const LmStraightenSource *s, guint ow, const RowLanes *l)
{
  Interior in = interior_of (s);
  const __m256i taps[4] = {
#define TAP(n) _mm256_setr_epi8 (4 * n, -1, -1, -1, 4 * n + 1, -1, -1, -1, 4 * n + 2, -1, -1, -1, 4 * n + 3, -1, -1, -1, \
                                 4 * n, -1, -1, -1, 4 * n + 1, -1, -1, -1, 4 * n + 2, -1, -1, -1, 4 * n + 3, -1, -1, -1)
    TAP (0), TAP (1), TAP (2), TAP (3),
#undef TAP
  };
  guint i = 0;
  for (; i + 1 < ow; i += 2)
    {
      const guint8 *pa = interior_taps (src, s, &in, l, i), *pb = interior_taps (src, s, &in, l, i + 1);
      if (pa == NULL || pb == NULL)
        {
          pixel_sums (src, s, &in, l, i);
          pixel_sums (src, s, &in, l, i + 1);
          continue;
        }
      __m256 kx[4], ky[4], r[4];
      for (int k = 0; k < 4; k++)
        kx[k] = pair_weights (l->k[k], i), ky[k] = pair_weights (l->k[4 + k], i);
      for (int j = 0; j < 4; j++, pa += src->stride, pb += src->stride)
        {
          __m256i q = _mm256_inserti128_si256 (_mm256_castsi128_si256 (_mm_loadu_si128 ((const __m128i *) pa)),
                                               _mm_loadu_si128 ((const __m128i *) pb), 1);
          __m256 px[4];
          for (int t = 0; t < 4; t++)
            px[t] = _mm256_cvtepi32_ps (_mm256_shuffle_epi8 (q, taps[t]));
          r[j] = pair_cubic_sum (px[0], px[1], px[2], px[3], kx);
        }
      _mm256_storeu_ps (l->acc + (gsize) i * 4, pair_cubic_sum (r[0], r[1], r[2], r[3], ky));
    }
  for (; i < ow; i++)
    pixel_sums (src, s, &in, l, i);
}
#endif

LM_SIMD_CLONES static void
row_store (const float *restrict acc, guint8 *restrict out, gsize n)
{
  for (gsize i = 0; i < n; i++)
    out[i] = lm_quantize_u8 (acc[i]);
}

static gboolean
straighten_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  gboolean deep = src->format == LM_FORMAT_RGBA16 || src->format == LM_FORMAT_GRAY16;
  if (src->format != LM_FORMAT_RGBA8 && src->format != LM_FORMAT_GRAY8 && !deep)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s needs an 8-bit image"), "straighten");
      return FALSE;
    }
  LmStraightenSource s;
  guint out_x, out_y;
  LmStraightenMap m = lm_straighten_setup (params, src->width, src->height, dst->width, dst->height, &s, &out_x,
                                           &out_y);
  gboolean gray = src->format == LM_FORMAT_GRAY8;
  guint ow = dst->width;
  if (!deep && !gray)
    {
      int threads = omp_get_max_threads ();
#ifdef HAVE_ROW_SUMS_AVX2
      gboolean avx2 = __builtin_cpu_supports ("avx2");
#endif
      /* A row in pieces of at most SPAN pixels: the scratch stays small at any width. */
      const guint span = MIN (ow, 4096u);
      gsize lane = (gsize) span * 16; /* floats: 12 a pixel's point and weights, 4 its sums */
      float *pool = g_try_new (float, lane * threads);
      if (pool == NULL)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("Not enough memory to straighten %u × %u"),
                       src->width, src->height);
          return FALSE;
        }
#pragma omp parallel num_threads (threads)
      {
        float *b = pool + lane * omp_get_thread_num ();
        RowLanes l = { b, b + span, b + 2 * (gsize) span, b + 3 * (gsize) span, { NULL }, b + 12 * (gsize) span };
        for (int k = 0; k < 8; k++)
          l.k[k] = b + (4 + (gsize) k) * span;
        /* Chunks as threads come free: a loaded machine stalls a static split on its slowest. */
#pragma omp for schedule(dynamic, 8)
        for (guint j = 0; j < dst->height; j++)
          for (guint i0 = 0; i0 < ow; i0 += span)
            {
              guint n = MIN (span, ow - i0);
              row_weights (&m, out_x + i0, out_y + j, n, &l);
#ifdef HAVE_ROW_SUMS_AVX2
              if (avx2)
                row_sums_avx2 (src, &s, n, &l);
              else
#endif
                row_sums (src, &s, n, &l);
              row_store (l.acc, lm_image_row (dst, j) + (gsize) i0 * 4, (gsize) n * 4);
            }
      }
      g_free (pool);
      return TRUE;
    }
#pragma omp parallel for schedule(dynamic, 8)
  for (guint j = 0; j < dst->height; j++)
    {
      guint8 *out = lm_image_row (dst, j);
      for (guint i = 0; i < dst->width; i++)
        {
          float sx = lm_straighten_src_x (&m, out_x + i, out_y + j), sy = lm_straighten_src_y (&m, out_x + i, out_y + j);
          if (deep)
            lm_straighten16 (src->data, src->stride, &s, (int) lm_format_channels (src->format), sx, sy,
                             (guint16 *) out + (gsize) i * lm_format_channels (src->format));
          else if (gray)
            out[i] = lm_straighten_gray (src->data, src->stride, &s, sx, sy);
          else
            ((guint32 *) out)[i] = lm_straighten_rgba (src->data, src->stride, &s, sx, sy);
        }
    }
  return TRUE;
}

/* The window's picker: the output point's source point, by the map the sampling uses. */
static void
straighten_map_back (const void *params, guint in_w, guint in_h, double x, double y, double *sx, double *sy)
{
  guint ow, oh;
  lm_straighten_size (params, in_w, in_h, &ow, &oh);
  LmStraightenMap m = lm_straighten_map (params, in_w, in_h, ow, oh);
  double dx = x - m.hx, dy = y - m.hy;
  *sx = m.cx + (m.c * dx - m.s * dy);
  *sy = m.cy + (m.s * dx + m.c * dy);
}

/* Tiles: the bounding box of the output rectangle's corners mapped back, plus the cubic's
 * reach (one pixel before the floor, two after) and one pixel for float rounding between the
 * corners and the pixels inside. */
static void
straighten_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  guint ow, oh;
  lm_straighten_size (params, in_w, in_h, &ow, &oh);
  LmStraightenMap m = lm_straighten_map (params, in_w, in_h, ow, oh);
  float x0 = G_MAXFLOAT, y0 = G_MAXFLOAT, x1 = -G_MAXFLOAT, y1 = -G_MAXFLOAT;
  for (int c = 0; c < 4; c++)
    {
      guint i = out->x + (c & 1 ? out->width - 1 : 0), j = out->y + (c & 2 ? out->height - 1 : 0);
      float sx = lm_straighten_src_x (&m, i, j), sy = lm_straighten_src_y (&m, i, j);
      x0 = MIN (x0, sx), x1 = MAX (x1, sx), y0 = MIN (y0, sy), y1 = MAX (y1, sy);
    }
  int ax = CLAMP ((int) floorf (x0) - 2, 0, (int) in_w - 1), bx = CLAMP ((int) floorf (x1) + 3, 0, (int) in_w - 1);
  int ay = CLAMP ((int) floorf (y0) - 2, 0, (int) in_h - 1), by = CLAMP ((int) floorf (y1) + 3, 0, (int) in_h - 1);
  *in = (LmRect) { (guint) ax, (guint) ay, (guint) (bx - ax + 1), (guint) (by - ay + 1) };
}

static LmTileFrame *
straighten_tile_frame (void *params)
{
  return &((LmStraightenParams *) params)->tile;
}

const LmOpInfo lm_straighten_op = {
  .id = LM_OP_STRAIGHTEN,
  .name = "straighten",
  .label = N_("Straighten"),
  .blurb = N_("Turn by a small angle in degrees (positive: counter-clockwise), cropped to the largest upright rectangle"),
  .params = straighten_params,
  .n_params = G_N_ELEMENTS (straighten_params),
  .params_size = sizeof (LmStraightenParams),
  .version = 1,
  .output_format = straighten_output_format,
  .output_size = straighten_output_size,
  .map_back = straighten_map_back,
  .run_cpu = straighten_run_cpu,
  .source_rect = straighten_source_rect,
  .tile_frame = straighten_tile_frame,
};
