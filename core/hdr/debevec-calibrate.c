/* Debevec & Malik (1997): the camera response recovered from a few pixels of the bracket.
 * The least-squares system is OpenCV's CalibrateDebevec's (its sample grid, triangle
 * weights, g(128) = 0, smoothness λ·w(z) on the second difference), so that both recover
 * the same curve from the same pixels.
 *
 * It is solved in double precision through its normal equations (the point unknowns
 * eliminated, then Cholesky), a few milliseconds, when they are well conditioned; otherwise
 * by LAPACK's SVD with OpenCV's rule for small singular values, several times the work. Both give the least-squares
 * solution of a system of full rank, to far below the curve's float precision; only a
 * system without a unique solution needs the SVD's choice among them. */
#include <float.h>
#include <math.h>
#include <string.h>
#include <lapacke.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "response.h"

/* One equation of the system: at most three unknowns (a smoothness row). */
typedef struct {
  int k;
  int col[3];
  double val[3];
  double b;
} Row;

guint
lm_hdr_debevec_points (guint width, guint height, int samples, guint *xy, guint max)
{
  int cols = (int) width, rows = (int) height;
  int x_points = MAX (1, (int) sqrt ((double) samples * cols / rows));
  int y_points = MAX (1, samples / x_points);
  int step_x = MAX (1, cols / x_points), step_y = MAX (1, rows / y_points);
  guint n = 0;
  for (int i = 0, x = step_x / 2; i < x_points; i++, x += step_x)
    for (int j = 0, y = step_y; j < y_points && n < max; j++, y += step_y, n++)
      {
        xy[2 * n] = (guint) MIN (x, cols - 1);
        xy[2 * n + 1] = (guint) MIN (y, rows - 1);
      }
  return n;
}

/* X (N) minimises |A X − B| (A: M × N, row major, M ≥ N, destroyed), by SVD, with the rule of
 * OpenCV's solve (DECOMP_SVD): singular values up to 2ε·Σσ count as zero, so the minimum-norm
 * solution is returned. The rule matters when the exposures do not tell the curve's slope
 * (aligned copies of one picture: every sample has the same level in every exposure): one
 * singular value is then zero up to rounding (~1e-16·σ₁), and inverting that noise, as
 * LAPACK's dgelsd does at machine precision, sent the curve to 0 and ∞. */
static gboolean
solve_svd (lapack_int m, lapack_int n, double *a, const double *b, double *x, GError **error)
{
  double *s = g_new (double, n), *u = g_try_new (double, (gsize) m * n), *vt = g_new (double, (gsize) n * n);
  lapack_int info = u ? LAPACKE_dgesdd (LAPACK_ROW_MAJOR, 'S', m, n, a, n, s, u, n, vt, n) : -1;
  if (info == 0)
    {
      double sum = 0.0;
      for (lapack_int i = 0; i < n; i++)
        sum += s[i];
      double threshold = 2.0 * DBL_EPSILON * sum;
      memset (x, 0, sizeof (double) * n);
      for (lapack_int i = 0; i < n; i++)
        {
          if (s[i] <= threshold)
            continue;
          double dot = 0.0; /* (Uᵀ B)ᵢ / σᵢ along the i-th right singular vector */
          for (lapack_int r = 0; r < m; r++)
            dot += u[r * n + i] * b[r];
          dot /= s[i];
          for (lapack_int j = 0; j < n; j++)
            x[j] += dot * vt[i * n + j];
        }
    }
  else if (u == NULL)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                 _("not enough memory to recover the camera response"));
  else
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("the response could not be recovered (LAPACK dgesdd returned %d)"), (int) info);
  g_free (s);
  g_free (u);
  g_free (vt);
  return info == 0;
}

/* In place, A = L·Lᵀ with L in the lower triangle (row major, N × N); FALSE at a pivot
 * that is not positive. Written out rather than LAPACK's dpotrf: its blocked, threaded
 * sums round differently with the threads at hand, and the curve of a stack must not
 * depend on the thread that recovers it (a batch equals `lumen-cli hdr` byte for byte). */
static gboolean
cholesky (double *a, int n)
{
  for (int j = 0; j < n; j++)
    {
      double *rj = a + (gsize) j * n;
      double d = rj[j];
      for (int k = 0; k < j; k++)
        d -= rj[k] * rj[k];
      if (!(d > 0.0))
        return FALSE;
      d = sqrt (d);
      rj[j] = d;
      for (int i = j + 1; i < n; i++)
        {
          double *ri = a + (gsize) i * n, s = ri[j];
          for (int k = 0; k < j; k++)
            s -= ri[k] * rj[k];
          ri[j] = s / d;
        }
    }
  return TRUE;
}

