/* Gaussian blur, CPU reference: separable, border reflect-101, kernel rule and large-σ
 * method in blur-math.h.
 *
 * Direct method: each thread makes whole output rows. The vertical pass reads the 8-bit,
 * 16-bit or float (scene light, RGBA_F32) source rows around y into one float row (padded by
 * the border), the horizontal pass turns
 * that row into the output, so no full-size intermediate image is stored. Both passes work
 * on blocks of BLOCK samples whose sums GCC keeps in vector registers across all taps (the
 * fixed-size inner loops are what its vectorizer turns into AVX2 code with register
 * accumulators). Blur only promises |Δ| ≤ 1, so this file is built with FMA contraction.
 *
 * Grid method: each grid row's vertical pass goes straight into its nodes' horizontal pass,
 * so the only buffer of the image's size is the nodes', which the caller keeps between runs
 * (LmBlurScratch, ops.h). */
#include <omp.h>
#include <string.h>
#include <glib/gi18n.h>

#include "blur-math.h"
#include "ops.h"
#include "rgb-rows.h"
#include "simd.h"
#include "../error.h"

#define BLOCK 32

#define LM_PARAM_STRUCT LmBlurParams
static const LmParamSpec blur_params[] = { LM_BLUR_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

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
      float acc[BLOCK];
      const guint8 *centre = rows[radius] + i0;
      for (int k = 0; k < BLOCK; k++)
        acc[k] = w[0] * (float) centre[k];
      for (int j = 1; j <= radius; j++)
        {
          const guint8 *a = rows[radius - j] + i0, *b = rows[radius + j] + i0;
          float wj = w[j];
          /* the pair is summed in integers: one conversion instead of two */
          for (int k = 0; k < BLOCK; k++)
            acc[k] += wj * (float) (a[k] + b[k]);
        }
      memcpy (tmp + i0, acc, sizeof acc);
    }
}

/* vertical_pass for 16-bit rows: the raw sums, then the 0..255 scale (blur-math.h). */
LM_SIMD_CLONES static void
vertical_pass16 (const guint16 *const *rows, int radius, const float *w, float *restrict tmp,
                 gsize n)
{
  for (gsize i0 = 0; i0 < n; i0 += BLOCK)
    {
      float acc[BLOCK];
      const guint16 *centre = rows[radius] + i0;
      for (int k = 0; k < BLOCK; k++)
        acc[k] = w[0] * (float) centre[k];
      for (int j = 1; j <= radius; j++)
        {
          const guint16 *a = rows[radius - j] + i0, *b = rows[radius + j] + i0;
          float wj = w[j];
          for (int k = 0; k < BLOCK; k++)
            acc[k] += wj * (float) ((guint32) a[k] + b[k]);
        }
      for (int k = 0; k < BLOCK; k++)
        tmp[i0 + k] = lm_blur_u16_scale (acc[k]);
    }
}

/* vertical_pass for float rows (scene light, RGBA_F32): the sums as they are. A row's padding
 * holds less than a block of floats, so the last part block reads only its own samples. */
LM_SIMD_CLONES static void
vertical_pass_f32 (const float *const *rows, int radius, const float *w, float *restrict tmp, gsize n)
{
  gsize i0 = 0;
  for (; i0 + BLOCK <= n; i0 += BLOCK)
    {
      float acc[BLOCK];
      const float *centre = rows[radius] + i0;
      for (int k = 0; k < BLOCK; k++)
        acc[k] = w[0] * centre[k];
      for (int j = 1; j <= radius; j++)
        {
          const float *a = rows[radius - j] + i0, *b = rows[radius + j] + i0;
          float wj = w[j];
          for (int k = 0; k < BLOCK; k++)
            acc[k] += wj * (a[k] + b[k]);
        }
      memcpy (tmp + i0, acc, sizeof acc);
    }
  for (gsize i = i0; i < n; i++)
    {
      float acc = w[0] * rows[radius][i];
      for (int j = 1; j <= radius; j++)
        acc += w[j] * (rows[radius - j][i] + rows[radius + j][i]);
      tmp[i] = acc;
    }
}

