/* Debevec & Malik (1997): the radiance merge (the response's recovery is in
 * debevec-calibrate.c), and a response's text file. The merge's per-pixel arithmetic is
 * merge-math.h's, shared with the CUDA kernel. */
#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io.h"
#include "merge.h"
#include "merge-math.h"
#include "response.h"

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
            lm_debevec_add (log_response, lm_hdr_pixel_word (stack->images[i], x, y), log_time[i], sum, &wsum);
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
