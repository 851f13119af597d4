/* Robertson, Borman & Stevenson (2003): the camera response by alternating estimates of the
 * radiance and of the curve over every pixel, and the merge, as OpenCV's CalibrateRobertson
 * and MergeRobertson compute them (the same weights, starting curve, normalisation at level
 * 128 and stopping rule); the merge leaves out the samples that bound the radiance and gives
 * a channel with none the clip level (merge-math.h), where OpenCV's gives 0. The curve's sums
 * are in double over fixed tiles of rows, added in tile order, where OpenCV adds floats pixel
 * after pixel: the result does not depend on the thread count, and is closer to the exact
 * sums. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "merge.h"
#include "response.h"
#include "robertson-math.h"

/* Rows per tile of the curve's sums: 3 × 256 doubles each. */
#define TILE_ROWS 16

static const char *const channel_names[3] = { N_("red"), N_("green"), N_("blue") };

/* What a pass over the pixels needs: one row pointer per exposure, the weights, the times. */
typedef struct {
  const LmHdrStack *stack;
  float weight[LM_HDR_LEVELS];
  float times[LM_HDR_MAX_EXPOSURES];
  unsigned longest;
  gboolean gray;
} Pass;

/* MERGE: the merge's weights, else the calibration's (OpenCV's). */
static void
pass_init (Pass *p, const LmHdrStack *stack, gboolean merge)
{
  p->stack = stack;
  p->gray = stack->images[0]->format == LM_FORMAT_GRAY8;
  for (int z = 0; z < LM_HDR_LEVELS; z++)
    p->weight[z] = merge ? lm_robertson_merge_weight (z) : lm_robertson_weight (z);
  for (guint i = 0; i < stack->n; i++)
    p->times[i] = (float) stack->times[i];
  p->longest = lm_hdr_longest (p->times, stack->n);
}

static inline void
pixel_levels (const Pass *p, const guint8 *const *rows, guint i, guint x, guint8 z[3])
{
  if (p->gray)
    z[0] = z[1] = z[2] = rows[i][x];
  else
    z[0] = rows[i][4 * x], z[1] = rows[i][4 * x + 1], z[2] = rows[i][4 * x + 2];
}

/* The radiance of a pixel: the merge's where ENDS is given, else the calibration's (OpenCV's,
 * 0 where every sample of a channel is clipped). */
static inline void
pixel_radiance (const Pass *p, const LmResponse *response, const LmHdrClipEnds *ends, const guint8 *const *rows,
                guint x, float rad[3])
{
  float num[3] = { 0, 0, 0 }, den[3] = { 0, 0, 0 };
  guint8 longest_z[3] = { 0, 0, 0 };
  for (guint i = 0; i < p->stack->n; i++)
    {
      guint8 z[3];
      pixel_levels (p, rows, i, x, z);
      for (int c = 0; c < 3; c++)
        lm_robertson_add (p->times[i], p->weight[z[c]], response->value[c][z[c]], &num[c], &den[c]);
      if (i == p->longest)
        memcpy (longest_z, z, sizeof z);
    }
  for (int c = 0; c < 3; c++)
    rad[c] = ends ? lm_robertson_merged (num[c], den[c], ends, c, longest_z[c])
                  : lm_robertson_radiance (num[c], den[c]);
}

static void
stack_rows (const LmHdrStack *stack, guint y, const guint8 **rows)
{
  for (guint i = 0; i < stack->n; i++)
    rows[i] = lm_image_row (stack->images[i], y);
}

