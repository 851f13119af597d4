/* Masks: flattening, placing on a frame, and the CPU reference of their rendering (mask.h).
 * The per-pixel math is mask-math.h's, shared with kernels/mask.cu. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "mask.h"
#include "../error.h"

G_STATIC_ASSERT ((int) LM_MASK_GRAY8 == (int) LM_FORMAT_GRAY8 && (int) LM_MASK_RGBA8 == (int) LM_FORMAT_RGBA8
                 && (int) LM_MASK_RGBA_F32 == (int) LM_FORMAT_RGBA_F32
                 && (int) LM_MASK_RGBA16 == (int) LM_FORMAT_RGBA16
                 && (int) LM_MASK_GRAY16 == (int) LM_FORMAT_GRAY16);

/* Entries of the cell lists at most (1 GiB): a frame's cells times its segments' reach could
 * otherwise ask for any amount. */
#define LIST_MAX (G_GUINT64_CONSTANT (1) << 28)

/* A flat guide and ε = 0 would divide 0 by 0: detail 0 means ε of detail 0.001. */
#define EPS_MIN 1e-6f

struct _LmMaskFlat {
  LmMaskRender render;
  GArray *strokes;    /* LmMaskRenderStroke */
  GArray *segs;       /* 4 floats a segment */
  GArray *seg_stroke; /* guint32 */
  GByteArray *data;   /* what render.data points into once placed */
  float feather;      /* a fraction of the long side */
};

static gboolean
finite_in (float v, float lo, float hi)
{
  return isfinite (v) && v >= lo && v <= hi;
}

/* A position or length in source-normalised units: the photo spans [0, 1]; beyond this bound
 * a shape means nothing, and float coordinates would lose the precision that binning's
 * one-pixel margin counts on. */
#define COORD_MAX 64.0f

static gboolean
coord_ok (float v)
{
  return finite_in (v, -COORD_MAX, COORD_MAX);
}

/* LIMIT: the largest |value| of an end (scene luminance in EV: its Y must stay a float). */
static gboolean
range_ok (const LmMaskRange *r, float limit)
{
  return !r->on
         || (finite_in (r->lo0, -limit, limit) && finite_in (r->hi0, -limit, limit) && r->lo0 <= r->lo1
             && r->lo1 <= r->hi1 && r->hi1 <= r->hi0);
}

/* R with its luminance thresholds in Y rather than EV (scene light). */
static LmMaskRange
range_in_y (LmMaskRange r)
{
  r.lo0 = (float) (0.18 * exp2 (r.lo0));
  r.lo1 = (float) (0.18 * exp2 (r.lo1));
  r.hi1 = (float) (0.18 * exp2 (r.hi1));
  r.hi0 = (float) (0.18 * exp2 (r.hi0));
  return r;
}

static gboolean
add_stroke (LmMaskFlat *flat, guint shape, const LmMaskStrokeHead *head, const float *points, GError **error)
{
  if (head->n == 0 || head->n > LM_MASK_POINTS_MAX || !finite_in (head->size, 1e-9f, COORD_MAX)
      || !finite_in (head->hardness, 0, 1) || !finite_in (head->opacity, 0, 1) || head->erase > 1)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("Mask shape %u: a brush stroke has a size, hardness, opacity or point count out of range"),
                   shape + 1);
      return FALSE;
    }
  for (guint i = 0; i < 2 * head->n; i++)
    if (!coord_ok (points[i]))
      {
        g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                     _("Mask shape %u: a brush stroke has a point that is not a number or far outside the photo"),
                     shape + 1);
        return FALSE;
      }
  LmMaskRenderStroke st = { .erase = head->erase, .size = head->size, .hardness = head->hardness,
                            .opacity = head->opacity };
  guint32 index = flat->strokes->len;
  g_array_append_val (flat->strokes, st);
  /* One point is a dab: a segment of length 0. */
  guint n_segs = head->n == 1 ? 1 : head->n - 1;
  for (guint s = 0; s < n_segs; s++)
    {
      guint k = head->n == 1 ? 0 : s + 1;
      float seg[4] = { points[2 * s], points[2 * s + 1], points[2 * k], points[2 * k + 1] };
      g_array_append_vals (flat->segs, seg, 4);
      g_array_append_val (flat->seg_stroke, index);
    }
  return TRUE;
}

