/* An instance's mask as plain data (docs: ISSUE-32-MASKS §2.1), read by gcc and nvcc alike:
 * drawn shapes in source-normalised coordinates (pixel / the source's long side, before
 * geometry), parametric ranges, feather and opacity. Brush strokes are not inline: a brush
 * shape names its list of strokes by a key of the blob store (core/edit/blob-store.h), so that
 * copying a pipeline (history, render requests) copies no points. */
#pragma once

#include <stdint.h>

/* LmMaskShape.kind */
enum { LM_MASK_BRUSH, LM_MASK_LINEAR, LM_MASK_RADIAL, LM_MASK_N_KINDS };
/* LmMaskShape.combine: how a shape joins the shapes before it */
enum { LM_MASK_ADD, LM_MASK_SUBTRACT, LM_MASK_INTERSECT, LM_MASK_N_COMBINES };

#define LM_MASK_SHAPES_MAX 16

typedef struct {
  uint8_t kind, combine, invert;
  float opacity;
  /* linear: x0, y0 (fully on), x1, y1 (fully off); radial: cx, cy, rx, ry, angle (degrees),
   * softness */
  float g[8];
  /* brush: the blob key of its stroke-key list (an array of uint64_t stroke keys) */
  uint64_t strokes;
} LmMaskShape;

/* A trapezoid: 1 between lo1 and hi1, linear to 0 at lo0 and hi0 (0..1 on display values,
 * EV on scene light; hue in degrees, wrapping). */
typedef struct {
  uint8_t on;
  float lo0, lo1, hi1, hi0;
} LmMaskRange;

typedef struct {
  uint32_t n_shapes;
  LmMaskShape shape[LM_MASK_SHAPES_MAX];
  LmMaskRange luminance, hue, saturation;
  float feather, detail, opacity; /* feather: a fraction of the long side; ε = detail² */
  uint8_t invert;
} LmMask;

/* A stroke blob: this head, then N (u, v) float pairs. */
typedef struct {
  uint32_t erase; /* 0 paints, 1 erases */
  float size, hardness, opacity;
  uint32_t n;
} LmMaskStrokeHead;

/* ---- Rendering (docs: ISSUE-32-MASKS §2.2–2.6, §4): the per-pixel math that the CPU
 * reference (core/ops/mask.c) and kernels/mask.cu both run. Without FMA contraction
 * (-ffp-contract=off, --fmad=false) and with only correctly rounded operations (+ − × ÷ and
 * sqrtf; no sinf, cosf or log2f, whose results the host works out once), the same floats in
 * the same order give the same bits on both: drawn and parametric masks are bit-identical,
 * and so is the feather, whose box sums add in the same order on both (lm_mask_box_segment). */

#include <math.h>

#include "pixel-math.h"

/* Where a frame's pixels lie in source-normalised coordinates (pixel / the source's long side,
 * before geometry): pixel (i, j) of the whole frame, at its centre, is at u = a·i + b·j + c,
 * v = d·i + e·j + f. Level and geometry are folded in by whoever builds it; a tile adds its
 * position to (i, j) as integers first, so that its pixels get the whole frame's (u, v). */
typedef struct {
  float a, b, c, d, e, f;
} LmMaskFrame;

/* Segments a pixel loops over are those listed for its cell of 2^LM_MASK_CELL_SHIFT pixels
 * a side: 32, where a brush stroke's few segments near a pixel are what is left to test. */
#define LM_MASK_CELL_SHIFT 5
/* Box sums slide along fixed segments of this many outputs (§4): each segment starts with a
 * direct sum, so rounding does not build up along a whole row, and a segment is one GPU
 * thread. 128 rather than 32: a segment reads its 2r + 1 first samples again, and at 50 MP
 * (r 87) a feathered mask took 7.8 ms with 32 and 6.6 ms with 128 on an H200. */
#define LM_MASK_BOX_SEGMENT 128

/* A shape as the renderer reads it: what the host could work out once is worked out.
 * linear: g = x0, y0, x1 − x0, y1 − y0, |p1 − p0|²; radial: cx, cy, rx, ry, cos, sin of the
 * angle, 1 − softness; brush: segments [seg_begin, seg_end) of the flattened mask. */