/* X := (L·Lᵀ)⁻¹ X. */
static void
cholesky_solve (const double *l, int n, double *x)
{
  for (int i = 0; i < n; i++)
    {
      double s = x[i];
      for (int k = 0; k < i; k++)
        s -= l[(gsize) i * n + k] * x[k];
      x[i] = s / l[(gsize) i * n + i];
    }
  for (int i = n - 1; i >= 0; i--)
    {
      double s = x[i];
      for (int k = i + 1; k < n; k++)
        s -= l[(gsize) k * n + i] * x[k];
      x[i] = s / l[(gsize) i * n + i];
    }
}

/* A lower bound of the smallest eigenvalue's reciprocal, by inverse iteration from a fixed
 * start: enough to see a system with (nearly) no unique solution, whose null direction the
 * start is never orthogonal to in practice. */
static double
inverse_norm (const double *l, int n)
{
  g_autofree double *v = g_new (double, n);
  for (int i = 0; i < n; i++)
    v[i] = 1.0 + (double) i / n;
  double growth = 0.0;
  for (int it = 0; it < 4; it++)
    {
      double before = 0.0, after = 0.0;
      for (int i = 0; i < n; i++)
        before += v[i] * v[i];
      cholesky_solve (l, n, v);
      for (int i = 0; i < n; i++)
        after += v[i] * v[i];
      growth = sqrt (after / before);
      for (int i = 0; i < n; i++)
        v[i] /= sqrt (after);
    }
  return growth;
}

/* Below this reciprocal condition of the normal equations their solution is not trusted:
 * squaring A's condition number costs its digits, and the curve needs about seven. A system
 * without a unique solution lands near 1e-16, or fails the factorisation outright. */
#define MIN_RCOND 1e-11

/* The least-squares X by the normal equations, with the point unknowns eliminated first:
 * each appears only in its own point's equations, so AᵀA is a diagonal block for them, and
 * what remains is a 256 × 256 system in the curve (its Schur complement). FALSE when that
 * system is not clearly positive definite. */
static gboolean
solve_normal (const Row *rows, int m, int n, double *x)
{
  const int g = LM_HDR_LEVELS, p = n - g;
  g_autofree double *s = g_new0 (double, (gsize) g * g), *d = g_new0 (double, p), *be = g_new0 (double, p);
  memset (x, 0, sizeof (double) * n);
  /* AᵀA and AᵀB: the curve's block in S, the points' diagonal in D, right sides in X and BE. */
  for (int r = 0; r < m; r++)
    for (int i = 0; i < rows[r].k; i++)
      {
        int ci = rows[r].col[i];
        double vi = rows[r].val[i];
        if (ci >= g)
          {
            d[ci - g] += vi * vi;
            be[ci - g] += vi * rows[r].b;
            continue;
          }
        x[ci] += vi * rows[r].b;
        for (int j = 0; j < rows[r].k; j++)
          if (rows[r].col[j] < g)
            s[(gsize) ci * g + rows[r].col[j]] += vi * rows[r].val[j];
      }
  for (int i = 0; i < p; i++)
    if (!(d[i] > 0.0))
      return FALSE;
  /* A sample row couples one level and one point (its two entries); C holds, per point, the
   * sum of −w² at each level. S −= C·D⁻¹·Cᵀ, rhs −= C·D⁻¹·BE, a point at a time. */
  g_autofree double *c = g_new (double, g);
  g_autofree int *levels = g_new (int, g);
  for (int i = 0; i < p; i++)
    {
      int k = 0;
      memset (c, 0, sizeof (double) * g);
      for (int r = 0; r < m; r++)
        if (rows[r].k == 2 && rows[r].col[1] == g + i)
          {
            int z = rows[r].col[0];
            if (c[z] == 0.0)
              levels[k++] = z;
            c[z] += rows[r].val[0] * rows[r].val[1];
          }
      for (int a = 0; a < k; a++)
        {
          x[levels[a]] -= c[levels[a]] * be[i] / d[i];
          for (int b = 0; b < k; b++)
            s[(gsize) levels[a] * g + levels[b]] -= c[levels[a]] * c[levels[b]] / d[i];
        }
    }
  double norm = 0.0; /* ‖S‖₁ ≥ its largest eigenvalue */
  for (int j = 0; j < g; j++)
    {
      double col = 0.0;
      for (int i = 0; i < g; i++)
        col += fabs (s[(gsize) i * g + j]);
      norm = MAX (norm, col);
    }
  if (!cholesky (s, g) || 1.0 / (norm * inverse_norm (s, g)) < MIN_RCOND)
    return FALSE;
  cholesky_solve (s, g, x);
  /* Each point's log radiance from the curve: its own equations' weighted mean. */
  for (int r = 0; r < m; r++)
    if (rows[r].k == 2)
      be[rows[r].col[1] - g] -= rows[r].val[1] * rows[r].val[0] * x[rows[r].col[0]];
  for (int i = 0; i < p; i++)
    x[g + i] = be[i] / d[i];
  return TRUE;
}

