/* View resampling, CPU side; the per-pixel math (view-math.h) is shared with kernels/view.cu. */
#include "view.h"

#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"

gboolean
lm_view_check (const LmImage *image, const LmViewRect *rect, const LmImage *out, GError **error)
{
  if (rect->out_w < 1 || rect->out_h < 1 || !(rect->rw > 0.0) || !(rect->rh > 0.0)
      || rect->rx < 0.0 || rect->ry < 0.0 || rect->rx + rect->rw > image->width + 1e-6
      || rect->ry + rect->rh > image->height + 1e-6 || out->format != LM_FORMAT_RGBA8
      || out->width != (guint) rect->out_w || out->height != (guint) rect->out_h
      || image->format == LM_FORMAT_RGBA_F32)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("view region %.1f,%.1f %.1f×%.1f at %d×%d does not fit a %u×%u image"),
                   rect->rx, rect->ry, rect->rw, rect->rh, rect->out_w, rect->out_h, image->width,
                   image->height);
      return FALSE;
    }
  return TRUE;
}

LmViewSource
lm_view_source (const LmImage *image)
{
  LmViewSource s = { image->data, image->stride, (int) image->width, (int) image->height,
                     (int) lm_format_channels (image->format), (int) lm_format_depth (image->format) };
  return s;
}

void
lm_view_cpu (const LmImage *image, const LmViewRect *rect, LmImage *out)
{
  lm_view_cpu_lut (image, rect, NULL, out);
}

void
lm_view_cpu_lut (const LmImage *image, const LmViewRect *rect, const LmLut3d *lut, LmImage *out)
{
  LmViewSource s = lm_view_source (image);
#pragma omp parallel for schedule(static)
  for (int j = 0; j < rect->out_h; j++)
    {
      guint32 *o = (guint32 *) lm_image_row (out, j);
      for (int i = 0; i < rect->out_w; i++)
        o[i] = lm_view_pixel_seen (&s, rect, lut, i, j);
    }
  out->opaque = TRUE;
}

void
lm_shrink_cpu (const LmImage *src, LmImage *dst)
{
  g_return_if_fail (src->format == dst->format && src->format != LM_FORMAT_RGBA_F32);
  int ch = (int) lm_format_channels (src->format);
  gboolean deep = lm_format_depth (src->format) == 16;
  double sx = (double) src->width / dst->width, sy = (double) src->height / dst->height;

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < dst->height; j++)
    {
      int y0, y1, x0, x1;
      float wy0, wy1, wx0, wx1;
      lm_view_span (0.0, sy, (int) j, (int) src->height, &y0, &y1, &wy0, &wy1);
      guint8 *out = lm_image_row (dst, j);
      for (guint i = 0; i < dst->width; i++)
        {
          lm_view_span (0.0, sx, (int) i, (int) src->width, &x0, &x1, &wx0, &wx1);
          float acc[4] = { 0 }, wsum = 0.0f;
          for (int y = y0; y <= y1; y++)
            {
              float wy = y == y0 ? wy0 : (y == y1 ? wy1 : 1.0f);
              const guint8 *row = lm_image_row (src, y);
              for (int x = x0; x <= x1; x++)
                {
                  float w = wy * (x == x0 ? wx0 : (x == x1 ? wx1 : 1.0f));
                  for (int c = 0; c < ch; c++)
                    acc[c] += w * (deep ? ((const guint16 *) row)[x * ch + c] : row[x * ch + c]);
                  wsum += w;
                }
            }
          for (int c = 0; c < ch; c++)
            if (deep)
              ((guint16 *) out)[i * ch + c] = lm_quantize_u16 ((acc[c] / wsum) / 257.0f);
            else
              out[i * ch + c] = lm_quantize_u8 (acc[c] / wsum);
        }
    }
  dst->opaque = src->opaque;
}
