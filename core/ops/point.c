/* The fused point pass: its table built on the host, and the CPU's loop. */
#include "point.h"

#include <string.h>

#include "simd.h"

void
lm_point_pass_init (LmPointPass *pass)
{
  /* Zeroed whole, padding included: the render cache compares passes byte for byte. */
  memset (pass, 0, sizeof *pass);
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 256; i++)
      pass->table[c][i] = (float) i;
}

void
lm_point_pass_add (LmPointPass *pass, const LmOpInfo *info, const void *params)
{
  g_return_if_fail (lm_op_is_point (info->id) && info->point_prepare != NULL);
  info->point_prepare (params, pass);
}

void
lm_point_pass_map (LmPointPass *pass, LmPointChannelFn fn, const void *params)
{
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 256; i++)
      pass->table[c][i] = fn (params, c, pass->table[c][i]);
}

LM_SIMD_CLONES static void
row_rgba (const LmPointPass *pass, const guint32 *restrict in, guint32 *restrict out, guint width)
{
  for (guint x = 0; x < width; x++)
    out[x] = lm_point_rgba (pass, pass->table, in[x]);
}

static void
row_gray (const LmPointPass *pass, const guint8 *restrict in, guint32 *restrict out, guint width)
{
  for (guint x = 0; x < width; x++)
    out[x] = lm_point_gray (pass, pass->table, in[x]);
}

void
lm_point_run_cpu (const LmPointPass *pass, const LmImage *src, LmImage *dst)
{
  g_return_if_fail (dst->format == LM_FORMAT_RGBA8 && src->width == dst->width && src->height == dst->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < src->height; y++)
    {
      guint32 *out = (guint32 *) lm_image_row (dst, y);
      if (src->format == LM_FORMAT_GRAY8)
        row_gray (pass, lm_image_row (src, y), out, src->width);
      else
        row_rgba (pass, (const guint32 *) lm_image_row (src, y), out, src->width);
    }
}

LmFormat
lm_point_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return LM_FORMAT_RGBA8;
}

gboolean
lm_point_run_one_cpu (const LmOpInfo *info, const void *params, const LmImage *src, LmImage *dst,
                      GError **error)
{
  LmPointPass pass;
  lm_point_pass_init (&pass);
  lm_point_pass_add (&pass, info, params);
  lm_point_run_cpu (&pass, src, dst);
  return TRUE;
}
