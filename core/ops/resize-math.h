/* Resize (export only): parameters, the output size rule, each axis's resampling weights and
 * the weighted sums, shared by resize.c and kernels/resize.cu.
 *
 * Separable: one axis, into a float intermediate, then the other, rounded once at the end.
 * Per axis, area averaging (OpenCV INTER_AREA's weights, computeResizeAreaTab) where it
 * shrinks by 2 or more: every source pixel counts by the share of it that a destination
 * pixel covers, so nothing aliases; otherwise Lanczos-3, widened by the shrink factor
 * when shrinking (as libvips and Pillow do) so that it stays a low-pass filter.
 *
 * At the border Lanczos weighs the pixels that exist: the taps that would fall outside the
 * image are left out and the others renormalised to sum 1 (Pillow's and ImageMagick's rule).
 * Repeating the edge pixel instead (clamp-to-edge, OpenCV's BORDER_REPLICATE) would make up a
 * band of it as wide as the kernel's reach (3 source pixels, up to 6 when shrinking) and give
 * the edge row or column that much more weight than its neighbours: a frame line or any sharp
 * detail on the border would come out heavier than the same detail inside the photo.
 *
 * The weights are computed in double, each output pixel's on its own (lm_resize_axis_entry),
 * and stored as float in one table per axis (LmResizeSpan + weights): the CPU builds its
 * tables on the host, the GPU on the device with the same function. The sums then run the
 * same float operations in the same order on both. */
#pragma once

#include <math.h>

#include "param-decl.h"
#include "pixel-math.h"
#include "tile-math.h"

#define LM_RESIZE_SIDE_MAX 65535.0f
#define LM_RESIZE_LANCZOS_A 3

typedef enum { LM_RESIZE_FIT, LM_RESIZE_EXACT } LmResizeMode;

/* width, height: 0 is from the other side keeping the aspect, both 0 no change; mode: an
 * LmResizeMode. */
#define LM_RESIZE_PARAMS(P)                                                                        \
  P (FLOAT, width, N_("Width (0: from the height)"), 0, LM_RESIZE_SIDE_MAX, 0, 1, "px")            \
  P (FLOAT, height, N_("Height (0: from the width)"), 0, LM_RESIZE_SIDE_MAX, 0, 1, "px")           \
  P (ENUM, mode, N_("Mode"), 0, 1, LM_RESIZE_FIT, 1, NULL, .values = lm_resize_modes)

typedef struct {
  LM_RESIZE_PARAMS (LM_PARAM_FIELD)
  LmTileFrame tile; /* not a parameter: the tile a tiled render computes (tile-math.h) */
} LmResizeParams;

LM_INLINE unsigned
lm_resize_side (double v)
{
  double r = floor (v + 0.5);
  return r < 1.0 ? 1u : r > (double) LM_RESIZE_SIDE_MAX ? (unsigned) LM_RESIZE_SIDE_MAX : (unsigned) r;
}

/* The output size for a source of W × H. Fit: the largest size within width × height that
 * keeps the aspect ratio (the side that binds is the one given; the other is rounded). */
LM_INLINE void
lm_resize_size (const LmResizeParams *p, unsigned w, unsigned h, unsigned *ow, unsigned *oh)
{
  unsigned tw = p->width >= 0.5f ? lm_resize_side (p->width) : 0u;
  unsigned th = p->height >= 0.5f ? lm_resize_side (p->height) : 0u;
  if (tw == 0 && th == 0)
    *ow = w, *oh = h;
  else if (th == 0 || (tw != 0 && p->mode == LM_RESIZE_FIT && (uint64_t) tw * h <= (uint64_t) th * w))
    *ow = tw, *oh = lm_resize_side ((double) h * tw / w);
  else if (tw == 0 || p->mode == LM_RESIZE_FIT)
    *ow = lm_resize_side ((double) w * th / h), *oh = th;
  else
    *ow = tw, *oh = th;
  /* Fit: the rounded side never exceeds its bound. */
  if (p->mode == LM_RESIZE_FIT && tw && th)
    *ow = *ow < tw ? *ow : tw, *oh = *oh < th ? *oh : th;
}

