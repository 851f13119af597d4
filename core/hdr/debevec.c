/* Debevec & Malik (1997): response recovery and the radiance merge. The least-squares system
 * is OpenCV's CalibrateDebevec's (its sample grid, triangle weights, g(128) = 0, smoothness
 * λ·w(z) on the second difference), so that both recover the same curve from the same
 * pixels; it is solved in double precision by LAPACK's SVD with OpenCV's rule for small
 * singular values. The merge's per-pixel arithmetic is merge-math.h's, shared with the CUDA
 * kernel. */
#include <float.h>
#include <math.h>
#include <string.h>
#include <lapacke.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io.h"
#include "merge.h"
#include "merge-math.h"
#include "response.h"

static inline guint8
sample (const LmImage *image, guint x, guint y, int c)
{
  const guint8 *row = lm_image_row (image, y);
  return image->format == LM_FORMAT_GRAY8 ? row[x] : row[4 * x + c];
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

gboolean
lm_hdr_calibrate_debevec (const LmHdrStack *stack, int samples, float lambda, LmResponse *response,
                          GError **error)
{
  g_return_val_if_fail (stack->times != NULL, FALSE);
  const LmImage *first = stack->images[0];
  int cols = (int) first->width, rows = (int) first->height;
  int x_points = MAX (1, (int) sqrt ((double) samples * cols / rows));
  int y_points = MAX (1, samples / x_points);
  int step_x = MAX (1, cols / x_points), step_y = MAX (1, rows / y_points);
  g_autoptr (GArray) points = g_array_new (FALSE, FALSE, sizeof (int) * 2);
  for (int i = 0, x = step_x / 2; i < x_points; i++, x += step_x)
    for (int j = 0, y = step_y; j < y_points; j++, y += step_y)
      {
        int p[2] = { MIN (x, cols - 1), MIN (y, rows - 1) };
        g_array_append_val (points, p);
      }

  lapack_int n_points = (lapack_int) points->len;
  lapack_int m = n_points * (lapack_int) stack->n + LM_HDR_LEVELS + 1;
  lapack_int n = LM_HDR_LEVELS + n_points;
  double *a = g_new (double, (gsize) m * n), *b = g_new (double, m), *x = g_new (double, n);
  gboolean ok = TRUE;

  for (int c = 0; c < 3 && ok; c++)
    {
      memset (a, 0, sizeof (double) * m * n);
      memset (b, 0, sizeof (double) * m);
      lapack_int eq = 0;
      for (lapack_int i = 0; i < n_points; i++)
        {
          const int *p = &g_array_index (points, int, 2 * i);
          for (guint j = 0; j < stack->n; j++, eq++)
            {
              int z = sample (stack->images[j], p[0], p[1], c);
              double w = lm_hdr_triangle_weight (z);
              a[eq * n + z] = w;
              a[eq * n + LM_HDR_LEVELS + i] = -w;
              b[eq] = w * log (stack->times[j]);
            }
        }
      a[eq * n + LM_HDR_LEVELS / 2] = 1.0; /* g(128) = 0: fixes the curve's scale */
      eq++;
      for (int i = 0; i < LM_HDR_LEVELS - 2; i++, eq++)
        {
          double w = lm_hdr_triangle_weight (i + 1);
          a[eq * n + i] = lambda * w;
          a[eq * n + i + 1] = -2.0 * lambda * w;
          a[eq * n + i + 2] = lambda * w;
        }

      if (!solve_svd (m, n, a, b, x, error))
        {
          ok = FALSE;
          break;
        }
      for (int z = 0; z < LM_HDR_LEVELS && ok; z++)
        {
          response->value[c][z] = (float) exp (x[z]);
          /* A curve beyond float's range is no camera's; say so here rather than at the merge. */
          if (!(response->value[c][z] > 0.0f) || !isfinite (response->value[c][z]))
            {
              g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                           _("the exposures do not determine a camera response (level %d of the %s "
                             "channel is out of range): do their brightness and times agree?"),
                           z, c == 0 ? _("red") : c == 1 ? _("green") : _("blue"));
              ok = FALSE;
            }
        }
    }
  g_free (a);
  g_free (b);
  g_free (x);
  return ok;
}