static gboolean
flatten_brush (LmMaskFlat *flat, guint k, uint64_t list, LmMaskStrokeFn strokes, gpointer user, GError **error)
{
  for (guint i = 0;; i++)
    {
      const LmMaskStrokeHead *head = NULL;
      const float *points = NULL;
      if (!strokes (list, i, &head, &points, user, error))
        return FALSE;
      if (head == NULL)
        return TRUE;
      if (i >= LM_MASK_STROKES_MAX)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE, _("Mask shape %u has more than %d strokes"), k + 1,
                       LM_MASK_STROKES_MAX);
          return FALSE;
        }
      if (!add_stroke (flat, k, head, points, error))
        return FALSE;
    }
}

/* The shape as the renderer reads it (LmMaskRenderShape's g). */
static gboolean
render_shape (const LmMaskShape *in, guint k, LmMaskRenderShape *out, GError **error)
{
  const float *g = in->g;
  memset (out, 0, sizeof *out);
  out->kind = in->kind, out->combine = in->combine, out->invert = in->invert != 0, out->opacity = in->opacity;
  if (in->kind >= LM_MASK_N_KINDS || in->combine >= LM_MASK_N_COMBINES || !finite_in (in->opacity, 0, 1))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("Mask shape %u has an unknown kind, combination or opacity"),
                   k + 1);
      return FALSE;
    }
  if (in->kind == LM_MASK_LINEAR)
    {
      float dx = g[2] - g[0], dy = g[3] - g[1];
      float len2 = dx * dx + dy * dy;
      if (!coord_ok (g[0]) || !coord_ok (g[1]) || !coord_ok (g[2]) || !coord_ok (g[3]) || !(len2 > 0.0f))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("Mask shape %u: a linear gradient needs two distinct points near the photo"), k + 1);
          return FALSE;
        }
      float r[8] = { g[0], g[1], dx, dy, len2 };
      memcpy (out->g, r, sizeof r);
    }
  else if (in->kind == LM_MASK_RADIAL)
    {
      if (!coord_ok (g[0]) || !coord_ok (g[1]) || !finite_in (g[2], 1e-9f, COORD_MAX)
          || !finite_in (g[3], 1e-9f, COORD_MAX) || !isfinite (g[4]) || !finite_in (g[5], 0, 1))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("Mask shape %u: a radial gradient needs a centre near the photo, radii above 0 "
                         "and a softness from 0 to 1"),
                       k + 1);
          return FALSE;
        }
      /* sinf and cosf differ between the CPU's libm and CUDA's: the host's values serve both. */
      double angle = fmod ((double) g[4], 360.0) * G_PI / 180.0;
      float r[8] = { g[0], g[1], g[2], g[3], (float) cos (angle), (float) sin (angle), 1.0f - g[5] };
      memcpy (out->g, r, sizeof r);
    }
  return TRUE;
}

LmMaskFlat *
lm_mask_flatten (const LmMask *mask, gboolean scene, LmMaskStrokeFn strokes, gpointer user, GError **error)
{
  if (mask->n_shapes > LM_MASK_SHAPES_MAX || !range_ok (&mask->luminance, scene ? 64.0f : G_MAXFLOAT)
      || !range_ok (&mask->hue, G_MAXFLOAT) || !range_ok (&mask->saturation, G_MAXFLOAT)
      || !finite_in (mask->feather, 0, 1) || !finite_in (mask->detail, 0, 1)
      || !finite_in (mask->opacity, 0, 1))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("A mask has too many shapes, or a range, feather, detail or opacity out of bounds"));
      return NULL;
    }
  g_autoptr (LmMaskFlat) flat = g_new0 (LmMaskFlat, 1);
  flat->strokes = g_array_new (FALSE, FALSE, sizeof (LmMaskRenderStroke));
  flat->segs = g_array_new (FALSE, FALSE, sizeof (float));
  flat->seg_stroke = g_array_new (FALSE, FALSE, sizeof (guint32));
  flat->data = g_byte_array_new ();
  LmMaskRender *r = &flat->render;
  r->n_shapes = mask->n_shapes;
  for (guint k = 0; k < mask->n_shapes; k++)
    {
      LmMaskRenderShape *sh = &r->shape[k];
      if (!render_shape (&mask->shape[k], k, sh, error))
        return NULL;
      sh->seg_begin = flat->seg_stroke->len;
      if (sh->kind == LM_MASK_BRUSH && !flatten_brush (flat, k, mask->shape[k].strokes, strokes, user, error))
        return NULL;
      sh->seg_end = flat->seg_stroke->len;
    }
  r->luminance = scene && mask->luminance.on ? range_in_y (mask->luminance) : mask->luminance;
  r->hue = mask->hue;
  r->saturation = mask->saturation;
  r->scene = scene != FALSE;
  r->invert = mask->invert != 0;
  r->opacity = mask->opacity;
  float eps = mask->detail * mask->detail;
  r->eps = eps > EPS_MIN ? eps : EPS_MIN;
  r->n_strokes = flat->strokes->len;
  r->n_segs = flat->seg_stroke->len;
  flat->feather = mask->feather;
  return g_steal_pointer (&flat);
}

