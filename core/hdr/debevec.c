/* Debevec & Malik (1997): the radiance merge (the response's recovery is in
 * debevec-calibrate.c), and a response's text file. The merge's per-pixel arithmetic is
 * merge-math.h's, shared with the CUDA kernel. */
#include <errno.h>
#include <math.h>
#include <glib/gi18n.h>

#include "../io/atomic-file.h"
#include "../error.h"
#include "../io/io.h"
#include "../io/text-input.h"
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
  g_return_val_if_fail (stack->n >= 1 && stack->n <= LM_HDR_MAX_EXPOSURES, FALSE);
  float log_time[LM_HDR_MAX_EXPOSURES];
  for (guint i = 0; i < stack->n; i++)
    log_time[i] = lm_hdr_log_time (stack->times[i]);
  LmHdrClipEnds ends = lm_hdr_clip_ends (log_response, log_time, stack->n, TRUE);
  unsigned longest = lm_hdr_longest (log_time, stack->n);

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < out->height; y++)
    {
      float *o = (float *) lm_image_row (out, y);
      for (guint x = 0; x < out->width; x++)
        {
          LmDebevecSums s = { 0 };
          for (guint i = 0; i < stack->n; i++)
            lm_debevec_add (&s, log_response, lm_hdr_pixel_word (stack->images[i], x, y), log_time[i], i == longest);
          for (int c = 0; c < 3; c++)
            o[4 * x + c] = lm_debevec_radiance (&s, &ends, c);
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
  /* As the images are written: never a partial curve, and a full disk named as such. */
  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    return FALSE;
  errno = 0;
  if (fwrite (text->str, 1, text->len, lm_atomic_file_stream (file)) != text->len)
    {
      GError *e = NULL;
      lm_set_write_error (&e, path, errno ? errno : EIO);
      lm_atomic_file_take_error (file, e);
    }
  return lm_atomic_file_commit (file, error);
}

/* Three numbers of one level, each one the merge can take the logarithm of: positive and
 * finite in single precision (1e-320 reads as a number, but as a float it is 0). */
static gboolean
parse_level (const char *line, float value[3])
{
  g_auto (GStrv) fields = g_strsplit_set (line, " \t", -1);
  int n = 0;
  for (int f = 0; fields[f]; f++)
    {
      if (*fields[f] == '\0')
        continue;
      double v;
      if (n == 3 || !lm_text_parse_double (fields[f], &v, NULL))
        return FALSE;
      value[n] = (float) v;
      if (!(value[n] > 0.0f) || !isfinite (value[n]))
        return FALSE;
      n++;
    }
  return n == 3;
}

gboolean
lm_response_load (LmResponse *response, const char *path, GError **error)
{
  g_autofree char *text = lm_text_file_read (path, LM_TEXT_FILE_UTF8, NULL, error);
  if (text == NULL)
    return FALSE;
  g_autofree char *display = g_filename_display_name (path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  int z = 0;
  for (int i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      if (*line == '\0' || *line == '#')
        continue;
      float value[3];
      if (z < LM_HDR_LEVELS && !parse_level (line, value))
        {
          g_autofree char *quoted = lm_text_quote (line, -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                       _("%s: line %d: “%s” is not three positive numbers of a camera response"), display, i + 1,
                       quoted);
          return FALSE;
        }
      for (int c = 0; c < 3 && z < LM_HDR_LEVELS; c++)
        response->value[c][z] = value[c];
      z++;
    }
  if (z != LM_HDR_LEVELS)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("%s: %d levels instead of 256"), display, z);
      return FALSE;
    }
  return TRUE;
}