typedef struct {
  uint8_t kind, combine, invert;
  float opacity;
  float g[8];
  uint32_t seg_begin, seg_end;
} LmMaskRenderShape;

/* A stroke's constants; its segments name it by index. */
typedef struct {
  uint32_t erase;
  float size, hardness, opacity;
} LmMaskRenderStroke;

/* An LmMask flattened for one frame: read by value by the kernels (under 1 KB), its arrays in
 * one block (DATA, host or device memory, 4-byte aligned) at the byte offsets given:
 * STROKES (n_strokes LmMaskRenderStroke), SEGS (4 floats a segment: u0, v0, u1, v1),
 * SEG_STROKE (a segment's stroke), CELL_START (cells_x·cells_y + 1) and CELL_LIST (segment
 * indices, ascending within a cell). Ranges are the host's: hue in degrees, scene luminance
 * as linear Y (the EV thresholds turned into Y, so that no kernel calls log2f). */
typedef struct {
  const uint8_t *data;
  uint32_t strokes_at, segs_at, seg_stroke_at, cell_start_at, cell_list_at;
  uint32_t n_shapes, n_strokes, n_segs;
  LmMaskRenderShape shape[LM_MASK_SHAPES_MAX];
  LmMaskRange luminance, hue, saturation;
  uint32_t scene;  /* the input is scene light (RGBA_F32): luminance is Y, the guide Y/(1 + Y) */
  uint32_t invert; /* the whole mask's */
  float opacity, eps;
  int32_t radius; /* the feather's box radius in pixels of this frame; 0: no feather */
  LmMaskFrame frame;
  uint32_t full_w, full_h; /* the frame's size in pixels */
  uint32_t cell_shift, cells_x, cells_y;
} LmMaskRender;

LM_INLINE const LmMaskRenderStroke *
lm_mask_strokes (const LmMaskRender *m)
{
  return (const LmMaskRenderStroke *) (const void *) (m->data + m->strokes_at);
}
LM_INLINE const float *
lm_mask_segs (const LmMaskRender *m)
{
  return (const float *) (const void *) (m->data + m->segs_at);
}
LM_INLINE const uint32_t *
lm_mask_u32 (const LmMaskRender *m, uint32_t at)
{
  return (const uint32_t *) (const void *) (m->data + at);
}

/* 1 up to H, 0 from 1 on, a smoothstep between. 0 is tested first: with H = 1 (a hard
 * edge) T = 1 gives 0, so that a pixel at or beyond a brush's reach gets 0 and binning can
 * leave its segment out. */
LM_INLINE float
lm_mask_falloff (float t, float h)
{
  if (!(t < 1.0f))
    return 0.0f;
  if (t <= h)
    return 1.0f;
  float s = (t - h) / (1.0f - h);
  return 1.0f - s * s * (3.0f - 2.0f * s);
}

/* Distance from (U, V) to the segment S (u0, v0, u1, v1), projection clamped to its ends. */
LM_INLINE float
lm_mask_segment_distance (float u, float v, const float *s)
{
  float dx = s[2] - s[0], dy = s[3] - s[1];
  float px = u - s[0], py = v - s[1];
  float len2 = dx * dx + dy * dy;
  float t = len2 > 0.0f ? (px * dx + py * dy) / len2 : 0.0f;
  t = t > 0.0f ? t : 0.0f;
  t = t < 1.0f ? t : 1.0f;
  float ex = px - t * dx, ey = py - t * dy;
  return sqrtf (ex * ex + ey * ey);
}

LM_INLINE float
lm_mask_stroke_value (const LmMaskRenderStroke *st, float distance)
{
  return st->opacity * lm_mask_falloff ((2.0f * distance) / st->size, st->hardness);
}

/* The brush shape SH at (U, V) from the cell's LIST of N segments, starting at *AT (shapes
 * come in order, so their segments follow each other in the list). A stroke is its nearest
 * segment's value; paint keeps the larger, erase scales down. A stroke with no segment in the
 * list is 0 there, and 0 changes nothing: binned equals brute force, bit for bit. */