/* sums[i] = Σ_j w_j · (t[i − j·ch] + t[i + j·ch]) for one block; T is padded by RADIUS
 * pixels on both sides. */
static inline void
horizontal_block (const float *t, int radius, int ch, const float *w, float sums[BLOCK])
{
  float acc[BLOCK];
  for (int k = 0; k < BLOCK; k++)
    acc[k] = w[0] * t[k];
  for (int j = 1; j <= radius; j++)
    {
      const float *a = t - j * ch, *b = t + j * ch;
      float wj = w[j];
      for (int k = 0; k < BLOCK; k++)
        acc[k] += wj * (a[k] + b[k]);
    }
  memcpy (sums, acc, sizeof acc);
}

LM_ROW_INLINE LmF32x8
load_f32x8 (const float *p)
{
  LmF32x8 v;
  memcpy (&v, p, sizeof v);
  return v;
}

/* horizontal_block's sums of whole blocks in four vectors kept in registers, quantized
 * (simd.h: lm_quantize_u8's operations) and stored as 32 bytes; the last part block as before. */
LM_SIMD_CLONES static void
horizontal_pass (const float *t, int radius, int ch, const float *w, guint8 *restrict out,
                 gsize n)
{
  gsize i0 = 0;
  for (; i0 + BLOCK <= n; i0 += BLOCK)
    {
      const float *c = t + i0;
      LmF32x8 acc0 = w[0] * load_f32x8 (c), acc1 = w[0] * load_f32x8 (c + 8);
      LmF32x8 acc2 = w[0] * load_f32x8 (c + 16), acc3 = w[0] * load_f32x8 (c + 24);
      for (int j = 1; j <= radius; j++)
        {
          const float *a = c - j * ch, *b = c + j * ch;
          float wj = w[j];
          acc0 += wj * (load_f32x8 (a) + load_f32x8 (b));
          acc1 += wj * (load_f32x8 (a + 8) + load_f32x8 (b + 8));
          acc2 += wj * (load_f32x8 (a + 16) + load_f32x8 (b + 16));
          acc3 += wj * (load_f32x8 (a + 24) + load_f32x8 (b + 24));
        }
      lm_i32x8_store_u8 (lm_f32x8_quantize_u8 (acc0), lm_f32x8_quantize_u8 (acc1), lm_f32x8_quantize_u8 (acc2),
                         lm_f32x8_quantize_u8 (acc3), out + i0);
    }
  if (i0 < n)
    {
      float sums[BLOCK];
      horizontal_block (t + i0, radius, ch, w, sums);
      for (gsize i = 0; i < n - i0; i++)
        out[i0 + i] = lm_quantize_u8 (sums[i]);
    }
}

LM_SIMD_CLONES static void
horizontal_pass16 (const float *t, int radius, int ch, const float *w, guint16 *restrict out,
                   gsize n)
{
  for (gsize i0 = 0; i0 < n; i0 += BLOCK)
    {
      float sums[BLOCK];
      horizontal_block (t + i0, radius, ch, w, sums);
      gsize len = MIN (BLOCK, n - i0);
      for (gsize i = 0; i < len; i++)
        out[i0 + i] = lm_quantize_u16 (sums[i]);
    }
}

/* horizontal_pass for float output: the sums as they are, unrounded. */
static void
horizontal_pass_f32 (const float *t, int radius, int ch, const float *w, float *restrict out, gsize n)
{
  for (gsize i0 = 0; i0 < n; i0 += BLOCK)
    {
      float sums[BLOCK];
      horizontal_block (t + i0, radius, ch, w, sums);
      memcpy (out + i0, sums, MIN (BLOCK, n - i0) * sizeof (float));
    }
}

/* The vertical pass of SRC's depth (bytes per sample: 1, 2, or 4 for floats) into the float
 * row TMP. */
