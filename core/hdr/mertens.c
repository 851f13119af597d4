/* Mertens, Kautz & Van Reeth (2007) exposure fusion, as OpenCV's MergeMertens: per-pixel
 * weights from contrast, saturation and well-exposedness, normalised over the stack, then
 * each exposure's Laplacian pyramid blended with its weights' Gaussian pyramid and the sum
 * collapsed. OpenCV keeps every exposure's pyramids at once; here the exposures stream
 * through one set of buffers (the weights are computed twice: once for their sum, once to
 * blend), so memory does not grow with the number of exposures: about 40 bytes a pixel
 * besides the stack and the output. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "merge.h"
#include "mertens-math.h"

/* One pyramid level: W × H pixels of CN floats, rows STRIDE floats apart. */
typedef struct {
  guint w, h, cn;
  gsize stride;
  float *px;
} Level;

static inline float *
level_row (const Level *l, guint y)
{
  return l->px + (gsize) y * l->stride;
}

static gboolean
level_alloc (Level *l, guint w, guint h, guint cn, GError **error)
{
  *l = (Level) { w, h, cn, (gsize) w * cn, NULL };
  l->px = g_try_malloc_n ((gsize) w * h * cn, sizeof (float));
  if (l->px == NULL)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                 _("not enough memory for exposure fusion (%u×%u)"), w, h);
  return l->px != NULL;
}

/* ---------------------------------------------------------------------------------------
 * Weights */

static inline float
value_of (const guint8 *row, guint x, int c, gboolean gray)
{
  return (float) (gray ? row[x] : row[4 * x + c]) * (1.0f / 255.0f);
}

/* W receives exposure IM's weight of every pixel; LUMA is scratch of the same size. A gray
 * stack has no saturation, and its one channel is exposed once (OpenCV's one-channel case). */
static void
exposure_weights (const LmImage *im, const LmMertensParams *p, float *luma, float *w)
{
  guint width = im->width, height = im->height;
  gboolean gray = im->format == LM_FORMAT_GRAY8;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < height; y++)
    {
      const guint8 *row = lm_image_row (im, y);
      float *l = luma + (gsize) y * width;
      for (guint x = 0; x < width; x++)
        l[x] = gray ? value_of (row, x, 0, TRUE)
                    : lm_mertens_luma (value_of (row, x, 0, FALSE), value_of (row, x, 1, FALSE),
                                       value_of (row, x, 2, FALSE));
    }
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < height; y++)
    {
      const guint8 *row = lm_image_row (im, y);
      const float *up = luma + (gsize) lm_reflect101 ((int) y - 1, (int) height) * width;
      const float *mid = luma + (gsize) y * width;
      const float *down = luma + (gsize) lm_reflect101 ((int) y + 1, (int) height) * width;
      float *o = w + (gsize) y * width;
      for (guint x = 0; x < width; x++)
        {
          int left = lm_reflect101 ((int) x - 1, (int) width), right = lm_reflect101 ((int) x + 1, (int) width);
          float contrast = lm_mertens_contrast (up[x], mid[left], mid[x], mid[right], down[x]);
          float saturation = 1.0f, exposedness;
          if (gray)
            exposedness = lm_mertens_exposedness (value_of (row, x, 0, TRUE));
          else
            {
              float r = value_of (row, x, 0, FALSE), g = value_of (row, x, 1, FALSE), b = value_of (row, x, 2, FALSE);
              saturation = lm_mertens_saturation (r, g, b);
              exposedness = lm_mertens_exposedness (r) * lm_mertens_exposedness (g) * lm_mertens_exposedness (b);
            }
          o[x] = lm_mertens_weight (contrast, saturation, exposedness, p->contrast, p->saturation, p->exposedness);
        }
    }
}

/* ---------------------------------------------------------------------------------------
 * Pyramids. Each thread keeps a few horizontally filtered source rows in a ring, indexed by
 * source row modulo the ring's size: the rows one output row needs are consecutive (the
 * reflection at the borders stays inside that window), so they never evict each other. */

/* Source columns of each output column's taps, reflected at the borders: computed once per
 * level, not per pixel. */
static int *
tap_columns (guint count, int taps, int (*column) (int x, int k, int n), int n)
{
  int *cols = g_new (int, (gsize) count * taps);
  for (guint x = 0; x < count; x++)
    for (int k = 0; k < taps; k++)
      cols[(gsize) x * taps + k] = column ((int) x, k, n);
  return cols;
}

static int
down_column (int x, int k, int n)
{
  return lm_reflect101 (2 * x - 2 + k, n);
}

