/* Median threshold bitmap alignment (Ward 2003), as OpenCV's AlignMTB does it: the same
 * luma, the same decimating pyramid (every other pixel, no filter), the same median and
 * exclusion bitmaps, the same nine candidates per level tried in the same order (the
 * first minimum wins), and the same cut. The shifts are then OpenCV's, exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "align-math.h"
#include "align.h"

/* Shifts up to ±2^16 cover the largest image we accept. */
#define MAX_BITS 16

/* One pyramid level's bitmaps (align-math.h: bit 0 threshold, bit 1 exclusion). */
typedef struct {
  guint w, h;
  guint8 *bits;
} Level;

static gpointer
try_alloc (gsize n, gsize size, GError **error)
{
  gpointer p = g_try_malloc_n (MAX (n, 1), size);
  if (p == NULL)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                 _("not enough memory for the alignment (%llu MB)"), (unsigned long long) (n * size >> 20));
  return p;
}

static void
free_levels (Level *levels, int count)
{
  for (int l = 0; l < count; l++)
    g_clear_pointer (&levels[l].bits, g_free);
}

/* The exposure's 8-bit luma, tightly packed. */
static guint8 *
luma (const LmImage *image, GError **error)
{
  guint w = image->width, h = image->height;
  guint8 *gray = try_alloc ((gsize) w * h, 1, error);
  if (gray == NULL)
    return NULL;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < h; y++)
    {
      const guint8 *row = lm_image_row (image, y);
      guint8 *g = gray + (gsize) y * w;
      if (image->format == LM_FORMAT_GRAY8)
        memcpy (g, row, w);
      else
        for (guint x = 0; x < w; x++)
          g[x] = lm_mtb_gray (row[4 * x], row[4 * x + 1], row[4 * x + 2]);
    }
  return gray;
}

/* Level L of OpenCV's pyramid keeps pixel (x·2^L, y·2^L) of the full image and is
 * (w >> L) × (h >> L): each level halves the last, rounding down. */
static gboolean
build_level (const guint8 *gray, guint w, guint h, int l, int range, Level *level, GError **error)
{
  level->w = w >> l;
  level->h = h >> l;
  gsize n = (gsize) level->w * level->h;
  level->bits = try_alloc (n, 1, error);
  if (level->bits == NULL)
    return FALSE;

  guint64 hist[256] = { 0 };
#pragma omp parallel
  {
    guint64 local[256] = { 0 };
#pragma omp for schedule(static)
    for (guint y = 0; y < level->h; y++)
      {
        const guint8 *row = gray + ((gsize) y << l) * w;
        for (guint x = 0; x < level->w; x++)
          local[row[(gsize) x << l]]++;
      }
#pragma omp critical
    for (int i = 0; i < 256; i++)
      hist[i] += local[i];
  }
  int median = lm_mtb_median (hist, n);

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < level->h; y++)
    {
      const guint8 *row = gray + ((gsize) y << l) * w;
      guint8 *bits = level->bits + (gsize) y * level->w;
      for (guint x = 0; x < level->w; x++)
        bits[x] = lm_mtb_bits (row[(gsize) x << l], median, range);
    }
  return TRUE;
}

static gboolean
build_levels (const LmImage *image, int maxlevel, int range, Level *levels, GError **error)
{
  g_autofree guint8 *gray = luma (image, error);
  if (gray == NULL)
    return FALSE;
  for (int l = 0; l <= maxlevel; l++)
    if (!build_level (gray, image->width, image->height, l, range, &levels[l], error))
      return FALSE;
  return TRUE;
}

/* Pixels where BASE and OTHER moved by (SX, SY) disagree, neither excluded. OpenCV fills
 * what the shift uncovers with zeros, which are excluded: only the overlap counts. FALSE
 * when there is no overlap (OpenCV cannot shift that far; such a candidate is skipped). */
static gboolean
mismatch (const Level *base, const Level *other, int sx, int sy, guint64 *count)
{
  int x0 = MAX (sx, 0), x1 = (int) base->w + MIN (sx, 0);
  int y0 = MAX (sy, 0), y1 = (int) base->h + MIN (sy, 0);
  if (x0 >= x1 || y0 >= y1)
    return FALSE;
  guint64 err = 0;
#pragma omp parallel for schedule(static) reduction(+ : err)
  for (int y = y0; y < y1; y++)
    {
      const guint8 *a = base->bits + (gsize) y * base->w;
      const guint8 *b = other->bits + (gsize) (y - sy) * other->w - sx;
      guint32 row = 0;
      for (int x = x0; x < x1; x++)
        row += lm_mtb_mismatch (a[x], b[x]);
      err += row;
    }
  *count = err;
  return TRUE;
}

/* Coarse to fine: at each level the shift found so far doubles, then the best of the nine
 * neighbours (x outer, y inner, strictly smaller error to move) becomes the shift. */
static LmShift
find_shift (const Level *base, const Level *other, int maxlevel)
{
  LmShift shift = { 0, 0 };
  for (int l = maxlevel; l >= 0; l--)
    {
      shift.x *= 2, shift.y *= 2;
      guint64 best = (guint64) base[l].w * base[l].h;
      LmShift next = shift;
      for (int i = -1; i <= 1; i++)
        for (int j = -1; j <= 1; j++)
          {
            guint64 err;
            if (mismatch (&base[l], &other[l], shift.x + i, shift.y + j, &err) && err < best)
              {
                best = err;
                next = (LmShift) { shift.x + i, shift.y + j };
              }
          }
      shift = next;
    }
  return shift;
}