void
lm_mask_flat_free (LmMaskFlat *flat)
{
  if (flat == NULL)
    return;
  g_array_unref (flat->strokes);
  g_array_unref (flat->segs);
  g_array_unref (flat->seg_stroke);
  g_byte_array_unref (flat->data);
  g_free (flat);
}

const LmMaskRender *
lm_mask_flat_render (const LmMaskFlat *flat)
{
  return &flat->render;
}

gsize
lm_mask_flat_data_size (const LmMaskFlat *flat)
{
  return flat->data->len;
}

LmMaskFrame
lm_mask_frame_source (guint width, guint height)
{
  double side = MAX (width, height);
  return (LmMaskFrame) { .a = (float) (1.0 / side), .c = (float) (0.5 / side), .e = (float) (1.0 / side),
                         .f = (float) (0.5 / side) };
}

LmMaskFrame
lm_mask_frame_level (const LmMaskFrame *f, double level_factor)
{
  double shift = (level_factor - 1.0) / 2.0;
  return (LmMaskFrame) { .a = (float) (f->a * level_factor), .b = (float) (f->b * level_factor),
                         .c = (float) (f->c + (double) f->a * shift + (double) f->b * shift),
                         .d = (float) (f->d * level_factor), .e = (float) (f->e * level_factor),
                         .f = (float) (f->f + (double) f->d * shift + (double) f->e * shift) };
}

guint
lm_mask_feather_reach (const LmMaskRender *render)
{
  return render->radius > 0 ? 2 * ((guint) render->radius + LM_MASK_BOX_SEGMENT - 1) : 0;
}

/* Distance from (X, Y) to the segment from (X0, Y0) to (X1, Y1). */
static double
segment_distance (double x, double y, double x0, double y0, double x1, double y1)
{
  double dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((x - x0) * dx + (y - y0) * dy) / len2 : 0;
  t = CLAMP (t, 0.0, 1.0);
  return hypot (x - x0 - t * dx, y - y0 - t * dy);
}

/* Segment INDEX (SEG: u0, v0, u1, v1) counted in COUNT, and with LIST written at START +
 * COUNT, for each cell that its capsule reaches. Pixels are found from (u, v) through the
 * frame's inverse; a brush radius in (u, v) covers at most radius / σ_min pixels. One pixel of
 * margin covers the float rounding of the pixels' (u, v) and distances, so that a segment
 * left out gives 0 at every pixel of the cell. */
typedef struct {
  double inv[4], c, f, stretch; /* the inverse of (a b; d e); 1 / its smallest singular value */
  guint cells_x, cells_y;
} Binner;

static void
bin_segment (const Binner *bn, const float *seg, double half_size, guint32 index, guint32 *count, guint32 *list,
             const guint32 *start)
{
  double p[4];
  for (int e = 0; e < 2; e++)
    {
      double u = seg[2 * e] - bn->c, v = seg[2 * e + 1] - bn->f;
      p[2 * e] = bn->inv[0] * u + bn->inv[1] * v;
      p[2 * e + 1] = bn->inv[2] * u + bn->inv[3] * v;
    }
  double reach = half_size * bn->stretch + 1.0;
  double cell = (double) (1u << LM_MASK_CELL_SHIFT), half_diagonal = cell * G_SQRT2 / 2.0;
  double lo_x = MIN (p[0], p[2]) - reach, hi_x = MAX (p[0], p[2]) + reach;
  double lo_y = MIN (p[1], p[3]) - reach, hi_y = MAX (p[1], p[3]) + reach;
  if (hi_x < 0 || hi_y < 0 || lo_x >= bn->cells_x * cell || lo_y >= bn->cells_y * cell)
    return;
  guint cx0 = (guint) MAX (lo_x / cell, 0.0), cy0 = (guint) MAX (lo_y / cell, 0.0);
  guint cx1 = (guint) MIN (hi_x / cell, bn->cells_x - 1.0), cy1 = (guint) MIN (hi_y / cell, bn->cells_y - 1.0);
  for (guint cy = cy0; cy <= cy1; cy++)
    for (guint cx = cx0; cx <= cx1; cx++)
      {
        double mx = cx * cell + (cell - 1) / 2.0, my = cy * cell + (cell - 1) / 2.0;
        if (segment_distance (mx, my, p[0], p[1], p[2], p[3]) > reach + half_diagonal)
          continue;
        guint id = cy * bn->cells_x + cx;
        if (list != NULL)
          list[start[id] + count[id]] = index;
        count[id]++;
      }
}