LM_INLINE float
lm_mask_brush (const LmMaskRender *m, const LmMaskRenderShape *sh, float u, float v, const uint32_t *list,
               uint32_t n, uint32_t *at)
{
  const LmMaskRenderStroke *strokes = lm_mask_strokes (m);
  const float *segs = lm_mask_segs (m);
  const uint32_t *seg_stroke = lm_mask_u32 (m, m->seg_stroke_at);
  uint32_t k = *at;
  while (k < n && list[k] < sh->seg_begin)
    k++;
  float value = 0.0f, nearest = 3.0e38f;
  uint32_t current = 0xffffffffu;
  for (; k < n && list[k] < sh->seg_end; k++)
    {
      uint32_t seg = list[k];
      uint32_t stroke = seg_stroke[seg];
      if (stroke != current)
        {
          if (current != 0xffffffffu)
            {
              float s = lm_mask_stroke_value (&strokes[current], nearest);
              value = strokes[current].erase ? value * (1.0f - s) : (s > value ? s : value);
            }
          current = stroke;
          nearest = 3.0e38f;
        }
      float d = lm_mask_segment_distance (u, v, segs + 4 * (size_t) seg);
      nearest = d < nearest ? d : nearest;
    }
  if (current != 0xffffffffu)
    {
      float s = lm_mask_stroke_value (&strokes[current], nearest);
      value = strokes[current].erase ? value * (1.0f - s) : (s > value ? s : value);
    }
  *at = k;
  return value;
}

/* Linear gradient: 1 on the line through p0, 0 beyond p1, a smoothstep between. */
LM_INLINE float
lm_mask_linear (const float *g, float u, float v)
{
  float t = ((u - g[0]) * g[2] + (v - g[1]) * g[3]) / g[4];
  return lm_mask_falloff (t, 0.0f);
}

/* Radial/elliptical: (u, v) − centre turned by −angle, its elliptical radius ρ; 1 inside
 * 1 − softness, 0 from the ellipse on. */
LM_INLINE float
lm_mask_radial (const float *g, float u, float v)
{
  float dx = u - g[0], dy = v - g[1];
  float x = (g[4] * dx + g[5] * dy) / g[2];
  float y = (g[4] * dy - g[5] * dx) / g[3];
  return lm_mask_falloff (sqrtf (x * x + y * y), g[6]);
}

/* The drawn mask D at pixel (I, J) of the whole frame (§2.5.1). */
LM_INLINE float
lm_mask_drawn_at (const LmMaskRender *m, uint32_t i, uint32_t j)
{
  if (m->n_shapes == 0)
    return 1.0f;
  float fi = (float) i, fj = (float) j;
  float u = (m->frame.a * fi + m->frame.b * fj) + m->frame.c;
  float v = (m->frame.d * fi + m->frame.e * fj) + m->frame.f;
  uint32_t cell = (j >> m->cell_shift) * m->cells_x + (i >> m->cell_shift);
  const uint32_t *start = lm_mask_u32 (m, m->cell_start_at);
  const uint32_t *list = lm_mask_u32 (m, m->cell_list_at) + start[cell];
  uint32_t n = start[cell + 1] - start[cell], at = 0;
  float drawn = m->shape[0].combine == LM_MASK_ADD ? 0.0f : 1.0f;
  for (uint32_t k = 0; k < m->n_shapes; k++)
    {
      const LmMaskRenderShape *sh = &m->shape[k];
      float s = sh->kind == LM_MASK_BRUSH    ? lm_mask_brush (m, sh, u, v, list, n, &at)
                : sh->kind == LM_MASK_LINEAR ? lm_mask_linear (sh->g, u, v)
                                             : lm_mask_radial (sh->g, u, v);
      s = sh->opacity * (sh->invert ? 1.0f - s : s);
      if (sh->combine == LM_MASK_SUBTRACT)
        drawn = drawn * (1.0f - s);
      else if (sh->combine == LM_MASK_INTERSECT)
        drawn = drawn * s;
      else
        drawn = s > drawn ? s : drawn;
    }
  return drawn;
}