static void
vertical_pass_any (guint depth, const guint8 *const *rows, int radius, const float *w,
                   float *restrict tmp, gsize n)
{
  if (depth == 4)
    vertical_pass_f32 ((const float *const *) rows, radius, w, tmp, n);
  else if (depth == 2)
    vertical_pass16 ((const guint16 *const *) rows, radius, w, tmp, n);
  else
    vertical_pass (rows, radius, w, tmp, n);
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

/* A float row of N samples with RADIUS pixels of border on each side and a block of slack,
 * for one thread. */
static float *
padded_row_new (gsize n, int radius, int ch, float **row)
{
  float *padded = g_new0 (float, n + 2 * (gsize) radius * ch + BLOCK);
  *row = padded + (gsize) radius * ch;
  return padded;
}

static void
gather_rows (const LmImage *src, int centre, int radius, const guint8 **rows)
{
  for (int j = -radius; j <= radius; j++)
    rows[j + radius] = lm_image_row (src, lm_reflect101 (centre + j, (int) src->height));
}

static void
blur_direct (const LmImage *src, LmImage *dst, int radius, const float *w)
{
  int ch = (int) lm_format_channels (src->format);
  int width = (int) src->width, height = (int) src->height;
  gsize n = (gsize) width * ch;
  guint depth = lm_format_depth (src->format) / 8;

#pragma omp parallel
  {
    float *row;
    float *padded = padded_row_new (n, radius, ch, &row);
    const guint8 **rows = g_new (const guint8 *, 2 * radius + 1);
#pragma omp for schedule(static)
    for (int y = 0; y < height; y++)
      {
        gather_rows (src, y, radius, rows);
        vertical_pass_any (depth, rows, radius, w, row, n);
        pad_row (row, width, radius, ch);
        if (depth == 4)
          horizontal_pass_f32 (row, radius, ch, w, (float *) lm_image_row (dst, y), n);
        else if (depth == 2)
          horizontal_pass16 (row, radius, ch, w, (guint16 *) lm_image_row (dst, y), n);
        else
          horizontal_pass (row, radius, ch, w, lm_image_row (dst, y), n);
      }
    g_free (rows);
    g_free (padded);
  }
}

/* Floats of the grid method's nodes for an image of WIDTH × HEIGHT: at step D with CH
 * channels, or (D = 0) the most that any σ and either 8-bit format can need, which is the
 * finest grid (the smallest D above the direct method's σ) of four channels. */
static gsize
grid_floats (int width, int height, int d, int ch)
{
  if (d == 0)
    {
      d = lm_blur_decimation (nextafterf (LM_BLUR_DIRECT_SIGMA_MAX, INFINITY));
      ch = 4;
    }
  return (gsize) lm_blur_grid_count (width, d) * (gsize) lm_blur_grid_count (height, d) * (gsize) ch;
}

void
lm_blur_scratch_clear (LmBlurScratch *scratch)
{
  g_clear_pointer (&scratch->nodes, g_free);
  scratch->size = 0;
  g_clear_pointer (&scratch->lanes, g_free);
  scratch->lanes_size = 0;
}

/* SCRATCH's lanes holding at least NEED bytes; they only grow. Allocated on every run, the
 * threads' rows (a few hundred KiB each) went back to the kernel when freed and came back as
 * fresh pages to fault in and clear on the next run. */
static guint8 *
scratch_lanes (LmBlurScratch *scratch, gsize need, GError **error)
{
  if (scratch->lanes_size >= need)
    return scratch->lanes;
  g_clear_pointer (&scratch->lanes, g_free);
  scratch->lanes_size = 0;
  if ((scratch->lanes = g_try_malloc (need)) == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to blur"));
      return NULL;
    }
  scratch->lanes_size = need;
  return scratch->lanes;
}

/* blur_direct for an opaque RGBA8 photo: the passes run on RGB alone (alpha stays 255, as
 * the blur of 255 everywhere is). Each thread packs its source rows to RGB once, into a
 * ring of 2 RADIUS + 1 rows found by the row's index: the rows an output row reads are
 * 2 RADIUS + 1 consecutive ones (reflected at the edges into the same span), so they never
 * share a slot. Each RGB sample sees the passes' float operations in the same order as in
 * RGBA, so the bytes are the same. */
static gboolean
blur_direct_opaque (const LmImage *src, LmImage *dst, int radius, const float *w, LmBlurScratch *scratch,
                    GError **error)
{
  int width = (int) src->width, height = (int) src->height, slots = 2 * radius + 1;
  gsize n = (gsize) width * 3, span = n + BLOCK; /* the vertical pass reads up to a block past N */
  /* A thread's lane: its float row with the border and a block of slack, the ring, its
   * packed output row, and the ring's bookkeeping; each part 64-byte aligned. */
  gsize floats = n + 2 * (gsize) radius * 3 + BLOCK;
  gsize row_bytes = (floats * sizeof (float) + 63) & ~(gsize) 63, ring_bytes = ((gsize) slots * span + 63) & ~(gsize) 63;
  gsize out_bytes = (span + 63) & ~(gsize) 63, held_bytes = ((gsize) slots * sizeof (int) + 63) & ~(gsize) 63;
  gsize lane = row_bytes + ring_bytes + out_bytes + held_bytes + (gsize) slots * sizeof (const guint8 *);
  lane = (lane + 63) & ~(gsize) 63;
  int threads = omp_get_max_threads ();
  guint8 *pool = scratch_lanes (scratch, lane * (gsize) threads + 63, error);
  if (pool == NULL)
    return FALSE;
  pool = (guint8 *) (((guintptr) pool + 63) & ~(guintptr) 63);

#pragma omp parallel num_threads (threads)
  {
    guint8 *base = pool + lane * (gsize) omp_get_thread_num ();
    float *padded = (float *) base, *row = padded + (gsize) radius * 3;
    guint8 *ring = base + row_bytes, *packed_out = ring + ring_bytes;
    int *held = (int *) (packed_out + out_bytes);
    const guint8 **rows = (const guint8 **) ((guint8 *) held + held_bytes);
    memset (padded, 0, floats * sizeof (float)); /* the slack a last part block reads */
    for (int k = 0; k < slots; k++)
      held[k] = -1;
#pragma omp for schedule(static)
    for (int y = 0; y < height; y++)
      {
        for (int j = -radius; j <= radius; j++)
          {
            int sy = lm_reflect101 (y + j, height), slot = sy % slots;
            guint8 *packed = ring + (gsize) slot * span;
            if (held[slot] != sy)
              {
                lm_rgba_row_to_rgb (lm_image_row (src, (guint) sy), packed, (gsize) width);
                held[slot] = sy;
              }
            rows[j + radius] = packed;
          }
        vertical_pass (rows, radius, w, row, n);
        pad_row (row, width, radius, 3);
        horizontal_pass (row, radius, 3, w, packed_out, n);
        lm_rgb_row_to_rgba (packed_out, lm_image_row (dst, (guint) y), (gsize) width);
      }
  }
  return TRUE;
}

/* SCRATCH holding at least NEED floats. A block of a whole image's size allocated and freed on
 * every run is what grew the window's memory (bench/results/text/soak.md): glibc keeps such
 * blocks once it has freed one. So the first grid run reserves what any later σ can need on
 * an image of this size (at most 4 bytes a pixel: a quarter of the pixels' nodes, four floats
 * each), and touches it at once, so that the resident memory does not step up at a later
 * edit either; it grows again only for a larger image. Its contents are never read before a
 * run has written them. */
static float *
scratch_nodes (LmBlurScratch *scratch, int width, int height, gsize need, GError **error)
{
  if (scratch->size >= need * sizeof (float))
    return scratch->nodes;
  gsize bytes = MAX (need, grid_floats (width, height, 0, 0)) * sizeof (float);
  lm_blur_scratch_clear (scratch);
  scratch->nodes = g_try_malloc (bytes);
  if (scratch->nodes == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to blur"));
      return NULL;
    }
  memset (scratch->nodes, 0, bytes);
  scratch->size = bytes;
  return scratch->nodes;
}

/* Rows of SRC around the whole image's row CENTRE, reflected in the whole image's HEIGHT, in
 * SRC that starts at row ORIGIN of it: a tile's rows beyond its input (only its halo pixels
 * read them) are clamped to it. */
static void
gather_rows_at (const LmImage *src, int centre, int radius, int origin, int height, const guint8 **rows)
{
  for (int j = -radius; j <= radius; j++)
    rows[j + radius] = lm_image_row (src, CLAMP (lm_reflect101 (centre + j, height) - origin, 0, (int) src->height - 1));
}

/* The large-σ method (blur-math.h): exact samples on the grid, then cubic interpolation. The
 * nodes sit at the whole image's rows and columns (k − 1)·D: a tile (TILE active) computes
 * the nodes around its input and the pixels of it as the whole image does. */
static gboolean
blur_on_grid (const LmImage *src, LmImage *dst, int radius, const float *w, int d, const LmTileFrame *tile,
              LmBlurScratch *scratch, GError **error)
{
  int ch = (int) lm_format_channels (src->format);
  int width = (int) src->width, height = (int) src->height;
  gboolean tiled = lm_tile_frame_active (tile);
  int ox = tiled ? (int) tile->in_x : 0, oy = tiled ? (int) tile->in_y : 0;
  int full_w = tiled ? (int) tile->full_w : width, full_h = tiled ? (int) tile->full_h : height;
  int kx0 = ox / d, ky0 = oy / d;
  int gw = lm_blur_grid_count_at (ox, width, d), gh = lm_blur_grid_count_at (oy, height, d);
  gsize n = (gsize) width * ch, gn = (gsize) gw * ch;
  guint depth = lm_format_depth (src->format) / 8;
  /* both passes on the grid's nodes */
  float *grid = scratch_nodes (scratch, width, height, (gsize) gw * gh * ch, error);
  if (grid == NULL)
    return FALSE;

#pragma omp parallel
  {
    float *row;
    float *padded = padded_row_new (n, radius, ch, &row);
    const guint8 **rows = g_new (const guint8 *, 2 * radius + 1);

    /* Grid nodes: the exact vertical pass at rows (k − 1)·D, all columns, then the exact
     * horizontal pass of that row at columns (i − 1)·D. */
#pragma omp for schedule(static)
    for (int k = 0; k < gh; k++)
      {
        gather_rows_at (src, (ky0 + k - 1) * d, radius, oy, full_h, rows);
        vertical_pass_any (depth, rows, radius, w, row, n);
        pad_row (row, width, radius, ch);
        for (int i = 0; i < gw; i++)
          {
            int x = (kx0 + i - 1) * d;
            /* Nodes beyond the border reflect into the image, like the source pixels. */
            int cx = CLAMP (lm_reflect101 (x, full_w) - ox, 0, width - 1);
            const float *centre = row + (gsize) cx * ch;
            for (int c = 0; c < ch; c++)
              {
                float acc = w[0] * centre[c];
                for (int j = 1; j <= radius; j++)
                  acc += w[j] * (centre[c - j * ch] + centre[c + j * ch]);
                grid[(gsize) k * gn + (gsize) i * ch + c] = acc;
              }
          }
      }

    /* Every pixel: the cubic through the 4×4 nodes around it. */
    float *between = row; /* one grid row interpolated to the pixel's y */
#pragma omp for schedule(static)
    for (int y = 0; y < height; y++)
      {
        float wy[4];
        int ay = oy + y;
        lm_blur_cubic_weights ((float) (ay % d) / (float) d, wy);
        const float *g0 = grid + (gsize) (ay / d - ky0) * gn;
        for (gsize i = 0; i < gn; i++)
          between[i] = wy[0] * g0[i] + wy[1] * g0[gn + i] + wy[2] * g0[2 * gn + i] + wy[3] * g0[3 * gn + i];
        guint8 *out = lm_image_row (dst, y);
        for (int x = 0; x < width; x++)
          {
            float wx[4];
            int ax = ox + x;
            lm_blur_cubic_weights ((float) (ax % d) / (float) d, wx);
            const float *b = between + (gsize) (ax / d - kx0) * ch;
            for (int c = 0; c < ch; c++)
              {
                float v = wx[0] * b[c] + wx[1] * b[ch + c] + wx[2] * b[2 * ch + c] + wx[3] * b[3 * ch + c];
                if (depth == 4)
                  ((float *) out)[x * ch + c] = v;
                else if (depth == 2)
                  ((guint16 *) out)[x * ch + c] = lm_quantize_u16 (v);
                else
                  out[x * ch + c] = lm_quantize_u8 (v);
              }
          }
      }
    g_free (rows);
    g_free (padded);
  }
  return TRUE;
}

gboolean
lm_blur_run_cpu_scratch (const LmBlurParams *p, const LmImage *src, LmImage *dst,
                         LmBlurScratch *scratch, GError **error)
{
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
  int d = lm_blur_decimation (p->sigma);
  if (d > 1)
    return blur_on_grid (src, dst, radius, w, d, &p->tile, scratch, error);
  if (src->format == LM_FORMAT_RGBA8 && src->opaque)
    return blur_direct_opaque (src, dst, radius, w, scratch, error);
  blur_direct (src, dst, radius, w);
  return TRUE;
}

/* The registration's entry, for callers without a backend: a scratch for this run alone. */
static gboolean
blur_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  LmBlurScratch scratch = { NULL, 0 };
  gboolean ok = lm_blur_run_cpu_scratch (params, src, dst, &scratch, error);
  lm_blur_scratch_clear (&scratch);
  return ok;
}

