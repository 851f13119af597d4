/* A cascade laid out for one level (cascade-level.h). The arithmetic is cascade-math.h's, step
 * for step: a corner is the window's top-left cell plus an offset fixed for the level; a stage
 * may be decided before its last stump (Early), and LBP's first stage runs four windows to a
 * vector, each lane's sum its own. */
#include <float.h>
#include <math.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "cascade-level.h"

/* A stage's sum after a stump decides the stage early where the leaves still to come cannot
 * take it across the threshold: below REJECT it fails whatever they are, from ACCEPT on it
 * passes. Both bounds keep a margin larger than the rounding of any order of the double
 * additions, so the decision is the one the whole sum would give. */
typedef struct {
  double reject, accept;
} Early;

typedef struct {
  int32_t ofs[LM_CASCADE_HAAR_RECTS][4];
  Early early;
  float weight[LM_CASCADE_HAAR_RECTS];
  float threshold;
  float leaf[2]; /* right, left: indexed by the test, without a branch to mispredict */
} HaarStump;

/* The 4 × 4 corners of the 3 × 3 blocks, row by row. */
typedef struct {
  int32_t ofs[16];
  Early early;
  float leaf[2]; /* right, left */
  uint32_t subset[LM_CASCADE_LBP_WORDS];
} LbpStump;

struct LmCascadeLevel {
  const LmCascade *c;
  const uint32_t *sum, *sqsum;
  ptrdiff_t step;
  int32_t norm[4]; /* the window less a pixel each side */
  HaarStump *haar;
  LbpStump *lbp;
};

gboolean
lm_cascade_level_fits (gsize step, guint height)
{
  return step <= G_MAXINT32 / 3 && (gsize) height + 1 <= G_MAXINT32 / 3 / step;
}

static void
early_bounds (const LmCascade *c, Early *early)
{
  for (unsigned si = 0; si < c->n_stages; si++)
    {
      const LmCascadeStage *stage = &c->stages[si];
      const LmCascadeStump *s = c->stumps + stage->first;
      double bound = fabs ((double) stage->threshold);
      for (unsigned i = 0; i < stage->n_stumps; i++)
        bound += MAX (fabs ((double) s[i].left), fabs ((double) s[i].right));
      double margin = 8.0 * (stage->n_stumps + 2.0) * bound * DBL_EPSILON;
      double rest_max = 0.0, rest_min = 0.0;
      for (unsigned i = stage->n_stumps; i-- > 0;)
        {
          early[stage->first + i] = (Early) { (double) stage->threshold - rest_max - margin,
                                              (double) stage->threshold - rest_min + margin };
          rest_max += MAX ((double) s[i].left, (double) s[i].right);
          rest_min += MIN ((double) s[i].left, (double) s[i].right);
        }
    }
}

LmCascadeLevel *
lm_cascade_level_new (const LmCascade *cascade)
{
  LmCascadeLevel *l = g_new0 (LmCascadeLevel, 1);
  l->c = cascade;
  g_autofree Early *early = g_new0 (Early, MAX (cascade->n_stumps, 1));
  early_bounds (cascade, early);
  if (cascade->kind == LM_CASCADE_HAAR)
    {
      l->haar = g_new0 (HaarStump, MAX (cascade->n_stumps, 1));
      for (unsigned i = 0; i < cascade->n_stumps; i++)
        l->haar[i].early = early[i];
    }
  else
    {
      l->lbp = g_new0 (LbpStump, MAX (cascade->n_stumps, 1));
      for (unsigned i = 0; i < cascade->n_stumps; i++)
        l->lbp[i].early = early[i];
    }
  return l;
}

void
lm_cascade_level_free (LmCascadeLevel *l)
{
  if (l == NULL)
    return;
  g_free (l->haar);
  g_free (l->lbp);
  g_free (l);
}

static void
corners (int32_t ofs[4], ptrdiff_t step, int x, int y, int w, int h)
{
  ofs[0] = (int32_t) (y * step + x);
  ofs[1] = (int32_t) (y * step + x + w);
  ofs[2] = (int32_t) ((y + h) * step + x);
  ofs[3] = (int32_t) ((y + h) * step + x + w);
}

/* lm_cascade_tilted_sum's corners, from the tilted integral's cell TILTED cells after SUM's. */
static void
tilted_corners (int32_t ofs[4], ptrdiff_t step, ptrdiff_t tilted, int x, int y, int w, int h)
{
  ofs[0] = (int32_t) (tilted + y * step + x);
  ofs[1] = (int32_t) (tilted + (y + h) * step + x - h);
  ofs[2] = (int32_t) (tilted + (y + w) * step + x + w);
  ofs[3] = (int32_t) (tilted + (y + w + h) * step + x + w - h);
}