static const float *
down_row (const Level *src, guint dst_w, const int *cols, int sy, float *ring, int *tags)
{
  int k = sy % 5;
  guint cn = src->cn;
  float *row = ring + (gsize) k * dst_w * cn;
  if (tags[k] == sy)
    return row;
  const float *s = level_row (src, sy);
  for (guint x = 0; x < dst_w; x++)
    {
      const int *t = cols + 5 * x;
      for (guint c = 0; c < cn; c++)
        row[x * cn + c] = lm_pyr_down_taps (s[t[0] * cn + c], s[t[1] * cn + c], s[t[2] * cn + c],
                                            s[t[3] * cn + c], s[t[4] * cn + c]);
    }
  tags[k] = sy;
  return row;
}

/* DST (((w + 1) / 2) × ((h + 1) / 2)) = pyrDown (SRC). */
static void
pyr_down (const Level *src, Level *dst)
{
  guint cn = src->cn;
  g_autofree int *cols = tap_columns (dst->w, 5, down_column, (int) src->w);
#pragma omp parallel
  {
    float *ring = g_new (float, (gsize) 5 * dst->w * cn);
    int tags[5] = { -1, -1, -1, -1, -1 };
#pragma omp for schedule(static)
    for (guint y = 0; y < dst->h; y++)
      {
        const float *r[5];
        for (int k = 0; k < 5; k++)
          r[k] = down_row (src, dst->w, cols, lm_reflect101 (2 * (int) y - 2 + k, (int) src->h), ring, tags);
        float *o = level_row (dst, y);
        for (gsize i = 0; i < (gsize) dst->w * cn; i++)
          o[i] = lm_pyr_down_taps (r[0][i], r[1][i], r[2][i], r[3][i], r[4][i]) * (1.0f / 256.0f);
      }
    g_free (ring);
  }
}

/* An output column's pyrUp taps: its source pixel J, the one before and the one after. */
static int
up_column (int x, int k, int n)
{
  return k == 1 ? x / 2 : lm_pyr_up_neighbour (x / 2, k - 1, n);
}

static const float *
up_row (const Level *src, guint dst_w, const int *cols, int sy, float *ring, int *tags)
{
  int k = sy % 3;
  guint cn = src->cn;
  float *row = ring + (gsize) k * dst_w * cn;
  if (tags[k] == sy)
    return row;
  const float *s = level_row (src, sy);
  for (guint x = 0; x < dst_w; x++)
    {
      const int *t = cols + 3 * x;
      if (x % 2 == 0)
        for (guint c = 0; c < cn; c++)
          row[x * cn + c] = lm_pyr_up_even (s[t[0] * cn + c], s[t[1] * cn + c], s[t[2] * cn + c]);
      else
        for (guint c = 0; c < cn; c++)
          row[x * cn + c] = lm_pyr_up_odd (s[t[1] * cn + c], s[t[2] * cn + c]);
    }
  tags[k] = sy;
  return row;
}

/* DST += SIGN · pyrUp (SRC), the doubled SRC cut to DST's size (which OpenCV's pyrUp with
 * that size gives). */
static void
pyr_up_add (const Level *src, Level *dst, float sign)
{
  guint cn = src->cn;
  int n = (int) src->h;
  g_autofree int *cols = tap_columns (dst->w, 3, up_column, (int) src->w);
#pragma omp parallel
  {
    float *ring = g_new (float, (gsize) 3 * dst->w * cn);
    int tags[3] = { -1, -1, -1 };
#pragma omp for schedule(static)
    for (guint y = 0; y < dst->h; y++)
      {
        int j = (int) y / 2;
        const float *b = up_row (src, dst->w, cols, j, ring, tags);
        const float *c = up_row (src, dst->w, cols, lm_pyr_up_neighbour (j, 1, n), ring, tags);
        float *o = level_row (dst, y);
        gsize count = (gsize) dst->w * cn;
        if (y % 2 == 0)
          {
            const float *a = up_row (src, dst->w, cols, lm_pyr_up_neighbour (j, -1, n), ring, tags);
            for (gsize i = 0; i < count; i++)
              o[i] += sign * (lm_pyr_up_even (a[i], b[i], c[i]) * (1.0f / 64.0f));
          }
        else
          for (gsize i = 0; i < count; i++)
            o[i] += sign * (lm_pyr_up_odd (b[i], c[i]) * (1.0f / 64.0f));
      }
    g_free (ring);
  }
}

/* ACC += LAPLACIAN · WEIGHT, per colour channel. */
static void
blend (Level *acc, const Level *laplacian, const Level *weight)
{
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < acc->h; y++)
    {
      float *o = level_row (acc, y);
      const float *l = level_row (laplacian, y), *w = level_row (weight, y);
      for (guint x = 0; x < acc->w; x++)
        for (int c = 0; c < 4; c++)
          o[4 * x + c] += l[4 * x + c] * w[x];
    }
}

/* ---------------------------------------------------------------------------------------
 * The fusion */

typedef struct {
  int levels;
  Level image[32], weight[32], acc[32]; /* acc[0] is the output */
  float *luma, *weight_sum;
} Fusion;

