/* detectMultiScale (detect.h). Each level of the pyramid is the photo resized from the
 * original (not from the level before) to round(size / scale) with OpenCV's bilinear bytes;
 * windows step by 2 pixels of the level below a scale of 2 and by 1 from 2 on, and a window
 * rejected by the first stage skips its right-hand neighbour, as OpenCV's loop does. The
 * scales are floats and the boxes are rounded from float products, as OpenCV's are. */
#include <math.h>
#include <omp.h>
#include <glib/gi18n.h>

#include "detect.h"
#include "cascade-level.h"
#include "cascade-math.h"
#include "integral.h"
#include "resize-linear.h"
#include "core/error.h"

void
lm_cascade_params_init (LmCascadeParams *params)
{
  *params = (LmCascadeParams) { .scale_factor = 1.1, .min_neighbors = 3 };
}

/* The scales OpenCV tries: factor^k from 1 while the model's window fits the photo and the
 * maximum size, skipping those below the minimum size. */
GArray *
lm_cascade_scales (const LmCascade *c, guint width, guint height, const LmCascadeParams *p, GError **error)
{
  if (!(p->scale_factor > 1.0) || !isfinite (p->scale_factor) || p->min_width < 0 || p->min_height < 0
      || p->max_width < 0 || p->max_height < 0 || p->min_neighbors < 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("detection needs a scale factor above 1, and sizes and neighbours of 0 or more"));
      return NULL;
    }
  int max_w = p->max_width > 0 && p->max_height > 0 ? p->max_width : (int) width;
  int max_h = p->max_width > 0 && p->max_height > 0 ? p->max_height : (int) height;
  GArray *scales = g_array_new (FALSE, FALSE, sizeof (float));
  for (double factor = 1.0;; factor *= p->scale_factor)
    {
      long ww = lrint (c->window_width * factor), wh = lrint (c->window_height * factor);
      if (ww > max_w || wh > max_h || ww > (long) width || wh > (long) height)
        break;
      if (scales->len == LM_CASCADE_MAX_LEVELS)
        {
          g_array_unref (scales);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("a scale factor of %g makes more than %d pyramid levels; use a larger one"),
                       p->scale_factor, LM_CASCADE_MAX_LEVELS);
          return NULL;
        }
      if (ww < p->min_width || wh < p->min_height)
        continue;
      float f = (float) factor;
      g_array_append_val (scales, f);
    }
  return scales;
}

void
lm_cascade_level_size (guint width, guint height, float scale, int *level_width, int *level_height)
{
  *level_width = (int) lrintf ((float) width / scale);
  *level_height = (int) lrintf ((float) height / scale);
}

int
lm_cascade_step (float scale)
{
  return scale >= 2.0f ? 1 : 2;
}

/* OpenCV's stripes: one per 32 windows of the first level's row (its width counted one more). */
int
lm_cascade_stripes (const LmCascade *c, guint width, guint height, float first_scale)
{
  int lw0, lh0;
  lm_cascade_level_size (width, height, first_scale, &lw0, &lh0);
  return MAX ((int) ceil (MAX (lw0 + 1 - c->window_width, 0) / 32.0), 1);
}

void
lm_cascade_windows (const LmCascade *c, int lw, int lh, float scale, int stripes, int *columns, int *rows)
{
  int step = lm_cascade_step (scale);
  int sw = MAX (lw + 1 - c->window_width, 0), sh = MAX (lh + 1 - c->window_height, 0);
  /* OpenCV cuts the rows into STRIPES stripes of a whole number of steps, the count rounded
   * down: where the rows are odd in number the last one can be left out, and is here too. */
  int stripe = MAX ((sh / step + stripes - 1) / stripes, 1) * step;
  sh = MIN (sh, stripes * stripe);
  *columns = (sw + step - 1) / step;
  *rows = (sh + step - 1) / step;
}

LmCascadeBox
lm_cascade_window_box (const LmCascade *c, float scale, int x, int y)
{
  return (LmCascadeBox) { (int) lrintf (x * scale), (int) lrintf (y * scale), (int) lrintf (c->window_width * scale),
                          (int) lrintf (c->window_height * scale), 0 };
}

typedef struct {
  int level, y, x;
  LmCascadeBox box;
} Candidate;

static int
by_level_y_x (gconstpointer pa, gconstpointer pb)
{
  const Candidate *a = pa, *b = pb;
  if (a->level != b->level)
    return a->level - b->level;
  if (a->y != b->y)
    return a->y - b->y;
  return a->x - b->x;
}

/* The windows of one level (integrals IN of a level of LW × LH pixels) that pass, appended to
 * OUT (of Candidate). */