/* One pixel of an exposure as the merge reads it: an RGBA8 word, gray repeated in R, G, B. */
static inline guint32
pixel_word (const LmImage *image, guint x, guint y)
{
  const guint8 *row = lm_image_row (image, y);
  return image->format == LM_FORMAT_GRAY8 ? lm_hdr_gray_word (row[x]) : ((const guint32 *) row)[x];
}

gboolean
lm_hdr_merge_debevec (const LmHdrStack *stack, const LmResponse *response, LmImage *out, GError **error)
{
  g_return_val_if_fail (stack->times != NULL, FALSE);
  float log_response[3 * LM_HDR_LEVELS];
  int bad = lm_debevec_log_table (response->value, log_response);
  if (bad >= 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("the response is not positive at level %d: it cannot be a camera's"), bad);
      return FALSE;
    }
  float *log_time = g_newa (float, stack->n);
  for (guint i = 0; i < stack->n; i++)
    log_time[i] = lm_hdr_log_time (stack->times[i]);

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < out->height; y++)
    {
      float *o = (float *) lm_image_row (out, y);
      for (guint x = 0; x < out->width; x++)
        {
          float sum[3] = { 0, 0, 0 }, wsum = 0.0f;
          for (guint i = 0; i < stack->n; i++)
            lm_debevec_add (log_response, pixel_word (stack->images[i], x, y), log_time[i], sum, &wsum);
          for (int c = 0; c < 3; c++)
            o[4 * x + c] = lm_debevec_radiance (sum[c], wsum);
          o[4 * x + 3] = 1.0f;
        }
    }
  return TRUE;
}

gboolean
lm_response_save (const LmResponse *response, const char *path, GError **error)
{
  g_autoptr (GString) text = g_string_new ("# Lumen camera response: for each 8-bit level (0..255), "
                                           "the relative exposure of R, G and B; level 128 is 1.\n");
  for (int z = 0; z < LM_HDR_LEVELS; z++)
    {
      char r[G_ASCII_DTOSTR_BUF_SIZE], g[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append_printf (text, "%s %s %s\n", g_ascii_formatd (r, sizeof r, "%.9g", response->value[0][z]),
                              g_ascii_formatd (g, sizeof g, "%.9g", response->value[1][z]),
                              g_ascii_formatd (b, sizeof b, "%.9g", response->value[2][z]));
    }
  GError *e = NULL;
  if (!g_file_set_contents (path, text->str, text->len, &e))
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, LUMEN_ERROR, lm_error_code_from_errno (EIO), _("%s: cannot write: %s"), display,
                   e->message);
      g_error_free (e);
      return FALSE;
    }
  return TRUE;
}

gboolean
lm_response_load (LmResponse *response, const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_autofree char *display = g_filename_display_name (path);
  GError *e = NULL;
  if (!g_file_get_contents (path, &text, NULL, &e))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, "%s: %s", display, e->message);
      g_error_free (e);
      return FALSE;
    }
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  int z = 0;
  for (int i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      if (*line == '\0' || *line == '#')
        continue;
      char *p = line, *end;
      for (int c = 0; c < 3; c++)
        {
          double v = g_ascii_strtod (p, &end);
          if (end == p || z >= LM_HDR_LEVELS || !(v > 0.0) || !isfinite (v))
            {
              g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                           _("%s: line %d is not three positive numbers of a camera response"), display, i + 1);
              return FALSE;
            }
          response->value[c][z] = (float) v;
          p = end;
        }
      z++;
    }
  if (z != LM_HDR_LEVELS)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("%s: %d levels instead of 256"), display, z);
      return FALSE;
    }
  return TRUE;
}