/* For a backend that runs blur again and again on one photo: the scratch stays in *KEPT. */
static gboolean
blur_run_cpu_kept (const void *params, const LmImage *src, LmImage *dst, gpointer *kept, GError **error)
{
  if (*kept == NULL)
    *kept = g_new0 (LmBlurScratch, 1);
  return lm_blur_run_cpu_scratch (params, src, dst, *kept, error);
}

static void
blur_kept_free (gpointer kept)
{
  lm_blur_scratch_clear (kept);
  g_free (kept);
}

/* The span of the whole axis (N pixels) that pixels A..B-1 of the output read: the direct
 * method's taps around each pixel, or the grid method's nodes around it (the two before and
 * the two after) and their taps, each reflected as the sums reflect them (rows: the tap;
 * columns: the node, then the tap). */
static void
source_span (int n, int a, int b, int radius, int d, gboolean columns, guint *lo, guint *count)
{
  int mn = G_MAXINT, mx = G_MININT;
  if (d == 1)
    {
      int first, n_read;
      lm_reflect101_span (n, a, b, radius, &first, &n_read);
      mn = first, mx = first + n_read - 1;
    }
  else
    for (int c = (a / d - 1) * d; c <= ((b - 1) / d + 2) * d; c += d)
      {
        int centre = columns ? lm_reflect101 (c, n) : c;
        for (int j = -radius; j <= radius; j++)
          {
            int r = lm_reflect101 (centre + j, n);
            mn = MIN (mn, r), mx = MAX (mx, r);
          }
      }
  *lo = (guint) mn, *count = (guint) (mx - mn + 1);
}