/* Output pixel i of an axis reads COUNT source pixels from START on (all inside the axis:
 * taps beyond the edge are left out), weighted by the table's weights from OFFSET on. */
typedef struct {
  int32_t start;
  uint32_t count;
  uint32_t offset;
} LmResizeSpan;

/* Whether an axis from IN to OUT pixels averages areas (a shrink by 2 or more). */
LM_INLINE int
lm_resize_axis_area (unsigned in, unsigned out)
{
  return (double) in >= 2.0 * (double) out;
}

/* K where an axis of IN pixels shrinks to OUT = IN / K exactly, for K 2 or 4; 0 otherwise.
 * Such an axis averages whole cells of K pixels, each weighed 1 / K (computeResizeAreaTab
 * gives no partial cells there), and every product and partial sum of the reference's is
 * then a multiple of 1 / 16 below 256, exact in float whatever the order. A pixel of
 * K_x × K_y source pixels summing to S thus comes to S / n exactly (n = K_x K_y), and its
 * rounding half up to (S + n / 2) / n in integers: what the GPU computes for these shrinks
 * (kernels/resize-whole.cu), bit for bit the reference's. */
LM_INLINE unsigned
lm_resize_axis_whole_factor (unsigned in, unsigned out)
{
  return out != 0 && (in == 2 * out || in == 4 * out) ? in / out : 0u;
}

/* The most weights an axis can have: area averaging at most 2 × IN (OpenCV's bound), Lanczos
 * at most 12 a pixel (a window of radius below 6 when the factor is below 2) and one more. */
LM_INLINE size_t
lm_resize_axis_capacity (unsigned in, unsigned out)
{
  return lm_resize_axis_area (in, out) ? 2 * (size_t) in + 2 * (size_t) out
                                       : (4 * LM_RESIZE_LANCZOS_A + 1) * (size_t) out;
}

LM_INLINE double
lm_sinc (double x)
{
  if (x == 0.0)
    return 1.0;
  x *= 3.14159265358979323846;
  return sin (x) / x;
}

/* Lanczos-3: sinc (x) sinc (x / 3) inside |x| < 3. */
LM_INLINE double
lm_lanczos3 (double x)
{
  return fabs (x) < LM_RESIZE_LANCZOS_A ? lm_sinc (x) * lm_sinc (x / LM_RESIZE_LANCZOS_A) : 0.0;
}

/* The most weights one output pixel of an axis from IN to OUT pixels has: area averaging at
 * most the cells it covers whole and a part at each end, Lanczos at most 12 (a window of
 * radius below 6 when the factor is below 2) and one more. The GPU lays an axis's table out
 * with this many weights a pixel (kernels/resize.cu), so that each pixel's entry can be
 * computed on its own. */
LM_INLINE unsigned
lm_resize_axis_stride (unsigned in, unsigned out)
{
  return lm_resize_axis_area (in, out) ? (unsigned) ceil ((double) in / (double) out) + 3u
                                       : 4u * LM_RESIZE_LANCZOS_A + 1u;
}

/* Output pixel I's span of an axis of IN pixels resampled to OUT, its start counted from
 * input pixel ORIGIN (a tile's: tile-math.h), its weights written to WEIGHTS (at most
 * lm_resize_axis_stride) and its offset left for the caller. In double, on the host and on
 * the GPU alike. */