/* Appends N bytes of DATA to ARRAY; their offset. */
static guint32
append (GByteArray *array, const void *data, gsize n)
{
  guint32 at = array->len;
  g_byte_array_append (array, data, n);
  return at;
}

static gboolean
too_many_entries (guint full_w, guint full_h, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE,
               _("A mask's brush strokes cover too much of a %u × %u frame to be listed"), full_w, full_h);
  return FALSE;
}

gboolean
lm_mask_flat_place (LmMaskFlat *flat, const LmMaskFrame *frame, guint full_w, guint full_h, gboolean binned,
                    GError **error)
{
  LmMaskRender *r = &flat->render;
  double a = frame->a, b = frame->b, d = frame->d, e = frame->e, det = a * e - b * d;
  if (!(fabs (det) > 0) || !isfinite (det) || !isfinite (frame->c) || !isfinite (frame->f) || full_w == 0
      || full_h == 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("A mask's frame has no inverse or no pixels"));
      return FALSE;
    }
  /* σ_min² is the smaller eigenvalue of AᵀA. */
  double p = a * a + d * d, q = b * b + e * e, s = a * b + d * e;
  double mid = (p + q) / 2, spread = sqrt ((p - q) * (p - q) / 4 + s * s);
  double sigma_min = sqrt (MAX (mid - spread, 0.0));
  Binner bn = { .inv = { e / det, -b / det, -d / det, a / det }, .c = frame->c, .f = frame->f,
                .stretch = sigma_min > 0 ? 1.0 / sigma_min : G_MAXDOUBLE };
  r->frame = *frame;
  r->full_w = full_w, r->full_h = full_h;
  r->cell_shift = binned ? LM_MASK_CELL_SHIFT : 31;
  bn.cells_x = r->cells_x = binned ? (full_w + (1u << LM_MASK_CELL_SHIFT) - 1) >> LM_MASK_CELL_SHIFT : 1;
  bn.cells_y = r->cells_y = binned ? (full_h + (1u << LM_MASK_CELL_SHIFT) - 1) >> LM_MASK_CELL_SHIFT : 1;
  /* The pixel size is the frame's scale, √|det| (equal sides under Lumen's geometry). */
  double radius = flat->feather > 0 ? MAX (1.0, round (flat->feather / sqrt (fabs (det)))) : 0.0;
  r->radius = (int32_t) MIN (radius, (double) LM_MASK_RADIUS_MAX);

  gsize cells = (gsize) r->cells_x * r->cells_y;
  g_autofree guint32 *count = g_new0 (guint32, cells);
  g_autofree guint32 *start = g_new0 (guint32, cells + 1);
  const float *segs = (const float *) (void *) flat->segs->data;
  const guint32 *seg_stroke = (const guint32 *) (void *) flat->seg_stroke->data;
  const LmMaskRenderStroke *strokes = (const LmMaskRenderStroke *) (void *) flat->strokes->data;
  for (int pass = 0; pass < 2; pass++)
    {
      g_autofree guint32 *list = pass == 1 ? g_try_new (guint32, MAX (start[cells], 1)) : NULL;
      if (pass == 1 && list == NULL)
        return too_many_entries (full_w, full_h, error);
      memset (count, 0, cells * sizeof *count);
      for (guint32 i = 0; i < r->n_segs; i++)
        {
          double half = strokes[seg_stroke[i]].size / 2.0;
          if (binned)
            bin_segment (&bn, segs + 4 * (gsize) i, half, i, count, list, start);
          else
            {
              if (list != NULL)
                list[count[0]] = i;
              count[0]++;
            }
        }
      if (pass == 0)
        {
          guint64 total = 0;
          for (gsize c = 0; c < cells; c++)
            {
              total += count[c];
              if (total > LIST_MAX)
                return too_many_entries (full_w, full_h, error);
              start[c + 1] = (guint32) total;
            }
          continue;
        }
      g_byte_array_set_size (flat->data, 0);
      r->strokes_at = append (flat->data, flat->strokes->data, flat->strokes->len * sizeof (LmMaskRenderStroke));
      r->segs_at = append (flat->data, segs, flat->segs->len * sizeof (float));
      r->seg_stroke_at = append (flat->data, seg_stroke, flat->seg_stroke->len * sizeof (guint32));
      r->cell_start_at = append (flat->data, start, (cells + 1) * sizeof (guint32));
      r->cell_list_at = append (flat->data, list, start[cells] * sizeof (guint32));
    }
  r->data = flat->data->data;
  return TRUE;
}