static void
blur_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  const LmBlurParams *p = params;
  int radius = lm_blur_radius (p->sigma), d = lm_blur_decimation (p->sigma);
  if (radius == 0)
    {
      *in = *out;
      return;
    }
  source_span ((int) in_w, (int) out->x, (int) (out->x + out->width), radius, d, TRUE, &in->x, &in->width);
  source_span ((int) in_h, (int) out->y, (int) (out->y + out->height), radius, d, FALSE, &in->y, &in->height);
}

static LmTileFrame *
blur_tile_frame (void *params)
{
  return &((LmBlurParams *) params)->tile;
}

const LmOpInfo lm_blur_op = {
  .id = LM_OP_BLUR,
  .name = "blur",
  .label = N_("Gaussian blur"),
  .blurb = N_("Gaussian blur of radius σ pixels (0..200)"),
  .params = blur_params,
  .n_params = G_N_ELEMENTS (blur_params),
  .params_size = sizeof (LmBlurParams),
  .version = 1,
  .output_format = blur_output_format,
  .run_cpu = blur_run_cpu,
  .run_cpu_kept = blur_run_cpu_kept,
  .kept_free = blur_kept_free,
  .source_rect = blur_source_rect,
  .tile_frame = blur_tile_frame,
  .on_scene = TRUE,
};
G_STATIC_ASSERT (sizeof (LmBlurParams) <= LM_OP_PARAMS_MAX);