LM_INLINE LmResizeSpan
lm_resize_axis_entry (unsigned in, unsigned out, unsigned i, int origin, float *weights)
{
  LmResizeSpan span;
  uint32_t k = 0;
  span.offset = 0;
  if (lm_resize_axis_area (in, out))
    {
      /* OpenCV's computeResizeAreaTab, with its scale (1 / (out / in)) and its 1e-3 slack. */
      double scale = 1.0 / ((double) out / (double) in);
      double fsx1 = i * scale, fsx2 = fsx1 + scale;
      double cell = scale < (double) in - fsx1 ? scale : (double) in - fsx1;
      int sx1 = (int) ceil (fsx1), sx2 = (int) floor (fsx2);
      sx2 = sx2 < (int) in - 1 ? sx2 : (int) in - 1;
      sx1 = sx1 < sx2 ? sx1 : sx2;
      span.start = (sx1 - fsx1 > 1e-3 ? sx1 - 1 : sx1) - origin;
      if (sx1 - fsx1 > 1e-3)
        weights[k++] = (float) ((sx1 - fsx1) / cell);
      for (int sx = sx1; sx < sx2; sx++)
        weights[k++] = (float) (1.0 / cell);
      if (fsx2 - sx2 > 1e-3)
        {
          double part = fsx2 - sx2 < 1.0 ? fsx2 - sx2 : 1.0;
          weights[k++] = (float) ((part < cell ? part : cell) / cell);
        }
      span.count = k;
      return span;
    }

  /* Lanczos-3 about the output pixel's centre in source coordinates; when shrinking the
   * kernel is stretched by the factor. Taps strictly inside the window and inside the image,
   * normalised to sum 1 (in double, before rounding to float). What is left of the window
   * keeps at least 0.59 of its sum (every centre lies within half a pixel of the image), so
   * the renormalisation never divides by a small number. */
  double factor = (double) in / (double) out;
  double stretch = factor > 1.0 ? factor : 1.0;
  double radius = LM_RESIZE_LANCZOS_A * stretch;
  double centre = (i + 0.5) * factor - 0.5;
  int lo = (int) floor (centre - radius) + 1, last = (int) ceil (centre + radius) - 1;
  lo = lo > 0 ? lo : 0;
  last = last < (int) in - 1 ? last : (int) in - 1;
  double sum = 0.0, w[4 * LM_RESIZE_LANCZOS_A + 1];
  int n = 0;
  for (int j = lo; j <= last && n < 4 * LM_RESIZE_LANCZOS_A + 1; j++)
    sum += w[n++] = lm_lanczos3 ((j - centre) / stretch);
  span.start = lo - origin, span.count = (uint32_t) n;
  for (int t = 0; t < n; t++)
    weights[t] = (float) (w[t] / sum);
  return span;
}

/* Host side: fills SPANS (COUNT of them) and WEIGHTS (at most lm_resize_axis_capacity (IN,
 * OUT)) for output pixels FIRST..FIRST+COUNT-1 of an axis of IN pixels resampled to OUT, the
 * spans' starts counted from input pixel ORIGIN (a tile's: tile-math.h); returns the number
 * of weights. Each pixel's weights are computed on their own, so a tile's are the whole
 * table's. */
LM_INLINE size_t
lm_resize_axis_table_part (unsigned in, unsigned out, unsigned first, unsigned count, int origin, LmResizeSpan *spans,
                           float *weights)
{
  size_t k = 0;
  for (unsigned i = first; i < first + count; i++)
    {
      LmResizeSpan span = lm_resize_axis_entry (in, out, i, origin, weights + k);
      span.offset = (uint32_t) k;
      spans[i - first] = span;
      k += span.count;
    }
  return k;
}

/* Host side: the input pixels [*LO, *LO + *N) that output pixels FIRST..FIRST+COUNT-1 of an
 * axis of IN pixels resampled to OUT read, clamped as the sums clamp them: what the tiled
 * render gives a tile (core/ops/resize.c). WEIGHTS: room for one pixel's weights
 * (lm_resize_axis_stride (IN, OUT)). */
LM_INLINE void
lm_resize_axis_source (unsigned in, unsigned out, unsigned first, unsigned count, float *weights, unsigned *lo,
                       unsigned *n)
{
  int a = (int) in - 1, b = 0;
  for (unsigned i = first; i < first + count; i++)
    {
      LmResizeSpan span = lm_resize_axis_entry (in, out, i, 0, weights);
      int s0 = span.start, s1 = span.start + (int) (span.count > 1 ? span.count : 1) - 1;
      s0 = s0 < 0 ? 0 : s0 > (int) in - 1 ? (int) in - 1 : s0;
      s1 = s1 < 0 ? 0 : s1 > (int) in - 1 ? (int) in - 1 : s1;
      a = s0 < a ? s0 : a, b = s1 > b ? s1 : b;
    }
  *lo = (unsigned) a, *n = (unsigned) (b - a + 1);
}