void
lm_cascade_level_set (LmCascadeLevel *l, const LmCascadeIntegrals *in)
{
  const LmCascade *c = l->c;
  ptrdiff_t step = in->step;
  l->sum = in->sum;
  l->sqsum = in->sqsum;
  l->step = step;
  for (unsigned i = 0; i < c->n_stumps; i++)
    {
      const LmCascadeStump *s = &c->stumps[i];
      if (c->kind == LM_CASCADE_LBP)
        {
          const LmLbpFeature *f = &c->lbp[s->feature];
          LbpStump *o = &l->lbp[i];
          for (int r = 0; r < 4; r++)
            for (int k = 0; k < 4; k++)
              o->ofs[4 * r + k] = (int32_t) ((f->y + r * f->height) * step + f->x + k * f->width);
          o->leaf[0] = s->right, o->leaf[1] = s->left;
          memcpy (o->subset, c->subsets + (gsize) i * LM_CASCADE_LBP_WORDS, sizeof o->subset);
          continue;
        }
      const LmHaarFeature *f = &c->haar[s->feature];
      HaarStump *o = &l->haar[i];
      ptrdiff_t tilted = f->tilted ? in->tilted - in->sum : 0;
      for (int k = 0; k < LM_CASCADE_HAAR_RECTS; k++)
        {
          const LmHaarRect *r = &f->rect[k];
          o->weight[k] = r->weight;
          if (k >= f->n_rects)
            memset (o->ofs[k], 0, sizeof o->ofs[k]); /* a sum of 0, as cascade-math.h's */
          else if (f->tilted)
            tilted_corners (o->ofs[k], step, tilted, r->x, r->y, r->width, r->height);
          else
            corners (o->ofs[k], step, r->x, r->y, r->width, r->height);
        }
      o->threshold = s->threshold, o->leaf[0] = s->right, o->leaf[1] = s->left;
    }
  if (c->kind == LM_CASCADE_HAAR)
    corners (l->norm, step, 1, 1, c->window_width - 2, c->window_height - 2);
}

static inline int32_t
corner_sum (const uint32_t *p, const int32_t ofs[4])
{
  return (int32_t) (p[ofs[0]] - p[ofs[1]] - p[ofs[2]] + p[ofs[3]]);
}

static int
haar_window (const LmCascadeLevel *l, ptrdiff_t at)
{
  const LmCascade *c = l->c;
  const uint32_t *p = l->sum + at;
  /* lm_cascade_haar_norm */
  int w = c->window_width - 2, h = c->window_height - 2;
  int32_t s = corner_sum (p, l->norm);
  uint32_t sq = (uint32_t) corner_sum (l->sqsum + at, l->norm);
  double area = (double) w * h;
  double nf = area * sq - (double) s * s;
  if (!(nf > 0.0))
    return LM_CASCADE_FLAT;
  float norm = (float) (1.0 / sqrt (nf));
  if (!(area * norm < 1e-1) || norm == 0.0f)
    return LM_CASCADE_FLAT;
  const HaarStump *st = l->haar;
  for (unsigned si = 0; si < c->n_stages; si++)
    {
      const LmCascadeStage *stage = &c->stages[si];
      double sum = 0.0;
      for (const HaarStump *end = st + stage->n_stumps; st < end; st++)
        {
          /* lm_cascade_haar_value */
          float v = st->weight[0] * (float) corner_sum (p, st->ofs[0])
                    + st->weight[1] * (float) corner_sum (p, st->ofs[1]);
          if (st->weight[2] != 0.0f)
            v += st->weight[2] * (float) corner_sum (p, st->ofs[2]);
          /* (double) (v · norm) < (double) threshold, as cascade-math.h has it, is exact in float */
          sum += st->leaf[v * norm < st->threshold];
          if (sum < st->early.reject)
            return -(int) si;
          if (sum >= st->early.accept)
            {
              st = end;
              goto passed;
            }
        }
      if (sum < (double) stage->threshold)
        return -(int) si;
    passed:;
    }
  return 1;
}

/* From stage FIRST on. */
static int
lbp_window (const LmCascadeLevel *l, ptrdiff_t at, unsigned first)
{
  const LmCascade *c = l->c;
  const uint32_t *p = l->sum + at;
  const LbpStump *st = l->lbp + (first < c->n_stages ? c->stages[first].first : 0);
  for (unsigned si = first; si < c->n_stages; si++)
    {
      const LmCascadeStage *stage = &c->stages[si];
      double sum = 0.0;
      for (const LbpStump *end = st + stage->n_stumps; st < end; st++)
        {
          /* lm_cascade_lbp_code */
          const int32_t *o = st->ofs;
          uint32_t q[16];
          for (int k = 0; k < 16; k++)
            q[k] = p[o[k]];
#define BLOCK(r, k) ((int32_t) (q[4 * (r) + (k)] - q[4 * (r) + (k) + 1] - q[4 * (r) + (k) + 4] + q[4 * (r) + (k) + 5]))
          int32_t centre = BLOCK (1, 1);
          int code = (BLOCK (0, 0) >= centre) << 7 | (BLOCK (0, 1) >= centre) << 6 | (BLOCK (0, 2) >= centre) << 5
                     | (BLOCK (1, 2) >= centre) << 4 | (BLOCK (2, 2) >= centre) << 3 | (BLOCK (2, 1) >= centre) << 2
                     | (BLOCK (2, 0) >= centre) << 1 | (BLOCK (1, 0) >= centre);
#undef BLOCK
          sum += st->leaf[(st->subset[code >> 5] >> (code & 31)) & 1u];
          if (sum < st->early.reject)
            return -(int) si;
          if (sum >= st->early.accept)
            {
              st = end;
              goto passed;
            }
        }
      if (sum < (double) stage->threshold)
        return -(int) si;
    passed:;
    }
  return 1;
}