/* A trapezoid range at X: 1 in [lo1, hi1], linear to 0 at lo0 and hi0. */
LM_INLINE float
lm_mask_trapezoid (const LmMaskRange *r, float x)
{
  if (x < r->lo0 || x > r->hi0)
    return 0.0f;
  float t = 1.0f;
  if (x < r->lo1)
    t = (x - r->lo0) / (r->lo1 - r->lo0);
  else if (x > r->hi1)
    t = (r->hi0 - x) / (r->hi0 - r->hi1);
  /* Within [0, 1] and a number where huge ranges overflow (∞/∞). */
  t = t > 0.0f ? t : 0.0f;
  return t < 1.0f ? t : 1.0f;
}

/* The hue range wraps at 360°: a range from 340° to 20° is written 340, 350, 370, 380 (or
 * −20, −10, 10, 20) and meets the hue on whichever turn it falls. */
LM_INLINE float
lm_mask_hue_range (const LmMaskRange *r, float hue)
{
  float a = lm_mask_trapezoid (r, hue), b = lm_mask_trapezoid (r, hue + 360.0f),
        c = lm_mask_trapezoid (r, hue - 360.0f);
  a = b > a ? b : a;
  return c > a ? c : a;
}

/* What the ranges and the guide read of a pixel: R, G, B on the 0..255 scale (display) or
 * scene light. */
typedef struct {
  float luminance; /* display: Rec. 709 luma / 255; scene: Y */
  float guide;     /* display: as luminance; scene: Y / (1 + Y), bounded as display values are */
  float hue;       /* degrees, [0, 360); 0 for grays */
  float saturation;
} LmMaskPixel;

LM_INLINE LmMaskPixel
lm_mask_pixel (float r, float g, float b, uint32_t scene)
{
  LmMaskPixel p;
  float y = lm_weighted_sum (r, g, b, LM_BT709_R, LM_BT709_G, LM_BT709_B);
  if (scene)
    {
      /* NaN to 0 and ∞ to a finite bound, so that the guide stays a number (Y/(1 + Y) → 1). */
      y = y > 0.0f ? y : 0.0f;
      y = y < 1.0e30f ? y : 1.0e30f;
      p.luminance = y;
      p.guide = y / (1.0f + y);
    }
  else
    p.luminance = p.guide = y / 255.0f;
  float hi = r > g ? r : g, lo = r < g ? r : g;
  hi = b > hi ? b : hi;
  lo = b < lo ? b : lo;
  float delta = hi - lo;
  p.saturation = hi > 0.0f ? delta / hi : 0.0f;
  float h = 0.0f;
  if (delta > 0.0f)
    {
      if (hi == r)
        h = 60.0f * ((g - b) / delta);
      else if (hi == g)
        h = 60.0f * ((b - r) / delta + 2.0f);
      else
        h = 60.0f * ((r - g) / delta + 4.0f);
      h = h < 0.0f ? h + 360.0f : h;
    }
  p.hue = h;
  return p;
}

/* The product of the ranges that are on (§2.4); 1 when none is. */
LM_INLINE float
lm_mask_ranges (const LmMaskRender *m, const LmMaskPixel *p)
{
  float value = 1.0f;
  if (m->luminance.on)
    value = value * lm_mask_trapezoid (&m->luminance, p->luminance);
  if (m->hue.on)
    value = value * lm_mask_hue_range (&m->hue, p->hue);
  if (m->saturation.on)
    value = value * lm_mask_trapezoid (&m->saturation, p->saturation);
  return value;
}

/* M0 of §2.5.2: drawn × ranges, inverted when asked. */
LM_INLINE float
lm_mask_unfeathered (const LmMaskRender *m, float drawn, const LmMaskPixel *p)
{
  float value = drawn * lm_mask_ranges (m, p);
  return m->invert ? 1.0f - value : value;
}

/* The last step of §2.5 without a feather: the opacity. */
LM_INLINE float
lm_mask_final (const LmMaskRender *m, float unfeathered)
{
  return m->opacity * unfeathered;
}

/* Box sums of one segment (§4): outputs X in [X0, X1) of a line of N samples, sample x's
 * C channels at IN[x·STEP + k]; each output sums the samples of [x − R, x + R] that lie in
 * [0, N). The first output sums its window directly in index order, the others slide (add the
 * sample entering, then take away the one leaving), in the same order on both backends. */