static gboolean
solve (const Row *rows, lapack_int m, lapack_int n, double *x, GError **error)
{
  if (solve_normal (rows, (int) m, (int) n, x))
    return TRUE;
  double *a = g_try_new0 (double, (gsize) m * n), *b = g_new (double, m);
  if (a == NULL)
    {
      g_free (b);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to recover the camera response"));
      return FALSE;
    }
  for (lapack_int r = 0; r < m; r++)
    {
      for (int i = 0; i < rows[r].k; i++)
        a[r * n + rows[r].col[i]] = rows[r].val[i];
      b[r] = rows[r].b;
    }
  gboolean ok = solve_svd (m, n, a, b, x, error);
  g_free (a);
  g_free (b);
  return ok;
}

gboolean
lm_hdr_calibrate_debevec_samples (guint n_images, guint n_points, const guint32 *pixels, const double *times,
                                  float lambda, LmResponse *response, GError **error)
{
  lapack_int m = (lapack_int) (n_points * n_images) + LM_HDR_LEVELS - 1;
  lapack_int n = LM_HDR_LEVELS + (lapack_int) n_points;
  g_autofree Row *rows = g_new (Row, m);
  g_autofree double *x = g_new (double, n);
  for (int c = 0; c < 3; c++)
    {
      lapack_int eq = 0;
      for (guint i = 0; i < n_points; i++)
        for (guint j = 0; j < n_images; j++, eq++)
          {
            int z = (pixels[j * n_points + i] >> (8 * c)) & 0xff;
            double w = lm_hdr_triangle_weight (z);
            rows[eq] = (Row) { 2, { z, LM_HDR_LEVELS + (int) i }, { w, -w }, w * log (times[j]) };
          }
      rows[eq++] = (Row) { 1, { LM_HDR_LEVELS / 2 }, { 1.0 }, 0.0 }; /* g(128) = 0: the curve's scale */
      for (int i = 0; i < LM_HDR_LEVELS - 2; i++, eq++)
        {
          double w = lambda * lm_hdr_triangle_weight (i + 1);
          rows[eq] = (Row) { 3, { i, i + 1, i + 2 }, { w, -2.0 * w, w }, 0.0 };
        }
      if (!solve (rows, m, n, x, error))
        return FALSE;
      for (int z = 0; z < LM_HDR_LEVELS; z++)
        {
          response->value[c][z] = (float) exp (x[z]);
          /* A curve beyond float's range is no camera's; say so here rather than at the merge. */
          if (!(response->value[c][z] > 0.0f) || !isfinite (response->value[c][z]))
            {
              g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                           _("the exposures do not determine a camera response (level %d of the %s "
                             "channel is out of range): do their brightness and times agree?"),
                           z, c == 0 ? _("red") : c == 1 ? _("green") : _("blue"));
              return FALSE;
            }
        }
    }
  return TRUE;
}

gboolean
lm_hdr_calibrate_debevec (const LmHdrStack *stack, int samples, float lambda, LmResponse *response,
                          GError **error)
{
  g_return_val_if_fail (stack->times != NULL, FALSE);
  g_return_val_if_fail (samples > 0 && samples <= LM_HDR_MAX_SAMPLES, FALSE);
  const LmImage *first = stack->images[0];
  guint xy[2 * LM_HDR_MAX_SAMPLES];
  guint n_points = lm_hdr_debevec_points (first->width, first->height, samples, xy, LM_HDR_MAX_SAMPLES);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) n_points * stack->n);
  for (guint j = 0; j < stack->n; j++)
    for (guint i = 0; i < n_points; i++)
      pixels[j * n_points + i] = lm_hdr_pixel_word (stack->images[j], xy[2 * i], xy[2 * i + 1]);
  return lm_hdr_calibrate_debevec_samples (stack->n, n_points, pixels, stack->times, lambda, response, error);
}