int
lm_cascade_level_window (const LmCascadeLevel *l, int x, int y)
{
  ptrdiff_t at = (ptrdiff_t) y * l->step + x;
  return l->c->kind == LM_CASCADE_HAAR ? haar_window (l, at) : lbp_window (l, at, 0);
}

#ifdef __SSE2__
/* The cells at P, P + DX, P + 2 DX, P + 3 DX (DX 1 or 2), reading no further. */
static inline __m128i
four (const uint32_t *p, int dx)
{
  __m128i a = _mm_loadu_si128 ((const __m128i *) p);
  if (dx == 1)
    return a;
  __m128i b = _mm_loadu_si128 ((const __m128i *) (p + 3));
  return _mm_castps_si128 (_mm_shuffle_ps (_mm_castsi128_ps (a), _mm_castsi128_ps (b), _MM_SHUFFLE (3, 1, 2, 0)));
}

/* The first stage of four LBP windows side by side, DX apart: whether each passes. The codes
 * are lm_cascade_lbp_code's, four at a time; each window's sum is its own, in stump order. */
static void
lbp_first_stage4 (const LmCascadeLevel *l, ptrdiff_t at, int dx, gboolean pass[4])
{
  const LmCascadeStage *stage = &l->c->stages[0];
  const uint32_t *p = l->sum + at;
  double sum[4] = { 0.0, 0.0, 0.0, 0.0 };
  for (const LbpStump *st = l->lbp, *end = st + stage->n_stumps; st < end; st++)
    {
      __m128i q[16];
      for (int k = 0; k < 16; k++)
        q[k] = four (p + st->ofs[k], dx);
#define BLOCK(r, k) \
  _mm_add_epi32 (_mm_sub_epi32 (_mm_sub_epi32 (q[4 * (r) + (k)], q[4 * (r) + (k) + 1]), q[4 * (r) + (k) + 4]), \
                 q[4 * (r) + (k) + 5])
      /* b ≥ centre as ¬(centre > b), a lane of all ones becoming the bit */
      __m128i centre = BLOCK (1, 1), code = _mm_setzero_si128 ();
#define BIT(r, k, bit) \
  code = _mm_or_si128 (code, _mm_andnot_si128 (_mm_cmpgt_epi32 (centre, BLOCK (r, k)), _mm_set1_epi32 (bit)))
      BIT (0, 0, 128), BIT (0, 1, 64), BIT (0, 2, 32), BIT (1, 2, 16);
      BIT (2, 2, 8), BIT (2, 1, 4), BIT (2, 0, 2), BIT (1, 0, 1);
#undef BIT
#undef BLOCK
      int codes[4];
      _mm_storeu_si128 ((__m128i *) codes, code);
      for (int i = 0; i < 4; i++)
        sum[i] += st->leaf[(st->subset[codes[i] >> 5] >> (codes[i] & 31)) & 1u];
    }
  for (int i = 0; i < 4; i++)
    pass[i] = !(sum[i] < (double) stage->threshold);
}
#endif

void
lm_cascade_level_windows (const LmCascadeLevel *l, int x, int y, int dx, int n, gboolean skip_first, int *results)
{
  ptrdiff_t at = (ptrdiff_t) y * l->step + x;
#ifdef __SSE2__
  if (l->c->kind == LM_CASCADE_LBP && n == 4 && (dx == 1 || dx == 2) && l->c->n_stages > 0)
    {
      gboolean pass[4];
      lbp_first_stage4 (l, at, dx, pass);
      gboolean skip = skip_first;
      for (int i = 0; i < 4; i++, at += dx)
        {
          /* a window skipped is not looked at further; its neighbour is, whatever it gave */
          results[i] = skip ? 0 : !pass[i] ? 0 : lbp_window (l, at, 1);
          skip = !skip && !pass[i];
        }
      return;
    }
#endif
  gboolean skip = skip_first;
  for (int i = 0; i < n; i++, at += dx)
    {
      results[i] = skip ? 0 : l->c->kind == LM_CASCADE_HAAR ? haar_window (l, at) : lbp_window (l, at, 0);
      skip = !skip && results[i] == 0;
    }
}