LM_INLINE void
lm_mask_box_segment (const float *in, long step, int n, int r, int x0, int x1, int c, float *out, long out_step)
{
  float sum[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
  int from = x0 - r > 0 ? x0 - r : 0, to = x0 + r < n - 1 ? x0 + r : n - 1;
  for (int x = from; x <= to; x++)
    for (int k = 0; k < c; k++)
      sum[k] = sum[k] + in[(long) x * step + k];
  for (int k = 0; k < c; k++)
    out[(long) x0 * out_step + k] = sum[k];
  for (int x = x0 + 1; x < x1; x++)
    {
      int enter = x + r, leave = x - r - 1;
      for (int k = 0; k < c; k++)
        {
          if (enter < n)
            sum[k] = sum[k] + in[(long) enter * step + k];
          if (leave >= 0)
            sum[k] = sum[k] - in[(long) leave * step + k];
          out[(long) x * out_step + k] = sum[k];
        }
    }
}

/* The segments of a line of N samples whose first lies at ORIGIN of the whole frame's line:
 * segment s covers [lo, hi) of the line's samples, aligned on the whole frame's multiples of
 * LM_MASK_BOX_SEGMENT so that a tile sums its kept pixels as the whole frame does. */
LM_INLINE int
lm_mask_box_segments (int n, int origin)
{
  int first = origin / LM_MASK_BOX_SEGMENT, last = (origin + n - 1) / LM_MASK_BOX_SEGMENT;
  return n > 0 ? last - first + 1 : 0;
}
LM_INLINE void
lm_mask_box_segment_span (int n, int origin, int s, int *lo, int *hi)
{
  int start = (origin / LM_MASK_BOX_SEGMENT + s) * LM_MASK_BOX_SEGMENT - origin;
  *lo = start > 0 ? start : 0;
  *hi = start + LM_MASK_BOX_SEGMENT < n ? start + LM_MASK_BOX_SEGMENT : n;
}

/* Samples of the whole frame's line of FULL samples in the window of R around X (whole-frame
 * index): the count a box sum is divided by at borders. */
LM_INLINE float
lm_mask_box_count (int x, int r, int full)
{
  int lo = x - r > 0 ? x - r : 0, hi = x + r < full - 1 ? x + r : full - 1;
  return (float) (hi - lo + 1);
}

/* The guided filter's first step at one pixel (He, Sun, Tang): from the box means of I, M0,
 * I² and I·M0, the linear model's a and b. */
LM_INLINE void
lm_mask_guided_ab (const float *mean, float eps, float *a, float *b)
{
  float var = mean[2] - mean[0] * mean[0];
  var = var > 0.0f ? var : 0.0f;
  float cov = mean[3] - mean[0] * mean[1];
  *a = cov / (var + eps);
  *b = mean[1] - *a * mean[0];
}

/* The filter's output from the box means of a and b at a pixel of guide I, within [0, 1],
 * then the mask's opacity. */
LM_INLINE float
lm_mask_guided_out (const LmMaskRender *m, float mean_a, float mean_b, float guide)
{
  float v = mean_a * guide + mean_b;
  v = v > 0.0f ? v : 0.0f;
  v = v < 1.0f ? v : 1.0f;
  return lm_mask_final (m, v);
}

/* §2.6: a channel of the instance's input IN moved towards the operation's result OP by the
 * mask's M; M = 0 gives IN exactly. */
LM_INLINE float
lm_mask_blend (float in, float op, float m)
{
  return m > 0.0f ? in + m * (op - in) : in;
}

/* Image formats as core/image.h numbers them (LmFormat; kernels.h's LM_K_*): the formats a
 * masked instance's input and output come in. */
enum { LM_MASK_GRAY8 = 0, LM_MASK_RGBA8 = 1, LM_MASK_RGBA_F32 = 2, LM_MASK_RGBA16 = 4, LM_MASK_GRAY16 = 5 };

/* Pixel X of ROW as R, G, B: on the 0..255 scale for 8 and 16 bits, as stored for floats. */
LM_INLINE void
lm_mask_read_rgb (const uint8_t *row, int format, uint32_t x, float *r, float *g, float *b)
{
  switch (format)
    {
    case LM_MASK_RGBA8:
      {
        uint32_t p = ((const uint32_t *) (const void *) row)[x];
        *r = lm_px_channel (p, 0), *g = lm_px_channel (p, 1), *b = lm_px_channel (p, 2);
        return;
      }
    case LM_MASK_RGBA16:
      {
        uint64_t p = ((const uint64_t *) (const void *) row)[x];
        *r = lm_px16_channel (p, 0), *g = lm_px16_channel (p, 1), *b = lm_px16_channel (p, 2);
        return;
      }
    case LM_MASK_RGBA_F32:
      {
        const float *p = (const float *) (const void *) row + 4 * (size_t) x;
        *r = p[0], *g = p[1], *b = p[2];
        return;
      }
    case LM_MASK_GRAY16:
      *r = *g = *b = lm_u16_value (((const uint16_t *) (const void *) row)[x]);
      return;
    default:
      *r = *g = *b = (float) (int) row[x];
      return;
    }
}

/* Pixel X of OUT_ROW: IN_ROW's moved towards OP_ROW's by M (lm_mask_blend), each channel,
 * then the one rounding of the format. Alpha too: an operation that changes it (a blur of a
 * transparent edge) gives under a full mask what it gives unmasked; the others keep IN's. */
LM_INLINE void
lm_mask_blend_pixel (const uint8_t *in_row, const uint8_t *op_row, uint8_t *out_row, int format, uint32_t x,
                     float m)
{
  switch (format)
    {
    case LM_MASK_RGBA8:
      {
        uint32_t a = ((const uint32_t *) (const void *) in_row)[x];
        uint32_t o = ((const uint32_t *) (const void *) op_row)[x];
        ((uint32_t *) (void *) out_row)[x]
          = lm_px_pack (lm_quantize_u8 (lm_mask_blend (lm_px_channel (a, 0), lm_px_channel (o, 0), m)),
                        lm_quantize_u8 (lm_mask_blend (lm_px_channel (a, 1), lm_px_channel (o, 1), m)),
                        lm_quantize_u8 (lm_mask_blend (lm_px_channel (a, 2), lm_px_channel (o, 2), m)),
                        (uint32_t) lm_quantize_u8 (lm_mask_blend (lm_px_channel (a, 3), lm_px_channel (o, 3), m))
                          << 24);
        return;
      }
    case LM_MASK_RGBA16:
      {
        uint64_t a = ((const uint64_t *) (const void *) in_row)[x];
        uint64_t o = ((const uint64_t *) (const void *) op_row)[x];
        ((uint64_t *) (void *) out_row)[x]
          = lm_px16_pack (lm_quantize_u16 (lm_mask_blend (lm_px16_channel (a, 0), lm_px16_channel (o, 0), m)),
                          lm_quantize_u16 (lm_mask_blend (lm_px16_channel (a, 1), lm_px16_channel (o, 1), m)),
                          lm_quantize_u16 (lm_mask_blend (lm_px16_channel (a, 2), lm_px16_channel (o, 2), m)),
                          (uint64_t) lm_quantize_u16 (lm_mask_blend (lm_px16_channel (a, 3), lm_px16_channel (o, 3), m))
                            << 48);
        return;
      }
    case LM_MASK_RGBA_F32:
      {
        const float *a = (const float *) (const void *) in_row + 4 * (size_t) x;
        const float *o = (const float *) (const void *) op_row + 4 * (size_t) x;
        float *d = (float *) (void *) out_row + 4 * (size_t) x;
        float r = lm_mask_blend (a[0], o[0], m), g = lm_mask_blend (a[1], o[1], m), b = lm_mask_blend (a[2], o[2], m);
        float alpha = lm_mask_blend (a[3], o[3], m);
        d[0] = r, d[1] = g, d[2] = b, d[3] = alpha;
        return;
      }
    case LM_MASK_GRAY16:
      {
        uint16_t a = ((const uint16_t *) (const void *) in_row)[x];
        uint16_t o = ((const uint16_t *) (const void *) op_row)[x];
        ((uint16_t *) (void *) out_row)[x] = lm_quantize_u16 (lm_mask_blend (lm_u16_value (a), lm_u16_value (o), m));
        return;
      }
    default:
      out_row[x] = lm_quantize_u8 (lm_mask_blend ((float) (int) in_row[x], (float) (int) op_row[x], m));
      return;
    }
}