static void
fusion_clear (Fusion *f)
{
  for (int l = 0; l < f->levels; l++)
    {
      g_free (f->image[l].px);
      g_free (f->weight[l].px);
      if (l > 0)
        g_free (f->acc[l].px);
    }
  g_free (f->luma);
  g_free (f->weight_sum);
}

static gboolean
fusion_alloc (Fusion *f, LmImage *out, GError **error)
{
  guint w = out->width, h = out->height;
  f->levels = lm_mertens_levels (w, h);
  f->acc[0] = (Level) { w, h, 4, out->stride / sizeof (float), (float *) out->data };
  for (int l = 0; l < f->levels; l++)
    {
      if (!level_alloc (&f->image[l], w, h, 4, error) || !level_alloc (&f->weight[l], w, h, 1, error)
          || (l > 0 && !level_alloc (&f->acc[l], w, h, 4, error)))
        return FALSE;
      w = (w + 1) / 2, h = (h + 1) / 2;
    }
  f->luma = g_try_malloc_n ((gsize) out->width * out->height, sizeof (float));
  f->weight_sum = g_try_malloc_n ((gsize) out->width * out->height, sizeof (float));
  if (f->luma == NULL || f->weight_sum == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory for exposure fusion (%u×%u)"),
                   out->width, out->height);
      return FALSE;
    }
  for (int l = 0; l < f->levels; l++)
    for (guint y = 0; y < f->acc[l].h; y++)
      memset (level_row (&f->acc[l], y), 0, sizeof (float) * 4 * f->acc[l].w);
  return TRUE;
}

/* Level 0 of the image pyramid: the exposure's values / 255 (alpha unused, 0). */
static void
load_exposure (const LmImage *im, Level *l)
{
  gboolean gray = im->format == LM_FORMAT_GRAY8;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < l->h; y++)
    {
      const guint8 *row = lm_image_row (im, y);
      float *o = level_row (l, y);
      for (guint x = 0; x < l->w; x++)
        {
          for (int c = 0; c < 3; c++)
            o[4 * x + c] = value_of (row, x, c, gray);
          o[4 * x + 3] = 0.0f;
        }
    }
}

/* Exposure IM's share of the result: its weights over the stack's, its Laplacian pyramid
 * blended with their Gaussian one into the accumulators. */
static void
fuse_one (Fusion *f, const LmImage *im, const LmMertensParams *params)
{
  Level *w0 = &f->weight[0];
  exposure_weights (im, params, f->luma, w0->px);
  gsize n = (gsize) w0->w * w0->h;
#pragma omp parallel for schedule(static)
  for (gsize i = 0; i < n; i++)
    w0->px[i] /= f->weight_sum[i];
  load_exposure (im, &f->image[0]);
  for (int l = 0; l + 1 < f->levels; l++)
    {
      pyr_down (&f->image[l], &f->image[l + 1]);
      pyr_down (&f->weight[l], &f->weight[l + 1]);
    }
  /* Finest first: level L + 1 is still Gaussian when level L subtracts it. */
  for (int l = 0; l + 1 < f->levels; l++)
    pyr_up_add (&f->image[l + 1], &f->image[l], -1.0f);
  for (int l = 0; l < f->levels; l++)
    blend (&f->acc[l], &f->image[l], &f->weight[l]);
}

gboolean
lm_hdr_fuse_mertens (const LmHdrStack *stack, const LmMertensParams *params, LmImage *out, GError **error)
{
  if (!(params->contrast >= 0.0f && params->saturation >= 0.0f && params->exposedness >= 0.0f))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("exposure fusion: the exponents of contrast, saturation and exposure must not be negative"));
      return FALSE;
    }
  Fusion f = { 0 };
  if (!fusion_alloc (&f, out, error))
    {
      fusion_clear (&f);
      return FALSE;
    }
  gsize n = (gsize) out->width * out->height;

  /* First pass: the weights' sum, added in exposure order. */
  for (guint i = 0; i < stack->n; i++)
    {
      float *w = f.weight[0].px;
      exposure_weights (stack->images[i], params, f.luma, w);
#pragma omp parallel for schedule(static)
      for (gsize k = 0; k < n; k++)
        f.weight_sum[k] = i == 0 ? w[k] : f.weight_sum[k] + w[k];
    }
  for (guint i = 0; i < stack->n; i++)
    fuse_one (&f, stack->images[i], params);

  /* Collapse: coarsest to finest, each level adds the one above it, doubled. */
  for (int l = f.levels - 1; l > 0; l--)
    pyr_up_add (&f.acc[l], &f.acc[l - 1], 1.0f);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < out->height; y++)
    {
      float *o = (float *) lm_image_row (out, y);
      for (guint x = 0; x < out->width; x++)
        o[4 * x + 3] = 1.0f;
    }
  fusion_clear (&f);
  return TRUE;
}