/* The whole axis's table (lm_resize_axis_table_part). */
LM_INLINE size_t
lm_resize_axis_table (unsigned in, unsigned out, LmResizeSpan *spans, float *weights)
{
  return lm_resize_axis_table_part (in, out, 0, out, 0, spans, weights);
}

/* One axis as a resize computes it: the whole image's sides, and the output pixels (the
 * tile's, or all) with the input pixel their spans count from. */
typedef struct {
  unsigned in, out;     /* the whole axis */
  unsigned first, count; /* the output pixels computed */
  int origin;           /* where the input given starts on the whole axis */
} LmResizeAxis;

/* P's axes for an input of W × H and an output of OW × OH (the whole image's, or P's tile's). */
LM_INLINE void
lm_resize_axes (const LmResizeParams *p, unsigned w, unsigned h, unsigned ow, unsigned oh, LmResizeAxis *x,
                LmResizeAxis *y)
{
  x->in = w, x->out = ow, x->first = 0, x->count = ow, x->origin = 0;
  y->in = h, y->out = oh, y->first = 0, y->count = oh, y->origin = 0;
  if (!lm_tile_frame_active (&p->tile))
    return;
  x->in = p->tile.full_w, y->in = p->tile.full_h;
  lm_resize_size (p, x->in, y->in, &x->out, &y->out);
  x->first = p->tile.out_x, y->first = p->tile.out_y;
  x->origin = (int) p->tile.in_x, y->origin = (int) p->tile.in_y;
}

/* Which axis goes first: the one that leaves the smaller intermediate. */
LM_INLINE int
lm_resize_vertical_first (unsigned w, unsigned h, unsigned ow, unsigned oh)
{
  return (uint64_t) w * oh < (uint64_t) ow * h;
}

/* The weighted sum of one span over 8-bit samples: tap t is at BASE + index × STEP bytes,
 * C channels (1 or 4) each. Spans lie inside the axis; the clamp to 0..N-1 only keeps a
 * tile's window (N pixels) from being read past should a span ever reach beyond it. */
LM_INLINE void
lm_resize_sum_u8 (const uint8_t *base, size_t step, int n, LmResizeSpan span, const float *weights, int channels,
                  float acc[4])
{
  acc[0] = acc[1] = acc[2] = acc[3] = 0.0f;
  for (uint32_t t = 0; t < span.count; t++)
    {
      int s = span.start + (int) t;
      s = s < 0 ? 0 : s >= n ? n - 1 : s;
      const uint8_t *px = base + (size_t) s * step;
      float w = weights[span.offset + t];
      for (int c = 0; c < channels; c++)
        acc[c] = acc[c] + w * (float) px[c];
    }
}

/* The same over 16-bit samples (STEP in bytes), on the 0..255 scale (lm_u16_value). */
LM_INLINE void
lm_resize_sum_u16 (const uint8_t *base, size_t step, int n, LmResizeSpan span, const float *weights, int channels,
                   float acc[4])
{
  acc[0] = acc[1] = acc[2] = acc[3] = 0.0f;
  for (uint32_t t = 0; t < span.count; t++)
    {
      int s = span.start + (int) t;
      s = s < 0 ? 0 : s >= n ? n - 1 : s;
      const uint16_t *px = (const uint16_t *) (base + (size_t) s * step);
      float w = weights[span.offset + t];
      for (int c = 0; c < channels; c++)
        acc[c] = acc[c] + w * lm_u16_value (px[c]);
    }
}

/* The same over float samples (the intermediate): STEP in floats. */
LM_INLINE void
lm_resize_sum_f32 (const float *base, size_t step, int n, LmResizeSpan span, const float *weights, int channels,
                   float acc[4])
{
  acc[0] = acc[1] = acc[2] = acc[3] = 0.0f;
  for (uint32_t t = 0; t < span.count; t++)
    {
      int s = span.start + (int) t;
      s = s < 0 ? 0 : s >= n ? n - 1 : s;
      const float *px = base + (size_t) s * step;
      float w = weights[span.offset + t];
      for (int c = 0; c < channels; c++)
        acc[c] = acc[c] + w * px[c];
    }
}