gboolean
lm_hdr_merge_robertson (const LmHdrStack *stack, const LmResponse *response, LmImage *out, GError **error)
{
  g_return_val_if_fail (stack->times != NULL, FALSE);
  for (int c = 0; c < 3; c++)
    for (int z = 0; z < LM_HDR_LEVELS; z++)
      if (!(response->value[c][z] > 0.0f) || !isfinite (response->value[c][z]))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("the response is not positive at level %d: it cannot be a camera's"), z);
          return FALSE;
        }
  Pass p;
  pass_init (&p, stack, TRUE);
  LmHdrClipEnds ends = lm_hdr_clip_ends (&response->value[0][0], p.times, stack->n, FALSE);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < out->height; y++)
    {
      const guint8 *rows[LM_HDR_MAX_EXPOSURES];
      stack_rows (stack, y, rows);
      float *o = (float *) lm_image_row (out, y);
      for (guint x = 0; x < out->width; x++)
        {
          pixel_radiance (&p, response, &ends, rows, x, &o[4 * x]);
          o[4 * x + 3] = 1.0f;
        }
    }
  return TRUE;
}

/* How many samples of each channel have each level, over the whole stack. */
static void
count_levels (const Pass *p, guint64 card[3][LM_HDR_LEVELS])
{
  const LmImage *first = p->stack->images[0];
  memset (card, 0, sizeof (guint64) * 3 * LM_HDR_LEVELS);
#pragma omp parallel
  {
    guint64 local[3][LM_HDR_LEVELS] = { { 0 } };
#pragma omp for schedule(static)
    for (guint y = 0; y < first->height; y++)
      {
        const guint8 *rows[LM_HDR_MAX_EXPOSURES];
        stack_rows (p->stack, y, rows);
        for (guint x = 0; x < first->width; x++)
          for (guint i = 0; i < p->stack->n; i++)
            {
              guint8 z[3];
              pixel_levels (p, rows, i, x, z);
              for (int c = 0; c < 3; c++)
                local[c][z[c]]++;
            }
      }
#pragma omp critical
    for (int c = 0; c < 3; c++)
      for (int z = 0; z < LM_HDR_LEVELS; z++)
        card[c][z] += local[c][z];
  }
}

/* Robertson's curve update: f⁻¹(z) becomes the mean of t·E over every sample at level z,
 * E from the current curve. TILES holds 3 × 256 doubles per tile of rows. */
static void
curve_sums (const Pass *p, const LmResponse *response, double *tiles, guint n_tiles, double sums[3][LM_HDR_LEVELS])
{
  const LmImage *first = p->stack->images[0];
#pragma omp parallel for schedule(dynamic)
  for (guint t = 0; t < n_tiles; t++)
    {
      double *s = tiles + (gsize) t * 3 * LM_HDR_LEVELS;
      memset (s, 0, sizeof (double) * 3 * LM_HDR_LEVELS);
      guint y1 = MIN (first->height, (t + 1) * TILE_ROWS);
      for (guint y = t * TILE_ROWS; y < y1; y++)
        {
          const guint8 *rows[LM_HDR_MAX_EXPOSURES];
          stack_rows (p->stack, y, rows);
          for (guint x = 0; x < first->width; x++)
            {
              float rad[3];
              pixel_radiance (p, response, NULL, rows, x, rad);
              for (guint i = 0; i < p->stack->n; i++)
                {
                  guint8 z[3];
                  pixel_levels (p, rows, i, x, z);
                  for (int c = 0; c < 3; c++)
                    s[c * LM_HDR_LEVELS + z[c]] += (double) (p->times[i] * rad[c]);
                }
            }
        }
    }
  memset (sums, 0, sizeof (double) * 3 * LM_HDR_LEVELS);
  for (guint t = 0; t < n_tiles; t++)
    for (int k = 0; k < 3 * LM_HDR_LEVELS; k++)
      sums[k / LM_HDR_LEVELS][k % LM_HDR_LEVELS] += tiles[(gsize) t * 3 * LM_HDR_LEVELS + k];
}

/* The curve's value at level Z when Z has none (no sample, or only samples of radiance 0):
 * linear between the nearest levels that have one, or the nearest one's beyond the ends.
 * FALSE when no level has a value. */