gboolean
lm_mask_tile_origin (const LmMaskRender *render, const LmTileFrame *tile, const LmImage *image, guint *x0,
                     guint *y0)
{
  gboolean tiled = tile != NULL && lm_tile_frame_active (tile);
  *x0 = tiled ? tile->in_x : 0;
  *y0 = tiled ? tile->in_y : 0;
  return render->data != NULL && (guint64) *x0 + image->width <= render->full_w
         && (guint64) *y0 + image->height <= render->full_h;
}

gboolean
lm_mask_format_supported (LmFormat format)
{
  return format == LM_FORMAT_RGBA8 || format == LM_FORMAT_RGBA16 || format == LM_FORMAT_RGBA_F32
         || format == LM_FORMAT_GRAY8 || format == LM_FORMAT_GRAY16;
}

void
lm_mask_drawn_cpu (const LmMaskRender *render, guint x0, guint y0, LmImage *drawn)
{
  g_return_if_fail (drawn->format == LM_FORMAT_GRAY_F32);
#pragma omp parallel for schedule(dynamic, 4)
  for (guint y = 0; y < drawn->height; y++)
    {
      float *row = (float *) (void *) lm_image_row (drawn, y);
      for (guint x = 0; x < drawn->width; x++)
        row[x] = lm_mask_drawn_at (render, x0 + x, y0 + y);
    }
}

/* Box sums of every row of PLANE (W × H pixels of C floats, tightly packed) into OUT. */
static void
box_rows (const float *plane, guint w, guint h, int c, int r, guint x0, float *out)
{
  int segments = lm_mask_box_segments ((int) w, (int) x0);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < h; y++)
    for (int s = 0; s < segments; s++)
      {
        int lo, hi;
        lm_mask_box_segment_span ((int) w, (int) x0, s, &lo, &hi);
        lm_mask_box_segment (plane + (gsize) y * w * c, c, (int) w, r, lo, hi, c, out + (gsize) y * w * c, c);
      }
}

/* Box sums of every column, in lm_mask_box_segment's order for each column (a row of the
 * segment at a time, for the cache: each column's additions come in the same sequence). */
static void
box_columns (const float *plane, guint w, guint h, int c, int r, guint y0, float *out)
{
  int segments = lm_mask_box_segments ((int) h, (int) y0);
  gsize line = (gsize) w * c;
#pragma omp parallel for schedule(dynamic, 1)
  for (int s = 0; s < segments; s++)
    {
      int lo, hi;
      lm_mask_box_segment_span ((int) h, (int) y0, s, &lo, &hi);
      g_autofree float *sum = g_new0 (float, line);
      int from = MAX (lo - r, 0), to = MIN (lo + r, (int) h - 1);
      for (int y = from; y <= to; y++)
        for (gsize i = 0; i < line; i++)
          sum[i] = sum[i] + plane[y * line + i];
      memcpy (out + lo * line, sum, line * sizeof (float));
      for (int y = lo + 1; y < hi; y++)
        {
          int enter = y + r, leave = y - r - 1;
          for (gsize i = 0; i < line; i++)
            {
              if (enter < (int) h)
                sum[i] = sum[i] + plane[enter * line + i];
              if (leave >= 0)
                sum[i] = sum[i] - plane[leave * line + i];
              out[y * line + i] = sum[i];
            }
        }
    }
}