static gboolean
check_params (const LmAlignParams *params, GError **error)
{
  if (params->max_bits < 0 || params->max_bits > MAX_BITS || params->exclude_range < 0
      || params->exclude_range > 255)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("alignment: max bits %d and exclusion range %d are outside 0..%d and 0..255"),
                   params->max_bits, params->exclude_range, MAX_BITS);
      return FALSE;
    }
  return TRUE;
}

gboolean
lm_hdr_align_mtb_cpu (const LmAlignParams *params, const LmHdrStack *stack, LmShift *shifts, GError **error)
{
  if (!check_params (params, error))
    return FALSE;
  const LmImage *first = stack->images[0];
  int maxlevel = lm_mtb_max_level (first->width, first->height, params->max_bits);

  guint pivot = stack->n / 2;
  Level base[MAX_BITS] = { 0 }, other[MAX_BITS] = { 0 };
  gboolean ok = build_levels (stack->images[pivot], maxlevel, params->exclude_range, base, error);
  for (guint i = 0; i < stack->n && ok; i++)
    {
      shifts[i] = (LmShift) { 0, 0 };
      if (i == pivot)
        continue;
      ok = build_levels (stack->images[i], maxlevel, params->exclude_range, other, error);
      if (ok)
        shifts[i] = find_shift (base, other, maxlevel);
      free_levels (other, maxlevel + 1);
    }
  free_levels (base, maxlevel + 1);
  return ok;
}

/* OUT from SRC moved by (DX, DY): what the move uncovers is opaque black (OpenCV's
 * zeros, with Lumen's alpha). */
static void
shifted_copy (const LmImage *src, LmImage *out, int dx, int dy)
{
  gsize bpp = lm_format_bytes_per_pixel (src->format);
  int x0 = CLAMP (dx, 0, (int) out->width), x1 = CLAMP ((int) src->width + dx, x0, (int) out->width);
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < out->height; y++)
    {
      guint8 *o = lm_image_row (out, y);
      int ys = (int) y - dy;
      int a = x0, b = ys >= 0 && ys < (int) src->height ? x1 : x0;
      memset (o, 0, bpp * out->width);
      if (b > a)
        memcpy (o + bpp * a, lm_image_row (src, ys) + bpp * (a - dx), bpp * (b - a));
      if (bpp == 4)
        for (int x = 0; x < (int) out->width; x++)
          if (x < a || x >= b)
            o[4 * x + 3] = 255;
      if (src->format == LM_FORMAT_RGBA16)
        for (int x = 0; x < (int) out->width; x++)
          if (x < a || x >= b)
            ((guint16 *) o)[4 * x + 3] = 65535;
    }
}

gboolean
lm_hdr_stack_apply_shifts (const LmAlignParams *params, LmHdrStack *stack, const LmShift *shifts,
                           GError **error)
{
  guint w = stack->images[0]->width, h = stack->images[0]->height;
  /* With the cut, OpenCV keeps the rectangle that every shifted image covers. */
  LmShift lo = { 0, 0 }, hi = { 0, 0 };
  for (guint i = 0; i < stack->n; i++)
    {
      if (abs (shifts[i].x) >= (int) w || abs (shifts[i].y) >= (int) h)
        {
          g_autofree char *display = g_filename_display_name (stack->paths[i]);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("%s: a shift of (%d, %d) pixels leaves nothing of it in a %u×%u frame"), display,
                       shifts[i].x, shifts[i].y, w, h);
          return FALSE;
        }
      if (params->cut)
        {
          lo.x = MIN (lo.x, shifts[i].x), lo.y = MIN (lo.y, shifts[i].y);
          hi.x = MAX (hi.x, shifts[i].x), hi.y = MAX (hi.y, shifts[i].y);
        }
    }
  int ow = (int) w - (hi.x - lo.x), oh = (int) h - (hi.y - lo.y);
  if (ow <= 0 || oh <= 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("the exposures are shifted so far apart that no area is common to all of them"));
      return FALSE;
    }

  /* Every copy first, so that a failure leaves the stack as it was. */
  g_autofree LmImage **moved = g_new0 (LmImage *, stack->n);
  gboolean ok = TRUE;
  for (guint i = 0; i < stack->n && ok; i++)
    {
      const LmImage *src = stack->images[i];
      moved[i] = lm_image_new (src->format, ow, oh, src->allocator, error);
      ok = moved[i] != NULL;
      if (ok)
        {
          shifted_copy (src, moved[i], shifts[i].x - hi.x, shifts[i].y - hi.y);
          lm_image_copy_metadata (moved[i], src);
          moved[i]->opaque = src->opaque;
          moved[i]->source_bit_depth = src->source_bit_depth;
        }
    }
  for (guint i = 0; i < stack->n; i++)
    {
      if (ok)
        {
          lm_image_unref (stack->images[i]);
          stack->images[i] = moved[i];
        }
      else if (moved[i])
        lm_image_unref (moved[i]);
    }
  return ok;
}