static gboolean
bridge (const float *curve, int z, float *value)
{
  int lo = z - 1, hi = z + 1;
  while (lo >= 0 && !(curve[lo] > 0.0f))
    lo--;
  while (hi < LM_HDR_LEVELS && !(curve[hi] > 0.0f))
    hi++;
  if (lo < 0 && hi >= LM_HDR_LEVELS)
    return FALSE;
  if (lo < 0)
    *value = curve[hi];
  else if (hi >= LM_HDR_LEVELS)
    *value = curve[lo];
  else
    *value = curve[lo] + (curve[hi] - curve[lo]) * (float) (z - lo) / (float) (hi - lo);
  return TRUE;
}

static gboolean
no_curve (int c, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
               _("the response could not be recovered: the %s channel has no unclipped pixel in any exposure"),
               _(channel_names[c]));
  return FALSE;
}

gboolean
lm_hdr_calibrate_robertson (const LmHdrStack *stack, int max_iter, float threshold, LmResponse *response,
                            GError **error)
{
  g_return_val_if_fail (stack->times != NULL, FALSE);
  if (max_iter < 1 || !(threshold >= 0.0f))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("Robertson calibration: %d iterations and threshold %g: both must be positive"), max_iter,
                   threshold);
      return FALSE;
    }
  Pass p;
  pass_init (&p, stack, FALSE);
  guint n_tiles = (stack->images[0]->height + TILE_ROWS - 1) / TILE_ROWS;
  double *tiles = g_try_malloc_n (MAX (n_tiles, 1), sizeof (double) * 3 * LM_HDR_LEVELS);
  if (tiles == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory for the calibration"));
      return FALSE;
    }
  guint64 card[3][LM_HDR_LEVELS];
  count_levels (&p, card);

  /* OpenCV's start: the linear curve z/128. */
  LmResponse curve;
  for (int c = 0; c < 3; c++)
    for (int z = 0; z < LM_HDR_LEVELS; z++)
      curve.value[c][z] = (float) z / (LM_HDR_LEVELS / 2.0f);

  gboolean ok = TRUE;
  for (int iter = 0; iter < max_iter && ok; iter++)
    {
      double sums[3][LM_HDR_LEVELS];
      curve_sums (&p, &curve, tiles, n_tiles, sums);
      LmResponse next;
      double diff = 0.0;
      for (int c = 0; c < 3 && ok; c++)
        {
          /* Levels without samples stay 0 while iterating: they count in the difference
           * of the first iteration only. (OpenCV's become NaN, 0 × 1/0, which keeps its
           * stopping rule from ever firing on such a stack: it runs every iteration.) */
          for (int z = 0; z < LM_HDR_LEVELS; z++)
            next.value[c][z] = card[c][z] ? (float) (sums[c][z] / (double) card[c][z]) : 0.0f;
          float middle = next.value[c][LM_HDR_LEVELS / 2];
          if (!(middle > 0.0f) && !bridge (next.value[c], LM_HDR_LEVELS / 2, &middle))
            ok = no_curve (c, error);
          for (int z = 0; z < LM_HDR_LEVELS && ok; z++)
            {
              next.value[c][z] /= middle;
              diff += fabs ((double) next.value[c][z] - curve.value[c][z]);
            }
        }
      if (!ok)
        break;
      curve = next;
      if (diff / 3.0 < threshold)
        break;
    }
  g_free (tiles);

  /* A level that no pixel of this stack has is left undefined by OpenCV; another stack of
   * the same camera may have it, and a saved curve must be positive: bridge the gaps. */
  for (int c = 0; c < 3 && ok; c++)
    {
      float filled[LM_HDR_LEVELS];
      for (int z = 0; z < LM_HDR_LEVELS && ok; z++)
        {
          filled[z] = curve.value[c][z];
          if (!(filled[z] > 0.0f) && !bridge (curve.value[c], z, &filled[z]))
            ok = no_curve (c, error);
        }
      memcpy (curve.value[c], filled, sizeof filled);
    }
  if (ok)
    *response = curve;
  return ok;
}
