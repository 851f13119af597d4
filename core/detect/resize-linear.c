/* OpenCV's bit-exact bilinear resize of 8-bit gray (resize-linear.h). Every step is in
 * integers but the coordinates, which are doubles (1 / (dst / src), then (d + 0.5) · s − 0.5,
 * two roundings) whose fraction is rounded to even in 1/256ths; a destination pixel whose
 * source position falls before the first pixel or on or after the last copies that edge. The
 * result does not depend on the machine, so the GPU can give the same bytes. */
#include <math.h>
#include <string.h>

#include "resize-linear.h"

#define FRAC_BITS 8
#define ONE       (1 << FRAC_BITS)

typedef struct {
  int *offset;   /* the first of the two source pixels */
  guint16 *coef; /* their weights, summing to ONE */
  guint first, end; /* [first, end): interpolated; before: the first pixel; from end: the last */
} Axis;

static void
axis_init (Axis *a, guint src, guint dst)
{
  double scale = 1.0 / ((double) dst / src);
  a->offset = g_new (int, dst);
  a->coef = g_new (guint16, 2 * (gsize) dst);
  a->first = 0;
  a->end = dst;
  for (guint d = 0; d < dst; d++)
    {
      double f = scale * ((double) d + 0.5) - 0.5;
      int i = (int) floor (f);
      a->offset[d] = 0;
      a->coef[2 * d] = ONE, a->coef[2 * d + 1] = 0;
      if (i >= 0 && src > 1)
        {
          if (i < (int) src - 1)
            {
              guint16 c1 = (guint16) rint ((f - i) * ONE);
              a->offset[d] = i;
              a->coef[2 * d] = (guint16) (ONE - c1), a->coef[2 * d + 1] = c1;
            }
          else
            {
              a->offset[d] = (int) src - 1;
              a->end = MIN (a->end, d);
            }
        }
      else
        a->first = MAX (a->first, d + 1);
    }
}

static void
axis_clear (Axis *a)
{
  g_free (a->offset);
  g_free (a->coef);
}

/* One source row through the horizontal pass: 8.8 fixed point. */
static void
horizontal (const guint8 *s, guint sw, const Axis *x, guint dw, guint16 *out)
{
  for (guint d = 0; d < dw; d++)
    {
      if (d < x->first)
        out[d] = (guint16) (s[0] << FRAC_BITS);
      else if (d >= x->end)
        out[d] = (guint16) (s[sw - 1] << FRAC_BITS);
      else
        out[d] = (guint16) (x->coef[2 * d] * s[x->offset[d]] + x->coef[2 * d + 1] * s[x->offset[d] + 1]);
    }
}

/* INTER_LINEAR_EXACT at exactly half size in both directions is INTER_AREA's fast path. */
static void
halve (const guint8 *src, gsize src_stride, guint8 *dst, gsize dst_stride, guint dw, guint dh)
{
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < dh; y++)
    {
      const guint8 *a = src + (gsize) (2 * y) * src_stride, *b = a + src_stride;
      guint8 *d = dst + (gsize) y * dst_stride;
      for (guint x = 0; x < dw; x++)
        d[x] = (guint8) ((a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1] + 2) >> 2);
    }
}

void
lm_resize_linear_gray8 (const guint8 *src, gsize src_stride, guint sw, guint sh, guint8 *dst,
                        gsize dst_stride, guint dw, guint dh)
{
  if (sw == dw && sh == dh)
    {
      for (guint y = 0; y < dh; y++)
        memcpy (dst + (gsize) y * dst_stride, src + (gsize) y * src_stride, dw);
      return;
    }
  if ((double) dw / sw == 0.5 && (double) dh / sh == 0.5)
    {
      halve (src, src_stride, dst, dst_stride, dw, dh);
      return;
    }
  Axis x, y;
  axis_init (&x, sw, dw);
  axis_init (&y, sh, dh);
#pragma omp parallel
  {
    guint16 *rows = g_new (guint16, 2 * (gsize) dw);
#pragma omp for schedule(static)
    for (guint dy = 0; dy < dh; dy++)
      {
        guint8 *out = dst + (gsize) dy * dst_stride;
        if (dy < y.first || dy >= y.end)
          {
            guint sy = dy < y.first ? 0 : sh - 1;
            horizontal (src + (gsize) sy * src_stride, sw, &x, dw, rows);
            for (guint d = 0; d < dw; d++)
              out[d] = (guint8) MIN ((rows[d] + (ONE >> 1)) >> FRAC_BITS, 255);
            continue;
          }
        int sy = y.offset[dy];
        horizontal (src + (gsize) sy * src_stride, sw, &x, dw, rows);
        horizontal (src + (gsize) (sy + 1) * src_stride, sw, &x, dw, rows + dw);
        guint32 b0 = y.coef[2 * dy], b1 = y.coef[2 * dy + 1];
        for (guint d = 0; d < dw; d++)
          {
            guint32 v = (rows[d] * b0 + rows[dw + d] * b1 + (1u << (2 * FRAC_BITS - 1))) >> (2 * FRAC_BITS);
            out[d] = (guint8) MIN (v, 255u);
          }
      }
    g_free (rows);
  }
  axis_clear (&x);
  axis_clear (&y);
}