/* The guided filter of §2.5.3 on M0 (in OUT) with the input's guide, into OUT. */
static gboolean
feather_cpu (const LmMaskRender *m, guint x0, guint y0, const LmImage *input, LmImage *out, GError **error)
{
  guint w = out->width, h = out->height;
  gsize n = (gsize) w * h * 4;
  g_autofree float *g = g_try_new (float, n);
  g_autofree float *t = g_try_new (float, n);
  if (g == NULL || t == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("Not enough memory for a mask's feather"));
      return FALSE;
    }
  int r = m->radius;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < h; y++)
    {
      const float *m0 = (const float *) (const void *) lm_image_row (out, y);
      for (guint x = 0; x < w; x++)
        {
          float cr, cg, cb;
          lm_mask_read_rgb (lm_image_row (input, y), input->format, x, &cr, &cg, &cb);
          float i = lm_mask_pixel (cr, cg, cb, m->scene).guide;
          float *p = g + ((gsize) y * w + x) * 4;
          p[0] = i, p[1] = m0[x], p[2] = i * i, p[3] = i * m0[x];
        }
    }
  box_rows (g, w, h, 4, r, x0, t);
  box_columns (t, w, h, 4, r, y0, g);
  /* a and b, two floats a pixel, into T */
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        float count = lm_mask_box_count ((int) (x0 + x), r, (int) m->full_w)
                      * lm_mask_box_count ((int) (y0 + y), r, (int) m->full_h);
        const float *s = g + ((gsize) y * w + x) * 4;
        float mean[4] = { s[0] / count, s[1] / count, s[2] / count, s[3] / count };
        lm_mask_guided_ab (mean, m->eps, t + ((gsize) y * w + x) * 2, t + ((gsize) y * w + x) * 2 + 1);
      }
  box_rows (t, w, h, 2, r, x0, g);
  box_columns (g, w, h, 2, r, y0, t);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < h; y++)
    {
      float *row = (float *) (void *) lm_image_row (out, y);
      for (guint x = 0; x < w; x++)
        {
          float count = lm_mask_box_count ((int) (x0 + x), r, (int) m->full_w)
                        * lm_mask_box_count ((int) (y0 + y), r, (int) m->full_h);
          const float *s = t + ((gsize) y * w + x) * 2;
          float cr, cg, cb;
          lm_mask_read_rgb (lm_image_row (input, y), input->format, x, &cr, &cg, &cb);
          row[x] = lm_mask_guided_out (m, s[0] / count, s[1] / count, lm_mask_pixel (cr, cg, cb, m->scene).guide);
        }
    }
  return TRUE;
}

gboolean
lm_mask_final_cpu (const LmMaskRender *m, guint x0, guint y0, const LmImage *input, const LmImage *drawn,
                   LmImage *out, GError **error)
{
  g_return_val_if_fail (out->format == LM_FORMAT_GRAY_F32 && drawn->format == LM_FORMAT_GRAY_F32
                          && lm_mask_format_supported (input->format) && input->width == out->width
                          && input->height == out->height && drawn->width == out->width
                          && drawn->height == out->height,
                        FALSE);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < out->height; y++)
    {
      const float *d = (const float *) (const void *) lm_image_row (drawn, y);
      float *row = (float *) (void *) lm_image_row (out, y);
      for (guint x = 0; x < out->width; x++)
        {
          float cr, cg, cb;
          lm_mask_read_rgb (lm_image_row (input, y), input->format, x, &cr, &cg, &cb);
          LmMaskPixel p = lm_mask_pixel (cr, cg, cb, m->scene);
          float m0 = lm_mask_unfeathered (m, d[x], &p);
          row[x] = m->radius > 0 ? m0 : lm_mask_final (m, m0);
        }
    }
  return m->radius > 0 ? feather_cpu (m, x0, y0, input, out, error) : TRUE;
}

void
lm_mask_blend_cpu (const LmImage *in, const LmImage *op, const LmImage *mask, LmImage *out)
{
  g_return_if_fail (lm_image_same_shape (in, op) && lm_image_same_shape (in, out)
                    && lm_mask_format_supported (in->format) && mask->format == LM_FORMAT_GRAY_F32
                    && mask->width == in->width && mask->height == in->height);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < in->height; y++)
    {
      const float *m = (const float *) (const void *) lm_image_row (mask, y);
      for (guint x = 0; x < in->width; x++)
        lm_mask_blend_pixel (lm_image_row (in, y), lm_image_row (op, y), lm_image_row (out, y), in->format, x, m[x]);
    }
}
