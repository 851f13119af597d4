/* View resampling, CPU reference; kernels/view.cu mirrors it operation for operation. */
#include "view.h"

#include <math.h>
#include <glib/gi18n.h>

#include "error.h"

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

void
lm_view_cpu (const LmImage *image, const LmViewRect *rect, LmImage *out)
{
  double sx = rect->rw / rect->out_w, sy = rect->rh / rect->out_h;
  gboolean gray = image->format == LM_FORMAT_GRAY8;
  int bpp = gray ? 1 : 4;

#pragma omp parallel for schedule(static)
  for (int j = 0; j < rect->out_h; j++)
    {
      int y0, y1;
      float wy0, wy1;
      lm_view_span (rect->ry, sy, j, (int) image->height, &y0, &y1, &wy0, &wy1);
      guint32 *o = (guint32 *) lm_image_row (out, j);
      for (int i = 0; i < rect->out_w; i++)
        {
          int x0, x1;
          float wx0, wx1;
          lm_view_span (rect->rx, sx, i, (int) image->width, &x0, &x1, &wx0, &wx1);
          float acc[3] = { 0.0f, 0.0f, 0.0f }, wsum_x = 0.0f, wsum_y = 0.0f;
          for (int y = y0; y <= y1; y++)
            {
              float wy = y == y0 ? wy0 : (y == y1 ? wy1 : 1.0f);
              const guint8 *row = lm_image_row (image, y);
              float line[3] = { 0.0f, 0.0f, 0.0f };
              wsum_x = 0.0f;
              for (int x = x0; x <= x1; x++)
                {
                  float wx = x == x0 ? wx0 : (x == x1 ? wx1 : 1.0f);
                  const guint8 *p = row + x * bpp;
                  for (int c = 0; c < 3; c++)
                    line[c] = line[c] + wx * (float) p[gray ? 0 : c];
                  wsum_x = wsum_x + wx;
                }
              for (int c = 0; c < 3; c++)
                acc[c] = acc[c] + wy * line[c];
              wsum_y = wsum_y + wy;
            }
          float norm = wsum_x * wsum_y;
          o[i] = lm_cairo_rgb24 (lm_quantize_u8 (acc[0] / norm), lm_quantize_u8 (acc[1] / norm),
                                 lm_quantize_u8 (acc[2] / norm));
        }
    }
  out->opaque = TRUE;
}