static void
scan_level (const LmCascade *c, const LmCascadeLevel *laid_out, const LmCascadeIntegrals *in, int lw, int lh,
            float scale, int level, int stripes, GArray *out)
{
  int step = lm_cascade_step (scale), columns, rows;
  lm_cascade_windows (c, lw, lh, scale, stripes, &columns, &rows);
  int sw = columns * step;
  int n_threads = omp_get_max_threads ();
  GArray **found = g_new0 (GArray *, n_threads);
#pragma omp parallel
  {
    GArray *mine = g_array_new (FALSE, FALSE, sizeof (Candidate));
    found[omp_get_thread_num ()] = mine;
#pragma omp for schedule(dynamic, 4)
    for (int row = 0; row < rows; row++)
      {
        int y = row * step;
        gboolean skip = FALSE;
        for (int x = 0; x < sw;)
          {
            int n = MIN (4, (sw - x + step - 1) / step), result[4];
            if (laid_out)
              lm_cascade_level_windows (laid_out, x, y, step, n, skip, result);
            else
              result[0] = lm_cascade_window (c, in, x, y), n = 1;
            for (int i = 0; i < n; i++, x += step)
              {
                if (skip)
                  {
                    skip = FALSE;
                    continue;
                  }
                if (result[i] > 0)
                  {
                    Candidate k = { level, y, x, lm_cascade_window_box (c, scale, x, y) };
                    g_array_append_val (mine, k);
                  }
                skip = result[i] == 0;
              }
          }
      }
  }
  GArray *level_found = g_array_new (FALSE, FALSE, sizeof (Candidate));
  for (int t = 0; t < n_threads; t++)
    if (found[t])
      {
        g_array_append_vals (level_found, found[t]->data, found[t]->len);
        g_array_unref (found[t]);
      }
  g_free (found);
  g_array_sort (level_found, by_level_y_x);
  g_array_append_vals (out, level_found->data, level_found->len);
  g_array_unref (level_found);
}

GArray *
lm_cascade_candidates (const LmCascade *c, const guint8 *gray, gsize stride, guint width, guint height,
                       const LmCascadeParams *params, GCancellable *cancellable, GError **error)
{
  g_autoptr (GArray) scales = lm_cascade_scales (c, width, height, params, error);
  if (scales == NULL)
    return NULL;
  GArray *found = g_array_new (FALSE, FALSE, sizeof (Candidate));
  if (scales->len > 0)
    {
      /* The first level is the largest: its buffers serve every level. */
      float s0 = g_array_index (scales, float, 0);
      gsize lw0 = (gsize) lrintf ((float) width / s0) + 1, lh0 = (gsize) lrintf ((float) height / s0) + 1;
      gsize cells = (lw0 + 1) * (lh0 + 1);
      g_autofree guint8 *level = g_try_malloc (lw0 * lh0);
      /* The tilted sums follow the sums in one allocation, as LmCascadeLevel needs. */
      g_autofree guint32 *sum = g_try_malloc (cells * (c->has_tilted ? 2 : 1) * sizeof (guint32));
      g_autofree guint32 *sqsum = c->kind == LM_CASCADE_HAAR ? g_try_malloc (cells * sizeof (guint32)) : NULL;
      guint32 *tilted = c->has_tilted && sum ? sum + cells : NULL;
      if (!level || !sum || (c->kind == LM_CASCADE_HAAR && !sqsum))
        {
          g_array_unref (found);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                       _("not enough memory for the integral images of a %u × %u photo"), width, height);
          return NULL;
        }
      int stripes = lm_cascade_stripes (c, width, height, s0);
      g_autoptr (LmCascadeLevel) laid_out
        = lm_cascade_level_fits (lw0 + 1, (guint) lh0) ? lm_cascade_level_new (c) : NULL;
      for (guint i = 0; i < scales->len; i++)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              g_array_unref (found);
              return NULL;
            }
          float s = g_array_index (scales, float, i);
          int lw, lh;
          lm_cascade_level_size (width, height, s, &lw, &lh);
          if (lw <= 0 || lh <= 0 || (gsize) lw >= lw0 || (gsize) lh >= lh0)
            continue;
          lm_resize_linear_gray8 (gray, stride, width, height, level, (gsize) lw, (guint) lw, (guint) lh);
          lm_integral_compute (level, (gsize) lw, (guint) lw, (guint) lh, sum, sqsum, tilted, (gsize) lw + 1);
          LmCascadeIntegrals in = { sum, sqsum, tilted, (ptrdiff_t) lw + 1 };
          if (laid_out)
            lm_cascade_level_set (laid_out, &in);
          scan_level (c, laid_out, &in, lw, lh, s, (int) i, stripes, found);
        }
    }
  GArray *boxes = g_array_sized_new (FALSE, FALSE, sizeof (LmCascadeBox), found->len);
  for (guint i = 0; i < found->len; i++)
    g_array_append_val (boxes, g_array_index (found, Candidate, i).box);
  g_array_unref (found);
  return boxes;
}

GArray *
lm_cascade_group_candidates (GArray *candidates, const LmCascadeParams *params, guint width, guint height)
{
  return lm_cascade_group (candidates, params->min_neighbors, LM_CASCADE_GROUP_EPS, (int) width, (int) height);
}

GArray *
lm_cascade_detect (const LmCascade *c, const guint8 *gray, gsize stride, guint width, guint height,
                   const LmCascadeParams *params, GCancellable *cancellable, GError **error)
{
  g_autoptr (GArray) candidates
    = lm_cascade_candidates (c, gray, stride, width, height, params, cancellable, error);
  if (candidates == NULL)
    return NULL;
  return lm_cascade_group_candidates (candidates, params, width, height);
}
